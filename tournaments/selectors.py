"""Reads: everything a page, the API or a service needs, in a constant number of queries."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from operator import itemgetter

from django.db import connections
from django.db.models import (
    BooleanField,
    Case,
    F,
    IntegerField,
    Prefetch,
    Q,
    QuerySet,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from players.models import Rating as PlayerRating
from tournaments.conventions import conventions_of
from tournaments.match_rules import format_score
from tournaments.models import (
    Match,
    PodSeat,
    PodTable,
    Registration,
    Round,
    SetSwap,
    Team,
    Tournament,
)
from tournaments.pairing import PairingPlayer
from tournaments.pairing.pods import PodPlayer, full_size
from tournaments.pairing.topcut import record_winners, seed_bracket
from tournaments.placings import BracketLosers, Placing, final_placings
from tournaments.pod_standings import BYE_POINTS, PodRow, table_points
from tournaments.pod_standings import PodSeat as PureSeat
from tournaments.pod_standings import pod_standings as compute_pod_standings
from tournaments.ratings import Rating, seeding_key, side_rating
from tournaments.standings import (
    MatchRecord,
    PlayerEntry,
    Standings,
    compute_phased_standings,
    compute_standings,
    usable_tiebreakers,
)


def _matches_of(
    tournament_id: int, registration_id: int, queryset: QuerySet[Match] | None = None
) -> QuerySet[Match]:
    """One player's matches in one tournament, the latest round first."""
    queryset = Match.objects.all() if queryset is None else queryset
    return (
        queryset.filter(round__tournament=tournament_id)
        .filter(Q(player_a=registration_id) | Q(player_b=registration_id))
        .order_by("-round__number")
    )


def current_match(
    tournament_id: int, registration_id: int, *, queryset: QuerySet[Match] | None = None
) -> Match | None:
    """The player's current match: the one in the latest round with published pairings,
    whatever its result (what "my match" shows). ``queryset`` adds the related rows the
    caller needs."""
    matches = _matches_of(tournament_id, registration_id, queryset)
    return matches.exclude(round__status=Round.Status.DRAFT).first()


def match_awaiting_result(registration: Registration) -> Match | None:
    """The player's latest match without a confirmed result, pairings published or not:
    the match a penalty applies to when the judge names none."""
    matches = _matches_of(registration.tournament_id, registration.pk)
    return matches.exclude(status=Match.Status.CONFIRMED).first()


def match_score(match: Match) -> str:
    """The confirmed result as people read it ("2-1", "1-1-1"); empty until confirmed."""
    if match.status != Match.Status.CONFIRMED:
        return ""
    return format_score(match.games_a, match.games_b, match.games_drawn)


def _swiss_matches(tournament) -> list[Match]:
    return list(
        Match.objects.filter(round__tournament=tournament, round__stage=Round.Stage.SWISS)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round")
        .order_by("round__number", "table")
    )


def match_records(tournament, registrations, matches) -> list[MatchRecord]:
    """Confirmed Swiss results as the standings see them, plus missed rounds of late entries."""
    records = []
    for match in matches:
        if match.status != Match.Status.CONFIRMED:
            continue
        number = match.round.number
        if match.is_bye:
            records.append(MatchRecord.bye(number, match.player_a_id, tournament.games_to_win))
        else:
            records.append(
                MatchRecord(
                    number,
                    match.player_a_id,
                    match.player_b_id,
                    match.games_a,
                    match.games_b,
                    match.games_drawn,
                    match.match_loss_a,
                    match.match_loss_b,
                )
            )
    if tournament.late_entry == Tournament.LateEntry.LOSSES:
        for registration in registrations:
            for number in range(1, (registration.late_entry_round or 1)):
                records.append(
                    MatchRecord.missed_round_loss(number, registration.pk, tournament.games_to_win)
                )
    return records


