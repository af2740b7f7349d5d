"""Glue between sessions and an engine's bots (which read only view and legal_actions):
each engine lists its bots by kind in ``BOTS`` (games/engines/__init__.py)."""

BOT_NAMES = {"heuristic": "Heuristic bot", "random": "Random bot"}


def bot_action(engine, kind: str, state, seat: int, *, seed: str) -> dict:
    """The move the bot of ``kind`` of ``engine`` makes for ``seat``; ``seed`` makes its
    tie-breaks reproducible (the session and state version)."""
    return engine.BOTS[kind](seed=seed).choose(state, seat)
