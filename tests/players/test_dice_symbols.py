"""Dice are told apart without their colour: each type has its own symbol on the face,
named for screen readers, and a key on the pages where players pick and play dice."""

import re

import pytest
from django.urls import reverse

from games.engines.irondie.dice import Colour, DieType
from players.dice_svg import SYMBOL, die_svg, symbol_svg


def test_every_type_has_its_own_symbol():
    assert set(SYMBOL) == set(DieType)
    assert len(set(SYMBOL.values())) == len(DieType)


@pytest.mark.parametrize("die_type", list(DieType))
def test_a_die_shows_its_type_symbol_whatever_its_colour_and_is_named(die_type):
    for colour in Colour:
        for value in (None, 0, 1, 6):
            svg = die_svg(die_type, colour, rare=colour is Colour.RED, value=value)
            assert SYMBOL[die_type] in svg
            assert not [t for t in DieType if t is not die_type and SYMBOL[t] in svg]
            name = re.search(r'<svg class="die" role="img" aria-label="([^"]+)"', svg).group(1)
            assert die_type.label in name and colour.value in name
            assert f"<title>{name}</title>" in svg  # the tooltip says the same


def test_two_dice_of_one_class_and_colour_differ_by_more_than_their_name():
    faces = {t: die_svg(t, "red", value=4).split("</title>")[1] for t in DieType}
    assert len(set(faces.values())) == len(DieType)


def test_the_key_symbol_is_hidden_from_screen_readers_next_to_its_name():
    assert 'aria-hidden="true"' in symbol_svg("shooter") and SYMBOL[DieType.SHOOTER] in (
        symbol_svg("shooter")
    )


@pytest.mark.django_db
def test_the_dice_set_editor_shows_the_key(client, make_player):
    client.force_login(make_player("Alice").user)
    page = client.get(reverse("players:dice_set_new")).content.decode()
    key = page[page.index('class="dice-key"') :]
    key = key[: key.index("</details>")]
    for die_type in DieType:
        assert f"{SYMBOL[die_type]}</g></svg> {die_type.label}</li>" in key
