"""Ratings across events, one per player per game: every confirmed match (two players
or two teams) and every pod table's placings update the ratings of everyone who
played, in the transaction that records them (docs/ratings.md).

The history (``RatingChange``: a row per player per rated occasion, in the order the
occasions were first confirmed) is the truth; ``players.Rating`` is each player's latest
figure in each game. A first confirmation appends to the history; a correction that
changes the places rewrites that occasion's rows in place and replays every later
occasion of the same game that involves a player whose rating changed (the same figures
a replay of the whole history gives, ``recompute_ratings``). One lock (a PostgreSQL
advisory lock, held to the end of the transaction) serialises every write to the
ratings, so the history's order is the order in which the ratings were computed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db import connection, transaction

from players.models import Rating as PlayerRating
from tournaments.models import (
    AuditEntry,
    Match,
    PodSeat,
    PodTable,
    RatingChange,
    Registration,
    ResultSubmission,
)
from tournaments.ratings import (
    PLACES,
    START,
    WIN_A,
    WIN_B,
    RatedOccasion,
    Rating,
    rate_sides,
    rated_outcome,
    replay,
)

# pg_advisory_xact_lock key of the ratings ("IRDR").
RATINGS_LOCK = 0x49524452

Occasion = tuple[str, int]  # ("match", id) or ("table", id): RatingChange.occasion


def lock_ratings() -> None:
    """Wait for every other writer of the ratings (SQLite writes one at a time anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATINGS_LOCK])


def outcome_of(match: Match, *, games_played: int, intentional_draw: bool) -> str | None:
    """What the match's confirmed result counts as ("a", "b", "draw" or None)."""
    winner = None
    if match.winner_id is not None:
        winner = WIN_A if match.winner_id == match.player_a_id else WIN_B
    return rated_outcome(
        is_bye=match.is_bye,
        games_played=games_played,
        intentional_draw=intentional_draw,
        winner=winner,
        match_loss_a=match.match_loss_a,
        match_loss_b=match.match_loss_b,
    )


def _outcomes(places: tuple[int, ...] | None, *, sides: int, table: bool) -> list[str]:
    """Each side's ``RatingChange.outcome``: won, lost or drew for the two sides of a
    match, placed at a pod table, empty when not rated."""
    if places is None:
        return [""] * sides
    if table:
        return ["placed"] * sides
    a, b = places
    if a == b:
        return ["draw", "draw"]
    return ["win", "loss"] if a < b else ["loss", "win"]


def _match_sides(matches: Iterable[Match]) -> dict[int, list[list[int]]]:
    """The player ids of each side of each match: the two players, or every member of
    each team of a team match (docs/ratings.md "Teams"). One query for any number of
    team matches."""
    matches = list(matches)
    teams = {
        team_id
        for match in matches
        if match.player_a.team_id is not None
        for team_id in (match.player_a.team_id, match.player_b.team_id)
    }
    members: dict[int, list[int]] = defaultdict(list)
    if teams:
        for team_id, player_id in (
            Registration.objects.filter(team_id__in=teams)
            .order_by("pk")
            .values_list("team_id", "player_id")
        ):
            members[team_id].append(player_id)
    sides = {}
    for match in matches:
        if match.player_a.team_id is not None:
            sides[match.pk] = [members[match.player_a.team_id], members[match.player_b.team_id]]
        else:
            sides[match.pk] = [[match.player_a.player_id], [match.player_b.player_id]]
    return sides


def record_match_rating(match: Match, *, games_played: int, intentional_draw: bool) -> None:
    """Called with the match's confirmed result just saved (the caller holds the match
    lock, inside its transaction). A bye is not in the history. A team match rates
    every member of both teams with openskill's team model."""
    if match.is_bye:
        return
    outcome = outcome_of(match, games_played=games_played, intentional_draw=intentional_draw)
    sides = _match_sides([match])[match.pk]
    _record(
        ("match", match.pk),
        match.round.tournament.game,
        sides,
        PLACES[outcome],
        opponents=len(sides[0]) == len(sides[1]) == 1,
    )


