"""Every write to a tournament goes through here: rules, row locks and the audit log.

Views, the API, tasks and the admin call these functions; nothing important hides in
save() or signals. Each function takes keyword-only arguments, runs in one transaction
and raises django.core.exceptions.ValidationError (or PermissionDenied) with a
message a person understands, leaving nothing half-written.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.http import Http404

from config.dbtime import db_now
from config.errors import VersionConflict
from games.engines.irondie.dice import Die, playing_set_errors
from players.models import DiceSet, Player
from players.services import freeze_dice_set
from tournaments import clocks, selectors
from tournaments.match_rules import (
    MAX_GAMES,
    ResultError,
    decide_match,
    match_is_over,
    swiss_rounds_for,
)
from tournaments.models import (
    AuditEntry,
    GameResult,
    Match,
    Penalty,
    Registration,
    ResultSubmission,
    Round,
    SetSwap,
    Tournament,
)
from tournaments.pairing import pair_round
from tournaments.pairing.topcut import effective_cut_size, seed_bracket
from tournaments.permissions import (
    can_create_tournament,
    can_judge,
    can_manage,
    can_manage_co_organisers,
    forget_roles,
)

Status = Tournament.Status


# --- audit ----------------------------------------------------------------------------


def audit(
    tournament, actor, action: str, obj=None, *, before=None, after=None, reason: str = ""
) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        object_type=type(obj).__name__ if obj is not None else "",
        object_id=getattr(obj, "pk", None),
        before=before,
        after=after,
        reason=reason[:300],
    )


def is_own_player(player, user) -> bool:
    """The signed-in user is this player (walk-in players without an account are nobody's)."""
    return (
        player.user_id is not None
        and user is not None
        and user.is_authenticated
        and player.user_id == user.id
    )


def _require_manager(user, tournament):
    if not can_manage(user, tournament):
        raise PermissionDenied("Only the tournament's organisers may do this.")


def _require_judge(user, tournament):
    if not can_judge(user, tournament):
        raise PermissionDenied("Only the tournament's judges and organisers may do this.")


def _require_owner(user, tournament):
    if not can_manage_co_organisers(user, tournament):
        raise PermissionDenied("Only the tournament's owner may change its co-organisers.")


def _locked_round(round_) -> Round:
    return (
        Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_.pk)
    )


def _locked_registration(registration) -> Registration:
    return (
        Registration.objects.select_for_update(of=("self",))
        .select_related("tournament", "player")
        .get(pk=registration.pk)
    )


