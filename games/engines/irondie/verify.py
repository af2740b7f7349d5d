"""Checking a finished game: the seed matches its commitment and re-derives every roll.

Anyone holding a finished game's public record (``view(state, "spectator")`` once the
game is over, or ``State.to_dict()``) can run ``verify(record)``.
"""

from __future__ import annotations

from ..verifying import verify_record
from .engine import IllegalAction
from .randomness import roll_sequence
from .seats import apply, new_game, result


def verify(record: dict, seed: str | None = None) -> dict:
    """Re-derive every roll of a game from its config, seed and action log.

    ``record`` needs "config", "commitment", "log" and "rolls"; the seed comes from
    ``seed`` or the record's "seed". Returns {"ok", "problems", "rolls_checked",
    "result"}: ``problems`` lists every mismatch in plain words (empty when all is well).
    """
    return verify_record(
        record,
        seed,
        derive_rolls=roll_sequence,
        new_game=new_game,
        apply=apply,
        result=result,
        illegal=IllegalAction,
    )