def record_table_rating(table: PodTable) -> None:
    """Called with a pod table's placings just saved (the caller holds the round lock,
    inside its transaction): every seated player is rated from the placings, equal
    places shared. A bye (a table of one) or a table not fully placed rates nobody."""
    seats = list(
        PodSeat.objects.filter(table=table)
        .select_related("registration")
        .order_by("seat")
        .only("seat", "placing", "registration__player_id")
    )
    if len(seats) < 2 or any(seat.placing is None for seat in seats):
        return
    _record(
        ("table", table.pk),
        table.round.tournament.game,
        [[seat.registration.player_id] for seat in seats],
        tuple(seat.placing for seat in seats),
        opponents=False,
    )


def _record(
    occasion: Occasion,
    game: str,
    sides: list[list[int]],
    places: tuple[int, ...] | None,
    *,
    opponents: bool,
) -> None:
    lock_ratings()
    rows = list(RatingChange.objects.filter(**_occasion_filter(occasion)).order_by("id"))
    if not rows:
        _append(occasion, game, sides, places, opponents=opponents)
        return
    if _places_of(_by_side(rows)) == places:
        return  # confirmed again with the same meaning: nothing changes
    outcomes = _outcomes(places, sides=len(_by_side(rows)), table=occasion[0] == "table")
    for row in rows:
        row.place = None if places is None else places[row.side]
        row.outcome = outcomes[row.side]
    _replay_from(rows)


def _occasion_filter(occasion: Occasion) -> dict:
    kind, pk = occasion
    return {"match_id": pk} if kind == "match" else {"pod_table_id": pk}


def _by_side(rows: list[RatingChange]) -> list[list[RatingChange]]:
    sides: dict[int, list[RatingChange]] = defaultdict(list)
    for row in rows:
        sides[row.side].append(row)
    return [sides[side] for side in sorted(sides)]


def _places_of(sides: list[list[RatingChange]]) -> tuple[int, ...] | None:
    """The places of an occasion's sides (``_by_side``); None when not rated."""
    places = tuple(side[0].place for side in sides)
    return None if None in places else places


def _append(
    occasion: Occasion,
    game: str,
    sides: list[list[int]],
    places: tuple[int, ...] | None,
    *,
    opponents: bool,
) -> None:
    everyone = [player for side in sides for player in side]
    current = {
        r.player_id: r for r in PlayerRating.objects.filter(player_id__in=everyone, game=game)
    }
    before = [[_rating_of(current.get(player)) for player in side] for side in sides]
    after = rate_sides(before, places)
    outcomes = _outcomes(places, sides=len(sides), table=occasion[0] == "table")
    rows, figures = [], {}
    counted = 1 if places is not None else 0
    for index, side in enumerate(sides):
        opponent = sides[1 - index][0] if opponents else None
        for player, old, new in zip(side, before[index], after[index], strict=True):
            rows.append(
                RatingChange(
                    game=game,
                    **_occasion_filter(occasion),
                    player_id=player,
                    opponent_id=opponent,
                    side=index,
                    place=None if places is None else places[index],
                    outcome=outcomes[index],
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                )
            )
            figures[player] = (new, _matches(current.get(player)) + counted)
    RatingChange.objects.bulk_create(rows)
    _save_ratings(game, figures)


def _rating_of(row: PlayerRating | None) -> Rating:
    return START if row is None else Rating(row.mu, row.sigma)


def _matches(row: PlayerRating | None) -> int:
    return 0 if row is None else row.matches


def _save_ratings(game: str, figures: dict[int, tuple[Rating, int]]) -> None:
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(player_id=player, game=game, mu=rating.mu, sigma=rating.sigma, matches=n)
            for player, (rating, n) in figures.items()
        ],
        update_conflicts=True,
        unique_fields=["player", "game"],
        update_fields=["mu", "sigma", "matches", "updated_at"],
    )


def _occasions(rows: Iterable[RatingChange]) -> list[list[RatingChange]]:
    """The history's rows grouped by occasion, in the order of each occasion's first row."""
    grouped: dict[Occasion, list[RatingChange]] = {}
    for row in rows:
        grouped.setdefault(row.occasion, []).append(row)
    return list(grouped.values())


def _set_figures(row: RatingChange, before: Rating, after: Rating) -> bool:
    """Store the figures on the row; whether they differ from the stored ones."""
    figures = (before.mu, before.sigma, after.mu, after.sigma)
    if (row.mu_before, row.sigma_before, row.mu_after, row.sigma_after) == figures:
        return False
    row.mu_before, row.sigma_before, row.mu_after, row.sigma_after = figures
    return True


