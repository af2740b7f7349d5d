"""Swiss standings with the usual TCG tiebreakers, computed exactly.

Pure Python and free of Django, so the pages, the API, the CSV export and the
benchmark all share one implementation. The definitions and every convention that
the rules leave open (StandingsConventions, with named PRESETS such as organisers'
tools use) are written down in docs/standings.md, as are standings as of a round and
events in several Swiss phases (compute_phased_standings).

Speed matters (4,096 players after 12 rounds must take well under 100 ms), and
Fraction arithmetic is slow, so the ranking works on integers: every percentage is
scaled to a denominator shared by all players, which makes a plain tuple of integers
an exact sort key. Fractions are built once per row for the output, and the
per-opponent arithmetic only when a row is explained.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import partial
from itertools import compress, islice, repeat
from math import lcm
from operator import add, attrgetter, eq, is_, is_not, le, ne
from types import MappingProxyType
from typing import NamedTuple

from tournaments.tiebreakers import REGISTRY, TiebreakInput

__all__ = [
    "DEFAULT_FLOOR",
    "DEFAULT_TIEBREAKERS",
    "MTR_FLOOR",
    "MatchRecord",
    "OpponentLine",
    "PercentageArithmetic",
    "PlayerEntry",
    "RowExplanation",
    "PRESETS",
    "PhasedStandings",
    "ByeCounting",
    "Standings",
    "StandingsConventions",
    "StandingsRow",
    "Tiebreaker",
    "compute_standings",
    "tiebreaker_names",
    "compute_phased_standings",
    "format_percentage",
    "percentage_formatter",
    "round_half_up",
    "tiebreaker_order_errors",
    "usable_tiebreakers",
]

POINTS_PER_MATCH_WIN = 3
POINTS_PER_MATCH_DRAW = 1
POINTS_PER_GAME_WIN = 3
POINTS_PER_GAME_DRAW = 1

DEFAULT_FLOOR = Fraction(1, 3)
"""The floor used by the largest online platform: exactly one third."""

MTR_FLOOR = Fraction(33, 100)
"""The floor as printed in the tournament rules: 0.33."""


class ByeCounting(StrEnum):
    """How a bye enters the player's own percentages (it always gives match points)."""

    WIN_2_0 = "win_2_0"  # a match won 2-0: one more round in MW%, two games won in GW%
    NOT_COUNTED = "not_counted"  # left out of MW% and GW% altogether


@dataclass(frozen=True, slots=True)
class StandingsConventions:
    """The choices that the tournament rules leave open or that organisers' tools make
    differently. The defaults are the MTR's text except the floor, which keeps the
    project's long-standing default of exactly one third (docs/standings.md)."""

    floor: Fraction = DEFAULT_FLOOR
    # Game points for a drawn game; an intentional draw written 0-0-3 may give none.
    game_draw_points: int = 1
    # Whether a player's own GW% is raised to the floor in the table (opponents'
    # GW% are always floored inside OGW).
    floor_own_game_win: bool = True
    # OMW and OGW of a player who met no opponent (only byes); None: the floor.
    no_opponents_value: Fraction | None = None
    # GW% of a player who played no game; None: the floor.
    no_games_game_win: Fraction | None = None
    bye_counting: ByeCounting = ByeCounting.WIN_2_0
    # Decimals the organiser's tool prints (as a fraction 0..1, half-up).
    decimals: int = 4

    def __post_init__(self) -> None:
        object.__setattr__(self, "floor", _coerce_floor(self.floor))
        object.__setattr__(self, "bye_counting", ByeCounting(self.bye_counting))
        if self.game_draw_points not in (0, 1):
            raise ValueError(f"game_draw_points must be 0 or 1, got {self.game_draw_points!r}")
        for name in ("no_opponents_value", "no_games_game_win"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, _coerce_fraction(value, name, low=-1))
        if not isinstance(self.decimals, int) or not 0 <= self.decimals <= 12:
            raise ValueError(f"decimals must be a whole number 0-12, got {self.decimals!r}")

    @property
    def opponents_value_when_none(self) -> Fraction:
        return self.floor if self.no_opponents_value is None else self.no_opponents_value

    @property
    def game_win_when_no_games(self) -> Fraction:
        return self.floor if self.no_games_game_win is None else self.no_games_game_win


class Tiebreaker(StrEnum):
    MATCH_POINTS = "match_points"
    MATCH_WIN = "match_win"
    GAME_WIN = "game_win"
    OPPONENTS_MATCH_WIN = "opponents_match_win"
    OPPONENTS_GAME_WIN = "opponents_game_win"


# The order holds Tiebreaker members for the MTR set and plain names for the systems
# of tournaments.tiebreakers.REGISTRY.
TiebreakerName = Tiebreaker | str

DEFAULT_TIEBREAKERS: tuple[Tiebreaker, ...] = (
    Tiebreaker.MATCH_POINTS,
    Tiebreaker.OPPONENTS_MATCH_WIN,
    Tiebreaker.GAME_WIN,
    Tiebreaker.OPPONENTS_GAME_WIN,
)


class PlayerEntry(NamedTuple):
    """A registered player.

    ``rounds_played`` is optional: the standings count the player's match records
    (byes and penalty losses included). When given, it must agree with that count,
    which catches results missing from the input.

    A named tuple, like MatchRecord: a large event's page builds 16,384 of them from
    the database's rows as they come (tournaments/selectors.py).
    """

    player_id: int
    name: str
    dropped: bool = False
    rounds_played: int | None = None
    # Swiss phases: the round after which the player did not make the cut into the
    # next phase (tournaments/phases.py); None for everyone else.
    cut_after_round: int | None = None


class MatchRecord(NamedTuple):
    """One player's (or one pair's) result in one Swiss round.

    ``player_b`` is None when player A had no opponent: a bye (recorded 2-0, see
    :meth:`bye`) or a round missed by a late entry and given as a loss (see
    :meth:`missed_round_loss`). Such a record adds no opponent.

    The match result follows the games (more game wins wins, equal is a draw),
    unless a match loss penalty overrides it: ``match_loss_a`` makes A lose the match
    whatever the games say, and B win it unless B also has a match loss. Game
    results stand as recorded; a game loss penalty is simply a game won by the
    opponent.

    A named tuple rather than a frozen dataclass: a page of a large event builds tens
    of thousands of them from the database, and a tuple is built several times faster.
    """

    round_number: int
    player_a: int
    player_b: int | None
    games_won_a: int
    games_won_b: int
    games_drawn: int = 0
    match_loss_a: bool = False
    match_loss_b: bool = False

    @classmethod
    def bye(cls, round_number: int, player_id: int, games_to_win: int = 2) -> MatchRecord:
        """A bye: the match won by the games a win takes (2-0 in best of three, 1-0 in
        best of one)."""
        return cls(round_number, player_id, None, games_to_win, 0)

    @classmethod
    def missed_round_loss(
        cls, round_number: int, player_id: int, games_to_win: int = 2
    ) -> MatchRecord:
        return cls(round_number, player_id, None, 0, games_to_win, match_loss_a=True)


