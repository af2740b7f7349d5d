"""Verifiable seeded rolls shared by the engines (IRONDIE's randomness.py names its streams).

The roll stream of a game is the concatenation of HMAC-SHA256(seed,
"<game>/<game_id>/<block>") for block = 0, 1, 2, ...; each byte below 252 gives the roll
``byte % 6 + 1`` (bytes 252-255 are skipped so every face is equally likely). A game
publishes ``commitment(seed)`` (SHA-256 of the seed) from the start and reveals the seed
once it is over, so anyone can re-derive every roll.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from functools import lru_cache

BLOCK_BYTES = 32
# 252 is the largest multiple of 6 not above 256: rejecting 252-255 removes the bias.
ACCEPT_BELOW = 252


def new_seed() -> str:
    """A fresh 256-bit server seed (hex). Short seeds could be brute-forced from the commitment."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The published hash of a seed: hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode()).hexdigest()


@lru_cache(maxsize=8192)
def stream_block(game: str, seed: str, game_id: str, block: int) -> bytes:
    return hmac.digest(seed.encode(), f"{game}/{game_id}/{block}".encode(), "sha256")


def next_roll(game: str, seed: str, game_id: str, position: int) -> tuple[int, int]:
    """The roll at byte ``position`` of the stream: (value 1-6, position after it)."""
    while True:
        block, offset = divmod(position, BLOCK_BYTES)
        byte = stream_block(game, seed, game_id, block)[offset]
        position += 1
        if byte < ACCEPT_BELOW:
            return byte % 6 + 1, position


def roll_sequence(game: str, seed: str, game_id: str, count: int) -> list[int]:
    """The first ``count`` rolls of a game's stream, derived independently of the engine."""
    rolls, position = [], 0
    for _ in range(count):
        value, position = next_roll(game, seed, game_id, position)
        rolls.append(value)
    return rolls