def _replay_from(first: list[RatingChange]) -> None:
    """Recompute the game's history from the occasion of ``first`` (its rows, the new
    places set on them) on: that occasion and every later one of the same game with a
    player whose rating changed on the way. Other games are untouched."""
    game = first[0].game
    later = RatingChange.objects.filter(game=game, id__gt=max(r.pk for r in first))
    state: dict[int, Rating] = {}
    changed = {row.pk: row for row in first}  # their places changed
    for index, rows in enumerate([first, *_occasions(later.order_by("id"))]):
        if index and not any(row.player_id in state for row in rows):
            continue  # nobody in this occasion was touched: its figures stand
        sides = _by_side(rows)
        before = [
            [state.get(r.player_id, Rating(r.mu_before, r.sigma_before)) for r in side]
            for side in sides
        ]
        after = rate_sides(before, _places_of(sides))
        for side, olds, news in zip(sides, before, after, strict=True):
            for row, old, new in zip(side, olds, news, strict=True):
                if _set_figures(row, old, new):
                    changed[row.pk] = row
                state[row.player_id] = new
    _write_rows(list(changed.values()))
    # Only the corrected occasion's players can have a different number rated.
    counts = dict(
        PlayerRating.objects.filter(player_id__in=list(state), game=game).values_list(
            "player_id", "matches"
        )
    )
    players = [row.player_id for row in first]
    rated = RatingChange.objects.filter(game=game, player_id__in=players, place__isnull=False)
    for player in players:
        counts[player] = 0
    for player in rated.values_list("player_id", flat=True):
        counts[player] += 1
    _save_ratings(
        game, {player: (rating, counts.get(player, 0)) for player, rating in state.items()}
    )


_FIGURES = ("outcome", "place", "mu_before", "sigma_before", "mu_after", "sigma_after")


def _write_rows(rows: list[RatingChange], batch: int = 2000) -> None:
    """Store the outcome, place and figures of many history rows. On PostgreSQL one
    UPDATE ... FROM (VALUES ...) a batch (Django's bulk_update writes a CASE per column
    and row, which took minutes for a whole event's history); elsewhere bulk_update."""
    if connection.vendor != "postgresql":
        RatingChange.objects.bulk_update(rows, list(_FIGURES), batch_size=batch)
        return
    table = RatingChange._meta.db_table
    row_sql = "(%s::bigint, %s, %s::integer, %s::float8, %s::float8, %s::float8, %s::float8)"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            parameters = [
                value for row in chunk for value in (row.pk, *(getattr(row, f) for f in _FIGURES))
            ]
            cursor.execute(
                f"UPDATE {table} AS r SET outcome = v.outcome, place = v.place, "
                "mu_before = v.mu_before, sigma_before = v.sigma_before, "
                "mu_after = v.mu_after, sigma_after = v.sigma_after "
                f"FROM (VALUES {', '.join([row_sql] * len(chunk))}) "
                "AS v(id, outcome, place, mu_before, sigma_before, mu_after, sigma_after) "
                "WHERE r.id = v.id",
                parameters,
            )


@transaction.atomic
def recompute_ratings() -> dict:
    """Rebuild every rating of every game from the history, in order, from the start
    values: the check (and the repair) that the stored figures are what the results
    say. Confirmed matches and placed pod tables missing from the history (played
    before they were rated) are added first, in the order of their first confirmation.
    Idempotent: a second run changes nothing."""
    lock_ratings()
    added = _add_missing_matches() + _add_missing_tables()
    rows = list(RatingChange.objects.order_by("id"))
    occasions = [_by_side(occasion_rows) for occasion_rows in _occasions(rows)]
    afters, final = replay(
        RatedOccasion(
            sides[0][0].game,
            tuple(tuple(r.player_id for r in side) for side in sides),
            _places_of(sides),
        )
        for sides in occasions
    )
    current: dict[tuple[int, str], Rating] = {}
    changed = []
    for sides, after in zip(occasions, afters, strict=True):
        for side, news in zip(sides, after, strict=True):
            for row, new in zip(side, news, strict=True):
                key = (row.player_id, row.game)
                if _set_figures(row, current.get(key, START), new):
                    changed.append(row)
                current[key] = new
    _write_rows(changed)
    counts: dict[tuple[int, str], int] = defaultdict(int)
    for row in rows:
        counts[row.player_id, row.game] += 0 if row.place is None else 1
    stale = [
        pk
        for pk, player, game in PlayerRating.objects.values_list("pk", "player_id", "game")
        if (player, game) not in final
    ]
    PlayerRating.objects.filter(pk__in=stale).delete()
    by_game: dict[str, dict[int, tuple[Rating, int]]] = defaultdict(dict)
    for (player, game), rating in final.items():
        by_game[game][player] = (rating, counts[player, game])
    for game, figures in by_game.items():
        _save_ratings(game, figures)
    games: dict[str, int] = defaultdict(int)
    for sides in occasions:
        games[sides[0][0].game] += 1
    return {
        "matches": len(occasions),
        "added": added,
        "changed": len(changed),
        "players": len({player for player, _ in final}),
        "games": dict(sorted(games.items())),
    }


