"""Swiss rounds: pairing, hand edits of a draft, publishing, starting and closing."""

from __future__ import annotations

import datetime
import logging
import secrets
import time
from collections.abc import Iterable

from celery import current_app
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _

from config.dbtime import db_now
from tournaments import clocks, selectors
from tournaments.audit import audit
from tournaments.match_rules import (
    swiss_rounds_for,
)
from tournaments.models import (
    Match,
    PairingJob,
    Registration,
    ResultSubmission,
    Round,
    Tournament,
)
from tournaments.pairing import PairingDeferred, pair_round
from tournaments.pairing.seeded import pair_by_seed
from tournaments.phases import phase_errors
from tournaments.services.guards import (
    locked_round,
    locked_tournament,
    require_judge,
    require_manager,
)
from tournaments.services.phases import apply_phase_cut
from tournaments.services.pods import (
    pod_seating,
    seat_pod_round,
    store_pod_round,
    swap_pod_players,
    tables_without_placings,
)
from tournaments.services.results import record_confirmed_result, refresh_round_status
from tournaments.services.teams import drop_unconfirmed_teams
from tournaments.services.topcut import advance_top_cut

Status = Tournament.Status
logger = logging.getLogger(__name__)


@transaction.atomic
def pair_next_round(
    *, tournament, by, seed: str | None = None, background: bool = True
) -> Round | PairingJob:
    """Pair the next Swiss round as a draft (the first one starts the Swiss stage).

    A round whose pairing would spend more than settings.PAIRING_SYNC_WORK is handed to
    a background job instead (docs/pairing.md "Background pairing"): the PairingJob is
    returned and the round appears when the worker has paired it. background=False pairs
    every round here, however long it takes (the demo data, the job itself)."""
    tournament = locked_tournament(tournament)
    require_manager(by, tournament)
    _refuse_while_pairing(tournament)
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        raise ValidationError(
            _("Close round %(number)s before pairing the next one.") % {"number": last.number}
        )
    if tournament.status in (Status.REGISTRATION, Status.CHECK_IN):
        _start_swiss(tournament, by)
    elif tournament.status != Status.SWISS:
        raise ValidationError(
            _("Swiss rounds cannot be paired while the tournament is “%(value1)s”.")
            % {"value1": tournament.get_status_display()}
        )
    number = (last.number if last else 0) + 1
    if number > tournament.swiss_rounds:
        raise ValidationError(
            _(
                "All %(swiss_rounds)s Swiss rounds have been played; start the top cut or finish the tournament."
            )
            % {"swiss_rounds": tournament.swiss_rounds}
        )
    if number > 1:
        # The cut into this phase, as the standings now say (a result corrected since
        # the last round closed moves it); fixed once this round is paired.
        apply_phase_cut(tournament, after_round=number - 1, by=by, always_log=False)
    seed = seed or secrets.token_hex(16)
    limit = settings.PAIRING_SYNC_WORK if background else None
    if tournament.pods:
        try:
            return seat_pod_round(tournament, number, seed, by, work_limit=limit)
        except PairingDeferred as deferred:
            return _queue_pairing(tournament, number, seed, by, deferred)
    players = selectors.pairing_players(tournament, round_number=number)
    if len(players) < 2:
        raise ValidationError(_("At least two active players are needed to pair a round."))
    if number == 1 and tournament.round_one_seeding == Tournament.RoundOneSeeding.RATING:
        # Round 1 by rating is a fixed order: never costly, never deferred.
        result = pair_by_seed(players, selectors.rating_order(players, seed), number, seed)
        return _store_round(tournament, number, seed, result, by)
    try:
        result = pair_round(players, number, seed, work_limit=limit)
    except PairingDeferred as deferred:
        return _queue_pairing(tournament, number, seed, by, deferred)
    return _store_round(tournament, number, seed, result, by)


def _refuse_while_pairing(tournament) -> None:
    job = tournament.pairing_jobs.filter(status__in=PairingJob.ACTIVE).first()
    waited = settings.PAIRING_QUEUE_TIMEOUT
    if (
        job is not None
        and job.status == PairingJob.Status.QUEUED
        and job.created_at < db_now() - datetime.timedelta(seconds=waited)
    ):
        # Its task was lost (no worker, or the broker was down): let the organiser pair
        # again rather than wait forever. A worker taking it later finds it failed.
        job.status = PairingJob.Status.FAILED
        job.error = f"No worker started it within {waited // 60} minutes."
        job.finished_at = db_now()
        job.save(update_fields=["status", "error", "finished_at"])
        return
    if job is not None:
        raise ValidationError(
            f"Round {job.number} is being paired in the background; wait for it to finish."
        )