def _standings_input(
    tournament, number_of: dict[int, int] | None = None
) -> tuple[list[PlayerEntry], list[MatchRecord]]:
    """The players and the confirmed Swiss results, read as plain values (three queries):
    an event of 16,384 players has a quarter of a million results, and building a model
    instance for each costs far more than the standings themselves. The results are
    asked by their rounds' ids, which lets PostgreSQL read them by the round index
    rather than join every match of every event with its round; the database writes each
    result as the standings count it (the round's number, a bye as a match won by the
    games a win takes, as match_records does), so the rows become MatchRecords as they
    are. ``number_of``: those rounds (id -> number) when the caller has read them already."""
    # PlayerEntry's fields (no count of rounds to check), then the round of a late entry.
    registrations = _plain_rows(
        Registration.objects.filter(tournament=tournament, pairing_unit=True)
        .annotate(entry_name=Coalesce("team__name", "player__display_name"))
        .values_list(
            "pk",
            "entry_name",
            "dropped",
            Value(None, output_field=IntegerField()),
            "cut_after_round",
            "late_entry_round",
        ),
    )
    players = list(map(_as(PlayerEntry), map(itemgetter(slice(5)), registrations)))
    if number_of is None:
        number_of = {pk: number for pk, number, _ in swiss_rounds(tournament)}
    records = []
    if number_of:
        bye = Q(player_b__isnull=True)

        def unless_bye(field: str, value, output_field) -> Case:
            return Case(When(bye, then=Value(value)), default=F(field), output_field=output_field)

        confirmed = (
            Match.objects.filter(round__in=list(number_of), status=Match.Status.CONFIRMED)
            .order_by("round_id", "table")
            .values_list(
                Case(
                    *(When(round_id=pk, then=Value(number)) for pk, number in number_of.items()),
                    output_field=IntegerField(),
                ),
                "player_a_id",
                "player_b_id",
                unless_bye("games_a", tournament.games_to_win, IntegerField()),
                unless_bye("games_b", 0, IntegerField()),
                unless_bye("games_drawn", 0, IntegerField()),
                unless_bye("match_loss_a", False, BooleanField()),
                unless_bye("match_loss_b", False, BooleanField()),
            )
        )
        records = list(map(_as(MatchRecord), _plain_rows(confirmed)))
    if tournament.late_entry == Tournament.LateEntry.LOSSES:
        for pk, _, _, _, _, late_entry_round in registrations:
            for number in range(1, (late_entry_round or 1)):
                records.append(MatchRecord.missed_round_loss(number, pk, tournament.games_to_win))
    return players, records


def _plain_rows(queryset: QuerySet) -> list[tuple]:
    """A ``values_list`` queryset's rows as PostgreSQL's cursor gives them: iterating the
    queryset would copy each row into a new tuple in Python, which for 100,000 rows
    costs more than the query. Only for values PostgreSQL gives as Python wants them
    (integers, booleans, text); other databases (SQLite's booleans are 0 and 1) go
    through Django's conversions. ``_as(RowType)`` makes each row a named tuple of the
    same fields, in C."""
    connection = connections[queryset.db]
    if connection.vendor != "postgresql":
        return list(queryset)
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _as(row_type: type[tuple]):
    return partial(tuple.__new__, row_type)


def standings(
    tournament,
    *,
    registrations=None,
    matches=None,
    as_of_round: int | None = None,
    rounds: list[tuple[int, int, str]] | None = None,
) -> Standings:
    """Standings of the Swiss stage: three queries whatever the size of the event (none
    when the caller gives the registrations, with their players, and the matches).
    ``as_of_round`` = N: the table as it stood after round N (when N+1 was paired).
    ``rounds``: ``swiss_rounds(tournament)`` when the caller has read it (one query less)."""
    if registrations is None and matches is None:
        number_of = None if rounds is None else {pk: number for pk, number, _ in rounds}
        players, records = _standings_input(tournament, number_of)
    else:
        registrations = (
            registrations
            if registrations is not None
            else list(
                Registration.objects.filter(
                    tournament=tournament, pairing_unit=True
                ).select_related("player", "team")
            )
        )
        matches = matches if matches is not None else _swiss_matches(tournament)
        players = [
            PlayerEntry(
                r.pk,
                r.entry_name,
                dropped=r.dropped,
                cut_after_round=r.cut_after_round,
            )
            for r in registrations
        ]
        records = match_records(tournament, registrations, matches)
    options = {
        "conventions": conventions_of(tournament),
        "tiebreakers": usable_tiebreakers(tournament.tiebreakers),
        "as_of_round": as_of_round,
        "seed": random_tiebreak_seed(tournament),
    }
    if tournament.swiss_phase_ends:
        # The final phase ends with the last round played; the setting lists the others.
        last = max((record.round_number for record in records), default=0)
        ends = sorted({*tournament.swiss_phase_ends, max(last, *tournament.swiss_phase_ends)})
        return compute_phased_standings(players, records, phase_ends=ends, **options)
    return compute_standings(players, records, **options)