class StandingsRow(NamedTuple):
    """One line of the standings. Percentages are exact and already floored (own GW%
    only when the conventions say so).

    ``opponent_ids`` follow the order of the match records given (byes add none);
    :meth:`Standings.explain` lists them by round. A named tuple (built several times
    faster than a frozen dataclass, which counts with 16,384 rows); ``_replace``
    gives a changed copy.
    """

    rank: int
    player_id: int
    name: str
    dropped: bool
    match_points: int
    wins: int
    losses: int
    draws: int
    byes: int
    rounds_played: int
    games_won: int
    games_lost: int
    games_drawn: int
    game_points: int
    opponent_ids: tuple[int, ...]
    match_win: Fraction
    game_win: Fraction
    opponents_match_win: Fraction
    opponents_game_win: Fraction
    # The figures of the chosen tiebreakers outside the MTR set, by name.
    tiebreak_values: Mapping[str, int | Fraction] = MappingProxyType({})
    # The round after which the player did not advance to the next Swiss phase.
    cut_after_round: int | None = None

    @property
    def record(self) -> str:
        """Match record as W-L-D; byes count as wins."""
        return f"{self.wins}-{self.losses}-{self.draws}"

    @property
    def games_played(self) -> int:
        return self.games_won + self.games_lost + self.games_drawn


@dataclass(frozen=True, slots=True)
class PercentageArithmetic:
    """How one percentage came out: ``earned / possible``, then the floor.

    ``unfloored`` is None when there was nothing to divide by (no rounds, no
    games); the value is then the floor.
    """

    earned: int
    possible: int
    unfloored: Fraction | None
    floor: Fraction
    value: Fraction

    @property
    def floored(self) -> bool:
        # Raised to the floor; a convention may leave the value below it.
        return self.unfloored is None or self.value > self.unfloored


@dataclass(frozen=True, slots=True)
class OpponentLine:
    """One opponent's contribution to OMW and OGW (their floored percentages)."""

    round_number: int
    opponent_id: int
    opponent_name: str
    match_win: Fraction
    match_win_floored: bool
    game_win: Fraction
    game_win_floored: bool


@dataclass(frozen=True, slots=True)
class RowExplanation:
    """Every number behind a standings row, for a "why am I here" view."""

    row: StandingsRow
    tiebreakers: tuple[TiebreakerName, ...]
    match_win: PercentageArithmetic
    game_win: PercentageArithmetic
    opponents: tuple[OpponentLine, ...]
    opponents_match_win_sum: Fraction
    opponents_game_win_sum: Fraction
    opponents_match_win: Fraction
    opponents_game_win: Fraction
    game_draw_points: int = POINTS_PER_GAME_DRAW

    def lines(self, places: int = 2) -> list[str]:
        """The arithmetic as short sentences, one per figure."""
        row = self.row
        pct = format_percentage
        out = [
            f"Record {row.record} ({row.byes} bye(s)): match points "
            f"{row.wins} x {POINTS_PER_MATCH_WIN} + {row.draws} x {POINTS_PER_MATCH_DRAW}"
            f" = {row.match_points}",
            _describe_percentage("Match-win %", self.match_win, places),
            f"Games {row.games_won}-{row.games_lost}-{row.games_drawn}: game points "
            f"{row.games_won} x {POINTS_PER_GAME_WIN} + {row.games_drawn} x "
            f"{self.game_draw_points} = {row.game_points}",
            _describe_percentage("Game-win %", self.game_win, places),
        ]
        out.extend(_other_tiebreak_lines(row))
        count = len(self.opponents)
        if count == 0:
            out.append(f"No opponents: OMW and OGW are {pct(self.opponents_match_win, places)}")
            return out
        for line in self.opponents:
            mark_m = " (floored)" if line.match_win_floored else ""
            mark_g = " (floored)" if line.game_win_floored else ""
            out.append(
                f"Round {line.round_number} v {line.opponent_name}: "
                f"MWP {pct(line.match_win, places)}{mark_m}, "
                f"GWP {pct(line.game_win, places)}{mark_g}"
            )
        out.append(
            f"OMW = {_fraction_text(self.opponents_match_win_sum)} / {count} = "
            f"{pct(self.opponents_match_win, places)}"
        )
        out.append(
            f"OGW = {_fraction_text(self.opponents_game_win_sum)} / {count} = "
            f"{pct(self.opponents_game_win, places)}"
        )
        return out


def format_percentage(value: Fraction, places: int = 2) -> str:
    """Round an exact fraction half up to ``places`` decimals of a percentage."""
    # Integer arithmetic on the fraction's terms: a table formats thousands of these,
    # and Fraction operations cost several times more.
    numerator, denominator = value.numerator, value.denominator
    if numerator < 0:  # a sentinel such as GW% -0.2 for no game played
        return "-" + format_percentage(-value, places)
    scale = 10**places
    units = (numerator * 200 * scale + denominator) // (2 * denominator)
    whole, part = divmod(units, scale)
    return f"{whole}.{part:0{places}d}%" if places else f"{whole}%"


def percentage_formatter(places: int = 2) -> Callable[[Fraction], str]:
    """format_percentage with ``places`` that formats each distinct value once: the rows
    of a table share few distinct MW% and GW% (points over rounds or games)."""
    texts: dict[tuple[int, int], str] = {}

    def percent(value: Fraction) -> str:
        key = (value.numerator, value.denominator)
        text = texts.get(key)
        if text is None:
            text = texts[key] = format_percentage(value, places)
        return text

    return percent


def _other_tiebreak_lines(row: StandingsRow) -> list[str]:
    """One line per chosen tiebreaker outside the MTR set, e.g. "Buchholz: 13"."""
    return [
        f"{REGISTRY[name].label}: {_fraction_text(Fraction(value))}"
        for name, value in row.tiebreak_values.items()
    ]


def _fraction_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value}"


def _describe_percentage(label: str, arithmetic: PercentageArithmetic, places: int) -> str:
    pct = format_percentage
    if arithmetic.unfloored is None:
        return f"{label}: nothing played, so {pct(arithmetic.value, places)}"
    text = (
        f"{label} = {arithmetic.earned} / {arithmetic.possible}"
        f" = {pct(arithmetic.unfloored, places)}"
    )
    if arithmetic.floored:
        text += f", raised to the floor {pct(arithmetic.floor, places)}"
    return text


def round_half_up(value: Fraction, decimals: int) -> Fraction:
    """An exact fraction rounded half up (away from zero) to ``decimals`` places, as
    organisers' tools print their percentages (0.6133333... -> 0.613333)."""
    scale = 10**decimals
    scaled = abs(value) * scale
    units = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)
    return Fraction(units if value >= 0 else -units, scale)


def _coerce_fraction(value, name: str, *, low: int = 0) -> Fraction:
    if isinstance(value, float):
        raise TypeError(f"{name} must be exact: pass Fraction(1, 3) or '1/3', not a float")
    try:
        value = Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        raise ValueError(f"{name} must be a number such as 1/3 or 0.33, got {value!r}") from None
    if not low <= value <= 1:
        raise ValueError(f"{name} must lie between {low} and 1, got {value}")
    return value


def _coerce_floor(floor: Fraction | int | str | Decimal) -> Fraction:
    if isinstance(floor, float):
        raise TypeError(
            "floor must be exact: pass Fraction(33, 100), Decimal('0.33') or '0.33', not a float"
        )
    value = Fraction(floor)
    if not 0 <= value <= 1:
        raise ValueError(f"floor must lie between 0 and 1, got {value}")
    return value


def tiebreaker_order_errors(names) -> list[str]:
    """What is wrong with a tiebreaker order a person chose (empty: it is fine). An
    empty list is fine too: it means the default order."""
    known = ", ".join(tiebreaker_names())
    if not isinstance(names, list | tuple):
        return [f"Give a list of tiebreaker names, each at most once: {known}."]
    errors, seen = [], set()
    for name in names:
        if not isinstance(name, str) or name not in tiebreaker_names():
            shown = repr(name) if isinstance(name, str) and name.isprintable() else "a value"
            errors.append(f"Unknown tiebreaker {shown}; use each of {known} at most once.")
        elif name in seen:
            errors.append(f"Tiebreaker {name!r} is listed twice; use each of {known} at most once.")
        seen.add(name)
    return errors


