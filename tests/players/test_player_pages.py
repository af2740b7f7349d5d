"""Server-rendered pages: sign up, log in, profile, the dice-set editor with inline errors."""

import pytest
from django.urls import reverse

from players import services
from players.models import DiceSet, Player

pytestmark = pytest.mark.django_db


def editor_post(name, playing, additional=()):
    data = {"name": name}
    for prefix, dice in (("playing", playing), ("additional", additional)):
        for i, die in enumerate(dice):
            data[f"{prefix}_{i}_type"] = die["type"]
            data[f"{prefix}_{i}_colour"] = die["colour"]
            if die.get("rare"):
                data[f"{prefix}_{i}_rare"] = "on"
    return data


def test_sign_up_creates_account_and_player_and_logs_in(client):
    response = client.post(
        reverse("players:signup"),
        {
            "username": "newbie",
            "email": "n@example.org",
            "password1": "s3cret-dice-pass",
            "password2": "s3cret-dice-pass",
            "display_name": "New Bie",
            "country": "it",
            "club": "",
        },
    )
    assert response.status_code == 302
    player = Player.objects.get(user__username="newbie")
    assert player.display_name == "New Bie" and player.country == "IT"
    assert client.get(reverse("players:profile")).status_code == 200


def test_sign_up_errors_are_shown_and_nothing_is_created(client):
    response = client.post(
        reverse("players:signup"), {"username": "x", "password1": "a", "password2": "b"}
    )
    assert response.status_code == 200
    assert b"has-error" in response.content
    assert not Player.objects.exists()


def test_pages_require_login(client):
    for name in ("players:profile", "players:dice_sets", "players:dice_set_new"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_home_and_login_pages_render(client):
    assert client.get("/").status_code == 200
    assert b"Log in" in client.get(reverse("login")).content


def test_editor_saves_a_valid_set_and_lists_it_with_svg_dice(
    client, make_player, valid_playing, valid_additional
):
    player = make_player("Alice")
    client.force_login(player.user)
    response = client.post(
        reverse("players:dice_set_new"), editor_post("Main", valid_playing, valid_additional)
    )
    assert response.status_code == 302
    dice_set = DiceSet.objects.get(player=player)
    assert dice_set.playing_dice == valid_playing and dice_set.additional_dice == valid_additional
    page = client.get(reverse("players:dice_sets")).content.decode()
    assert page.count('<svg class="die"') == 11
    assert "rare red Assault (attack)" in page and "yellow Fortress (life)" in page


def test_editor_shows_rule_errors_inline_and_saves_nothing(client, make_player, valid_playing):
    player = make_player("Alice")
    client.force_login(player.user)
    for die in valid_playing:
        die["rare"] = True
    response = client.post(reverse("players:dice_set_new"), editor_post("Too rare", valid_playing))
    assert response.status_code == 200
    assert "at most 3 rare dice; this one has 9" in response.content.decode()
    assert not DiceSet.objects.exists()


def test_editor_flags_a_half_filled_slot(client, make_player, valid_playing):
    player = make_player("Alice")
    client.force_login(player.user)
    data = editor_post("Main", valid_playing) | {"additional_0_type": "crusher"}
    response = client.post(reverse("players:dice_set_new"), data)
    assert "Choose both a type and a colour, or neither." in response.content.decode()
    assert not DiceSet.objects.exists()


def test_editor_refuses_someone_elses_set(client, make_player, valid_playing):
    alice, bob = make_player("Alice"), make_player("Bob")
    dice_set = services.create_dice_set(player=alice, name="Main", playing_dice=valid_playing)
    client.force_login(bob.user)
    assert client.get(reverse("players:dice_set_edit", args=[dice_set.pk])).status_code == 403
    assert client.post(reverse("players:dice_set_delete", args=[dice_set.pk])).status_code == 403
    assert DiceSet.objects.filter(pk=dice_set.pk).exists()


def test_frozen_set_cannot_be_saved_from_the_editor(client, make_player, valid_playing):
    alice = make_player("Alice")
    dice_set = services.create_dice_set(player=alice, name="Main", playing_dice=valid_playing)
    services.freeze_dice_set(dice_set=dice_set)
    client.force_login(alice.user)
    response = client.post(
        reverse("players:dice_set_edit", args=[dice_set.pk]), editor_post("Renamed", valid_playing)
    )
    assert "frozen" in response.content.decode()
    dice_set.refresh_from_db()
    assert dice_set.name == "Main"


def test_die_preview_draws_svg_and_rejects_unknown_values(client):
    response = client.get(
        reverse("players:die_preview"), {"type": "shooter", "colour": "purple", "rare": "1"}
    )
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert b"rare purple Shooter" in response.content
    assert (
        client.get(reverse("players:die_preview"), {"type": "laser", "colour": "red"}).status_code
        == 400
    )


def test_organiser_player_list_and_create(
    client, organiser, make_player, django_assert_max_num_queries
):
    for i in range(20):
        make_player(f"P{i}")
    client.force_login(organiser)
    with django_assert_max_num_queries(
        6
    ):  # session, user, groups, players: independent of the count
        response = client.get(reverse("players:player_list"))
    assert response.status_code == 200 and b"P19" in response.content
    response = client.post(
        reverse("players:player_list"), {"display_name": "Walk In", "player_number": ""}
    )
    assert (
        response.status_code == 302
        and Player.objects.filter(display_name="Walk In", user=None).exists()
    )


def test_player_list_is_for_organisers_only(client, make_player):
    client.force_login(make_player("Alice").user)
    assert client.get(reverse("players:player_list")).status_code == 403


def test_pages_are_translatable(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200 and response["Content-Language"] == "ru"


def test_deleting_a_set_asks_first(client, make_player, valid_playing):
    alice = make_player("Alice")
    dice_set = services.create_dice_set(player=alice, name="Main", playing_dice=valid_playing)
    client.force_login(alice.user)
    delete = reverse("players:dice_set_delete", args=[dice_set.pk])
    response = client.post(delete)
    body = response.content.decode()
    assert response.status_code == 200 and "Delete the dice set “Main”?" in body
    assert "cannot be brought back" in body and 'name="confirmed" value="yes"' in body
    assert DiceSet.objects.filter(pk=dice_set.pk).exists()
    response = client.post(delete, {"confirmed": "yes"}, follow=True)
    assert "Dice set deleted." in response.content.decode()
    assert not DiceSet.objects.filter(pk=dice_set.pk).exists()