def not_advanced_names(tournament, round_: Round) -> list[str]:
    """Names of the players cut into this round's Swiss phase (the first round of a new
    phase; empty for any other round): one query, none when no phase ends before it."""
    if round_.stage != Round.Stage.SWISS or round_.number - 1 not in tournament.swiss_phase_ends:
        return []
    return list(
        Registration.objects.filter(
            tournament=tournament, cut_after_round=round_.number - 1, pairing_unit=True
        )
        .annotate(entry_name=Coalesce("team__name", "player__display_name"))
        .order_by("entry_name", "pk")
        .values_list("entry_name", flat=True)
    )


def requested_round(tournament, raw: str | None, played: list[int] | None = None) -> int | None:
    """The ``?round=N`` of a standings request: None for the current table, else a Swiss
    round with published pairings (``played``: their numbers, when the caller has them).
    ValueError with a message a person reads otherwise."""
    if raw is None or raw == "":
        return None
    played = swiss_rounds_played(tournament) if played is None else played
    if not raw.isascii() or not raw.isdigit() or int(raw) not in played:
        choices = ", ".join(map(str, played)) or "none yet"
        raise ValueError(f"round must be the number of a Swiss round played ({choices}).")
    return int(raw)


def swiss_rounds(tournament) -> list[tuple[int, int, str]]:
    """The Swiss rounds with published pairings as (id, number, status), by number."""
    return list(
        Round.objects.filter(tournament=tournament, stage=Round.Stage.SWISS)
        .exclude(status=Round.Status.DRAFT)
        .order_by("number")
        .values_list("pk", "number", "status")
    )


def swiss_rounds_played(tournament) -> list[int]:
    """Numbers of the Swiss rounds with published pairings, for the round selector."""
    return list(
        Round.objects.filter(tournament=tournament, stage=Round.Stage.SWISS)
        .exclude(status=Round.Status.DRAFT)
        .order_by("number")
        .values_list("number", flat=True)
    )


def random_tiebreak_seed(tournament) -> str:
    """The seed of the ``random`` tiebreaker: fixed by the tournament's id and creation
    time, so every computation of its standings draws the same numbers."""
    return f"tournament:{tournament.pk}:{tournament.created_at.isoformat()}"


def match_points(tournament) -> dict[int, int]:
    """Each registration's match points in the current standings (pairings show them)."""
    return {row.player_id: row.match_points for row in standings(tournament)}


def points_at_pairing(tournament, round_number: int) -> dict[int, int]:
    """Each registration's match points when round ``round_number`` was paired: the
    Swiss results of the rounds before it (standings as of round N-1), so a later result
    does not change what the round's pairings show. Two queries; none for round 1."""
    if round_number <= 1:
        return {}
    table = standings(tournament, as_of_round=round_number - 1)
    return {row.player_id: row.match_points for row in table}


def pairing_players(tournament, *, round_number: int) -> list[PairingPlayer]:
    """The pairing units: every registration of an individual event, each team's
    captain's registration (standing for the team) of a team event."""
    registrations = list(
        Registration.objects.filter(tournament=tournament, pairing_unit=True).select_related(
            "player", "team"
        )
    )
    matches = _swiss_matches(tournament)
    table = standings(tournament, registrations=registrations, matches=matches)
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: dict[int, int] = defaultdict(int)
    for match in matches:
        if match.is_bye:
            byes[match.player_a_id] += 1
        else:
            opponents[match.player_a_id].add(match.player_b_id)
            opponents[match.player_b_id].add(match.player_a_id)
    players = []
    for registration in registrations:
        if registration.dropped or (registration.late_entry_round or 1) > round_number:
            continue
        if registration.cut_after_round is not None and registration.cut_after_round < round_number:
            continue  # did not make the cut into this Swiss phase
        row = table.row(registration.pk)
        players.append(
            PairingPlayer(
                id=registration.pk,
                points=row.match_points,
                opponents=frozenset(opponents[registration.pk]),
                byes=byes[registration.pk],
                rank=row.rank,
            )
        )
    return players


