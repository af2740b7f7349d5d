"""Test-only constructors: 36d6 states with chosen dice, faces and future rolls.

Not for play. ``scenario()`` builds a state mid-game and ``with_rolls()`` scripts the next
rolls (attacker's roll first, then the defender's), so a test can say "the attacker
rolls 6". A state with scripted rolls fails ``verify()``, as it should.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from . import engine as E


def sq(row: int, col: int, size: int = E.SIZE) -> int:
    return row * size + col


def scenario(
    config: dict | None = None,
    *,
    keep: Iterable[int] | None = None,
    faces: Mapping[int, int] | None = None,
    at: Mapping[int, tuple[int, int]] | None = None,
    piles: Mapping[int, int] | None = None,
    actor: int = 0,
    prev_moved: int = -1,
    zombies: Mapping[tuple[int, int], int] | None = None,
    seed: str = "scenario",
) -> E.State:
    """A game where only the dice in ``keep`` (default: all) are on the board, at their
    start squares unless ``at`` moves them; ``faces`` sets faces; ``piles`` puts dice
    (by id) into a seat's pile; every other die is in the discard pile. On the Zombie
    board, ``zombies`` ({(row, column): count}) replaces the corner zombies."""
    s = E.new_game(config or {"game_id": "test", "seats": 2}, seed)
    keep = set(range(E.DICE) if keep is None else keep)
    s.owner = [E.BOARD if d in keep else E.DISCARD for d in range(E.DICE)]
    s.pos = [s.geo.start[d] if d in keep else -1 for d in range(E.DICE)]
    for die, (row, col) in (at or {}).items():
        s.pos[die] = sq(row, col, s.geo.size)
    for die, seat in (piles or {}).items():
        s.owner[die] = seat
        s.pos[die] = -1
    s.at = [-1] * s.geo.squares
    for die, square in enumerate(s.pos):
        if square >= 0:
            assert s.at[square] < 0, "two dice on one square"
            s.at[square] = die
    for die, face in (faces or {}).items():
        s.face[die] = face
    if zombies is not None:
        size = s.geo.size
        s.zombies = [0] * s.geo.squares
        for (row, col), count in zombies.items():
            s.zombies[row * size + col] = count
    s.actor = actor
    s.prev_moved = prev_moved
    return s


def with_rolls(state: E.State, rolls: Iterable[int]) -> E.State:
    s = state.clone()
    s.scripted_rolls = list(rolls)
    return s


def move(die: int, row: int, col: int) -> dict:
    return {"kind": "move", "die": die, "to": [row, col]}