def _store_round(tournament, number: int, seed: str, result, by) -> Round:
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


def _queue_pairing(tournament, number: int, seed: str, by, deferred) -> PairingJob:
    job = PairingJob.objects.create(
        tournament=tournament,
        number=number,
        seed=seed,
        estimate=deferred.estimate,
        stage=deferred.stage,
        requested_by=by if by is not None and by.is_authenticated else None,
    )
    audit(
        tournament,
        by,
        "round.pairing_queued",
        job,
        after={"number": number, "seed": seed, "estimate": deferred.estimate},
    )
    pk = job.pk
    transaction.on_commit(lambda: current_app.send_task(PAIRING_TASK, args=(pk,)))
    return job


# The Celery task that runs a PairingJob (tournaments/tasks.py), by name so that the
# services do not import the task module.
PAIRING_TASK = "tournaments.run_pairing_job"
# How often a running job writes its progress, at most (seconds).
PROGRESS_INTERVAL = 0.5
# Pairings of a job whose players changed meanwhile (a drop, a late entry), at most.
PAIRING_ATTEMPTS = 3


def run_pairing_job(job_id: int) -> str:
    """Pair a queued round (the Celery task's body). Idempotent: a job that is finished
    or gone is left alone, and a redelivered job pairs again from the same seed.

    The pairing runs without holding a lock (it may take long); the tournament is then
    locked as the synchronous path locks it, and the round stored only if the job is
    still active, the round still the next one and the players unchanged (otherwise the
    round is paired again from the current players). Any error fails the job with its
    message, which the organiser sees."""
    job = PairingJob.objects.select_related("tournament", "requested_by").filter(pk=job_id).first()
    if job is None or not job.active:
        return "nothing to do"
    PairingJob.objects.filter(pk=job.pk, status__in=PairingJob.ACTIVE).update(
        status=PairingJob.Status.RUNNING, started_at=db_now(), error=""
    )
    try:
        for _ in range(PAIRING_ATTEMPTS):
            players = _job_players(job.tournament, job.number)
            progress = _progress_writer(job.pk)
            if job.tournament.pods:
                result = pod_seating(
                    job.tournament, players, job.number, job.seed, progress=progress
                )
            else:
                result = pair_round(players, job.number, job.seed, progress=progress)
            outcome = _finish_job(job.pk, players, result)
            if outcome != "players changed":
                return outcome
        raise ValidationError("The players kept changing while the round was being paired.")
    except Exception as exc:
        message = "; ".join(exc.messages) if isinstance(exc, ValidationError) else repr(exc)
        logger.exception("pairing job %s failed", job_id)
        PairingJob.objects.filter(pk=job_id, status__in=PairingJob.ACTIVE).update(
            status=PairingJob.Status.FAILED, error=message[:2000], finished_at=db_now()
        )
        return "failed"


@transaction.atomic
def _finish_job(job_id: int, players, result) -> str:
    job = PairingJob.objects.select_related("tournament", "requested_by").get(pk=job_id)
    tournament = locked_tournament(job.tournament)
    job = PairingJob.objects.select_for_update().get(pk=job_id)
    if not job.active:
        return "nothing to do"
    last = tournament.rounds.order_by("-number").first()
    if tournament.status != Status.SWISS or (last.number if last else 0) + 1 != job.number:
        raise ValidationError(f"Round {job.number} is no longer the next round to pair.")
    if last is not None and last.status != Round.Status.CLOSED:
        raise ValidationError(f"Round {last.number} was reopened; close it and pair again.")
    if _job_players(tournament, job.number) != players:
        return "players changed"
    store = store_pod_round if tournament.pods else _store_round
    round_ = store(tournament, job.number, job.seed, result, job.requested_by)
    job.status = PairingJob.Status.DONE
    job.round = round_
    job.finished_at = db_now()
    job.save(update_fields=["status", "round", "finished_at"])
    return "done"


def _job_players(tournament, number: int) -> list:
    """The players a job seats: pairs or pods, as the event is run."""
    if tournament.pods:
        return selectors.pod_pairing_players(tournament, round_number=number)
    return selectors.pairing_players(tournament, round_number=number)


