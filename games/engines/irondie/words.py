"""The words of the game for people: phases, decisions, how a game ends, and what a
colour bonus does. Pure Python like the rest of the engine: the texts are only marked
for translation here (``gettext_noop``, which message extraction finds); the online
layer translates them when it renders a page. The amounts of a bonus come from the
engine's own table, so the words cannot drift from the rules."""

from __future__ import annotations

from .dice import Colour
from .engine import _BONUS_PARTS, _COLOUR_CODE


def gettext_noop(text: str) -> str:
    """Marks ``text`` for translation; the page translates it."""
    return text


# The phase a game is in (the view's "phase"), by the rulebook's phases of a turn.
PHASES = {
    "split": gettext_noop("Battle: choosing the dice to throw"),
    "battle_bonus": gettext_noop("Battle: colour bonuses"),
    "offer": gettext_noop("Clash: attack or pass"),
    "duel": gettext_noop("Clash: a duel"),
    "damage": gettext_noop("Damage"),
    "end_turn": gettext_noop("End of turn"),
    "over": gettext_noop("Game over"),
}

# The decision a player is asked for (the view's decision "kind").
DECISIONS = {
    "split": gettext_noop("choose the dice to throw in the battle"),
    "bonus": gettext_noop("choose where the colour bonus goes"),
    "attack": gettext_noop("attack with a die, or pass"),
    "defender_first": gettext_noop("answer the attack: throw a die, or pass"),
    "attacker_second": gettext_noop("throw a second die, or pass"),
    "defender_second": gettext_noop("throw a second die in defence, or pass"),
    "damage": gettext_noop("share out the damage you take"),
    "end_turn": gettext_noop("return a die to your reserve, or not"),
}

# How a game ended (the result's "reason").
END_REASONS = {
    "no_life_dice": gettext_noop("the loser has no life dice left in play"),
    "roll_off": gettext_noop("both sides lost their last life dice at once: a roll-off decided"),
    "forfeit": gettext_noop("the loser conceded or forfeited"),
    "match_time_over": gettext_noop("the match time ran out"),
}

# A session's status where this game says more than the general words (games/models.py):
# a game waits for the swap window, when players may swap dice from their additional set.
STATUSES = {"waiting": gettext_noop("Waiting to start (swap window)")}

WORDS = {
    "phases": PHASES,
    "decisions": DECISIONS,
    "end_reasons": END_REASONS,
    "statuses": STATUSES,
}


def bonus_amounts(colour: str) -> tuple[int, ...]:
    """What the colour bonus of a die of ``colour`` adds to each of its targets, in the
    order of the bonus action's ``targets``: black is (3, -1), +3 to an allied attack
    or defence die and -1 to one of the player's own life dice."""
    parts = _BONUS_PARTS[_COLOUR_CODE[Colour(colour)]]
    return tuple(amount for amount, _classes, _relations in parts)


# The dice: types, colours (as a die's colour), classes and how their values are drawn,
# the zones and sectors of the board. The page translates these too.
TYPE_NAMES = {
    "crusher": gettext_noop("Crusher"),
    "assault": gettext_noop("Assault"),
    "shooter": gettext_noop("Shooter"),
    "annulator": gettext_noop("Annulator"),
    "barrier": gettext_noop("Barrier"),
    "power_booster": gettext_noop("Power Booster"),
    "absorber": gettext_noop("Absorber"),
    "fortress": gettext_noop("Fortress"),
    "regenerator": gettext_noop("Regenerator"),
}

COLOUR_NAMES = {
    "red": gettext_noop("red"),
    "blue": gettext_noop("blue"),
    "yellow": gettext_noop("yellow"),
    "purple": gettext_noop("purple"),
    "green": gettext_noop("green"),
    "orange": gettext_noop("orange"),
    "black": gettext_noop("black"),
    "white": gettext_noop("white"),
}

CLASS_NAMES = {
    "attack": gettext_noop("ATTACK"),
    "defense": gettext_noop("DEFENSE"),
    "life": gettext_noop("LIFE"),
}

# A die's class inside a sentence ("red Assault (attack)").
CLASS_WORDS = {
    "attack": gettext_noop("attack"),
    "defense": gettext_noop("defense"),
    "life": gettext_noop("life"),
}

SYMBOL_NAMES = {
    "triangles": gettext_noop("triangles"),
    "dots": gettext_noop("dots"),
    "numerals": gettext_noop("numerals"),
}

SECTOR_NAMES = {
    "attack": gettext_noop("Attack"),
    "defense": gettext_noop("Defense"),
    "life": gettext_noop("Life"),
}
