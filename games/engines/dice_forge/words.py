"""The words of Dice Forge for people: phases, decisions and how a game ends, marked for
translation (``gettext_noop``); the online layer translates them when it renders a page."""

from __future__ import annotations


def gettext_noop(text: str) -> str:
    """Marks ``text`` for translation; the page translates it."""
    return text


PHASES = {
    "choose": gettext_noop(
        "Choosing the resource of a rolled face, the gold for a hammer, what becomes glory,"
        " a mirrored face or the Satyrs' faces"
    ),
    "reinforce": gettext_noop("Calling for reinforcements"),
    "action": gettext_noop("Taking an action"),
    "forge": gettext_noop("Forging die faces"),
    "extra": gettext_noop("The extra action"),
    "over": gettext_noop("Game over"),
}

DECISIONS = {
    "choose": gettext_noop(
        "choose which resource your rolled face gives (or takes), how much of a gain goes"
        " on your hammer or becomes glory, which face your mirror copies, which two faces"
        " the Satyrs take or where a boar face goes on your dice"
    ),
    "reinforce": gettext_noop("use your reinforcement cards or tokens, or go on to your action"),
    "action": gettext_noop("forge die faces, perform a heroic feat, spend a token, or pass"),
    "forge": gettext_noop("forge another face from another pool, or stop forging"),
    "extra": gettext_noop("spend 2 sun shards for another action, or end your turn"),
}

END_REASONS = {
    "rounds": gettext_noop("the last round was played: most glory wins"),
    "time_limit": gettext_noop("the time ran out: glory was counted as it stood"),
    "forfeit": gettext_noop("a player conceded: they are placed last"),
}

# A session's status where this game says more than the general words (games/models.py):
# there are no dice to swap, so a game waits only for its players to be ready.
STATUSES = {"waiting": gettext_noop("Waiting to start (players getting ready)")}

WORDS = {
    "phases": PHASES,
    "decisions": DECISIONS,
    "end_reasons": END_REASONS,
    "statuses": STATUSES,
}


def bonus_amounts(colour: str) -> tuple[int, ...]:
    """Dice Forge has no colour bonuses (the contract asks every engine for this)."""
    return ()