def _progress_writer(job_id: int):
    last = {"stage": None, "at": 0.0}

    def progress(stage: str, spent: int, coming: int) -> None:
        now = time.monotonic()
        if stage == last["stage"] and now - last["at"] < PROGRESS_INTERVAL:
            return
        last.update(stage=stage, at=now)
        PairingJob.objects.filter(pk=job_id, status=PairingJob.Status.RUNNING).update(
            stage=stage, work_done=spent, work_next=coming
        )

    return progress


def _start_swiss(tournament, by):
    registrations = tournament.registrations.select_for_update()
    if tournament.status == Status.CHECK_IN:
        # Check-in was used: whoever did not check in is not in the event.
        for registration in registrations.filter(
            checked_in=False, dropped=False, pairing_unit=True
        ):
            registration.dropped = True
            registration.dropped_after_round = 0
            registration.save(update_fields=["dropped", "dropped_after_round"])
            audit(tournament, by, "registration.dropped", registration, reason="did not check in")
    if tournament.is_team_event:
        drop_unconfirmed_teams(tournament, by)
    active = tournament.registrations.filter(dropped=False, pairing_unit=True).count()
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
def repair_round(*, round_: Round, by, seed: str | None = None) -> Round | PairingJob:
    """Throw away a draft pairing and pair the round again (in the background when it
    would take long, as pair_next_round)."""
    # A concurrent re-pair that held the lock first deleted this round (the new one has
    # a new id): the loser is told so instead of failing on the missing row.
    round_ = (
        Round.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .filter(pk=round_.pk)
        .first()
    )
    if round_ is None:
        raise Http404(_("This draft round no longer exists: it was paired again meanwhile."))
    require_manager(by, round_.tournament)
    if round_.status != Round.Status.DRAFT or round_.stage != Round.Stage.SWISS:
        raise ValidationError(_("Only a draft Swiss round can be paired again."))
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
    """The organiser exchanges two players between pairings (or pod tables) of a draft,
    with a reason."""
    round_ = locked_round(round_)
    require_manager(by, round_.tournament)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError(_("Pairings can be edited by hand only while the round is a draft."))
    if not (reason or "").strip():
        raise ValidationError(
            {"reason": [_("Say why the pairing is changed; it goes into the audit log.")]}
        )
    if first.pk == second.pk:
        raise ValidationError(_("Choose two different players."))
    if round_.tournament.pods:
        return swap_pod_players(round_, first, second, by, reason.strip())
    matches = list(round_.matches.select_for_update())
    where = {}
    for match in matches:
        for side in ("a", "b"):
            reg_id = getattr(match, f"player_{side}_id")
            if reg_id in (first.pk, second.pk):
                where[reg_id] = (match, side)
    if len(where) != 2:
        raise ValidationError(_("Both players must be paired in this round."))
    (m1, s1), (m2, s2) = where[first.pk], where[second.pk]
    if m1.pk == m2.pk:
        raise ValidationError(_("These two players are already paired together."))
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
        raise ValidationError(_("This round's pairings are already published."))
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


# Told of every round that starts, inside its transaction with the round row locked:
# tournaments.pod_online opens the online games of a pod round's tables (it sits above
# the services and registers in TournamentsConfig.ready).
_round_started = []


def on_round_started(listener) -> None:
    """Call ``listener(round_, by)`` when a round starts."""
    if listener not in _round_started:
        _round_started.append(listener)


@transaction.atomic
def start_round(*, round_: Round, by) -> Round:
    round_ = locked_round(round_)
    require_judge(by, round_.tournament)
    if round_.status != Round.Status.PUBLISHED:
        raise ValidationError(_("Publish the pairings before starting the round."))
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
    for listener in _round_started:
        listener(round_, by)
    return round_


@transaction.atomic
def close_round(*, round_: Round, by) -> Round:
    round_ = locked_round(round_)
    require_manager(by, round_.tournament)
    refresh_round_status(round_)
    if round_.status != Round.Status.COMPLETE and round_.tournament.pods:
        tables = ", ".join(str(t) for t in tables_without_placings(round_))
        raise ValidationError(
            _("Round %(number)s still has tables without placings (tables %(tables)s).")
            % {"number": round_.number, "tables": tables}
        )
    if round_.status != Round.Status.COMPLETE:
        missing = round_.matches.exclude(status=Match.Status.CONFIRMED).values_list(
            "table", flat=True
        )
        tables = ", ".join(str(t) for t in missing)
        raise ValidationError(
            _("Round %(number)s still has matches without a confirmed result (tables %(tables)s).")
            % {"number": round_.number, "tables": tables}
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
