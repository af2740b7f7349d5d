"""Ratings across events: every confirmed match updates its players' ratings, in the
transaction that confirms it (docs/ratings.md).

The history (``RatingChange``, two rows a match, in the order the matches were first
confirmed) is the truth; ``players.Rating`` is each player's latest figure. A first
confirmation appends to the history; a correction that changes what the match counts
as rewrites that match's rows in place and replays every later match that involves a
player whose rating changed (the same figures a replay of the whole history gives,
``recompute_ratings``). One lock (a PostgreSQL advisory lock, held to the end of the
transaction) serialises every write to the ratings, so the history's order is the order
in which the ratings were computed.
"""

from __future__ import annotations

from django.db import connection, transaction

from players.models import Rating as PlayerRating
from tournaments.models import Match, RatingChange, ResultSubmission
from tournaments.ratings import (
    DRAW,
    START,
    WIN_A,
    WIN_B,
    RatedMatch,
    Rating,
    rate,
    rated_outcome,
    replay,
)

# pg_advisory_xact_lock key of the ratings ("IRDR").
RATINGS_LOCK = 0x49524452

_AS_ROW = {WIN_A: ("win", "loss"), WIN_B: ("loss", "win"), DRAW: ("draw", "draw"), None: ("", "")}
_FROM_ROW = {"win": WIN_A, "loss": WIN_B, "draw": DRAW, "": None}


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


def _rating_of(row: PlayerRating | None) -> Rating:
    return START if row is None else Rating(row.mu, row.sigma)


def record_match_rating(match: Match, *, games_played: int, intentional_draw: bool) -> None:
    """Called with the match's confirmed result just saved (the caller holds the match
    lock, inside its transaction). A bye is not in the history."""
    if match.is_bye or match.player_a.team_id is not None:
        return  # a team match rates no player (docs/events.md "Team events")
    outcome = outcome_of(match, games_played=games_played, intentional_draw=intentional_draw)
    player_a, player_b = match.player_a.player_id, match.player_b.player_id
    lock_ratings()
    rows = {row.player_id: row for row in RatingChange.objects.filter(match=match)}
    if not rows:
        _append(match, player_a, player_b, outcome)
        return
    row_a, row_b = rows[player_a], rows[player_b]
    if (row_a.outcome, row_b.outcome) == _AS_ROW[outcome]:
        return  # confirmed again with the same meaning: nothing changes
    row_a.outcome, row_b.outcome = _AS_ROW[outcome]
    _replay_from((row_a, row_b))


def _append(match: Match, player_a: int, player_b: int, outcome: str | None) -> None:
    current = {
        r.player_id: r for r in PlayerRating.objects.filter(player_id__in=[player_a, player_b])
    }
    before_a, before_b = _rating_of(current.get(player_a)), _rating_of(current.get(player_b))
    after_a, after_b = rate(before_a, before_b, outcome)
    outcome_a, outcome_b = _AS_ROW[outcome]
    RatingChange.objects.bulk_create(
        [
            _change(match.pk, player_a, player_b, outcome_a, before_a, after_a),
            _change(match.pk, player_b, player_a, outcome_b, before_b, after_b),
        ]
    )
    counted = 1 if outcome is not None else 0
    _save_ratings(
        {
            player_a: (after_a, _matches(current.get(player_a)) + counted),
            player_b: (after_b, _matches(current.get(player_b)) + counted),
        }
    )


def _matches(row: PlayerRating | None) -> int:
    return 0 if row is None else row.matches


def _change(match_id, player, opponent, outcome, before: Rating, after: Rating) -> RatingChange:
    return RatingChange(
        match_id=match_id,
        player_id=player,
        opponent_id=opponent,
        outcome=outcome,
        mu_before=before.mu,
        sigma_before=before.sigma,
        mu_after=after.mu,
        sigma_after=after.sigma,
    )


def _save_ratings(figures: dict[int, tuple[Rating, int]]) -> None:
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(player_id=player, mu=rating.mu, sigma=rating.sigma, matches=count)
            for player, (rating, count) in figures.items()
        ],
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["mu", "sigma", "matches", "updated_at"],
    )


def _pairs(rows: list[RatingChange]) -> list[tuple[RatingChange, RatingChange]]:
    """The history's rows two by two (one match each), in the order of the first row."""
    by_match: dict[int, list[RatingChange]] = {}
    for row in rows:
        by_match.setdefault(row.match_id, []).append(row)
    return [(pair[0], pair[1]) for pair in by_match.values() if len(pair) == 2]


