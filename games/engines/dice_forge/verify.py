"""Checking a finished game: the seed matches its commitment and re-derives every roll.

Anyone holding a finished game's public record (``view(state, "spectator")`` once the
game is over, or ``State.to_dict()``) can run ``verify(record)``.
"""

from __future__ import annotations

from ..seeded import commitment, roll_sequence
from .engine import GAME, IllegalAction, apply, new_game, result


def verify(record: dict, seed: str | None = None) -> dict:
    """Re-derive every roll of a game from its config, seed and action log. Returns
    {"ok", "problems", "rolls_checked", "result"}; ``problems`` lists every mismatch."""
    problems: list[str] = []
    seed = seed if seed is not None else record.get("seed")
    if not seed:
        return {
            "ok": False,
            "problems": ["The seed is not revealed yet."],
            "rolls_checked": 0,
            "result": None,
        }
    if commitment(seed) != record.get("commitment"):
        problems.append("The seed does not match the published commitment.")
    config = record["config"]
    recorded = list(record.get("rolls", []))
    derived = roll_sequence(GAME, seed, config.get("game_id", ""), len(recorded))
    for index, (got, expected) in enumerate(zip(recorded, derived, strict=True)):
        if got != expected:
            problems.append(f"Roll {index} was {got}; the seed gives {expected}.")
    state = new_game(config, seed)
    for index, (actor, action) in enumerate(record.get("log", [])):
        try:
            state, _events = apply(state, actor, action)
        except IllegalAction as exc:
            problems.append(f"Log entry {index} is not legal on replay: {exc}")
            break
    if state.rolls != recorded:
        problems.append(
            f"Replaying the log uses {len(state.rolls)} rolls; the record lists {len(recorded)}"
            + (" with different values." if len(state.rolls) == len(recorded) else ".")
        )
    replayed = result(state)
    if "result" in record and record["result"] != replayed:
        problems.append(f"The recorded result {record['result']} differs from the replay's.")
    return {
        "ok": not problems,
        "problems": problems,
        "rolls_checked": len(recorded),
        "result": replayed,
    }