def tiebreaker_names() -> tuple[str, ...]:
    """Every name a tiebreaker order may hold: the MTR set, then the other systems."""
    return (*(t.value for t in Tiebreaker), *REGISTRY)


def _as_tiebreaker(name: str) -> TiebreakerName:
    return Tiebreaker(name) if name in Tiebreaker._value2member_map_ else name


def usable_tiebreakers(stored) -> tuple[TiebreakerName, ...]:
    """The order to rank by from what a tournament has stored: unknown or repeated names
    are skipped (data written before the order was validated must not break every
    standings page), and nothing usable means the default order."""
    if not isinstance(stored, list | tuple):
        return DEFAULT_TIEBREAKERS
    order: list[TiebreakerName] = []
    for name in stored:
        if isinstance(name, str) and name in tiebreaker_names():
            tiebreaker = _as_tiebreaker(name)
            if tiebreaker not in order:
                order.append(tiebreaker)
    return tuple(order) or DEFAULT_TIEBREAKERS


def _coerce_tiebreakers(tiebreakers: Iterable[TiebreakerName]) -> tuple[TiebreakerName, ...]:
    result = []
    for name in tiebreakers:
        if not isinstance(name, str) or name not in tiebreaker_names():
            known = ", ".join(tiebreaker_names())
            raise ValueError(f"unknown tiebreaker {name!r}; known: {known}")
        tiebreaker = _as_tiebreaker(name)
        if tiebreaker in result:
            raise ValueError(f"tiebreaker {str(tiebreaker)!r} listed twice")
        result.append(tiebreaker)
    if not result:
        raise ValueError("at least one tiebreaker is needed")
    return tuple(result)


class Standings:
    """Ordered standings rows plus what is needed to explain each of them.

    Players still tied after every tiebreaker share a rank (1, 2, 2, 4) and are
    listed by ascending player id, so the order is deterministic.
    """

    def __init__(
        self,
        rows: tuple[StandingsRow, ...],
        *,
        floor: Fraction,
        tiebreakers: tuple[TiebreakerName, ...],
        history: _OpponentHistory,
        conventions: StandingsConventions | None = None,
        basis: dict[int, tuple[int, int, int, int]] | None = None,
        as_of_round: int | None = None,
    ) -> None:
        self.rows = rows
        self.floor = floor
        self.conventions = conventions or StandingsConventions(floor=floor)
        self.as_of_round = as_of_round
        # player id -> (MW% points, MW% rounds, GW% points, GW% games)
        self._basis = basis or {}
        self.tiebreakers = tiebreakers
        self._history = history
        self._row_by_id = {row.player_id: row for row in rows}

    @property
    def other_tiebreakers(self) -> tuple[str, ...]:
        """The chosen tiebreakers outside the MTR set, in order (their figures are in
        each row's ``tiebreak_values``)."""
        return tuple(name for name in self.tiebreakers if name in REGISTRY)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[StandingsRow]:
        return iter(self.rows)

    def row(self, player_id: int) -> StandingsRow:
        try:
            return self._row_by_id[player_id]
        except KeyError:
            raise KeyError(f"player {player_id!r} is not in these standings") from None

    def ranked_player_ids(self, *, include_dropped: bool = False) -> list[int]:
        """Player ids in standings order, e.g. to seed the top cut. Players who did
        not make the cut into a later Swiss phase are left out with the dropped ones."""
        return [
            row.player_id
            for row in self.rows
            if include_dropped or not (row.dropped or row.cut_after_round is not None)
        ]

    def phase(self, player_id: int) -> int:
        """The Swiss phase (1, 2, ...) at whose end the player's row is taken."""
        self.row(player_id)
        return 1

    def explain(self, player_id: int) -> RowExplanation:
        row = self.row(player_id)
        conventions = self.conventions
        lines = []
        for round_number, opponent_id in self._history.rounds_and_opponents(player_id):
            opponent = self._row_by_id[opponent_id]
            lines.append(
                OpponentLine(
                    round_number=round_number,
                    opponent_id=opponent_id,
                    opponent_name=opponent.name,
                    match_win=opponent.match_win,
                    match_win_floored=self._match_win_arithmetic(opponent).floored,
                    game_win=self._game_win_arithmetic(opponent, as_opponent=True).value,
                    game_win_floored=self._game_win_arithmetic(opponent, as_opponent=True).floored,
                )
            )
        omw_sum = sum((line.match_win for line in lines), Fraction(0))
        ogw_sum = sum((line.game_win for line in lines), Fraction(0))
        return RowExplanation(
            row=row,
            tiebreakers=self.tiebreakers,
            match_win=self._match_win_arithmetic(row),
            game_win=self._game_win_arithmetic(row, as_opponent=False),
            opponents=tuple(lines),
            opponents_match_win_sum=omw_sum,
            opponents_game_win_sum=ogw_sum,
            opponents_match_win=omw_sum / len(lines)
            if lines
            else conventions.opponents_value_when_none,
            opponents_game_win=ogw_sum / len(lines)
            if lines
            else conventions.opponents_value_when_none,
            game_draw_points=conventions.game_draw_points,
        )

    def _counted(self, row: StandingsRow) -> tuple[int, int, int, int]:
        return self._basis.get(
            row.player_id,
            (row.match_points, row.rounds_played, row.game_points, row.games_played),
        )

    def _match_win_arithmetic(self, row: StandingsRow) -> PercentageArithmetic:
        points, rounds, _, _ = self._counted(row)
        return _percentage_arithmetic(points, POINTS_PER_MATCH_WIN * rounds, self.floor)

    def _game_win_arithmetic(self, row: StandingsRow, *, as_opponent: bool) -> PercentageArithmetic:
        """GW% as an opponent's OGW counts it (always floored), or as the row shows it
        (floored as the conventions say; the no-game value as given)."""
        _, _, points, games = self._counted(row)
        conventions = self.conventions
        return _percentage_arithmetic(
            points,
            POINTS_PER_GAME_WIN * games,
            self.floor,
            empty=conventions.game_win_when_no_games,
            floored=as_opponent or conventions.floor_own_game_win,
            floor_empty=as_opponent,
        )


def _percentage_arithmetic(
    earned: int,
    possible: int,
    floor: Fraction,
    *,
    empty: Fraction | None = None,
    floored: bool = True,
    floor_empty: bool = True,
) -> PercentageArithmetic:
    if possible == 0:
        value = floor if empty is None else empty
        return PercentageArithmetic(
            earned, possible, None, floor, max(value, floor) if floor_empty else value
        )
    unfloored = Fraction(earned, possible)
    value = max(unfloored, floor) if floored else unfloored
    return PercentageArithmetic(earned, possible, unfloored, floor, value)