def _locked_tournament(tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


# --- tournament lifecycle -------------------------------------------------------------


@transaction.atomic
def create_tournament(*, organiser, name: str, date, **options) -> Tournament:
    """``organiser`` creates the event and becomes its owner."""
    if not can_create_tournament(organiser):
        raise PermissionDenied("Only organisers may create tournaments.")
    floor_judges = options.pop("floor_judges", None)
    if "tiebreakers" in options:
        _check_tiebreakers(options["tiebreakers"])
    tournament = Tournament(organiser=organiser, name=(name or "").strip(), date=date, **options)
    tournament.full_clean()
    tournament.save()
    if floor_judges:
        tournament.floor_judges.set(floor_judges)
    audit(tournament, organiser, "tournament.created", tournament, after={"name": tournament.name})
    return tournament


EDITABLE_SETTINGS = (
    "name",
    "date",
    "venue",
    "head_judge",
    "swiss_rounds",
    "top_cut_size",
    "match_minutes",
    "game_minutes",
    "late_entry",
    "percentage_floor",
    "tiebreakers",
    "publish_pairings",
    "publish_standings",
    "publish_results",
)


@transaction.atomic
def update_tournament(*, tournament, by, floor_judges=None, **changes) -> Tournament:
    """Change a tournament's settings (and its floor judges), with the rules of when."""
    tournament = _locked_tournament(tournament)
    _require_manager(by, tournament)
    unknown = set(changes) - set(EDITABLE_SETTINGS)
    if unknown:
        raise ValidationError(f"These settings cannot be changed: {', '.join(sorted(unknown))}.")
    played = tournament.rounds.filter(stage=Round.Stage.SWISS).count()
    if (
        "swiss_rounds" in changes
        and changes["swiss_rounds"] is not None
        and changes["swiss_rounds"] < played  # below 1: the model's bounds say so
    ):
        raise ValidationError(
            {
                "swiss_rounds": [
                    f"{played} Swiss rounds are already paired; choose at least that many."
                ]
            }
        )
    if "top_cut_size" in changes and tournament.status in (Status.TOP_CUT, Status.FINISHED):
        raise ValidationError({"top_cut_size": ["The top cut has already started."]})
    if "tiebreakers" in changes:
        _check_tiebreakers(changes["tiebreakers"])
    before = {field: _plain(getattr(tournament, field)) for field in changes}
    for field, value in changes.items():
        setattr(tournament, field, value)
    tournament.full_clean()
    tournament.save()
    after = {field: _plain(getattr(tournament, field)) for field in changes}
    if floor_judges is not None:
        before["floor_judges"] = sorted(tournament.floor_judges.values_list("id", flat=True))
        tournament.floor_judges.set(floor_judges)
        forget_roles(tournament)
        after["floor_judges"] = sorted(u.pk for u in floor_judges)
    audit(tournament, by, "tournament.updated", tournament, before=before, after=after)
    return tournament


def _check_tiebreakers(order) -> None:
    from tournaments.standings import tiebreaker_order_errors

    if errors := tiebreaker_order_errors(order):
        raise ValidationError({"tiebreakers": errors})


def _plain(value):
    if hasattr(value, "pk"):
        return value.pk
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


# --- the event's co-organisers --------------------------------------------------------


def _co_organiser_ids(tournament) -> list[int]:
    return sorted(tournament.co_organisers.values_list("id", flat=True))


@transaction.atomic
def add_co_organiser(*, tournament, user, by) -> Tournament:
    """The owner makes ``user`` a co-organiser: they manage this event (not others)."""
    tournament = _locked_tournament(tournament)
    _require_owner(by, tournament)
    if user is None or not user.is_active:
        raise ValidationError({"username": ["No active user by that name."]})
    if user.pk == tournament.organiser_id:
        raise ValidationError({"username": ["The owner already organises this event."]})
    before = _co_organiser_ids(tournament)
    if user.pk in before:
        raise ValidationError({"username": [f"{user.get_username()} is already a co-organiser."]})
    tournament.co_organisers.add(user)
    forget_roles(tournament)
    audit(
        tournament,
        by,
        "tournament.co_organisers",
        tournament,
        before={"co_organisers": before},
        after={"co_organisers": sorted([*before, user.pk])},
    )
    return tournament


@transaction.atomic
def remove_co_organiser(*, tournament, user, by) -> Tournament:
    """The owner removes a co-organiser, or a co-organiser steps down."""
    tournament = _locked_tournament(tournament)
    before = _co_organiser_ids(tournament)
    member = user is not None and user.pk in before
    if not (member and by is not None and user.pk == by.pk):
        _require_owner(by, tournament)
    if not member:
        raise ValidationError({"username": ["This user is not a co-organiser of this event."]})
    tournament.co_organisers.remove(user)
    forget_roles(tournament)
    audit(
        tournament,
        by,
        "tournament.co_organisers",
        tournament,
        before={"co_organisers": before},
        after={"co_organisers": [pk for pk in before if pk != user.pk]},
    )
    return tournament


_STATUS_FLOW = {
    Status.DRAFT: {Status.REGISTRATION},
    Status.REGISTRATION: {Status.CHECK_IN, Status.DRAFT},
    Status.CHECK_IN: {Status.REGISTRATION},
}


@transaction.atomic
def change_status(*, tournament, to: str, by) -> Tournament:
    """Draft <-> registration <-> check-in. Swiss, top cut and finished follow from pairing."""
    tournament = _locked_tournament(tournament)
    _require_manager(by, tournament)
    allowed = _STATUS_FLOW.get(tournament.status, set())
    if to not in allowed:
        raise ValidationError(
            f"A tournament in “{tournament.get_status_display()}” cannot move to “{Status(to).label}”."
        )
    before = tournament.status
    tournament.status = to
    tournament.save(update_fields=["status"])
    audit(
        tournament,
        by,
        "tournament.status",
        tournament,
        before={"status": before},
        after={"status": to},
    )
    return tournament


@transaction.atomic
def register(*, tournament, player: Player, dice_set: DiceSet, by) -> Registration:
    """Register a player with a dice set, frozen as a snapshot. Late entries during Swiss."""
    tournament = _locked_tournament(tournament)
    own = is_own_player(player, by)
    if not own and not can_manage(by, tournament):
        raise PermissionDenied("Players register themselves; organisers may register anyone.")
    if dice_set.player_id != player.pk:
        raise ValidationError({"dice_set": ["This dice set belongs to another player."]})
    late_round = None
    if tournament.status == Status.SWISS:
        if not can_manage(by, tournament):
            raise ValidationError("Registration is closed; ask the organiser for a late entry.")
        last = tournament.rounds.aggregate(n=Max("number"))["n"] or 0
        open_round = tournament.rounds.filter(number=last, status=Round.Status.DRAFT).exists()
        late_round = last if open_round else last + 1
    elif tournament.status not in (Status.REGISTRATION, Status.CHECK_IN):
        raise ValidationError(
            f"Registration is not open (the tournament is “{tournament.get_status_display()}”)."
        )
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ValidationError(f"{player.display_name} is already registered.")
    snapshot = freeze_dice_set(dice_set=dice_set)
    registration = Registration.objects.create(
        tournament=tournament,
        player=player,
        dice_set=dice_set,
        playing_dice=snapshot["playing"],
        additional_dice=snapshot["additional"],
        late_entry_round=late_round,
        checked_in=late_round is not None,
    )
    audit(
        tournament,
        by,
        "registration.created",
        registration,
        after={
            "player": player.display_name,
            "late_entry_round": late_round,
            "set": snapshot["name"],
        },
    )
    return registration


@transaction.atomic
def check_in(*, registration: Registration, by, checked_in: bool = True) -> Registration:
    registration = _locked_registration(registration)
    tournament = registration.tournament
    own = is_own_player(registration.player, by)
    if not own and not can_manage(by, tournament):
        raise PermissionDenied("Only the player or an organiser may check in.")
    if tournament.status not in (Status.REGISTRATION, Status.CHECK_IN):
        raise ValidationError("Check-in is over: the Swiss rounds have started.")
    if registration.dropped:
        raise ValidationError(
            "A dropped player cannot check in; an organiser can reinstate them first."
        )
    registration.checked_in = checked_in
    registration.save(update_fields=["checked_in"])
    audit(
        tournament,
        by,
        "registration.checked_in" if checked_in else "registration.checked_out",
        registration,
    )
    return registration


def _last_round_number(tournament) -> int:
    return tournament.rounds.aggregate(n=Max("number"))["n"] or 0


@transaction.atomic
def drop(*, registration: Registration, by, reason: str = "") -> Registration:
    """A dropped player is never paired again and keeps their standing."""
    registration = _locked_registration(registration)
    tournament = registration.tournament
    own = is_own_player(registration.player, by)
    if not own and not can_judge(by, tournament):
        raise PermissionDenied("Only the player, a judge or an organiser may drop a player.")
    if registration.dropped:
        raise ValidationError(f"{registration.player.display_name} has already dropped.")
    registration.dropped = True
    registration.dropped_after_round = _last_round_number(tournament)
    registration.save(update_fields=["dropped", "dropped_after_round"])
    audit(
        tournament,
        by,
        "registration.dropped",
        registration,
        after={"after_round": registration.dropped_after_round},
        reason=reason,
    )
    return registration


@transaction.atomic
def reinstate(*, registration: Registration, by, reason: str = "") -> Registration:
    registration = _locked_registration(registration)
    _require_manager(by, registration.tournament)
    if not registration.dropped:
        raise ValidationError("This player has not dropped.")
    if registration.disqualified:
        raise ValidationError("A disqualified player cannot be reinstated.")
    before = {"dropped_after_round": registration.dropped_after_round}
    registration.dropped = False
    registration.dropped_after_round = None
    registration.save(update_fields=["dropped", "dropped_after_round"])
    audit(
        registration.tournament,
        by,
        "registration.reinstated",
        registration,
        before=before,
        reason=reason,
    )
    return registration


# --- pairing --------------------------------------------------------------------------


@transaction.atomic
def pair_next_round(*, tournament, by, seed: str | None = None) -> Round:
    """Pair the next Swiss round as a draft (the first one starts the Swiss stage)."""
    tournament = _locked_tournament(tournament)
    _require_manager(by, tournament)
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        raise ValidationError(f"Close round {last.number} before pairing the next one.")
    if tournament.status in (Status.REGISTRATION, Status.CHECK_IN):
        _start_swiss(tournament, by)
    elif tournament.status != Status.SWISS:
        raise ValidationError(
            f"Swiss rounds cannot be paired while the tournament is “{tournament.get_status_display()}”."
        )
    number = (last.number if last else 0) + 1
    if number > tournament.swiss_rounds:
        raise ValidationError(
            f"All {tournament.swiss_rounds} Swiss rounds have been played; start the top cut or finish the tournament."
        )
    seed = seed or secrets.token_hex(16)
    players = selectors.pairing_players(tournament, round_number=number)
    if len(players) < 2:
        raise ValidationError("At least two active players are needed to pair a round.")
    result = pair_round(players, number, seed)
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        stage=Round.Stage.SWISS,
        pairing_seed=seed,
        pairing_cost=_cost_dict(result.cost),
    )
    _create_matches(
        round_, [(p.high_id, p.low_id, [_reason_dict(r) for r in p.reasons]) for p in result.pairs]
    )
    if result.bye is not None:
        Match.objects.create(
            round=round_,
            table=None,
            player_a_id=result.bye.player_id,
            player_b=None,
            reasons=[_reason_dict(r) for r in result.bye.reasons],
        )
    audit(
        tournament,
        by,
        "round.paired",
        round_,
        after={"number": number, "seed": seed, "cost": round_.pairing_cost},
    )
    return round_


