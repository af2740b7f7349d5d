"""Swiss rounds: pairing, hand edits of a draft, publishing, starting and closing."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404

from config.dbtime import db_now
from tournaments import clocks, selectors
from tournaments.audit import audit
from tournaments.match_rules import (
    swiss_rounds_for,
)
from tournaments.models import (
    Match,
    Registration,
    ResultSubmission,
    Round,
    Tournament,
)
from tournaments.pairing import pair_round
from tournaments.pairing.seeded import pair_by_seed
from tournaments.phases import phase_errors
from tournaments.services.guards import (
    locked_round,
    locked_tournament,
    require_judge,
    require_manager,
)
from tournaments.services.phases import apply_phase_cut
from tournaments.services.results import record_confirmed_result, refresh_round_status
from tournaments.services.topcut import advance_top_cut

Status = Tournament.Status


@transaction.atomic
def pair_next_round(*, tournament, by, seed: str | None = None) -> Round:
    """Pair the next Swiss round as a draft (the first one starts the Swiss stage)."""
    tournament = locked_tournament(tournament)
    require_manager(by, tournament)
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
    if number > 1:
        # The cut into this phase, as the standings now say (a result corrected since
        # the last round closed moves it); fixed once this round is paired.
        apply_phase_cut(tournament, after_round=number - 1, by=by, always_log=False)
    seed = seed or secrets.token_hex(16)
    players = selectors.pairing_players(tournament, round_number=number)
    if len(players) < 2:
        raise ValidationError("At least two active players are needed to pair a round.")
    if number == 1 and tournament.round_one_seeding == Tournament.RoundOneSeeding.RATING:
        result = pair_by_seed(players, selectors.rating_order(players, seed), number, seed)
    else:
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
    if errors := phase_errors(
        tournament.swiss_phases, swiss_rounds=tournament.swiss_rounds, field_size=active
    ):
        raise ValidationError(
            "The Swiss phases do not fit this event; change them (or the number of Swiss "
            "rounds) before pairing: " + " ".join(errors)
        )
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
        "bye_score_offset": cost.bye_score_offset,
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
    require_manager(by, round_.tournament)
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
    round_ = locked_round(round_)
    require_manager(by, round_.tournament)
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
    round_ = locked_round(round_)
    require_manager(by, round_.tournament)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError("This round's pairings are already published.")
    round_.status = Round.Status.PUBLISHED
    round_.save(update_fields=["status"])
    for match in round_.matches.filter(player_b__isnull=True):
        record_confirmed_result(
            match,
            games=["a"] * round_.tournament.games_to_win,  # 2-0 in best of three, 1-0 in one
            source=ResultSubmission.Source.SYSTEM,
            by=None,
            note="bye",
        )
    audit(round_.tournament, by, "round.published", round_)
    refresh_round_status(round_)
    return round_


@transaction.atomic
def start_round(*, round_: Round, by) -> Round:
    round_ = locked_round(round_)
    require_judge(by, round_.tournament)
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


@transaction.atomic
def close_round(*, round_: Round, by) -> Round:
    round_ = locked_round(round_)
    require_manager(by, round_.tournament)
    refresh_round_status(round_)
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
    if round_.stage == Round.Stage.SWISS:
        apply_phase_cut(round_.tournament, after_round=round_.number, by=by, always_log=True)
    if round_.stage == Round.Stage.TOP_CUT:
        advance_top_cut(round_.tournament, by)
    return round_