def compute_standings(
    players: Iterable[PlayerEntry],
    matches: Iterable[MatchRecord],
    *,
    floor: Fraction | int | str | Decimal | None = None,
    tiebreakers: Sequence[TiebreakerName] = DEFAULT_TIEBREAKERS,
    conventions: StandingsConventions | None = None,
    as_of_round: int | None = None,
    seed: str = "",
) -> Standings:
    """Rank ``players`` from their Swiss ``matches``.

    ``conventions`` picks how the percentages are counted (default: the MTR's with a
    floor of one third); ``floor`` alone may be given instead. ``as_of_round`` = N
    gives the table as it stood after round N (later records are left out).

    Raises ValueError on inconsistent input: duplicate or unknown player ids, a
    player twice in one round, a player paired with themselves, negative game
    counts, a match loss flag for a missing opponent, or a ``rounds_played`` that
    disagrees with the records. ``seed`` feeds the ``random`` tiebreaker.
    """
    if conventions is None:
        conventions = StandingsConventions(
            floor=DEFAULT_FLOOR if floor is None else _coerce_floor(floor)
        )
    elif floor is not None and _coerce_floor(floor) != conventions.floor:
        raise ValueError("give the floor either alone or inside the conventions, not both")
    order = _coerce_tiebreakers(tiebreakers)
    entries, index_of = _index_players(players)
    if as_of_round is not None:
        if not isinstance(as_of_round, int) or as_of_round < 0:
            raise ValueError(f"as_of_round must be a round number, got {as_of_round!r}")
        matches = [m for m in matches if m.round_number <= as_of_round]
        # The entries' round counts describe the whole event, not round N, and a cut
        # after a later round had not happened yet.
        entries = [_as_of(entry, as_of_round) for entry in entries]
    with_points = any(name in REGISTRY for name in order)
    tally = _tally_results(matches, index_of, len(entries), with_points=with_points)
    totals = _Totals.of(tally, conventions)
    _check_rounds(entries, tally, totals.rounds_played)
    keys = _tiebreaker_keys(tally, totals, conventions)
    player_ids = [entry.player_id for entry in entries]
    data = _tiebreak_input(
        order, tally, totals, keys, player_ids, conventions.opponents_value_when_none, seed
    )
    ranking, ranks, others = _rank(keys, order, player_ids, data)
    rows = _rows(entries, ranking, ranks, tally, totals, keys, conventions, others)
    history = _OpponentHistory(index_of, player_ids, tally)
    basis = None
    if conventions.bye_counting is ByeCounting.NOT_COUNTED:
        basis = {
            player_id: (
                totals.mw_points[i],
                totals.mw_rounds[i],
                totals.gw_points[i],
                totals.gw_games[i],
            )
            for i, player_id in enumerate(player_ids)
        }
    return Standings(
        rows,
        floor=conventions.floor,
        tiebreakers=order,
        history=history,
        conventions=conventions,
        basis=basis,
        as_of_round=as_of_round,
    )


def compute_phased_standings(
    players: Iterable[PlayerEntry],
    matches: Iterable[MatchRecord],
    *,
    phase_ends: Sequence[int],
    tiebreakers: Sequence[TiebreakerName] = DEFAULT_TIEBREAKERS,
    conventions: StandingsConventions | None = None,
    as_of_round: int | None = None,
    seed: str = "",
) -> PhasedStandings:
    """Final rows of an event in several Swiss phases (day 1, then a cut into day 2).

    ``phase_ends`` are the last round of each phase, ascending. Each player's row is
    the one of the standings at the end of the last phase they played in, opponents'
    figures at that same moment, as large events publish them. Players who reached a
    later phase come first; within a phase, the usual tiebreaker order. ``as_of_round``
    cuts the event short (phases ending later end at that round).
    """
    ends = sorted(set(phase_ends))
    if not ends or ends[0] < 1 or list(phase_ends) != ends:
        raise ValueError(f"phase_ends must be ascending round numbers, got {list(phase_ends)!r}")
    entries = list(players)
    records = list(matches)
    if as_of_round is not None:
        records = [m for m in records if m.round_number <= as_of_round]
        ends = sorted({min(end, as_of_round) for end in ends})
    last_round: dict[int, int] = {}
    for record in records:
        for player_id in (record.player_a, record.player_b):
            if player_id is not None:
                last_round[player_id] = max(last_round.get(player_id, 0), record.round_number)
    tables = {
        end: compute_standings(
            entries,
            records,
            tiebreakers=tiebreakers,
            conventions=conventions,
            as_of_round=end,
            seed=seed,
        )
        for end in ends
    }

    def phase_of(entry: PlayerEntry) -> int:
        if entry.cut_after_round in ends:
            return ends.index(entry.cut_after_round)
        played = last_round.get(entry.player_id, 0)
        for index, end in enumerate(ends):
            if played <= end:
                return index
        return len(ends) - 1

    places = {
        end: {row.player_id: place for place, row in enumerate(table.rows)}
        for end, table in tables.items()
    }
    chosen = []
    for entry in entries:
        phase = phase_of(entry)
        # A player cut at the end of their phase comes after those of the same phase who
        # advanced, even before the next phase has played a round.
        cut = entry.cut_after_round in ends
        chosen.append((phase, cut, places[ends[phase]][entry.player_id], entry.player_id))
    chosen.sort(key=lambda item: (-item[0], item[1], item[2]))
    rows = []
    previous = None
    rank = 0
    for place, (phase, cut, _, player_id) in enumerate(chosen, start=1):
        table_row = tables[ends[phase]].row(player_id)
        key = (phase, cut, table_row.rank)
        if key != previous:
            rank, previous = place, key
        rows.append(table_row._replace(rank=rank))
    last = tables[ends[-1]]
    return PhasedStandings(
        tuple(rows),
        floor=last.floor,
        tiebreakers=last.tiebreakers,
        history=last._history,
        conventions=last.conventions,
        as_of_round=as_of_round,
        phase_tables={player_id: tables[ends[phase]] for phase, _, _, player_id in chosen},
        phase_numbers={player_id: phase + 1 for phase, _, _, player_id in chosen},
        phase_ends=tuple(ends),
    )


class PhasedStandings(Standings):
    """Standings of an event in several Swiss phases: each row, and its explanation,
    from the table at the end of the player's last phase."""

    def __init__(
        self,
        rows,
        *,
        phase_tables: dict[int, Standings],
        phase_numbers: dict[int, int],
        phase_ends,
        **kwargs,
    ):
        super().__init__(rows, **kwargs)
        self._phase_tables = phase_tables
        self._phase_numbers = phase_numbers
        self.phase_ends = phase_ends

    def phase(self, player_id: int) -> int:
        self.row(player_id)
        return self._phase_numbers[player_id]

    def explain(self, player_id: int) -> RowExplanation:
        explanation = self._phase_tables[player_id].explain(player_id)
        return replace(explanation, row=self.row(player_id))


def _as_of(entry: PlayerEntry, round_number: int) -> PlayerEntry:
    cut = entry.cut_after_round
    if cut is not None and cut > round_number:
        cut = None
    if entry.rounds_played is None and cut == entry.cut_after_round:
        return entry
    return entry._replace(rounds_played=None, cut_after_round=cut)


# The steps of compute_standings. Players are handled by their position in the input
# (an index into parallel lists), which keeps 4,096 players x 12 rounds fast.


def _index_players(players: Iterable[PlayerEntry]) -> tuple[list[PlayerEntry], dict[int, int]]:
    """The entries in input order and each player id's position among them."""
    entries = list(players)
    index_of: dict[int, int] = {}
    for position, entry in enumerate(entries):
        if entry.player_id in index_of:
            raise ValueError(f"player {entry.player_id!r} is listed twice")
        index_of[entry.player_id] = position
    return entries, index_of


