"""Test-only constructors: states with chosen dice positions, values and future rolls.

Not for play. ``scenario()`` builds a state mid-game (as if earlier turns had happened)
and ``with_rolls()`` scripts the next rolls, so a test can say "the Crusher rolls 5".
A state with scripted rolls fails ``verify()``, as it should: its rolls do not come from
its seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from . import engine as E
from . import team as T


def die(type_: str, colour: str, rare: bool = False) -> dict:
    return {"type": type_, "colour": colour, "rare": rare}


# A legal set with every type once; colours chosen so that most types are not
# specialised (tests that need specialisation build their own sets).
MIXED_SET = [
    die("crusher", "red"),
    die("assault", "blue"),
    die("shooter", "yellow"),
    die("annulator", "red"),
    die("barrier", "yellow"),
    die("power_booster", "green"),
    die("absorber", "blue"),
    die("fortress", "red"),
    die("regenerator", "purple"),
]


def config(set0: list | None = None, set1: list | None = None, **options) -> dict:
    return {
        "game_id": options.pop("game_id", "test"),
        "sets": [set0 or MIXED_SET, set1 or MIXED_SET],
        **options,
    }


def with_rolls(state: E.State, rolls: Iterable[int]) -> E.State:
    """A copy of ``state`` whose next rolls are ``rolls`` (then the seed's stream)."""
    copy = state.clone()
    values = list(rolls)
    if any(not 1 <= v <= 6 for v in values):
        raise ValueError("scripted rolls must be 1-6")
    copy.scripted_rolls.extend(values)
    return copy


def scenario(
    cfg: dict | None = None,
    *,
    battle: Mapping[int, int] | None = None,
    clash: Mapping[int, int] | None = None,
    storage: Iterable[int] = (),
    abyss: Iterable[int] = (),
    phase: str = E.OFFER,
    turn: int = 2,
    preferred: int = 0,
    advantage: int = 0,
    attack_rights: tuple[bool, bool] = (True, True),
    rolls: Iterable[int] = (),
    sudden_death_from: int | None = None,
    first_battle_done: bool = True,
    seed: str = "scenario",
) -> E.State:
    """A state at the start of ``phase`` ("split", "offer", "damage" or "end_turn") with
    the given dice in the battle zone ({die id: value}), storage and abyss; every other
    die is in its owner's hand. ``rolls`` are the next rolls."""
    state = E.new_game(cfg or config(), seed)
    s = state.clone()
    s.log = []
    s.rolls = []
    s.roll_position = 0
    s.cache = None
    s.zone = [E.HAND] * E.DICE_COUNT
    s.value = [0] * E.DICE_COUNT
    for d, v in (battle or {}).items():
        s.zone[d], s.value[d] = E.BATTLE, v
    for d, v in (clash or {}).items():
        s.zone[d], s.value[d] = E.CLASH, v
    for d in storage:
        s.zone[d] = E.STORAGE
    for d in abyss:
        s.zone[d] = E.ABYSS
    s.turn = turn
    s.first_battle_done = first_battle_done
    s.sudden_death_from = sudden_death_from
    s.advantage = advantage
    s.scripted_rolls = list(rolls)
    s.bonus_queue = []
    s.choices = [None, None]
    s.secret_log = []
    events: list[dict] = []
    if phase == E.SPLIT:
        s.phase = E.SPLIT
        s.choices = [None if E._split_count(s, p) else () for p in E.PLAYERS]
    elif phase == E.OFFER:
        s.phase = E.OFFER
        s.attack_right = list(attack_rights)
        s.preferred = preferred
    elif phase == E.DAMAGE:
        E._start_damage(s, events)
    elif phase == E.END_TURN:
        E._start_end_turn(s, events)
    else:
        raise ValueError(f"scenario() cannot start in phase {phase!r}")
    E._advance(s, events)
    return s


def play(state: E.State, *moves) -> tuple[E.State, list[dict]]:
    """Apply (player, action) pairs in turn; returns the last state and all events."""
    events: list[dict] = []
    for player, action in moves:
        state, new_events = E.apply(state, player, action)
        events.extend(new_events)
    return state, events


def team_config(*sets: list, seats: int = 4, **options) -> dict:
    """A team game config: ``sets`` for the first seats, MIXED_SET for the rest."""
    chosen = [*sets] + [MIXED_SET] * (seats - len(sets))
    return {"game_id": options.pop("game_id", "team-test"), "sets": chosen, **options}


def team_scenario(
    cfg: dict | None = None,
    *,
    battle: Mapping[int, int] | None = None,
    storage: Iterable[int] = (),
    abyss: Iterable[int] = (),
    phase: str = E.OFFER,
    turn: int = 2,
    preferred: int = 0,
    advantage: int = 0,
    attack_rights: tuple[bool, bool] = (True, True),
    rolls: Iterable[int] = (),
    sudden_death_from: int | None = None,
    seed: str = "scenario",
):
    """``scenario()`` for a team game: a state at the start of ``phase`` ("split",
    "offer", "damage" or "end_turn") with the given dice in the battle zone, storage
    and abyss; every other die in its owner's hand."""
    state = T.new_game(cfg or team_config(), seed)
    s = state.clone()
    count = len(s.zone)
    s.log, s.rolls, s.roll_position, s.cache = [], [], 0, None
    s.zone, s.value = [E.HAND] * count, [0] * count
    for d, v in (battle or {}).items():
        s.zone[d], s.value[d] = E.BATTLE, v
    for d in storage:
        s.zone[d] = E.STORAGE
    for d in abyss:
        s.zone[d] = E.ABYSS
    s.turn = turn
    s.first_battle_done = True
    s.sudden_death_from = sudden_death_from
    s.advantage = advantage
    s.scripted_rolls = list(rolls)
    s.bonus_queue = []
    s.secret_log = []
    s.choices = [None] * s.seats
    events: list[dict] = []
    if phase == E.SPLIT:
        s.phase = E.SPLIT
        s.choices = [None if T._dice_of(s, seat, E.HAND) else () for seat in range(s.seats)]
    elif phase == E.OFFER:
        s.phase = E.OFFER
        s.attack_right = list(attack_rights)
        s.preferred = preferred
    elif phase == E.DAMAGE:
        T._start_damage(s, events)
    elif phase == E.END_TURN:
        s.phase = E.END_TURN
        s.choices = [
            None if len(T._return_options(s, seat)) > 1 else (None,) for seat in range(s.seats)
        ]
        if all(c is not None for c in s.choices):
            T._resolve_end_turn(s, events)
    else:
        raise ValueError(f"team_scenario() cannot start in phase {phase!r}")
    T._advance(s, events)
    return s


def team_play(state, *moves):
    """Apply (seat, action) pairs to a team game; returns the last state and all events."""
    events: list[dict] = []
    for seat, action in moves:
        state, new_events = T.apply(state, seat, action)
        events.extend(new_events)
    return state, events
