"""Match results: reports, confirmations, judges' entries and corrections."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from config.dbtime import db_now
from config.errors import VersionConflict
from tournaments import selectors
from tournaments.audit import audit
from tournaments.match_rules import (
    MAX_GAMES,
    ResultError,
    decide_match,
)
from tournaments.models import (
    GameResult,
    Match,
    Penalty,
    PodSeat,
    ResultSubmission,
    Round,
    Tournament,
)
from tournaments.permissions import (
    can_judge,
)
from tournaments.services.guards import locked_match, own_registration, require_dispute_note
from tournaments.services.ratings import record_match_rating
from tournaments.services.topcut import keep_final_places


def penalty_game_wins(match: Match) -> list[str]:
    """Game wins awarded by game-loss penalties in this match ("a": A was awarded one)."""
    awarded = []
    for penalty in match.penalties.filter(kind=Penalty.Kind.GAME_LOSS).order_by("created_at"):
        awarded.append("b" if penalty.registration_id == match.player_a_id else "a")
    return awarded


def decide_with_penalties(match: Match, **result):
    try:
        return decide_match(
            penalty_games=penalty_game_wins(match),
            draws_allowed=match.round.stage == Round.Stage.SWISS,
            games_to_win=match.round.tournament.games_to_win,
            **result,
        )
    except ResultError as exc:
        raise ValidationError({"games": [str(exc)]}) from None


def _next_version(match) -> int:
    return (match.submissions.aggregate(n=Max("number"))["n"] or 0) + 1


def _check_round_open_for_results(match: Match, *, correction_allowed: bool):
    status = match.round.status
    if status == Round.Status.DRAFT:
        raise ValidationError(_("Results cannot be entered before the pairings are published."))
    if status == Round.Status.CLOSED and not correction_allowed:
        raise ValidationError(_("This round is closed; ask a judge to correct the result."))


def record_confirmed_result(
    match,
    *,
    games,
    source,
    by,
    note="",
    submitted_for=None,
    intentional_draw=False,
    conceded_by="",
    match_loss_a=False,
    match_loss_b=False,
    existing: ResultSubmission | None = None,
    game_numbers: list[int] | None = None,
) -> ResultSubmission:
    """Make one version the confirmed result. The caller holds the match row lock; the
    partial unique index catches anyone who does not."""
    numbers = _game_numbers(games, game_numbers)
    outcome = decide_with_penalties(
        match,
        games=games,
        intentional_draw=intentional_draw,
        conceded_by=conceded_by,
        match_loss_a=match_loss_a,
        match_loss_b=match_loss_b,
    )
    before = _result_dict(match) if match.status == Match.Status.CONFIRMED else None
    now = db_now()
    match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).update(
        status=ResultSubmission.Status.SUPERSEDED
    )
    match.submissions.filter(status=ResultSubmission.Status.PENDING).exclude(
        pk=getattr(existing, "pk", None)
    ).update(status=ResultSubmission.Status.SUPERSEDED)
    if existing is None:
        existing = ResultSubmission(
            match=match,
            number=_next_version(match),
            source=source,
            submitted_by=by,
            submitted_for=submitted_for,
            games=games,
            intentional_draw=intentional_draw,
            conceded_by=conceded_by,
            match_loss_a=match_loss_a,
            match_loss_b=match_loss_b,
            note=note,
        )
    existing.status = ResultSubmission.Status.CONFIRMED
    existing.confirmed_by = by
    existing.confirmed_at = now
    existing.save()
    match.games_a, match.games_b, match.games_drawn = (
        outcome.games_a,
        outcome.games_b,
        outcome.games_drawn,
    )
    match.match_loss_a, match.match_loss_b = outcome.match_loss_a, outcome.match_loss_b
    match.winner_id = {"a": match.player_a_id, "b": match.player_b_id}.get(outcome.winner)
    match.status = Match.Status.CONFIRMED
    match.version += 1
    match.save()
    _record_games(match, games, numbers)
    record_match_rating(match, games_played=len(games), intentional_draw=intentional_draw)
    if before and match.round.tournament.status == Tournament.Status.FINISHED:
        keep_final_places(match.round.tournament)  # a correction after the end
    refresh_round_status(match.round)
    audit(
        match.round.tournament,
        by,
        "result.corrected" if before else "result.confirmed",
        match,
        before=before,
        after=_result_dict(match),
        reason=note,
    )
    return existing


def _result_dict(match) -> dict:
    return {
        "games_a": match.games_a,
        "games_b": match.games_b,
        "games_drawn": match.games_drawn,
        "winner": match.winner_id,
        "match_loss_a": match.match_loss_a,
        "match_loss_b": match.match_loss_b,
    }


def _game_numbers(games: list[str], numbers: list[int] | None) -> list[int]:
    """The number each game was played as: as given (strictly increasing, up to the last
    game a match can have), else 1, 2, 3..."""
    if numbers is None:
        return list(range(1, len(games) + 1))
    numbers = list(numbers)
    if (
        len(numbers) != len(games)
        or numbers != sorted(set(numbers))
        or any(not 1 <= number <= MAX_GAMES for number in numbers)
    ):
        raise ValidationError(
            {
                "games": [
                    _("Game numbers %(numbers)s do not fit the %(value1)s games played.")
                    % {"numbers": numbers, "value1": len(games)}
                ]
            }
        )
    return numbers


def _record_games(match: Match, games: list[str], numbers: list[int]) -> None:
    """One GameResult a game played, under the number it was played as, with the playing
    sets in force for that game (every swap made before it)."""
    match.games.all().delete()
    rows = []
    for number, outcome in zip(numbers, games, strict=True):
        rows.append(
            GameResult(
                match=match,
                number=number,
                outcome=outcome,
                playing_set_a=selectors.playing_set_for_game(match.player_a, match, number),
                playing_set_b=selectors.playing_set_for_game(match.player_b, match, number)
                if match.player_b_id
                else [],
            )
        )
    GameResult.objects.bulk_create(rows)


def result_fields(games, intentional_draw, conceded_by) -> dict:
    return {
        "games": list(games or []),
        "intentional_draw": bool(intentional_draw),
        "conceded_by": conceded_by or "",
    }


@transaction.atomic
def report_result(
    *,
    match: Match,
    by,
    games: list[str],
    intentional_draw: bool = False,
    conceded_by: str = "",
    note: str = "",
    expected_version: int | None = None,
) -> ResultSubmission:
    """A player reports; the opponent confirms. A judge's entry is confirmed at once
    (and corrects an earlier confirmed result, logged).

    ``expected_version``: the match version (``Match.version``) the caller saw. The
    first entry of a match without any result may leave it out; every later entry (a
    correction, a judge's decision over players' reports, a second report) must give
    it, and it must still be current: otherwise nothing is written and VersionConflict
    (409 in the API) names the current version.
    """
    match = locked_match(match)
    tournament = match.round.tournament
    if match.is_bye:
        raise ValidationError(_("A bye has its result already."))
    fields = result_fields(games, intentional_draw, conceded_by)
    if can_judge(by, tournament):
        _check_round_open_for_results(match, correction_allowed=True)
        _check_expected_version(match, expected_version)
        return record_confirmed_result(
            match, source=ResultSubmission.Source.JUDGE, by=by, note=note, **fields
        )
    registration = own_registration(match, by)
    _check_round_open_for_results(match, correction_allowed=False)
    if match.status == Match.Status.CONFIRMED:
        raise ValidationError(_("This result is already confirmed; ask a judge to correct it."))
    _check_expected_version(match, expected_version)
    decide_with_penalties(match, **fields)  # validate before writing anything
    pending = (
        match.submissions.filter(status=ResultSubmission.Status.PENDING).order_by("-number").first()
    )
    if pending and pending.submitted_for_id != registration.pk:
        if _same_result(pending, fields):
            return record_confirmed_result(
                match, source=ResultSubmission.Source.PLAYER, by=by, existing=pending, **fields
            )
        submission = _player_report(match, by, registration, note, fields)
        _set_match_status(match, Match.Status.DISPUTED)
        audit(
            tournament,
            by,
            "result.disputed",
            match,
            after={"reported": fields, "other_version": pending.number},
        )
        return submission
    match.submissions.filter(
        status=ResultSubmission.Status.PENDING, submitted_for=registration
    ).update(status=ResultSubmission.Status.SUPERSEDED)
    submission = _player_report(match, by, registration, note, fields)
    _set_match_status(match, Match.Status.REPORTED)
    audit(tournament, by, "result.reported", match, after=fields)
    return submission


def _check_expected_version(match: Match, expected_version: int | None) -> None:
    """A write that replaces an earlier version names the version it replaces."""
    if expected_version is None:
        if match.status != Match.Status.PENDING or match.submissions.exists():
            raise VersionConflict(
                "This match already has a result; give expected_version, the match version "
                f"you are replacing (now {match.version}), after checking it.",
                current_version=match.version,
            )
    elif expected_version != match.version:
        raise VersionConflict(
            "This match changed while you were entering the result (it is now at version "
            f"{match.version}, not {expected_version}); reload and check it.",
            current_version=match.version,
        )


def _player_report(match, by, registration, note: str, fields: dict) -> ResultSubmission:
    """A player's report, waiting for the opponent's confirmation."""
    return ResultSubmission.objects.create(
        match=match,
        number=_next_version(match),
        source=ResultSubmission.Source.PLAYER,
        submitted_by=by,
        submitted_for=registration,
        status=ResultSubmission.Status.PENDING,
        note=note,
        **fields,
    )


@transaction.atomic
def record_system_result(
    *,
    match: Match,
    games: list[str],
    note: str,
    conceded_by: str = "",
    game_numbers: list[int] | None = None,
) -> ResultSubmission:
    """A result the server saw itself (an online match): confirmed at once, source SYSTEM.

    ``game_numbers``: the number each of ``games`` was played as, when a game that does
    not count (stopped unfinished by time) came before it; 1, 2, 3... if left out.
    """
    match = locked_match(match)
    if match.is_bye:
        raise ValidationError(_("A bye has its result already."))
    if match.status == Match.Status.CONFIRMED:
        raise ValidationError(_("This match already has a confirmed result."))
    return record_confirmed_result(
        match,
        source=ResultSubmission.Source.SYSTEM,
        by=None,
        note=note,
        game_numbers=game_numbers,
        **result_fields(games, False, conceded_by),
    )


def _same_result(submission: ResultSubmission, fields: dict) -> bool:
    return (
        submission.games == fields["games"]
        and submission.intentional_draw == fields["intentional_draw"]
        and submission.conceded_by == fields["conceded_by"]
    )


def _set_match_status(match: Match, status: str) -> None:
    match.status = status
    match.version += 1
    match.save(update_fields=["status", "version"])


@transaction.atomic
def confirm_result(*, submission: ResultSubmission, by) -> ResultSubmission:
    """The opponent of the reporting player (or a judge) confirms a pending report."""
    match = locked_match(submission.match)
    submission = ResultSubmission.objects.get(pk=submission.pk)
    if submission.status != ResultSubmission.Status.PENDING:
        raise ValidationError(_("This report is no longer waiting for confirmation."))
    if match.status == Match.Status.CONFIRMED:
        raise ValidationError(_("This match already has a confirmed result."))
    if not can_judge(by, match.round.tournament):
        registration = own_registration(match, by)
        if registration.pk == submission.submitted_for_id:
            raise PermissionDenied(_("Your opponent must confirm the result you reported."))
    fields = result_fields(submission.games, submission.intentional_draw, submission.conceded_by)
    return record_confirmed_result(
        match, source=submission.source, by=by, existing=submission, note=submission.note, **fields
    )


@transaction.atomic
def reject_result(*, submission: ResultSubmission, by, note: str = "") -> ResultSubmission:
    """The opponent disagrees: the match goes to the judges' disputes queue."""
    match = locked_match(submission.match)
    submission = ResultSubmission.objects.get(pk=submission.pk)
    if submission.status != ResultSubmission.Status.PENDING:
        raise ValidationError(_("This report is no longer waiting for confirmation."))
    registration = own_registration(match, by)
    if registration.pk == submission.submitted_for_id:
        raise PermissionDenied(_("You cannot dispute your own report; report again to change it."))
    note = require_dispute_note(note)
    submission.status = ResultSubmission.Status.REJECTED
    submission.note = note[:300]
    submission.save(update_fields=["status", "note"])
    _set_match_status(match, Match.Status.DISPUTED)
    audit(
        match.round.tournament,
        by,
        "result.rejected",
        match,
        after={"version": submission.number},
        reason=note,
    )
    return submission


def refresh_round_status(round_: Round) -> None:
    """A round whose every match is confirmed is complete (and back if one is reopened)."""
    pending = round_.matches.exclude(status=Match.Status.CONFIRMED).exists()
    # A round in pods has tables instead of matches: complete once every seat is placed.
    pending = pending or PodSeat.objects.filter(round=round_, placing__isnull=True).exists()
    if not pending and round_.status in (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS):
        round_.status = Round.Status.COMPLETE
        round_.save(update_fields=["status"])