@dataclass(slots=True)
class _Tally:
    """Every player's match and game record, one list per figure, indexed by position."""

    wins: list[int]
    losses: list[int]
    draws: list[int]
    byes: list[int]
    games_won: list[int]
    games_lost: list[int]
    games_drawn: list[int]
    # Positions of the opponents met, in the order of the records given.
    opponents: list[list[int]]
    # Parallel to opponents: the round of each of those matches (see opponent_rounds).
    rounds_of_opponents: list[list[int]] | None
    # Rounds without an opponent (byes, missed rounds given as losses).
    solo_rounds: list[list[int]]
    # Parallel to opponents and solo_rounds: the match points earned in each.
    opponent_points: list[list[int]]
    solo_points: list[list[int]]
    # The games of byes (won, lost, drawn), for conventions that leave byes out.
    bye_games_won: list[int]
    bye_games_lost: list[int]
    bye_games_drawn: list[int]
    # The results with an opponent as columns (round numbers, positions of A, positions
    # of B), from which rounds_of_opponents is built when first asked.
    paired: tuple[Sequence[int], Sequence[int], Sequence[int]] | None = None
    # Whether every player is known to have at most one result per round.
    rounds_checked: bool = False

    @property
    def opponent_rounds(self) -> list[list[int]]:
        """The round of each match with an opponent, parallel to ``opponents``: the
        explanations and the systems of tournaments.tiebreakers read them, the table
        does not, so a large table does not build them."""
        if self.rounds_of_opponents is None:
            lists: list[list[int]] = [[] for _ in self.opponents]
            rounds, positions_a, positions_b = self.paired
            for round_number, a, b in zip(rounds, positions_a, positions_b, strict=True):
                lists[a].append(round_number)
                lists[b].append(round_number)
            self.rounds_of_opponents = lists
        return self.rounds_of_opponents

    @classmethod
    def empty(cls, count: int) -> _Tally:
        def zeros() -> list[int]:
            return [0] * count

        def lists() -> list[list[int]]:
            return [[] for _ in range(count)]

        return cls(
            wins=zeros(),
            losses=zeros(),
            draws=zeros(),
            byes=zeros(),
            games_won=zeros(),
            games_lost=zeros(),
            games_drawn=zeros(),
            opponents=lists(),
            rounds_of_opponents=lists(),
            solo_rounds=lists(),
            opponent_points=lists(),
            solo_points=lists(),
            bye_games_won=zeros(),
            bye_games_lost=zeros(),
            bye_games_drawn=zeros(),
        )


def _tally_results(
    matches: Iterable[MatchRecord],
    index_of: dict[int, int],
    count: int,
    *,
    with_points: bool = False,
) -> _Tally:
    """Add up every match record into the players' records (and validate it).

    ``with_points``: also keep the match points of each match, which only the
    tiebreakers of tournaments.tiebreakers read. Without them a large event's records
    are added up by columns (_tally_by_columns); input that pass finds wrong or unusual
    goes through the record-by-record pass, which says what is wrong exactly as it
    always has."""
    matches = matches if isinstance(matches, list) else list(matches)
    if not with_points and len(matches) >= _COLUMNS_FROM:
        tally = _tally_by_columns(matches, index_of, count)
        if tally is not None:
            return tally
    return _tally_in_order(matches, index_of, count, with_points=with_points)


# From how many records the column pass is faster than the record-by-record one (slower
# at 4,096 players x 12 rounds, 22,845 records; faster at 8,192 x 13, 53,000; a third
# faster at 16,384 x 15, 111,220).
_COLUMNS_FROM = 40_000


class _Outcomes(dict):
    """(games won by A, games won by B, drawn games, match loss A, match loss B) -> what
    the result adds to A's and to B's packed tally: one integer per player holding
    games won, lost and drawn, then matches won, lost and drawn, each in ``shift``
    bits. An event has few distinct results, so each is worked out once."""

    def __init__(self, shift: int) -> None:
        super().__init__()
        self.shift = shift

    def __missing__(self, key: tuple) -> tuple[int, int]:
        won_a, won_b, drawn, loss_a, loss_b = key
        if loss_a or loss_b:
            result_a = _LOSS if loss_a else _WIN
            result_b = _LOSS if loss_b else _WIN
        elif won_a > won_b:
            result_a, result_b = _WIN, _LOSS
        elif won_b > won_a:
            result_a, result_b = _LOSS, _WIN
        else:
            result_a = result_b = _DRAW
        shift = self.shift
        games = (drawn << 2 * shift) if drawn else 0
        value = (
            won_a + (won_b << shift) + games + (1 << (3 + result_a) * shift),
            won_b + (won_a << shift) + games + (1 << (3 + result_b) * shift),
        )
        self[key] = value
        return value


_WIN, _LOSS, _DRAW = 0, 1, 2


def _tally_by_columns(
    matches: list[MatchRecord], index_of: dict[int, int], count: int
) -> _Tally | None:
    """The tally of _tally_in_order (without match points per match) for input where
    every check passes and the rounds come in order, as the database gives them; None
    otherwise, and for input that is not plain whole numbers.

    A large event's records are added up by built-in functions over whole columns, not
    by Python statements per record: the records are split into columns and positions
    looked up; each distinct result is packed once into one integer per side
    (_Outcomes); then round by round, a dictionary of who met whom and of what each
    player's result adds, read for every player, gives one column per round of
    opponents and adds up the packed figures, which are unpacked at the end. Each
    player's opponents, read across the rounds, are in the order of the records. The
    rounds of those matches are only gathered when asked (_Tally.opponent_rounds).
    Exact: each packed field has room for the largest total any player could reach."""
    tally = _Tally.empty(count)
    tally.rounds_of_opponents = None
    is_paired = [record[2] is not None for record in matches]
    paired = list(compress(matches, is_paired))
    solo = []
    if len(paired) < len(matches):
        solo = [record for record, with_b in zip(matches, is_paired, strict=True) if not with_b]
    if not paired:
        rounds = positions_a = positions_b = ()
        largest = 1
    try:
        if paired:
            rounds, ids_a, ids_b, won_a, won_b, drawn, loss_a, loss_b = zip(*paired, strict=True)
            if not all(map(le, rounds, islice(rounds, 1, None))):
                return None
            positions_a = list(map(index_of.__getitem__, ids_a))
            positions_b = list(map(index_of.__getitem__, ids_b))
            if min(won_a) < 0 or min(won_b) < 0 or min(drawn) < 0:
                return None
            if any(map(eq, positions_a, positions_b)):
                return None
            largest = max(1, max(won_a), max(won_b), max(drawn))
        solo_positions = []
        for _, id_a, _, games_a, games_b, games_d, _, loss_b_alone in solo:
            if loss_b_alone or games_a | games_b | games_d < 0:
                return None
            solo_positions.append(index_of[id_a])
        # Room in each field for the largest total a player could reach.
        shift = (largest * max(len(paired), 1)).bit_length() + 1
        outcomes = _Outcomes(shift)
        packed_a, packed_b = (), ()
        if paired:
            packed_a, packed_b = zip(
                *map(outcomes.__getitem__, zip(won_a, won_b, drawn, loss_a, loss_b, strict=True)),
                strict=True,
            )
    except (KeyError, TypeError):
        return None
    # Where each round's records begin and end.
    starts = [0, *compress(range(1, len(rounds)), map(ne, rounds, islice(rounds, 1, None)))]
    ends = [*starts[1:], len(rounds)]
    if len(starts) * count > 8 * len(paired) + 65_536:
        return None  # many rounds of few results: the record-by-record pass is faster
    everyone = range(count)
    packed = [0] * count
    columns = []
    met_in_round: dict[int, dict[int, int]] = {}
    for start, end in zip(starts, ends, strict=True) if paired else ():
        round_a, round_b = positions_a[start:end], positions_b[start:end]
        met = dict(zip(round_a, round_b, strict=True))
        met.update(zip(round_b, round_a, strict=True))
        if len(met) != 2 * (end - start):
            return None  # a player twice in one round
        met_in_round[rounds[start]] = met
        columns.append(list(map(met.get, everyone)))
        adds = dict(zip(round_a, packed_a[start:end], strict=True))
        adds.update(zip(round_b, packed_b[start:end], strict=True))
        packed = list(map(add, packed, map(adds.get, everyone, repeat(0))))
    alone = {(record[0], a) for record, a in zip(solo, solo_positions, strict=True)}
    if len(alone) != len(solo) or any(a in met_in_round.get(r, ()) for r, a in alone):
        return None  # a player twice in one round
    if columns:
        present = partial(is_not, None)
        tally.opponents = [list(filter(present, met)) for met in zip(*columns, strict=True)]
    mask = (1 << shift) - 1
    for field, figures in enumerate(
        (
            tally.games_won,
            tally.games_lost,
            tally.games_drawn,
            tally.wins,
            tally.losses,
            tally.draws,
        )
    ):
        figures[:] = [(value >> field * shift) & mask for value in packed]
    for (round_number, _, _, games_a, games_b, games_d, loss_a_alone, _), a in zip(
        solo, solo_positions, strict=True
    ):
        _add_alone(tally, a, round_number, games_a, games_b, games_d, loss_a_alone)
    tally.paired = (rounds, positions_a, positions_b)
    tally.rounds_checked = True
    return tally


