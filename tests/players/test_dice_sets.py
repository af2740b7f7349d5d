"""Dice-set rules through the service: each failure has its own message and writes nothing."""

import pytest
from django.core.exceptions import ValidationError

from players import services
from players.models import DiceSet

pytestmark = pytest.mark.django_db


def test_valid_set_is_saved(make_player, valid_playing, valid_additional):
    player = make_player()
    dice_set = services.create_dice_set(
        player=player, name="Main", playing_dice=valid_playing, additional_dice=valid_additional
    )
    assert dice_set.playing_dice == valid_playing
    assert len(dice_set.playing()) == 9 and len(dice_set.additional()) == 2


@pytest.mark.parametrize(
    "mutate,field,message",
    [
        (lambda p, a: p.pop(), "playing_dice", "exactly 9 dice; this one has 8"),
        (lambda p, a: p.append(dict(p[0])), "playing_dice", "exactly 9 dice; this one has 10"),
        (
            lambda p, a: p[0].update(rare=True),
            "playing_dice",
            "at most 3 rare dice; this one has 4",
        ),
        (
            lambda p, a: [d.update(type="barrier") for d in p[:3]],
            "playing_dice",
            "at least one ATTACK die",
        ),
        (
            lambda p, a: [d.update(type="crusher") for d in p[3:6]],
            "playing_dice",
            "at least one DEFENSE die",
        ),
        (
            lambda p, a: [d.update(type="annulator") for d in p[6:]],
            "playing_dice",
            "at least one LIFE die",
        ),
        (
            lambda p, a: a.extend([dict(p[0]), dict(p[1])]),
            "additional_dice",
            "at most 3 dice; this one has 4",
        ),
        (lambda p, a: p[2].update(colour="pink"), "playing_dice", "Die 3: Unknown colour 'pink'"),
        (
            lambda p, a: a[0].update(type="dragon"),
            "additional_dice",
            "Die 1: Unknown die type 'dragon'",
        ),
    ],
)
def test_each_rule_rejects_with_its_message_and_writes_nothing(
    make_player, valid_playing, valid_additional, mutate, field, message
):
    player = make_player()
    mutate(valid_playing, valid_additional)
    with pytest.raises(ValidationError) as caught:
        services.create_dice_set(
            player=player, name="Bad", playing_dice=valid_playing, additional_dice=valid_additional
        )
    assert any(message in m for m in caught.value.message_dict[field])
    assert DiceSet.objects.count() == 0


def test_additional_rares_do_not_count_against_the_playing_set(make_player, valid_playing):
    additional = [{"type": "crusher", "colour": "black", "rare": True}] * 3
    dice_set = services.create_dice_set(
        player=make_player(), name="R", playing_dice=valid_playing, additional_dice=additional
    )
    assert sum(d.rare for d in dice_set.playing()) == 3


def test_rejected_update_leaves_the_set_unchanged(make_player, valid_playing):
    dice_set = services.create_dice_set(
        player=make_player(), name="Main", playing_dice=valid_playing
    )
    with pytest.raises(ValidationError):
        services.update_dice_set(dice_set=dice_set, name="Renamed", playing_dice=valid_playing[:5])
    dice_set.refresh_from_db()
    assert dice_set.name == "Main" and len(dice_set.playing_dice) == 9


def test_duplicate_name_for_the_same_player_is_refused(make_player, valid_playing):
    player = make_player()
    services.create_dice_set(player=player, name="Main", playing_dice=valid_playing)
    with pytest.raises(ValidationError, match="already have a set called"):
        services.create_dice_set(player=player, name="Main", playing_dice=valid_playing)


def test_frozen_set_cannot_change_or_be_deleted(make_player, valid_playing, valid_additional):
    dice_set = services.create_dice_set(
        player=make_player(),
        name="Main",
        playing_dice=valid_playing,
        additional_dice=valid_additional,
    )
    snapshot = services.freeze_dice_set(dice_set=dice_set)
    assert snapshot["playing"] == valid_playing and snapshot["additional"] == valid_additional
    with pytest.raises(ValidationError, match="frozen"):
        services.update_dice_set(dice_set=dice_set, name="Other")
    with pytest.raises(ValidationError, match="frozen"):
        services.delete_dice_set(dice_set=dice_set)
    copy = services.copy_dice_set(dice_set=dice_set, name="Main v2")
    assert not copy.is_frozen and copy.playing_dice == valid_playing
