"""The words of 36d6 for people: decisions and how a game ends, marked for translation
(``gettext_noop``); the online layer translates them when it renders a page."""

from __future__ import annotations


def gettext_noop(text: str) -> str:
    """Marks ``text`` for translation; the page translates it."""
    return text


PHASES = {
    "move": gettext_noop("Moving a die"),
    "extra_go": gettext_noop("An extra go after a natural 6"),
    "over": gettext_noop("Game over"),
}

DECISIONS = {
    "move": gettext_noop("move a die one square, or attack the die next to it"),
    "extra_go": gettext_noop("take your extra go with another die, or give it up"),
}

END_REASONS = {
    "one_die_left": gettext_noop("only one die (or none) is left on the board"),
    "no_attacks": gettext_noop("six turns went by without an attack"),
    "time_limit": gettext_noop("the time ran out: the piles were counted as they stood"),
    "forfeit": gettext_noop("every other side forfeited"),
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
    """36d6 has no colour bonuses (the contract asks every engine for this)."""
    return ()