def rating_order(players: list[PairingPlayer], seed: str) -> list[int]:
    """The registration ids of ``players`` by their rating in the event's game, best
    first (tournaments.ratings.seeding_key); a team (its captain's registration) by its
    members' average (side_rating). Equal ratings (newcomers) in an order drawn from the
    round's seed. Three queries whatever the field."""
    units = list(
        Registration.objects.filter(pk__in=[p.id for p in players]).select_related("tournament")
    )
    if not units:
        return []
    game = units[0].tournament.game
    members: dict[int, list[int]] = {u.pk: [u.player_id] for u in units}
    teams = {u.team_id: u.pk for u in units if u.team_id is not None}
    if teams:
        for unit in teams.values():
            members[unit] = []
        for team_id, player_id in Registration.objects.filter(team_id__in=teams).values_list(
            "team_id", "player_id"
        ):
            members[teams[team_id]].append(player_id)
    everyone = {player for ids in members.values() for player in ids}
    stored = {
        row.player_id: Rating(row.mu, row.sigma)
        for row in PlayerRating.objects.filter(player_id__in=everyone, game=game)
    }
    ratings = {
        pk: side_rating([stored.get(player) for player in ids]) for pk, ids in members.items()
    }
    ids = sorted(ratings)
    draws = random.Random(f"{seed}/by_rating")
    tiebreak = {pid: draws.random() for pid in ids}
    return sorted(ids, key=lambda pid: seeding_key(ratings[pid], tiebreak[pid]))


def _ordered_swaps(registration: Registration, *, exclude=None):
    swaps = (
        SetSwap.objects.filter(registration=registration, superseded=False)
        .select_related("match__round")
        .order_by("match__round__number", "before_game", "created_at")
    )
    return [s for s in swaps if exclude is None or s.pk != exclude.pk]


def current_sets(registration: Registration, *, exclude=None) -> tuple[list[dict], list[dict]]:
    """The playing and additional sets after every swap so far (the last swap wins)."""
    swaps = _ordered_swaps(registration, exclude=exclude)
    if swaps:
        return list(swaps[-1].playing_after), list(swaps[-1].additional_after)
    return list(registration.playing_dice), list(registration.additional_dice)


def playing_set_for_game(registration: Registration, match: Match, game_number: int) -> list[dict]:
    """The playing set in force for one game: every swap made before it."""
    playing = list(registration.playing_dice)
    for swap in _ordered_swaps(registration):
        round_number = swap.match.round.number
        if round_number < match.round.number or (
            swap.match_id == match.pk and swap.before_game <= game_number
        ):
            playing = list(swap.playing_after)
    return playing


def bracket(tournament):
    """The top-cut bracket: the stored seeds replayed with the confirmed winners."""
    seeds = tournament.top_cut_seeds
    result = seed_bracket(seeds, len(seeds))
    winners = (
        Match.objects.filter(
            round__tournament=tournament,
            round__stage=Round.Stage.TOP_CUT,
            status=Match.Status.CONFIRMED,
        )
        .order_by("round__number", "bracket_position")
        .values_list("winner_id", flat=True)
    )
    return record_winners(result, [w for w in winners if w is not None])


def placings(tournament, *, table: Standings | None = None) -> tuple[Placing, ...] | None:
    """The final placings (tournaments.placings) once the event is finished, else None:
    the top cut first, then the Swiss order. Three queries, four with a top cut; one
    less with ``table``, the current standings the caller already has."""
    if tournament.status != Tournament.Status.FINISHED:
        return None
    if tournament.pods:
        return _pod_placings(tournament)
    if table is None or table.as_of_round is not None:
        table = standings(tournament)
    disqualified = Registration.objects.filter(tournament=tournament, disqualified=True).order_by()
    return final_placings(
        table.rows,
        bracket(tournament) if tournament.top_cut_seeds else None,
        bracket_losers=BracketLosers(tournament.bracket_losers),
        disqualified=set(disqualified.values_list("pk", flat=True)),
    )