def _start_swiss(tournament, by):
    registrations = tournament.registrations.select_for_update()
    if tournament.status == Status.CHECK_IN:
        # Check-in was used: whoever did not check in is not in the event.
        for registration in registrations.filter(checked_in=False, dropped=False):
            registration.dropped = True
            registration.dropped_after_round = 0
            registration.save(update_fields=["dropped", "dropped_after_round"])
            audit(tournament, by, "registration.dropped", registration, reason="did not check in")
    active = tournament.registrations.filter(dropped=False).count()
    if not tournament.swiss_rounds:
        tournament.swiss_rounds = swiss_rounds_for(active)
    tournament.status = Status.SWISS
    tournament.save(update_fields=["status", "swiss_rounds"])
    audit(
        tournament,
        by,
        "tournament.status",
        tournament,
        after={"status": Status.SWISS, "swiss_rounds": tournament.swiss_rounds, "players": active},
    )


def _cost_dict(cost) -> dict:
    return {
        "rematches": cost.rematches,
        "repeat_byes": cost.repeat_byes,
        "pair_downs": cost.pair_downs,
        "pair_down_cost": cost.pair_down_cost,
        "bye_excess": cost.bye_excess,
        "bye_rank_offset": cost.bye_rank_offset,
    }


def _reason_dict(reason) -> dict:
    return {"code": str(reason.code), "text": reason.text}


