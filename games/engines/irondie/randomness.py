"""Verifiable dice: every roll of a game derives from its server seed.

The roll stream of a game is the concatenation of HMAC-SHA256(seed,
"irondie/<game_id>/<block>") for block = 0, 1, 2, ...; each byte below 252 gives the
roll ``byte % 6 + 1`` (bytes 252-255 are skipped so every face is equally likely).
The game publishes ``commitment(seed)`` (SHA-256 of the seed) from the start and
reveals the seed once it is over, so anyone can re-derive every roll.
"""

from __future__ import annotations

from .. import seeded
from ..seeded import ACCEPT_BELOW, BLOCK_BYTES, commitment, new_seed

__all__ = ["ACCEPT_BELOW", "BLOCK_BYTES", "commitment", "new_seed", "next_roll", "roll_sequence"]
# The scheme is every engine's (engines/seeded.py); IRONDIE's streams are named "irondie".
GAME = "irondie"


def stream_block(seed: str, game_id: str, block: int) -> bytes:
    return seeded.stream_block(GAME, seed, game_id, block)


def next_roll(seed: str, game_id: str, position: int) -> tuple[int, int]:
    """The roll at byte ``position`` of the stream: (value 1-6, position after it)."""
    return seeded.next_roll(GAME, seed, game_id, position)


def roll_sequence(seed: str, game_id: str, count: int) -> list[int]:
    """The first ``count`` rolls of a game's stream, derived independently of the engine."""
    return seeded.roll_sequence(GAME, seed, game_id, count)