def _add_alone(
    tally: _Tally,
    a: int,
    round_number: int,
    won_a: int,
    won_b: int,
    drawn: int,
    loss_a: bool,
) -> int:
    """A result without an opponent (a bye, a missed round given as a loss) added to the
    tally; returns the match points it gives."""
    tally.games_won[a] += won_a
    tally.games_lost[a] += won_b
    tally.games_drawn[a] += drawn
    tally.solo_rounds[a].append(round_number)
    if loss_a or won_a < won_b:
        tally.losses[a] += 1
        return 0
    if won_a > won_b:
        tally.wins[a] += 1
        # Only a won round without an opponent is a bye; a missed round given as a
        # loss is not.
        tally.byes[a] += 1
        tally.bye_games_won[a] += won_a
        tally.bye_games_lost[a] += won_b
        tally.bye_games_drawn[a] += drawn
        return POINTS_PER_MATCH_WIN
    tally.draws[a] += 1
    return POINTS_PER_MATCH_DRAW


def _tally_in_order(
    matches: Iterable[MatchRecord],
    index_of: dict[int, int],
    count: int,
    *,
    with_points: bool = False,
) -> _Tally:
    """_tally_results record by record, each checked in turn: the first problem in the
    order given is the one reported."""
    tally = _Tally.empty(count)
    wins, losses, draws = tally.wins, tally.losses, tally.draws
    games_won, games_lost, games_drawn = tally.games_won, tally.games_lost, tally.games_drawn
    opponents, opponent_rounds = tally.opponents, tally.opponent_rounds
    opponent_points, solo_points = tally.opponent_points, tally.solo_points
    win, draw = POINTS_PER_MATCH_WIN, POINTS_PER_MATCH_DRAW

    for round_number, id_a, id_b, won_a, won_b, drawn, loss_a, loss_b in matches:
        try:
            a = index_of[id_a]
        except KeyError:
            raise ValueError(f"round {round_number}: unknown player {id_a!r}") from None
        if won_a | won_b | drawn < 0:  # any negative count makes the bitwise or negative
            raise ValueError(f"round {round_number}: negative game count for player {id_a!r}")
        if id_b is None:
            if loss_b:
                raise ValueError(
                    f"round {round_number}: match loss for a missing opponent of {id_a!r}"
                )
            points_a = _add_alone(tally, a, round_number, won_a, won_b, drawn, loss_a)
            if with_points:
                solo_points[a].append(points_a)
            continue
        games_won[a] += won_a
        games_lost[a] += won_b
        games_drawn[a] += drawn
        try:
            b = index_of[id_b]
        except KeyError:
            raise ValueError(f"round {round_number}: unknown player {id_b!r}") from None
        if a == b:
            raise ValueError(f"round {round_number}: player {id_a!r} paired with themselves")
        games_won[b] += won_b
        games_lost[b] += won_a
        games_drawn[b] += drawn
        opponents[a].append(b)
        opponents[b].append(a)
        opponent_rounds[a].append(round_number)
        opponent_rounds[b].append(round_number)
        if loss_a or loss_b:
            if not loss_a:
                wins[a] += 1
                losses[b] += 1
                points_a, points_b = win, 0
            elif not loss_b:
                wins[b] += 1
                losses[a] += 1
                points_a, points_b = 0, win
            else:  # both players took a match loss
                losses[a] += 1
                losses[b] += 1
                points_a = points_b = 0
        elif won_a > won_b:
            wins[a] += 1
            losses[b] += 1
            points_a, points_b = win, 0
        elif won_b > won_a:
            wins[b] += 1
            losses[a] += 1
            points_a, points_b = 0, win
        else:
            draws[a] += 1
            draws[b] += 1
            points_a = points_b = draw
        if with_points:
            opponent_points[a].append(points_a)
            opponent_points[b].append(points_b)
    return tally


@dataclass(frozen=True, slots=True)
class _Totals:
    """The figures the percentages divide: points earned and rounds or games played."""

    match_points: list[int]
    rounds_played: list[int]
    game_points: list[int]
    games_played: list[int]
    # What MW% and GW% divide: the figures above, less the byes when the conventions
    # leave byes out (the same lists otherwise).
    mw_points: list[int]
    mw_rounds: list[int]
    gw_points: list[int]
    gw_games: list[int]

    @classmethod
    def of(cls, tally: _Tally, conventions: StandingsConventions) -> _Totals:
        draw_points = conventions.game_draw_points
        match_points = [
            POINTS_PER_MATCH_WIN * won + POINTS_PER_MATCH_DRAW * drawn
            for won, drawn in zip(tally.wins, tally.draws, strict=True)
        ]
        rounds_played = [
            len(with_opponent) + len(alone)
            for with_opponent, alone in zip(tally.opponents, tally.solo_rounds, strict=True)
        ]
        game_points = [
            POINTS_PER_GAME_WIN * won + draw_points * drawn
            for won, drawn in zip(tally.games_won, tally.games_drawn, strict=True)
        ]
        games_played = [
            won + lost + drawn
            for won, lost, drawn in zip(
                tally.games_won, tally.games_lost, tally.games_drawn, strict=True
            )
        ]
        if conventions.bye_counting is ByeCounting.WIN_2_0:
            return cls(
                match_points,
                rounds_played,
                game_points,
                games_played,
                match_points,
                rounds_played,
                game_points,
                games_played,
            )
        byes = tally.byes
        return cls(
            match_points,
            rounds_played,
            game_points,
            games_played,
            mw_points=[
                p - POINTS_PER_MATCH_WIN * b for p, b in zip(match_points, byes, strict=True)
            ],
            mw_rounds=[r - b for r, b in zip(rounds_played, byes, strict=True)],
            gw_points=[
                p - POINTS_PER_GAME_WIN * w - draw_points * d
                for p, w, d in zip(
                    game_points, tally.bye_games_won, tally.bye_games_drawn, strict=True
                )
            ],
            gw_games=[
                g - w - lost - d
                for g, w, lost, d in zip(
                    games_played,
                    tally.bye_games_won,
                    tally.bye_games_lost,
                    tally.bye_games_drawn,
                    strict=True,
                )
            ],
        )