def _create_matches(round_, pairs: Iterable[tuple[int, int, list]]):
    """Tables in the order given: the pairer lists the best records first."""
    Match.objects.bulk_create(
        Match(
            round=round_,
            table=table,
            player_a_id=a,
            player_b_id=b,
            reasons=reasons,
            bracket_position=None,
        )
        for table, (a, b, reasons) in enumerate(pairs, start=1)
    )


@transaction.atomic
def repair_round(*, round_: Round, by, seed: str | None = None) -> Round:
    """Throw away a draft pairing and pair the round again."""
    # A concurrent re-pair that held the lock first deleted this round (the new one has
    # a new id): the loser is told so instead of failing on the missing row.
    round_ = (
        Round.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .filter(pk=round_.pk)
        .first()
    )
    if round_ is None:
        raise Http404("This draft round no longer exists: it was paired again meanwhile.")
    _require_manager(by, round_.tournament)
    if round_.status != Round.Status.DRAFT or round_.stage != Round.Stage.SWISS:
        raise ValidationError("Only a draft Swiss round can be paired again.")
    tournament, number = round_.tournament, round_.number
    audit(
        tournament,
        by,
        "round.unpaired",
        round_,
        before={"number": number, "seed": round_.pairing_seed},
    )
    round_.delete()
    return pair_next_round(tournament=tournament, by=by, seed=seed)


@transaction.atomic
def swap_players_in_draft(
    *, round_: Round, first: Registration, second: Registration, by, reason: str
) -> Round:
    """The organiser exchanges two players between pairings of a draft, with a reason."""
    round_ = _locked_round(round_)
    _require_manager(by, round_.tournament)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError("Pairings can be edited by hand only while the round is a draft.")
    if not (reason or "").strip():
        raise ValidationError(
            {"reason": ["Say why the pairing is changed; it goes into the audit log."]}
        )
    if first.pk == second.pk:
        raise ValidationError("Choose two different players.")
    matches = list(round_.matches.select_for_update())
    where = {}
    for match in matches:
        for side in ("a", "b"):
            reg_id = getattr(match, f"player_{side}_id")
            if reg_id in (first.pk, second.pk):
                where[reg_id] = (match, side)
    if len(where) != 2:
        raise ValidationError("Both players must be paired in this round.")
    (m1, s1), (m2, s2) = where[first.pk], where[second.pk]
    if m1.pk == m2.pk:
        raise ValidationError("These two players are already paired together.")
    before = {"first": [m1.table, s1], "second": [m2.table, s2]}
    setattr(m1, f"player_{s1}_id", second.pk)
    setattr(m2, f"player_{s2}_id", first.pk)
    note = {"code": "manual", "text": f"changed by hand: {reason.strip()}"}
    for match in (m1, m2):
        match.reasons = [*match.reasons, note]
        if match.player_a_id is None:  # a bye moved: keep the bye's player in slot a
            match.player_a_id, match.player_b_id = match.player_b_id, None
    for match in (m1, m2):
        match.save(update_fields=["player_a", "player_b", "reasons"])
    audit(
        round_.tournament,
        by,
        "pairing.edited",
        round_,
        before=before,
        after={"players": [first.player_id, second.player_id]},
        reason=reason,
    )
    return round_


@transaction.atomic
def publish_round(*, round_: Round, by) -> Round:
    round_ = _locked_round(round_)
    _require_manager(by, round_.tournament)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError("This round's pairings are already published.")
    round_.status = Round.Status.PUBLISHED
    round_.save(update_fields=["status"])
    for match in round_.matches.filter(player_b__isnull=True):
        _confirm(
            match, games=["a", "a"], source=ResultSubmission.Source.SYSTEM, by=None, note="bye"
        )
    audit(round_.tournament, by, "round.published", round_)
    _refresh_round_status(round_)
    return round_


@transaction.atomic
def start_round(*, round_: Round, by) -> Round:
    round_ = _locked_round(round_)
    _require_judge(by, round_.tournament)
    if round_.status != Round.Status.PUBLISHED:
        raise ValidationError("Publish the pairings before starting the round.")
    round_.status = Round.Status.IN_PROGRESS
    round_.started_at = db_now()
    round_.save(update_fields=["status", "started_at"])
    clocks.start_round_clocks(round_, round_.started_at)
    audit(
        round_.tournament,
        by,
        "round.started",
        round_,
        after={"started_at": round_.started_at.isoformat()},
    )
    return round_


def _refresh_round_status(round_: Round) -> None:
    """A round whose every match is confirmed is complete (and back if one is reopened)."""
    pending = round_.matches.exclude(status=Match.Status.CONFIRMED).exists()
    if not pending and round_.status in (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS):
        round_.status = Round.Status.COMPLETE
        round_.save(update_fields=["status"])