@dataclass(frozen=True)
class _PodPlacingRow:
    """What final_placings reads of a standings row, from a pod standings row."""

    player_id: int
    rank: int
    name: str
    dropped: bool


def _pod_placings(tournament) -> tuple[Placing, ...]:
    """An event in pods has no top cut: the final placings are the pod standings."""
    rows = [
        _PodPlacingRow(row["registration"], row["rank"], row["player"], row["dropped"])
        for row in pod_standings_rows(tournament)
    ]
    disqualified = Registration.objects.filter(tournament=tournament, disqualified=True).order_by()
    return final_placings(rows, None, disqualified=set(disqualified.values_list("pk", flat=True)))


_QUEUE_STATUS_ORDER = {
    Match.Status.DISPUTED: 1,
    Match.Status.REPORTED: 2,
    Match.Status.PENDING: 3,
    Match.Status.CONFIRMED: 4,
}


def judges_queue_key(match: Match) -> tuple:
    """The order of the judges' queue: matches whose time was called without a result
    first, then disputed, reported and pending ones; confirmed last; by table."""
    time_called_open = match.time_called_at is not None and match.status != Match.Status.CONFIRMED
    return (
        0 if time_called_open else _QUEUE_STATUS_ORDER.get(match.status, 5),
        match.table or 0,
        match.pk,
    )


def bracket_view(tournament, *, show_winners: bool) -> dict:
    """The top-cut bracket as the API and the bracket page show it (the shape of
    tournaments.serializers.BracketSerializer): seeds and slots with names, winners, game
    scores and the champion only when ``show_winners``. Two queries."""
    if not tournament.top_cut_seeds:
        return {"started": False, "detail": "No top cut yet.", "rounds": []}
    seeds = tournament.top_cut_seeds
    confirmed = list(
        Match.objects.filter(
            round__tournament=tournament,
            round__stage=Round.Stage.TOP_CUT,
            status=Match.Status.CONFIRMED,
        )
        .order_by("round__number", "bracket_position")
        .values(
            "round__number",
            "bracket_position",
            "winner_id",
            "player_a_id",
            "games_a",
            "games_b",
            "games_drawn",
        )
    )
    # The same replay as ``bracket`` (its query, with the games of each match).
    result = record_winners(
        seed_bracket(seeds, len(seeds)), [m["winner_id"] for m in confirmed if m["winner_id"]]
    )
    first = min((m["round__number"] for m in confirmed), default=0)
    games = {(m["round__number"] - first + 1, m["bracket_position"]): m for m in confirmed}
    names = dict(
        Registration.objects.filter(pk__in=result.seeds)
        .annotate(entry_name=Coalesce("team__name", "player__display_name"))
        .values_list("pk", "entry_name")
    )

    def slot(player_id, seed):
        if player_id is None:
            return None
        return {"registration": player_id, "name": names.get(player_id), "seed": seed}

    def score(match) -> str | None:
        """The games won, slot a's first ("2-1", "1-1-1" with a drawn game)."""
        row = games.get((match.round_number, match.position))
        if not show_winners or row is None:
            return None
        won_a, won_b = row["games_a"], row["games_b"]
        if row["player_a_id"] != match.player_a:
            won_a, won_b = won_b, won_a
        return format_score(won_a, won_b, row["games_drawn"])

    return {
        "started": True,
        "detail": None,
        "size": result.size,
        "seeds": [slot(pid, n) for n, pid in enumerate(result.seeds, start=1)],
        "champion": result.champion if show_winners else None,
        "rounds": [
            {
                "number": r.round_number,
                "name": r.name,
                "matches": [
                    {
                        "position": m.position,
                        "a": slot(m.player_a, m.seed_a),
                        "b": slot(m.player_b, m.seed_b),
                        "winner": m.winner if show_winners else None,
                        "score": score(m),
                    }
                    for m in r.matches
                ],
            }
            for r in result.rounds
        ],
    }


# --- team events ----------------------------------------------------------------------


