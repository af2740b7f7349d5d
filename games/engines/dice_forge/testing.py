"""Test-only constructors: Dice Forge states with chosen reserves, dice and future rolls.

Not for play. ``scenario()`` builds a state at the active player's action with chosen
reserves, dice and cards; ``with_rolls()`` scripts the next rolls (1-6: the slot rolled
is the roll minus one). A state with scripted rolls fails ``verify()``, as it should.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from . import engine as E


def scenario(
    seats: int = 2,
    *,
    res: Mapping[int, Iterable[int]] | None = None,
    dice: Mapping[int, Iterable[Iterable[str]]] | None = None,
    cards: Mapping[int, Iterable[str]] | None = None,
    pawns: Mapping[int, str | None] | None = None,
    phase: str = "action",
    active: int = 0,
    seed: str = "scenario",
) -> E.State:
    """A game of ``seats`` seats where seat ``active`` is at ``phase`` with nothing
    pending; ``res`` sets [gold, sun, moon, glory] per seat."""
    s = E.new_game({"game_id": "test", "seats": seats}, seed).clone()
    s.pending = []
    s.cards = [list(names) for names in s.cards]
    s.used = [list(names) for names in s.used]
    s.active = active
    s.phase = phase
    for seat, values in (res or {}).items():
        s.res[seat] = list(values)
    for seat, faces in (dice or {}).items():
        s.dice[seat] = [list(die) for die in faces]
    for seat, names in (cards or {}).items():
        s.cards[seat] = list(names)
        s.chests[seat] = s.cards[seat].count("blacksmiths_chest")
        s.hammers[seat] = s.cards[seat].count("blacksmiths_hammer")
    for seat, island in (pawns or {}).items():
        s.pawns[seat] = island
    s.used = [[] for _ in range(seats)]
    s.bought = []
    return s


def with_rolls(state: E.State, rolls: Iterable[int]) -> E.State:
    s = state.clone()
    s.scripted_rolls = list(rolls)
    return s