@transaction.atomic
def close_round(*, round_: Round, by) -> Round:
    round_ = _locked_round(round_)
    _require_manager(by, round_.tournament)
    _refresh_round_status(round_)
    if round_.status != Round.Status.COMPLETE:
        missing = round_.matches.exclude(status=Match.Status.CONFIRMED).values_list(
            "table", flat=True
        )
        tables = ", ".join(str(t) for t in missing)
        raise ValidationError(
            f"Round {round_.number} still has matches without a confirmed result (tables {tables})."
        )
    round_.status = Round.Status.CLOSED
    round_.closed_at = db_now()
    round_.save(update_fields=["status", "closed_at"])
    audit(round_.tournament, by, "round.closed", round_)
    if round_.stage == Round.Stage.TOP_CUT:
        _advance_top_cut(round_.tournament, by)
    return round_


# --- results --------------------------------------------------------------------------


def _penalty_games(match: Match) -> list[str]:
    """Game wins awarded by game-loss penalties in this match ("a": A was awarded one)."""
    awarded = []
    for penalty in match.penalties.filter(kind=Penalty.Kind.GAME_LOSS).order_by("created_at"):
        awarded.append("b" if penalty.registration_id == match.player_a_id else "a")
    return awarded


def _decide(match: Match, **result):
    try:
        return decide_match(
            penalty_games=_penalty_games(match),
            draws_allowed=match.round.stage == Round.Stage.SWISS,
            **result,
        )
    except ResultError as exc:
        raise ValidationError({"games": [str(exc)]}) from None


def _locked_match(match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "player_a__player", "player_b__player")
        .get(pk=match.pk)
    )


def _next_version(match) -> int:
    return (match.submissions.aggregate(n=Max("number"))["n"] or 0) + 1


def _check_round_open_for_results(match: Match, *, correction_allowed: bool):
    status = match.round.status
    if status == Round.Status.DRAFT:
        raise ValidationError("Results cannot be entered before the pairings are published.")
    if status == Round.Status.CLOSED and not correction_allowed:
        raise ValidationError("This round is closed; ask a judge to correct the result.")