def _check_rounds(entries: list[PlayerEntry], tally: _Tally, rounds_played: list[int]) -> None:
    """One result per player and round (unless the tally has checked it already), and as
    many rounds as the entry says."""
    if tally.rounds_checked and all(
        map(is_, map(attrgetter("rounds_played"), entries), repeat(None))
    ):
        return  # nothing left to check: no entry gives its rounds_played
    for position, entry in enumerate(entries):
        played = rounds_played[position]
        if (
            not tally.rounds_checked
            and played
            and len({*tally.opponent_rounds[position], *tally.solo_rounds[position]}) != played
        ):
            raise ValueError(f"player {entry.player_id!r} has two results in one round")
        if entry.rounds_played is not None and entry.rounds_played != played:
            raise ValueError(
                f"player {entry.player_id!r}: rounds_played is {entry.rounds_played} but "
                f"the results hold {played} round(s)"
            )


@dataclass(frozen=True, slots=True)
class _TiebreakerKeys:
    """Every tiebreaker as an exact integer per player, higher is better.

    Each percentage is a numerator over a denominator shared by all players, so
    sums and comparisons are integer operations: MWP over ``mwp_denominator``, GWP
    over ``gwp_denominator``; the opponents' sums over the same denominators, and
    OMW/OGW keys over those times the lcm of the opponent counts.
    """

    mwp_scaled: list[int]
    mwp_denominator: int
    gwp_scaled: list[int]
    gwp_denominator: int
    # The player's own GW% as the table shows and ranks it (gwp_scaled, floored, is
    # what opponents' OGW averages; the two differ when own GW% is not floored).
    gwp_own_scaled: list[int]
    omw_sum: list[int]
    ogw_sum: list[int]
    omw_key: list[int]
    ogw_key: list[int]
    match_points: list[int]

    def column(self, tiebreaker: Tiebreaker) -> list[int]:
        return {
            Tiebreaker.MATCH_POINTS: self.match_points,
            Tiebreaker.MATCH_WIN: self.mwp_scaled,
            Tiebreaker.GAME_WIN: self.gwp_own_scaled,
            Tiebreaker.OPPONENTS_MATCH_WIN: self.omw_key,
            Tiebreaker.OPPONENTS_GAME_WIN: self.ogw_key,
        }[tiebreaker]


def _tiebreaker_keys(
    tally: _Tally, totals: _Totals, conventions: StandingsConventions
) -> _TiebreakerKeys:
    """The players' own floored percentages, then their opponents' averages of them."""
    floor = conventions.floor
    no_opponents = conventions.opponents_value_when_none
    no_games = conventions.game_win_when_no_games
    mwp_scaled, mwp_denominator = _scaled_floored(
        totals.mw_points,
        totals.mw_rounds,
        POINTS_PER_MATCH_WIN,
        floor,
        also=(no_opponents.denominator,),
    )
    gw_shared = (no_opponents.denominator, no_games.denominator)
    gwp_scaled, gwp_denominator = _scaled_floored(
        totals.gw_points,
        totals.gw_games,
        POINTS_PER_GAME_WIN,
        floor,
        empty=max(no_games, floor),
        also=gw_shared,
    )
    gwp_own_scaled = gwp_scaled
    if not conventions.floor_own_game_win or no_games < floor:
        gwp_own_scaled, _ = _scaled_floored(
            totals.gw_points,
            totals.gw_games,
            POINTS_PER_GAME_WIN,
            floor,
            empty=no_games,
            also=gw_shared,
            apply_floor=conventions.floor_own_game_win,
        )
    opponents = tally.opponents
    counts_lcm = lcm(*{len(opps) for opps in opponents if opps})
    omw_sums, ogw_sums = _opponents_sums(mwp_scaled, gwp_scaled, opponents)
    omw_sum, omw_key = _opponents_average(
        omw_sums, mwp_denominator, opponents, counts_lcm, no_opponents
    )
    ogw_sum, ogw_key = _opponents_average(
        ogw_sums, gwp_denominator, opponents, counts_lcm, no_opponents
    )
    return _TiebreakerKeys(
        mwp_scaled=mwp_scaled,
        mwp_denominator=mwp_denominator,
        gwp_scaled=gwp_scaled,
        gwp_denominator=gwp_denominator,
        gwp_own_scaled=gwp_own_scaled,
        omw_sum=omw_sum,
        ogw_sum=ogw_sum,
        omw_key=omw_key,
        ogw_key=ogw_key,
        match_points=totals.match_points,
    )


def _opponents_sums(
    first: list[int], second: list[int], opponents: list[list[int]]
) -> tuple[list[int], list[int]]:
    """Each player's sums of the opponents' values in two columns, in one pass over the
    opponents: each player's two values packed into one integer, the first shifted past
    any sum of the second (all of them are whole numbers, none negative), the sums
    split apart at the end. Exact; a negative value sums each column alone."""
    if not first or min(first) < 0 or min(second) < 0:
        return (
            [sum(map(first.__getitem__, opps)) for opps in opponents],
            [sum(map(second.__getitem__, opps)) for opps in opponents],
        )
    most = max(map(len, opponents))
    shift = (max(second) * most).bit_length() + 1
    get = [(a << shift) + b for a, b in zip(first, second, strict=True)].__getitem__
    sums = [sum(map(get, opps)) for opps in opponents]
    mask = (1 << shift) - 1
    return [total >> shift for total in sums], [total & mask for total in sums]


