"""Glue between sessions and an engine's bots (which read only view and legal_actions):
each engine lists its bots by kind in ``BOTS`` (games/engines/__init__.py)."""

from django.utils.translation import gettext, gettext_noop

# Stored as the seat's name when a game starts; shown translated (``shown_name``).
BOT_NAMES = {"heuristic": gettext_noop("Heuristic bot"), "random": gettext_noop("Random bot")}


def shown_name(name: str) -> str:
    """A seat's stored name as the reader sees it: a bot's name ("Heuristic bot", or
    "Heuristic bot A" in a demo game, "Heuristic bot 2" in a game of more seats) in the
    reader's language, anyone else's as given."""
    bots = BOT_NAMES.values()
    if name in bots:
        return gettext(name)
    base, _space, seat = name.rpartition(" ")
    if base in bots and (seat in ("A", "B") or seat.isdigit()):
        return f"{gettext(base)} {seat}"
    return name


def bot_action(engine, kind: str, state, seat: int, *, seed: str) -> dict:
    """The move the bot of ``kind`` of ``engine`` makes for ``seat``; ``seed`` makes its
    tie-breaks reproducible (the session and state version)."""
    return engine.BOTS[kind](seed=seed).choose(state, seat)