def _confirm(
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
    outcome = _decide(
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
    _refresh_round_status(match.round)
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
            {"games": [f"Game numbers {numbers} do not fit the {len(games)} games played."]}
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


def _result_fields(games, intentional_draw, conceded_by) -> dict:
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
    match = _locked_match(match)
    tournament = match.round.tournament
    if match.is_bye:
        raise ValidationError("A bye has its result already.")
    fields = _result_fields(games, intentional_draw, conceded_by)
    if can_judge(by, tournament):
        _check_round_open_for_results(match, correction_allowed=True)
        _check_expected_version(match, expected_version)
        return _confirm(match, source=ResultSubmission.Source.JUDGE, by=by, note=note, **fields)
    registration = _own_registration(match, by)
    _check_round_open_for_results(match, correction_allowed=False)
    if match.status == Match.Status.CONFIRMED:
        raise ValidationError("This result is already confirmed; ask a judge to correct it.")
    _check_expected_version(match, expected_version)
    _decide(match, **fields)  # validate before writing anything
    pending = (
        match.submissions.filter(status=ResultSubmission.Status.PENDING).order_by("-number").first()
    )
    if pending and pending.submitted_for_id != registration.pk:
        if _same_result(pending, fields):
            return _confirm(
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
    match = _locked_match(match)
    if match.is_bye:
        raise ValidationError("A bye has its result already.")
    if match.status == Match.Status.CONFIRMED:
        raise ValidationError("This match already has a confirmed result.")
    return _confirm(
        match,
        source=ResultSubmission.Source.SYSTEM,
        by=None,
        note=note,
        game_numbers=game_numbers,
        **_result_fields(games, False, conceded_by),
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


def _own_registration(match: Match, by) -> Registration:
    for registration in (match.player_a, match.player_b):
        if registration is not None and is_own_player(registration.player, by):
            return registration
    raise PermissionDenied(
        "Only the two players of this match and its judges may report its result."
    )


@transaction.atomic
def confirm_result(*, submission: ResultSubmission, by) -> ResultSubmission:
    """The opponent of the reporting player (or a judge) confirms a pending report."""
    match = _locked_match(submission.match)
    submission = ResultSubmission.objects.get(pk=submission.pk)
    if submission.status != ResultSubmission.Status.PENDING:
        raise ValidationError("This report is no longer waiting for confirmation.")
    if match.status == Match.Status.CONFIRMED:
        raise ValidationError("This match already has a confirmed result.")
    if not can_judge(by, match.round.tournament):
        registration = _own_registration(match, by)
        if registration.pk == submission.submitted_for_id:
            raise PermissionDenied("Your opponent must confirm the result you reported.")
    fields = _result_fields(submission.games, submission.intentional_draw, submission.conceded_by)
    return _confirm(
        match, source=submission.source, by=by, existing=submission, note=submission.note, **fields
    )


@transaction.atomic
def reject_result(*, submission: ResultSubmission, by, note: str = "") -> ResultSubmission:
    """The opponent disagrees: the match goes to the judges' disputes queue."""
    match = _locked_match(submission.match)
    submission = ResultSubmission.objects.get(pk=submission.pk)
    if submission.status != ResultSubmission.Status.PENDING:
        raise ValidationError("This report is no longer waiting for confirmation.")
    registration = _own_registration(match, by)
    if registration.pk == submission.submitted_for_id:
        raise PermissionDenied("You cannot dispute your own report; report again to change it.")
    submission.status = ResultSubmission.Status.REJECTED
    submission.note = (note or submission.note)[:300]
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


# --- penalties ------------------------------------------------------------------------


def _current_match(registration: Registration) -> Match | None:
    return (
        (
            Match.objects.filter(round__tournament=registration.tournament_id).filter(
                player_a=registration
            )
            | Match.objects.filter(
                round__tournament=registration.tournament_id, player_b=registration
            )
        )
        .exclude(status=Match.Status.CONFIRMED)
        .order_by("-round__number")
        .first()
    )


@transaction.atomic
def give_penalty(
    *, registration: Registration, kind: str, reason: str, by, match: Match | None = None
) -> Penalty:
    registration = _locked_registration(registration)
    tournament = registration.tournament
    _require_judge(by, tournament)
    if kind not in Penalty.Kind.values:
        raise ValidationError(
            {"kind": [f"Unknown penalty {kind!r}; choose one of {', '.join(Penalty.Kind.values)}."]}
        )
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Give the reason for the penalty."]})
    match = match or _current_match(registration)
    if match is not None and match.side_of(registration.pk) is None:
        raise ValidationError({"match": ["This player is not in that match."]})
    if kind in (Penalty.Kind.GAME_LOSS, Penalty.Kind.MATCH_LOSS) and match is None:
        raise ValidationError({"match": ["A game or match loss needs the match it applies to."]})
    if match is not None and match.is_bye and kind != Penalty.Kind.WARNING:
        raise ValidationError({"match": ["A bye cannot carry a game or match loss."]})
    penalty = Penalty.objects.create(
        registration=registration, match=match, kind=kind, reason=reason.strip(), judge=by
    )
    audit(
        tournament,
        by,
        f"penalty.{kind}",
        registration,
        after={"match": getattr(match, "pk", None)},
        reason=reason,
    )
    if match is not None:
        match = _locked_match(match)
        side = match.side_of(registration.pk)
        latest = match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).first()
        fields = (
            _result_fields(latest.games, latest.intentional_draw, latest.conceded_by)
            if latest
            else _result_fields([], False, "")
        )
        flags = (
            {"match_loss_a": latest.match_loss_a, "match_loss_b": latest.match_loss_b}
            if latest
            else {}
        )
        if (
            kind in (Penalty.Kind.MATCH_LOSS, Penalty.Kind.DISQUALIFICATION)
            and match.status != Match.Status.CONFIRMED
        ):
            flags[f"match_loss_{side}"] = True
            fields["intentional_draw"] = False
            _confirm(
                match,
                source=ResultSubmission.Source.JUDGE,
                by=by,
                note=f"{kind}: {reason}",
                **fields,
                **flags,
            )
        elif kind == Penalty.Kind.MATCH_LOSS:
            flags[f"match_loss_{side}"] = True
            _confirm(
                match,
                source=ResultSubmission.Source.JUDGE,
                by=by,
                note=f"{kind}: {reason}",
                **fields,
                **flags,
            )
        elif kind == Penalty.Kind.GAME_LOSS and match.status == Match.Status.CONFIRMED:
            # The result is already in: re-decide it with the awarded game (a logged correction).
            _confirm(
                match,
                source=ResultSubmission.Source.JUDGE,
                by=by,
                note=f"{kind}: {reason}",
                **fields,
                **flags,
            )
        else:
            _decide(match, **fields, **flags)  # the awarded game must fit in a best of three
        _refresh_round_status(match.round)
    if kind == Penalty.Kind.DISQUALIFICATION:
        registration.disqualified = True
        registration.dropped = True
        registration.dropped_after_round = _last_round_number(tournament)
        registration.save(update_fields=["disqualified", "dropped", "dropped_after_round"])
    return penalty


# --- games within a match and additional-set swaps ------------------------------------


def _online_game_open(match: Match) -> bool:
    """An online game of this match is waiting, in play or paused: it starts its games
    itself (both players ``ready`` in games/), so nobody starts them from here."""
    from games.models import GameSession

    return match.online_games.filter(
        status__in=(
            GameSession.Status.WAITING,
            GameSession.Status.ACTIVE,
            GameSession.Status.PAUSED,
        )
    ).exists()


def _check_game_may_start(
    match: Match,
    number: int,
    *,
    judge: bool,
    system: bool = False,
    games_so_far: list[str] | None = None,
) -> None:
    if match.is_bye or match.status == Match.Status.CONFIRMED:
        raise ValidationError("This match is over.")
    if not judge and match.status != Match.Status.PENDING:
        raise ValidationError(
            "A result has been reported for this match, so no further game starts; "
            "ask a judge if the match goes on."
        )
    if match.round.status not in (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS):
        raise ValidationError("The round has not started.")
    expected = match.next_game
    if number != expected:
        if number == match.current_game and match.current_game_started_at is not None:
            raise ValidationError(f"Game {number} has already started.")
        raise ValidationError(f"The next game of this match is game {expected}.")
    if number > MAX_GAMES:
        raise ValidationError(f"A match has at most {MAX_GAMES} games.")
    if match.time_called_at is not None:
        _check_further_game_after_time(match, number, games_so_far=games_so_far, system=system)


def _check_further_game_after_time(
    match: Match, number: int, *, games_so_far: list[str] | None, system: bool
) -> None:
    """After time only a match that still needs a game gets one (match_is_over: the
    top-cut decider while the games are level). The games are those played so far, not
    the confirmed result: online the server saw them; on paper the caller says them."""
    draws_allowed = match.round.stage == Round.Stage.SWISS
    penalties = _penalty_games(match)
    if system:
        from games.services import match_games

        games_so_far = match_games(match.pk)
    elif games_so_far is None:
        if match_is_over(penalties, time_called=True, draws_allowed=draws_allowed):
            raise ValidationError(_NO_GAME_AFTER_TIME)
        raise ValidationError(
            {
                "games_so_far": [
                    "Time has been called: a further game starts only while the games are "
                    "level in the top cut. Give the games played so far in order "
                    '(each "a", "b" or "draw"; an unfinished game is left out).'
                ]
            }
        )
    else:
        games_so_far = list(games_so_far)
        if any(outcome not in ("a", "b", "draw") for outcome in games_so_far):
            raise ValidationError(
                {"games_so_far": ['Each game is won by "a" or "b", or is a "draw".']}
            )
        if len(games_so_far) >= number:
            raise ValidationError(
                {
                    "games_so_far": [
                        f"Game {number} is next: at most {number - 1} games have been played."
                    ]
                }
            )
    if match_is_over([*penalties, *games_so_far], time_called=True, draws_allowed=draws_allowed):
        raise ValidationError(_NO_GAME_AFTER_TIME)


_NO_GAME_AFTER_TIME = (
    "Time has been called: no new game starts; the match is decided on the games won "
    "(docs/rules.md, match time)."
)


@transaction.atomic
def start_game(
    *,
    match: Match,
    number: int,
    by,
    system: bool = False,
    games_so_far: list[str] | None = None,
) -> Match:
    """Game ``number`` (always the match's next game) starts: its clock runs and the
    swaps made for it are revealed.

    A game starts when both players say so, or when a judge does: a player's call
    records their readiness (again and again changes nothing) and the second readiness
    starts the game. ``system=True`` (with ``by=None``) is the online-play service
    starting the game it hosts; while a match is played online its games start only that
    way. The answer is the match; ``match.ready_sides()`` tells who has said so while the
    game still waits.

    After time is called a game starts only if the match still needs one
    (``match_is_over`` on the games played so far: the top-cut decider while level). On
    paper the caller gives those games as ``games_so_far`` (outcomes in order, an
    unfinished game left out); online the server uses the games it hosted.
    """
    match = _locked_match(match)
    tournament = match.round.tournament
    judge = system or can_judge(by, tournament)
    side = None
    if not judge:
        side = match.side_of(_own_registration(match, by).pk)
    _check_game_may_start(match, number, judge=judge, system=system, games_so_far=games_so_far)
    if not system and _online_game_open(match):
        raise ValidationError(
            "This match is played online: its games start when both players are ready "
            "in the online game."
        )
    if side is not None:
        if getattr(match, f"ready_{side}_for_game") != number:
            setattr(match, f"ready_{side}_for_game", number)
            match.save(update_fields=[f"ready_{side}_for_game"])
            audit(tournament, by, "game.ready", match, after={"game": number, "side": side})
        if match.ready_sides() != ["a", "b"]:
            return match
    match.current_game = number
    match.current_game_started_at = db_now()
    match.ready_a_for_game = match.ready_b_for_game = None
    match.version += 1
    match.save(
        update_fields=[
            "current_game",
            "current_game_started_at",
            "ready_a_for_game",
            "ready_b_for_game",
            "version",
        ]
    )
    clocks.start_game_clock(match, match.current_game_started_at)
    audit(tournament, by, "game.started", match, after={"game": number})
    return match


@transaction.atomic
def record_swap(
    *, registration: Registration, match: Match, swap_out: list[int], swap_in: list[int], by
) -> SetSwap:
    """Swap dice between the playing set and the additional set before the next game.

    ``swap_out``: positions (0-8) in the current playing set; ``swap_in``: positions
    (0-2) in the current additional set; the two lists have the same length. The
    result must still be a valid playing set (9 dice, every class, at most 3 rare).
    A second swap for the same game replaces the first (it is still secret).
    """
    match = _locked_match(match)
    registration = _locked_registration(registration)
    if match.side_of(registration.pk) is None:
        raise ValidationError("This player is not in that match.")
    if not is_own_player(registration.player, by) and not can_judge(by, match.round.tournament):
        raise PermissionDenied("Players record their own swaps.")
    if match.is_bye or match.status == Match.Status.CONFIRMED:
        raise ValidationError("This match is over; swap before the next game of your next match.")
    before_game = match.next_game
    # Up to MAX_GAMES, not 3: drawn or unfinished games lengthen a match, and a top-cut
    # match level at time gets one more game.
    if before_game > MAX_GAMES:
        raise ValidationError(
            f"There is no further game in this match to swap for (a match has at most {MAX_GAMES} games)."
        )
    if len(swap_out) != len(swap_in) or not swap_out:
        raise ValidationError("Swap as many dice out as in (at least one).")
    if len(set(swap_out)) != len(swap_out) or len(set(swap_in)) != len(swap_in):
        raise ValidationError("Each die can be swapped once.")
    live = SetSwap.objects.filter(
        registration=registration, match=match, before_game=before_game, superseded=False
    ).first()
    playing, additional = selectors.current_sets(registration, exclude=live)
    if any(not 0 <= i < len(playing) for i in swap_out):
        raise ValidationError(f"Playing-set positions run from 0 to {len(playing) - 1}.")
    if any(not 0 <= i < len(additional) for i in swap_in):
        raise ValidationError(
            f"Additional-set positions run from 0 to {len(additional) - 1}."
            if additional
            else "The additional set is empty."
        )
    out_dice = [playing[i] for i in swap_out]
    in_dice = [additional[i] for i in swap_in]
    new_playing = list(playing)
    new_additional = list(additional)
    for pos_out, pos_in in zip(swap_out, swap_in, strict=True):
        new_playing[pos_out], new_additional[pos_in] = additional[pos_in], playing[pos_out]
    errors = playing_set_errors([Die.from_dict(d) for d in new_playing])
    if errors:
        raise ValidationError({"swap": errors})
    if live is not None:
        live.superseded = True
        live.save(update_fields=["superseded"])
    swap = SetSwap.objects.create(
        registration=registration,
        match=match,
        before_game=before_game,
        swapped_out=out_dice,
        swapped_in=in_dice,
        playing_after=new_playing,
        additional_after=new_additional,
        recorded_by=by,
    )
    # The audit log is read by judges only; it never reaches the opponent.
    audit(
        match.round.tournament,
        by,
        "swap.recorded",
        swap,
        after={"before_game": before_game, "out": out_dice, "in": in_dice},
    )
    return swap


# --- top cut --------------------------------------------------------------------------


@transaction.atomic
def start_top_cut(*, tournament, by) -> Round:
    tournament = _locked_tournament(tournament)
    _require_manager(by, tournament)
    if tournament.status != Status.SWISS:
        raise ValidationError("The top cut follows the Swiss rounds.")
    closed = tournament.rounds.filter(stage=Round.Stage.SWISS, status=Round.Status.CLOSED).count()
    if (
        closed < (tournament.swiss_rounds or 0)
        or tournament.rounds.exclude(status=Round.Status.CLOSED).exists()
    ):
        raise ValidationError(f"Play and close all {tournament.swiss_rounds} Swiss rounds first.")
    standings = selectors.standings(tournament)
    ranked = standings.ranked_player_ids(include_dropped=False)
    size = (
        effective_cut_size(tournament.top_cut_size, len(ranked))
        if tournament.top_cut_size and len(ranked) >= 2
        else 0
    )
    if size == 0:
        return finish_tournament(tournament=tournament, by=by)
    tournament.top_cut_seeds = ranked[:size]
    tournament.status = Status.TOP_CUT
    tournament.save(update_fields=["top_cut_seeds", "status"])
    audit(
        tournament,
        by,
        "top_cut.started",
        tournament,
        after={"size": size, "seeds": tournament.top_cut_seeds},
    )
    bracket = seed_bracket(tournament.top_cut_seeds, size)
    return _create_top_cut_round(tournament, bracket, by)


def _create_top_cut_round(tournament, bracket, by) -> Round:
    current = bracket.current_round
    number = _last_round_number(tournament) + 1
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        stage=Round.Stage.TOP_CUT,
        pairing_seed="bracket",
        status=Round.Status.DRAFT,
    )
    matches = []
    for bracket_match in current.matches:
        matches.append(
            Match(
                round=round_,
                table=bracket_match.position + 1,
                bracket_position=bracket_match.position,
                player_a_id=bracket_match.player_a,
                player_b_id=bracket_match.player_b,
                reasons=[
                    {
                        "code": "bracket",
                        "text": f"{current.name}: seed {bracket_match.seed_a} v seed {bracket_match.seed_b}",
                    }
                ],
            )
        )
    Match.objects.bulk_create(matches)
    audit(
        tournament,
        by,
        "round.paired",
        round_,
        after={"number": number, "stage": "top_cut", "name": current.name},
    )
    return round_


def _advance_top_cut(tournament, by):
    bracket = selectors.bracket(tournament)
    if bracket.is_finished:
        finish_tournament(tournament=tournament, by=by)
    else:
        _create_top_cut_round(tournament, bracket, by)


@transaction.atomic
def finish_tournament(*, tournament, by) -> Tournament:
    tournament = _locked_tournament(tournament)
    _require_manager(by, tournament)
    if tournament.rounds.exclude(status=Round.Status.CLOSED).exists():
        raise ValidationError("Close every round before finishing the tournament.")
    tournament.status = Status.FINISHED
    tournament.save(update_fields=["status"])
    audit(tournament, by, "tournament.finished", tournament)
    return tournament
