"""The IRONDIE dice catalogue: types, classes, colours, affinity and set rules.

Everything here comes from the rulebook's "Dice", "Key Characteristics (Table 1)",
"Colors" and "Setup" sections (docs/rules.md quotes them and records the rulings).
Pure Python: players/ and the engine both import it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from ..errors import ConfigError, Message, gettext_noop

PLAYING_SET_SIZE = 9
ADDITIONAL_SET_MAX = 3
MAX_RARE_IN_PLAYING_SET = 3


class DieClass(StrEnum):
    ATTACK = "attack"
    DEFENSE = "defense"
    LIFE = "life"

    @property
    def symbol(self) -> str:
        """How the face value is drawn: triangles, dots or numerals."""
        return {"attack": "triangles", "defense": "dots", "life": "numerals"}[self.value]


class ColourCategory(StrEnum):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    COLOURLESS = "colourless"


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"
    PURPLE = "purple"
    GREEN = "green"
    ORANGE = "orange"
    BLACK = "black"
    WHITE = "white"

    @property
    def category(self) -> ColourCategory:
        return _CATEGORY[self]


_CATEGORY = {
    Colour.RED: ColourCategory.PRIMARY,
    Colour.BLUE: ColourCategory.PRIMARY,
    Colour.YELLOW: ColourCategory.PRIMARY,
    Colour.PURPLE: ColourCategory.SECONDARY,
    Colour.GREEN: ColourCategory.SECONDARY,
    Colour.ORANGE: ColourCategory.SECONDARY,
    Colour.BLACK: ColourCategory.COLOURLESS,
    Colour.WHITE: ColourCategory.COLOURLESS,
}

# "Combining two primary colors gives a secondary color": the source colours of each
# derived (secondary) colour.
SOURCE_COLOURS: dict[Colour, frozenset[Colour]] = {
    Colour.PURPLE: frozenset({Colour.RED, Colour.BLUE}),
    Colour.GREEN: frozenset({Colour.BLUE, Colour.YELLOW}),
    Colour.ORANGE: frozenset({Colour.RED, Colour.YELLOW}),
}


class Relation(StrEnum):
    ALLIED = "allied"
    ENEMY = "enemy"
    NEUTRAL = "neutral"


def affinity(a: Colour, b: Colour) -> Relation:
    """The rulebook's Affinity rules, symmetric.

    A colour is allied to itself (Affinity 1; docs/rules.md explains why the colour
    table's "all dice of one color are enemy" line does not override this).
    """
    a, b = Colour(a), Colour(b)
    if a == b:
        return Relation.ALLIED
    if b in SOURCE_COLOURS.get(a, ()) or a in SOURCE_COLOURS.get(b, ()):
        return Relation.ALLIED
    if a.category == b.category:
        return Relation.ENEMY
    return Relation.NEUTRAL


class DieType(StrEnum):
    CRUSHER = "crusher"
    ASSAULT = "assault"
    SHOOTER = "shooter"
    ANNULATOR = "annulator"
    BARRIER = "barrier"
    POWER_BOOSTER = "power_booster"
    ABSORBER = "absorber"
    FORTRESS = "fortress"
    REGENERATOR = "regenerator"

    @property
    def die_class(self) -> DieClass:
        return _TYPE_CLASS[self]

    @property
    def specialisation(self) -> Colour | None:
        """The colour in which this type wins ties (Table 1); Regenerator has none."""
        return _SPECIALISATION[self]

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").title()


_TYPE_CLASS = {
    DieType.CRUSHER: DieClass.ATTACK,
    DieType.ASSAULT: DieClass.ATTACK,
    DieType.SHOOTER: DieClass.ATTACK,
    DieType.ANNULATOR: DieClass.DEFENSE,
    DieType.BARRIER: DieClass.DEFENSE,
    DieType.POWER_BOOSTER: DieClass.DEFENSE,
    DieType.ABSORBER: DieClass.LIFE,
    DieType.FORTRESS: DieClass.LIFE,
    DieType.REGENERATOR: DieClass.LIFE,
}

_SPECIALISATION = {
    DieType.CRUSHER: Colour.BLACK,
    DieType.ASSAULT: Colour.RED,
    DieType.SHOOTER: Colour.PURPLE,
    DieType.ANNULATOR: Colour.BLUE,
    DieType.BARRIER: Colour.GREEN,
    DieType.POWER_BOOSTER: Colour.WHITE,
    DieType.ABSORBER: Colour.ORANGE,
    DieType.FORTRESS: Colour.YELLOW,
    DieType.REGENERATOR: None,
}


@dataclass(frozen=True, slots=True)
class Die:
    """One physical die of a set: its type, colour and whether it is rare."""

    type: DieType
    colour: Colour
    rare: bool = False

    @property
    def die_class(self) -> DieClass:
        return self.type.die_class

    @property
    def specialised(self) -> bool:
        return self.type.specialisation == self.colour

    def to_dict(self) -> dict:
        return {"type": self.type.value, "colour": self.colour.value, "rare": self.rare}

    @classmethod
    def from_dict(cls, data: dict) -> Die:
        """Build a die from ``{"type", "colour", "rare"}``; ValueError names a bad field."""
        if not isinstance(data, dict):
            raise ConfigError(
                gettext_noop("A die must be an object with 'type', 'colour' and 'rare'.")
            )
        raw_type, raw_colour = data.get("type"), data.get("colour")
        try:
            die_type = DieType(raw_type)
        except ValueError:
            choices = ", ".join(t.value for t in DieType)
            raise ConfigError(
                gettext_noop("Unknown die type %(type)s; choose one of: %(choices)s."),
                type=repr(raw_type),
                choices=choices,
            ) from None
        try:
            colour = Colour(raw_colour)
        except ValueError:
            choices = ", ".join(c.value for c in Colour)
            raise ConfigError(
                gettext_noop("Unknown colour %(colour)s; choose one of: %(choices)s."),
                colour=repr(raw_colour),
                choices=choices,
            ) from None
        rare = data.get("rare", False)
        if not isinstance(rare, bool):
            raise ConfigError(gettext_noop("'rare' must be true or false."))
        return cls(die_type, colour, rare)


# The Setup rule's three classes, each needed once (the same English as the class's
# code, ``die_class.value.upper()``, with the sentence whole for translation).
_NEEDS_CLASS = {
    DieClass.ATTACK: gettext_noop("A playing set needs at least one ATTACK die."),
    DieClass.DEFENSE: gettext_noop("A playing set needs at least one DEFENSE die."),
    DieClass.LIFE: gettext_noop("A playing set needs at least one LIFE die."),
}


def playing_set_errors(dice: Iterable[Die]) -> list[str]:
    """Every way a playing set breaks the Setup and Rare Dice rules (empty: valid)."""
    dice = list(dice)
    errors = []
    if len(dice) != PLAYING_SET_SIZE:
        errors.append(
            Message(
                gettext_noop(
                    "A playing set must have exactly %(size)s dice; this one has %(count)s."
                ),
                size=PLAYING_SET_SIZE,
                count=len(dice),
            )
        )
    classes = {die.die_class for die in dice}
    for die_class in DieClass:
        if die_class not in classes:
            errors.append(Message(_NEEDS_CLASS[die_class]))
    rare = sum(die.rare for die in dice)
    if rare > MAX_RARE_IN_PLAYING_SET:
        errors.append(
            Message(
                gettext_noop(
                    "A playing set may hold at most %(most)s rare dice; this one has %(count)s."
                ),
                most=MAX_RARE_IN_PLAYING_SET,
                count=rare,
            )
        )
    return errors


def additional_set_errors(dice: Iterable[Die]) -> list[str]:
    """The tournament rule: an additional set of at most three dice (rare allowed)."""
    dice = list(dice)
    if len(dice) > ADDITIONAL_SET_MAX:
        return [
            Message(
                gettext_noop(
                    "An additional set may hold at most %(most)s dice; this one has %(count)s."
                ),
                most=ADDITIONAL_SET_MAX,
                count=len(dice),
            )
        ]
    return []