def teams(tournament) -> QuerySet[Team]:
    """A team event's teams with their members and players: two queries."""
    members = Registration.objects.select_related("player").order_by("-pairing_unit", "pk")
    return (
        Team.objects.filter(tournament=tournament)
        .select_related("unit")
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("name", "pk")
    )


def playing_unit_id(tournament, registration_id: int) -> int:
    """The registration whose matches a registration plays: its own, or in a team event
    its team's captain's (one query then, none in an individual event)."""
    if not tournament.is_team_event:
        return registration_id
    unit = Team.objects.filter(members=registration_id).values_list("unit_id", flat=True).first()
    return unit or registration_id


def team_matches(team: Team, rounds, *, show_results: bool) -> list[dict]:
    """The team's matches in ``rounds`` (the rounds the viewer sees) from the team's side
    (the shape of serializers.TeamMatchSerializer): one query."""
    unit = team.unit_id
    matches = (
        Match.objects.filter(round__in=rounds)
        .filter(Q(player_a=unit) | Q(player_b=unit))
        .select_related(
            "round", "player_a__player", "player_a__team", "player_b__player", "player_b__team"
        )
        .order_by("round__number", "pk")
    )
    rows = []
    for match in matches:
        mine_a = match.player_a_id == unit
        other = match.player_b if mine_a else match.player_a
        known = show_results and match.status == Match.Status.CONFIRMED
        won, lost = (match.games_a, match.games_b) if mine_a else (match.games_b, match.games_a)
        outcome = None
        if known:
            if match.winner_id == unit:
                outcome = "win"
            elif match.winner_id is not None:
                outcome = "loss"
            else:
                outcome = "draw"
        rows.append(
            {
                "match": match.pk,
                "round": match.round.number,
                "stage": match.round.stage,
                "table": match.table,
                "opponent": other.entry_name if other is not None else None,
                "opponent_team": other.team_id if other is not None else None,
                "score": format_score(won, lost, match.games_drawn) if known else None,
                "outcome": outcome,
            }
        )
    return rows


# --- Swiss pods (docs/pairing.md "Swiss pods") ------------------------------------------------


def pod_seats(tournament, *, up_to_round: int | None = None) -> list[PodSeatRecord]:
    """Every seat of the event's pod rounds (up to a round) as the pure standings see it;
    a table of one seat is a bye. One query."""
    rows = PodSeat.objects.filter(round__tournament=tournament, round__stage=Round.Stage.SWISS)
    if up_to_round is not None:
        rows = rows.filter(round__number__lte=up_to_round)
    return [
        PodSeatRecord(round_number, table_id, size, registration_id, placing)
        for round_number, table_id, size, registration_id, placing in rows.values_list(
            "round__number", "table_id", "table__size", "registration_id", "placing"
        ).order_by("round__number", "table_id", "seat")
    ]


@dataclass(frozen=True)
class PodSeatRecord:
    round_number: int
    table_id: int
    size: int
    registration_id: int
    placing: int | None


def pod_table(tournament, *, registrations=None, up_to_round: int | None = None) -> list[PodRow]:
    """The pod standings (tournaments/pod_standings.py) of every registration, from the
    tables whose placings are all in. Two queries (one with ``registrations`` given)."""
    if registrations is None:
        registrations = list(Registration.objects.filter(tournament=tournament))
    records = pod_seats(tournament, up_to_round=up_to_round)
    return _pod_rows(registrations, records)


def _pod_rows(registrations, records: list[PodSeatRecord]) -> list[PodRow]:
    seats = [
        PureSeat(r.round_number, r.table_id, r.registration_id, r.placing)
        for r in records
        if r.size > 1
    ]
    byes = [(r.round_number, r.registration_id) for r in records if r.size == 1]
    return compute_pod_standings([reg.pk for reg in registrations], seats, byes)


