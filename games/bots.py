"""Glue between sessions and the engine's bots (which read only view and legal_actions)."""

from games.engines.irondie.bots import HeuristicBot, RandomBot

BOTS = {"heuristic": HeuristicBot, "random": RandomBot}
BOT_NAMES = {"heuristic": "Heuristic bot", "random": "Random bot"}


def bot_action(kind: str, state, seat: int, *, seed: str) -> dict:
    """The move the bot of ``kind`` makes for ``seat``; ``seed`` makes its tie-breaks
    reproducible (the session and state version)."""
    return BOTS[kind](seed=seed).choose(state, seat)