def _add_missing_matches() -> int:
    """History rows (figures filled by the replay) for confirmed matches (two players
    or two teams) that have none, in the order of their first confirmation."""
    missing = list(
        Match.objects.filter(
            status=Match.Status.CONFIRMED, player_b__isnull=False, rating_changes=None
        )
        .select_related("player_a", "player_b", "round__tournament")
        .order_by("id")
    )
    if not missing:
        return 0
    first_confirmed: dict[int, tuple] = {}
    latest: dict[int, ResultSubmission] = {}
    for submission in ResultSubmission.objects.filter(
        match__in=missing, confirmed_at__isnull=False
    ).order_by("confirmed_at", "id"):
        first_confirmed.setdefault(submission.match_id, (submission.confirmed_at, submission.id))
        if submission.status == ResultSubmission.Status.CONFIRMED:
            latest[submission.match_id] = submission

    def order(match):
        found = first_confirmed.get(match.pk)
        return (0, *found) if found else (1, match.pk, 0)

    missing.sort(key=order)
    all_sides = _match_sides(missing)
    rows = []
    for match in missing:
        submission = latest.get(match.pk)
        outcome = outcome_of(
            match,
            games_played=len(submission.games) if submission else 0,
            intentional_draw=bool(submission and submission.intentional_draw),
        )
        sides = all_sides[match.pk]
        rows += _unrated_rows(
            ("match", match.pk),
            match.round.tournament.game,
            sides,
            PLACES[outcome],
            opponents=len(sides[0]) == len(sides[1]) == 1,
        )
    RatingChange.objects.bulk_create(rows)
    return len(missing)


def _add_missing_tables() -> int:
    """History rows for fully placed pod tables that have none (byes excepted), after
    the matches, in the order their placings were first entered (the audit log)."""
    tables = list(
        PodTable.objects.filter(size__gte=2, rating_changes=None)
        .exclude(seats__placing__isnull=True)
        .select_related("round__tournament")
        .prefetch_related("seats__registration")
        .order_by("id")
    )
    tables = [t for t in tables if len(t.seats.all()) >= 2]
    if not tables:
        return 0
    entered: dict[int, tuple] = {}
    for object_id, at, pk in (
        AuditEntry.objects.filter(
            action="pod.placings", object_type="PodTable", object_id__in=[t.pk for t in tables]
        )
        .order_by("created_at", "id")
        .values_list("object_id", "created_at", "id")
    ):
        entered.setdefault(object_id, (at, pk))
    tables.sort(key=lambda t: (0, *entered[t.pk]) if t.pk in entered else (1, t.pk, 0))
    rows = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda seat: seat.seat)
        rows += _unrated_rows(
            ("table", table.pk),
            table.round.tournament.game,
            [[seat.registration.player_id] for seat in seats],
            tuple(seat.placing for seat in seats),
            opponents=False,
        )
    RatingChange.objects.bulk_create(rows)
    return len(tables)


def _unrated_rows(occasion, game, sides, places, *, opponents) -> list[RatingChange]:
    """An occasion's rows at the start values, for the replay to fill in."""
    outcomes = _outcomes(places, sides=len(sides), table=occasion[0] == "table")
    return [
        RatingChange(
            game=game,
            **_occasion_filter(occasion),
            player_id=player,
            opponent_id=sides[1 - index][0] if opponents else None,
            side=index,
            place=None if places is None else places[index],
            outcome=outcomes[index],
            mu_before=START.mu,
            sigma_before=START.sigma,
            mu_after=START.mu,
            sigma_after=START.sigma,
        )
        for index, side in enumerate(sides)
        for player in side
    ]