def pod_pairing_players(tournament, *, round_number: int) -> list[PodPlayer]:
    """The active players of a pod round with their pod points, who they have met, their
    short tables (byes count) and their rank. Two queries."""
    registrations = list(Registration.objects.filter(tournament=tournament))
    records = pod_seats(tournament, up_to_round=round_number - 1)
    rows = {row.player_id: row for row in _pod_rows(registrations, records)}
    full = full_size(tournament.pod_mode)
    tables: dict[int, list[int]] = defaultdict(list)
    sizes: dict[int, int] = {}
    for record in records:
        tables[record.table_id].append(record.registration_id)
        sizes[record.table_id] = record.size
    opponents: dict[int, set[int]] = defaultdict(set)
    short: dict[int, int] = defaultdict(int)
    for table_id, members in tables.items():
        for pid in members:
            opponents[pid].update(other for other in members if other != pid)
            if sizes[table_id] < full:
                short[pid] += 1
    players = []
    for registration in registrations:
        if registration.dropped or (registration.late_entry_round or 1) > round_number:
            continue
        row = rows[registration.pk]
        players.append(
            PodPlayer(
                id=registration.pk,
                points=row.points,
                opponents=frozenset(opponents[registration.pk]),
                short_tables=short[registration.pk],
                rank=row.rank,
            )
        )
    return players


def pod_round_tables(round_: Round) -> list:
    """A round's pod tables, best first, each with its seats (in seat order, with the
    player) prefetched: two queries."""
    seats = PodSeat.objects.select_related("registration__player").order_by("seat")
    return list(
        PodTable.objects.filter(round=round_)
        .order_by("number")
        .prefetch_related(Prefetch("seats", queryset=seats))
    )


def pod_points_at_pairing(tournament, round_number: int) -> dict[int, Fraction]:
    """Each registration's pod points when round ``round_number`` was seated: two queries."""
    return {
        row.player_id: row.points for row in pod_table(tournament, up_to_round=round_number - 1)
    }


def format_pod_points(points) -> str:
    """Pod points as people write them: 3, 2.5, 1.5; thirds as 1 1/3."""
    points = Fraction(points)
    if points.denominator == 1:
        return str(points.numerator)
    if points.denominator == 2:
        return f"{float(points):g}"
    whole, rest = divmod(points.numerator, points.denominator)
    return f"{whole} {rest}/{points.denominator}" if whole else f"{rest}/{points.denominator}"


def pod_round_answer(round_: Round, *, show_results: bool, tables=None) -> dict:
    """A round's tables as the API, the pages and the CSV show them (placings and their
    points only with ``show_results``). Two queries unless ``tables`` are given."""
    tables = pod_round_tables(round_) if tables is None else tables
    out = []
    for table in tables:
        seats = list(table.seats.all())
        complete = all(seat.placing is not None for seat in seats)
        points = [None] * len(seats)
        if complete and not table.is_bye:
            points = [str(p) for p in table_points([seat.placing for seat in seats])]
        elif table.is_bye:
            points = [str(BYE_POINTS)]
        out.append(
            {
                "id": table.pk,
                "number": table.number,
                "size": table.size,
                "bye": table.is_bye,
                "complete": complete,
                "seats": [
                    {
                        "seat": seat.seat,
                        "registration": seat.registration_id,
                        "player": seat.registration.player.display_name,
                        "placing": seat.placing if show_results else None,
                        "points": point if show_results else None,
                    }
                    for seat, point in zip(seats, points, strict=True)
                ],
            }
        )
    return {"pods": True, "round": round_.number, "status": round_.status, "tables": out}


def pod_standings_rows(tournament, *, as_of_round: int | None = None) -> list[dict]:
    """The pod standings as rows for the API, the page and the CSV: two queries."""
    registrations = list(
        Registration.objects.filter(tournament=tournament).select_related("player")
    )
    by_id = {r.pk: r for r in registrations}
    rows = pod_table(tournament, registrations=registrations, up_to_round=as_of_round)
    return [
        {
            "rank": row.rank,
            "registration": row.player_id,
            "player": by_id[row.player_id].player.display_name,
            "dropped": by_id[row.player_id].dropped,
            "points": str(row.points),
            "points_display": format_pod_points(row.points),
            "tables": row.tables,
            "byes": row.byes,
            "opponents_placing": str(row.opponents_placing),
            "placing": str(row.placing),
            "opponents_opponents_placing": str(row.opponents_opponents_placing),
        }
        for row in rows
    ]