def _replay_from(first: tuple[RatingChange, RatingChange]) -> None:
    """Recompute the history from the match of ``first`` (its two rows, the new outcome
    set on them) on: that match and every later match with a player whose rating
    changed on the way."""
    rows = list(RatingChange.objects.filter(id__gt=max(r.pk for r in first)).order_by("id"))
    state: dict[int, Rating] = {}
    changed: list[RatingChange] = []
    for x, y in [first, *_pairs(rows)]:
        if (
            x.match_id != first[0].match_id
            and x.player_id not in state
            and y.player_id not in state
        ):
            continue  # nobody in this match was touched: its figures stand
        before_x = state.get(x.player_id, Rating(x.mu_before, x.sigma_before))
        before_y = state.get(y.player_id, Rating(y.mu_before, y.sigma_before))
        after_x, after_y = rate(before_x, before_y, _FROM_ROW[x.outcome])
        for row, before, after in ((x, before_x, after_x), (y, before_y, after_y)):
            figures = (before.mu, before.sigma, after.mu, after.sigma)
            if (row.mu_before, row.sigma_before, row.mu_after, row.sigma_after) != figures:
                row.mu_before, row.sigma_before, row.mu_after, row.sigma_after = figures
                changed.append(row)
            state[row.player_id] = after
        if x.match_id == first[0].match_id:
            changed.extend(r for r in first if r not in changed)  # the outcome changed
    _write_rows(changed)
    # Only the corrected match's players can have a different number of rated matches.
    counts = dict(
        PlayerRating.objects.filter(player_id__in=list(state)).values_list("player_id", "matches")
    )
    for row in first:
        counts[row.player_id] = _count(row.player_id)
    _save_ratings({player: (rating, counts.get(player, 0)) for player, rating in state.items()})


_FIGURES = ("outcome", "mu_before", "sigma_before", "mu_after", "sigma_after")


def _write_rows(rows: list[RatingChange], batch: int = 2000) -> None:
    """Store the outcome and figures of many history rows. On PostgreSQL one UPDATE ...
    FROM (VALUES ...) a batch (Django's bulk_update writes a CASE per column and row,
    which took minutes for a whole event's history); elsewhere bulk_update."""
    if connection.vendor != "postgresql":
        RatingChange.objects.bulk_update(rows, list(_FIGURES), batch_size=batch)
        return
    table = RatingChange._meta.db_table
    row_sql = "(%s::bigint, %s, %s::float8, %s::float8, %s::float8, %s::float8)"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            parameters = [
                value for row in chunk for value in (row.pk, *(getattr(row, f) for f in _FIGURES))
            ]
            cursor.execute(
                f"UPDATE {table} AS r SET outcome = v.outcome, mu_before = v.mu_before, "
                "sigma_before = v.sigma_before, mu_after = v.mu_after, sigma_after = v.sigma_after "
                f"FROM (VALUES {', '.join([row_sql] * len(chunk))}) "
                "AS v(id, outcome, mu_before, sigma_before, mu_after, sigma_after) "
                "WHERE r.id = v.id",
                parameters,
            )


def _count(player_id: int) -> int:
    return RatingChange.objects.filter(player_id=player_id).exclude(outcome="").count()


@transaction.atomic
def recompute_ratings() -> dict[str, int]:
    """Rebuild every rating from the history, in order, from the start values: the check
    (and the repair) that the stored figures are what the results say. Confirmed matches
    missing from the history (played before ratings existed) are added first, in the
    order of their first confirmation. Idempotent: a second run changes nothing."""
    lock_ratings()
    added = _add_missing_matches()
    rows = list(RatingChange.objects.order_by("id"))
    pairs = _pairs(rows)
    steps, final = replay(
        RatedMatch(x.player_id, y.player_id, _FROM_ROW[x.outcome]) for x, y in pairs
    )
    changed = []
    for (x, y), step in zip(pairs, steps, strict=True):
        for row, before, after in (
            (x, step.before_a, step.after_a),
            (y, step.before_b, step.after_b),
        ):
            figures = (before.mu, before.sigma, after.mu, after.sigma)
            if (row.mu_before, row.sigma_before, row.mu_after, row.sigma_after) != figures:
                row.mu_before, row.sigma_before, row.mu_after, row.sigma_after = figures
                changed.append(row)
    _write_rows(changed)
    counts: dict[int, int] = {}
    for row in rows:
        counts[row.player_id] = counts.get(row.player_id, 0) + (1 if row.outcome else 0)
    PlayerRating.objects.exclude(player_id__in=list(final)).delete()
    _save_ratings({player: (rating, counts.get(player, 0)) for player, rating in final.items()})
    return {"matches": len(pairs), "added": added, "changed": len(changed), "players": len(final)}


def _add_missing_matches() -> int:
    """History rows (figures filled by the replay) for confirmed two-player matches that
    have none, in the order of their first confirmation."""
    missing = list(
        Match.objects.filter(
            status=Match.Status.CONFIRMED,
            player_b__isnull=False,
            rating_changes=None,
            player_a__team__isnull=True,
        )
        .select_related("player_a", "player_b")
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
    rows = []
    for match in missing:
        submission = latest.get(match.pk)
        outcome = outcome_of(
            match,
            games_played=len(submission.games) if submission else 0,
            intentional_draw=bool(submission and submission.intentional_draw),
        )
        outcome_a, outcome_b = _AS_ROW[outcome]
        a, b = match.player_a.player_id, match.player_b.player_id
        rows.append(_change(match.pk, a, b, outcome_a, START, START))
        rows.append(_change(match.pk, b, a, outcome_b, START, START))
    RatingChange.objects.bulk_create(rows)
    return len(missing)
