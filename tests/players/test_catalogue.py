"""The dice catalogue against the rulebook's Dice, Table 1 and Colors sections."""

import itertools

import pytest

from games.engines.irondie.dice import (
    Colour,
    ColourCategory,
    Die,
    DieClass,
    DieType,
    Relation,
    additional_set_errors,
    affinity,
    playing_set_errors,
)

R, B, Y, P, G, O, K, W = (  # noqa: E741 - rulebook initials
    Colour.RED,
    Colour.BLUE,
    Colour.YELLOW,
    Colour.PURPLE,
    Colour.GREEN,
    Colour.ORANGE,
    Colour.BLACK,
    Colour.WHITE,
)
A, E, N = Relation.ALLIED, Relation.ENEMY, Relation.NEUTRAL

# Written out by hand from the Affinity rules, one row per colour, columns R B Y P G O K W.
AFFINITY_TABLE = {
    R: [A, E, E, A, N, A, N, N],  # red forms purple (with blue) and orange (with yellow)
    B: [E, A, E, A, A, N, N, N],  # blue forms purple and green
    Y: [E, E, A, N, A, A, N, N],  # yellow forms green and orange
    P: [A, A, N, A, E, E, N, N],  # purple comes from red and blue
    G: [N, A, A, E, A, E, N, N],  # green comes from blue and yellow
    O: [A, N, A, E, E, A, N, N],  # orange comes from red and yellow
    K: [N, N, N, N, N, N, A, E],  # black: allied only to itself, enemy to white
    W: [N, N, N, N, N, N, E, A],
}
COLUMNS = [R, B, Y, P, G, O, K, W]


@pytest.mark.parametrize("a,b", list(itertools.product(COLUMNS, COLUMNS)))
def test_affinity_of_every_pair_matches_the_rulebook(a, b):
    assert affinity(a, b) is AFFINITY_TABLE[a][COLUMNS.index(b)]


def test_affinity_is_symmetric():
    for a, b in itertools.product(Colour, Colour):
        assert affinity(a, b) is affinity(b, a)


def test_colour_categories():
    assert {c for c in Colour if c.category is ColourCategory.PRIMARY} == {R, B, Y}
    assert {c for c in Colour if c.category is ColourCategory.SECONDARY} == {P, G, O}
    assert {c for c in Colour if c.category is ColourCategory.COLOURLESS} == {K, W}


@pytest.mark.parametrize(
    "die_type,die_class,specialisation",
    [
        (DieType.CRUSHER, DieClass.ATTACK, K),
        (DieType.ASSAULT, DieClass.ATTACK, R),
        (DieType.SHOOTER, DieClass.ATTACK, P),
        (DieType.ANNULATOR, DieClass.DEFENSE, B),
        (DieType.BARRIER, DieClass.DEFENSE, G),
        (DieType.POWER_BOOSTER, DieClass.DEFENSE, W),
        (DieType.ABSORBER, DieClass.LIFE, O),
        (DieType.FORTRESS, DieClass.LIFE, Y),
        (DieType.REGENERATOR, DieClass.LIFE, None),
    ],
)
def test_types_classes_and_specialisations(die_type, die_class, specialisation):
    assert die_type.die_class is die_class
    assert die_type.specialisation is specialisation
    if specialisation:
        assert Die(die_type, specialisation).specialised
        assert not Die(die_type, next(c for c in Colour if c != specialisation)).specialised


def test_nine_types_three_per_class_and_class_symbols():
    assert len(DieType) == 9
    for die_class in DieClass:
        assert sum(t.die_class is die_class for t in DieType) == 3
    assert [c.symbol for c in DieClass] == ["triangles", "dots", "numerals"]


def test_die_round_trips_and_names_bad_fields():
    die = Die(DieType.SHOOTER, P, rare=True)
    assert Die.from_dict(die.to_dict()) == die
    with pytest.raises(ValueError, match="Unknown die type 'laser'"):
        Die.from_dict({"type": "laser", "colour": "red"})
    with pytest.raises(ValueError, match="Unknown colour 'pink'"):
        Die.from_dict({"type": "shooter", "colour": "pink"})
    with pytest.raises(ValueError, match="'rare' must be true or false"):
        Die.from_dict({"type": "shooter", "colour": "red", "rare": "yes"})


def _set(n_attack=3, n_defense=3, n_life=3, rare=0):
    dice = (
        [Die(DieType.SHOOTER, R)] * n_attack
        + [Die(DieType.BARRIER, G)] * n_defense
        + [Die(DieType.FORTRESS, Y)] * n_life
    )
    return [Die(d.type, d.colour, rare=i < rare) for i, d in enumerate(dice)]


@pytest.mark.parametrize("size", [0, 8, 10])
def test_playing_set_must_have_exactly_nine(size):
    dice = (_set() * 2)[:size]
    assert any("exactly 9" in e for e in playing_set_errors(dice))


def test_playing_set_boundaries():
    assert playing_set_errors(_set()) == []
    assert playing_set_errors(_set(rare=3)) == []
    assert playing_set_errors(_set(rare=4)) == [
        "A playing set may hold at most 3 rare dice; this one has 4."
    ]
    assert playing_set_errors(_set(1, 1, 7)) == []
    assert playing_set_errors(_set(0, 4, 5)) == ["A playing set needs at least one ATTACK die."]
    assert playing_set_errors(_set(4, 0, 5)) == ["A playing set needs at least one DEFENSE die."]
    assert playing_set_errors(_set(4, 5, 0)) == ["A playing set needs at least one LIFE die."]


def test_additional_set_at_most_three_rare_allowed():
    three_rare = [Die(DieType.CRUSHER, K, rare=True)] * 3
    assert additional_set_errors([]) == []
    assert additional_set_errors(three_rare) == []
    assert additional_set_errors(three_rare + [Die(DieType.CRUSHER, K)]) == [
        "An additional set may hold at most 3 dice; this one has 4."
    ]