def _opponents_average(
    sums: list[int],
    denominator: int,
    opponents: list[list[int]],
    counts_lcm: int,
    no_opponents: Fraction,
) -> tuple[list[int], list[int]]:
    """Each player's sum of the opponents' scaled percentages (``sums``), and the
    average as a numerator over ``denominator x counts_lcm`` (no opponents:
    ``no_opponents``)."""
    empty_key = no_opponents.numerator * (denominator // no_opponents.denominator) * counts_lcm
    keys = [
        total * (counts_lcm // len(opps)) if opps else empty_key
        for total, opps in zip(sums, opponents, strict=True)
    ]
    return sums, keys


def _tiebreak_input(
    order: tuple[TiebreakerName, ...],
    tally: _Tally,
    totals: _Totals,
    keys: _TiebreakerKeys,
    player_ids: list[int],
    floor: Fraction,
    seed: str,
) -> TiebreakInput | None:
    """What the chosen systems of tournaments.tiebreakers need (None: none chosen)."""
    if not any(name in REGISTRY for name in order):
        return None
    omw = [
        Fraction(total, keys.mwp_denominator * len(opps)) if opps else floor
        for total, opps in zip(keys.omw_sum, tally.opponents, strict=True)
    ]
    rounds = [
        [*zip(with_rounds, with_points, strict=True), *zip(alone_rounds, alone_points, strict=True)]
        for with_rounds, with_points, alone_rounds, alone_points in zip(
            tally.opponent_rounds,
            tally.opponent_points,
            tally.solo_rounds,
            tally.solo_points,
            strict=True,
        )
    ]
    return TiebreakInput(
        player_ids=player_ids,
        match_points=totals.match_points,
        opponents=tally.opponents,
        opponent_points=tally.opponent_points,
        rounds=rounds,
        opponents_match_win=omw,
        floor=floor,
        seed=seed,
    )


def _rank(
    keys: _TiebreakerKeys,
    order: tuple[TiebreakerName, ...],
    player_ids: list[int],
    data: TiebreakInput | None,
) -> tuple[list[int], list[int], dict[str, list]]:
    """Positions in standings order, the rank of each of them (ties share one), and
    the values of the chosen systems from tournaments.tiebreakers by name."""
    # Higher is better for every tiebreaker; negate so one ascending sort also
    # orders ties by ascending player id.
    negated: list[list] = []
    others: dict[str, list] = {}
    for tiebreaker in order:
        system = REGISTRY.get(tiebreaker)
        if system is None:
            column = keys.column(tiebreaker)
        elif system.per_player is not None:
            column = system.per_player(data)
        else:
            column = _group_values(system.per_group, data, negated)
        if system is not None:
            others[system.name] = column
        negated.append([-value for value in column])
    sort_keys = list(zip(*negated, player_ids, strict=True))
    ranking = sorted(range(len(player_ids)), key=sort_keys.__getitem__)
    ranks = []
    previous_key = None
    rank = 0
    for place, position in enumerate(ranking, start=1):
        tie_key = sort_keys[position][:-1]
        if tie_key != previous_key:
            rank = place
            previous_key = tie_key
        ranks.append(rank)
    return ranking, ranks, others


def _group_values(per_group, data: TiebreakInput, earlier: list[list]) -> list:
    """A group system's value for each player, computed within each set of players
    level on every earlier tiebreaker (a player alone there gets 0)."""
    count = len(data.player_ids)
    # Placed first, the whole field is level: one group.
    level_keys = zip(*earlier, strict=True) if earlier else [()] * count
    groups: dict[tuple, list[int]] = {}
    for position, key in enumerate(level_keys):
        groups.setdefault(key, []).append(position)
    values: list = [0] * count
    for members in groups.values():
        if len(members) > 1:
            for position, value in zip(members, per_group(data, members), strict=True):
                values[position] = value
    return values


def _rows(
    entries: list[PlayerEntry],
    ranking: list[int],
    ranks: list[int],
    tally: _Tally,
    totals: _Totals,
    keys: _TiebreakerKeys,
    conventions: StandingsConventions,
    others: dict[str, list],
) -> tuple[StandingsRow, ...]:
    """One row per player in standings order, percentages as exact Fractions.

    The rows of a large table, built column by column: each figure's column is put in
    standings order and the rows are made from the columns by built-in functions, not
    by Python statements per row. A Fraction is built once per distinct value of the
    players' own MW% and GW% (points over rounds or games: few) and of the opponents'
    MW% (about half as many as the players), and once per row for the opponents' GW%."""

    def ordered(column: Sequence) -> list:
        return list(map(column.__getitem__, ranking))

    count = len(ranking)
    mwp_denominator, gwp_denominator = keys.mwp_denominator, keys.gwp_denominator
    no_opponents = conventions.opponents_value_when_none
    opponents = ordered(tally.opponents)
    player_ids, names, dropped, _, cuts = (
        zip(*ordered(entries), strict=True) if count else ((),) * len(PlayerEntry._fields)
    )
    id_of = [entry.player_id for entry in entries].__getitem__

    def fractions(scaled: list[int], denominator: int) -> list[Fraction]:
        value_of = {value: Fraction(value, denominator) for value in set(scaled)}
        return list(map(value_of.__getitem__, ordered(scaled)))

    # Opponents' MW% by their key (the value over the shared denominator).
    opponents_match_wins: dict[int, Fraction] = {}
    for key, total, met in zip(keys.omw_key, keys.omw_sum, tally.opponents, strict=True):
        if met and key not in opponents_match_wins:
            opponents_match_wins[key] = Fraction(total, mwp_denominator * len(met))
    opponents_match_win = [
        opponents_match_wins[key] if met else no_opponents
        for key, met in zip(ordered(keys.omw_key), opponents, strict=True)
    ]
    opponents_game_win = [
        Fraction(total, gwp_denominator * len(met)) if met else no_opponents
        for total, met in zip(ordered(keys.ogw_sum), opponents, strict=True)
    ]
    if others:
        tiebreak_values = [{name: values[i] for name, values in others.items()} for i in ranking]
    else:
        tiebreak_values = repeat(StandingsRow._field_defaults["tiebreak_values"], count)
    columns = (
        ranks,
        player_ids,
        names,
        dropped,
        ordered(totals.match_points),
        ordered(tally.wins),
        ordered(tally.losses),
        ordered(tally.draws),
        ordered(tally.byes),
        ordered(totals.rounds_played),
        ordered(tally.games_won),
        ordered(tally.games_lost),
        ordered(tally.games_drawn),
        ordered(totals.game_points),
        [tuple(map(id_of, met)) for met in opponents],
        fractions(keys.mwp_scaled, mwp_denominator),
        fractions(keys.gwp_own_scaled, gwp_denominator),
        opponents_match_win,
        opponents_game_win,
        tiebreak_values,
        cuts,
    )
    return tuple(map(partial(tuple.__new__, StandingsRow), zip(*columns, strict=True)))


class _OpponentHistory:
    """Who each player met in which round, kept as indices until asked for."""

    def __init__(self, index_of: dict[int, int], player_ids: list[int], tally: _Tally) -> None:
        self._index_of = index_of
        self._player_ids = player_ids
        self._tally = tally

    def rounds_and_opponents(self, player_id: int) -> list[tuple[int, int]]:
        i = self._index_of[player_id]
        ids = self._player_ids
        tally = self._tally
        return sorted(
            (round_number, ids[j])
            for round_number, j in zip(tally.opponent_rounds[i], tally.opponents[i], strict=True)
        )


def _scaled_floored(
    earned: list[int],
    played: list[int],
    points_per_unit: int,
    floor: Fraction,
    *,
    empty: Fraction | None = None,
    also: tuple[int, ...] = (),
    apply_floor: bool = True,
) -> tuple[list[int], int]:
    """``earned / (points_per_unit x played)`` for every player, raised to the floor
    unless ``apply_floor`` is false, over one shared denominator (a multiple of the
    denominators in ``also`` too). Returns the numerators and the denominator.
    Nothing played gives ``empty`` (default: the floor).
    """
    empty = floor if empty is None else empty
    distinct = {p for p in played if p}
    denominator = lcm(
        floor.denominator, empty.denominator, *also, *(points_per_unit * p for p in distinct)
    )
    floor_scaled = floor.numerator * (denominator // floor.denominator) if apply_floor else None
    empty_scaled = empty.numerator * (denominator // empty.denominator)
    factor = {p: denominator // (points_per_unit * p) for p in distinct}
    scaled = []
    for points, p in zip(earned, played, strict=True):
        if p:
            value = points * factor[p]
            if floor_scaled is not None and value < floor_scaled:
                value = floor_scaled
            scaled.append(value)
        else:
            scaled.append(empty_scaled)
    return scaled, denominator


PRESETS: dict[str, StandingsConventions] = {
    # The tournament rules as written: floor 0.33, a drawn game is one game point,
    # own GW% floored, a bye is a 2-0 match win.
    "mtr": StandingsConventions(floor=MTR_FLOOR, decimals=4),
    # Melee.gg in 2024: floor exactly 1/3; a drawn game counts as played but gives no
    # game point (intentional draws are written 0-0-3); own GW% floored; 6 decimals.
    "melee-2024": StandingsConventions(game_draw_points=0, decimals=6),
    # Melee.gg from 2025: drawn games give one game point again; own GW% is not
    # floored; a player with no opponent gets 1/3, one with no game the sentinel
    # -0.2 as GW%; 8 decimals.
    "melee-2025": StandingsConventions(
        floor_own_game_win=False,
        no_opponents_value=Fraction(1, 3),
        no_games_game_win=Fraction(-1, 5),
        decimals=8,
    ),
}
"""Named convention sets, chosen as a tournament setting (docs/standings.md)."""
