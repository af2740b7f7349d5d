"""Swiss pods: seating a round at tables (tournaments/pairing/pods.py) and the judges'
placings per table (tournaments/pod_standings.py gives their rules and points)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.audit import audit
from tournaments.models import PodReport, PodSeat, PodTable, Round, Tournament
from tournaments.pairing.model import PairingError
from tournaments.pairing.pods import BEST_FOUND, evaluate_pods, pair_pods
from tournaments.pairing.seeded import seat_pods_by_seed
from tournaments.pod_standings import placing_errors
from tournaments.services.guards import require_judge
from tournaments.services.ratings import record_table_rating
from tournaments.services.results import refresh_round_status

# The round statuses in which a table's placings may be entered or corrected.
OPEN_FOR_PLACINGS = (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS, Round.Status.COMPLETE)


def seat_pod_round(tournament, number: int, seed: str, by, *, work_limit=None) -> Round:
    """Seat round ``number`` of an event in pods as a draft (a round the core cannot prove
    optimal is seated with its best seating found, its bound stored beside its cost); a seating that would pass ``work_limit`` raises PairingDeferred (the caller hands it
    to a background job, docs/pairing.md "Background pairing")."""
    players = selectors.pod_pairing_players(tournament, round_number=number)
    result = pod_seating(tournament, players, number, seed, work_limit=work_limit)
    return store_pod_round(tournament, number, seed, result, by)


def pod_seating(tournament, players, number: int, seed: str, *, work_limit=None, progress=None):
    """The core's seating of ``players`` (pair_pods); round 1 of an
    event seeded by rating by the players' ratings in its game instead (seat_pods_by_seed,
    docs/pairing.md "Round 1 by rating in pods")."""
    if len(players) < 2:
        raise ValidationError(_("At least two active players are needed to pair a round."))
    if number == 1 and tournament.round_one_seeding == Tournament.RoundOneSeeding.RATING:
        # A fixed order: never costly, never deferred.
        order = selectors.rating_order(players, seed)
        return seat_pods_by_seed(players, order, number, seed, tournament.pod_mode)
    return pair_pods(
        players, number, seed, tournament.pod_mode, work_limit=work_limit, progress=progress
    )


def _cost_dict(cost) -> dict:
    return {
        "repeats": cost.repeats,
        "short_excess": cost.short_excess,
        "spread": str(cost.spread),
        "short_rank_offset": cost.short_rank_offset,
    }


def store_pod_round(tournament, number: int, seed: str, result, by) -> Round:
    """The draft round of a seating: its tables and seats, and the audit entry. A seating
    not proved optimal keeps the bound it was measured against (words.pod_proof_in_words)."""
    pairing_cost = {**_cost_dict(result.cost), "method": result.method}
    if result.method == BEST_FOUND:
        pairing_cost["bound"] = _cost_dict(result.bound)
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        stage=Round.Stage.SWISS,
        pairing_seed=seed,
        pairing_cost=pairing_cost,
    )
    tables = PodTable.objects.bulk_create(
        PodTable(round=round_, number=table.number, size=table.size) for table in result.tables
    )
    seats = [
        PodSeat(table=row, round=round_, registration_id=pid, seat=seat)
        for row, table in zip(tables, result.tables, strict=True)
        for seat, pid in enumerate(table.player_ids, start=1)
    ]
    if result.bye is not None:
        # A lone player: a table of one seat, placed first (a bye scores as a win).
        bye = PodTable.objects.create(round=round_, number=len(tables) + 1, size=1)
        seats.append(
            PodSeat(table=bye, round=round_, registration_id=result.bye, seat=1, placing=1)
        )
    PodSeat.objects.bulk_create(seats)
    audit(
        tournament,
        by,
        "round.paired",
        round_,
        after={"number": number, "seed": seed, "cost": round_.pairing_cost, "pods": True},
    )
    return round_


# The method of a draft whose seating an organiser changed by hand (no claim of optimality).
BY_HAND = "by_hand"


def swap_pod_players(round_: Round, first, second, by, reason: str) -> Round:
    """Exchange two players between tables of a pod draft, with the seating's new cost
    (services.swap_players_in_draft checks the draft, the reason and the two players and
    holds the round's lock). The cost as paired is kept beside it, from the first swap."""
    seats = {
        seat.registration_id: seat
        for seat in PodSeat.objects.select_for_update()
        .select_related("table")
        .filter(round=round_, registration_id__in=(first.pk, second.pk))
    }
    if len(seats) != 2:
        raise ValidationError(_("Both players must be seated in this round."))
    one, two = seats[first.pk], seats[second.pk]
    if one.table_id == two.table_id:
        raise ValidationError(_("These two players already sit at the same table."))
    before = {"first": [one.table.number, one.seat], "second": [two.table.number, two.seat]}
    # Each takes the other's seat: the rows are written anew, as a swap in place would
    # meet the one-seat-per-player constraint halfway.
    PodSeat.objects.filter(pk__in=(one.pk, two.pk)).delete()
    PodSeat.objects.bulk_create(
        [
            PodSeat(table=one.table, round=round_, registration=second, seat=one.seat),
            PodSeat(table=two.table, round=round_, registration=first, seat=two.seat),
        ]
    )
    tables: dict[int, list[int]] = {}
    for table_id, reg_id in (
        PodSeat.objects.filter(round=round_, table__size__gt=1)
        .order_by("table__number", "seat")
        .values_list("table_id", "registration_id")
    ):
        tables.setdefault(table_id, []).append(reg_id)
    tournament = round_.tournament
    players = selectors.pod_pairing_players(tournament, round_number=round_.number)
    try:
        cost = evaluate_pods(players, list(tables.values()), tournament.pod_mode)
    except PairingError:  # a player dropped or entered since the draft was seated
        raise ValidationError(
            _("The draft no longer seats the active players; pair the round again.")
        ) from None
    paired = round_.pairing_cost.get("paired") or round_.pairing_cost
    round_.pairing_cost = {**_cost_dict(cost), "method": BY_HAND, "paired": paired}
    round_.save(update_fields=["pairing_cost"])
    audit(
        tournament,
        by,
        "pairing.edited",
        round_,
        before=before,
        after={"players": [first.player_id, second.player_id], "cost": round_.pairing_cost},
        reason=reason,
    )
    return round_


def placings_by_seat(table: PodTable, given: dict) -> dict[int, int]:
    """The table's placings keyed by registration id, checked: every player at the table
    exactly once, each a whole number, and the places the core's rules allow (1 to the
    table's size; players sharing a place leave the places they cover empty: 1, 1, 3)."""
    seated = [seat.registration_id for seat in table.seats.all()]
    errors = []
    cleaned: dict[int, int] = {}
    for key, value in given.items():
        try:
            reg_id = int(key)
        except (TypeError, ValueError):
            errors.append(_("“%(value)s” is not a player at this table.") % {"value": key})
            continue
        if reg_id not in seated:
            errors.append(_("“%(value)s” is not a player at this table.") % {"value": key})
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            try:
                value = int(str(value).strip())
            except ValueError:
                errors.append(
                    _("Every placing is a whole number from 1 to %(size)s.") % {"size": table.size}
                )
                continue
        cleaned[reg_id] = value
    if errors:
        raise ValidationError(list(dict.fromkeys(errors)))  # each reason once
    missing = [pid for pid in seated if pid not in cleaned]
    if missing:
        raise ValidationError(_("Give a placing for every player at the table."))
    problems = placing_errors([cleaned[pid] for pid in seated])
    if problems:
        raise ValidationError(problems)
    return cleaned


@transaction.atomic
def record_placings(*, table: PodTable, placings: dict, by) -> PodTable:
    """A judge enters (or corrects, until the round closes) one table's placings:
    ``placings`` maps each seated registration id to its place. Bad input changes nothing."""
    round_ = Round.objects.select_for_update(of=("self",)).select_related("tournament")
    round_ = round_.get(pk=table.round_id)
    require_judge(by, round_.tournament)
    if round_.status not in OPEN_FOR_PLACINGS:
        if round_.status == Round.Status.DRAFT:
            raise ValidationError(_("Publish the pairings before entering placings."))
        raise ValidationError(_("This round is closed: its placings can no longer change."))
    table = PodTable.objects.prefetch_related("seats").get(pk=table.pk)
    if table.is_bye:
        raise ValidationError(_("A bye has no placings to enter."))
    cleaned = placings_by_seat(table, placings)
    seats = list(table.seats.all())
    before = {str(seat.registration_id): seat.placing for seat in seats}
    for seat in seats:
        seat.placing = cleaned[seat.registration_id]
    PodSeat.objects.bulk_update(seats, ["placing"])
    # The judge's entry settles whatever the players reported (services/pod_reports.py).
    settled = list(
        PodReport.objects.filter(table=table, status__in=PodReport.OPEN).values_list(
            "number", flat=True
        )
    )
    PodReport.objects.filter(table=table, status__in=PodReport.OPEN).update(
        status=PodReport.Status.SUPERSEDED
    )
    record_table_rating(table)  # a correction replays the later ratings (docs/ratings.md)
    audit(
        round_.tournament,
        by,
        "pod.placings",
        table,
        before=before if any(v is not None for v in before.values()) else None,
        after={
            "round": round_.number,
            "table": table.number,
            "placings": {str(pid): place for pid, place in cleaned.items()},
            **({"settled_reports": settled} if settled else {}),
        },
    )
    refresh_round_status(round_)
    return table


def tables_without_placings(round_: Round) -> list[int]:
    return sorted(
        set(
            PodSeat.objects.filter(round=round_, placing__isnull=True).values_list(
                "table__number", flat=True
            )
        )
    )
