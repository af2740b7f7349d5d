"""The play page in plain words: both names while a game waits, phases, decisions and
how a game ended in words (never "battle_bonus" or "no_life_dice"), a colour bonus that
says what it does to each target, and no match clock once the match is confirmed."""

import pytest
from django.test import Client
from django.utils import translation

from games import selectors
from games.engines import engine_for
from games.engines.irondie import WORDS, bonus_amounts
from games.engines.irondie.dice import Colour, DieClass, DieType
from games.engines.irondie.words import COLOUR_NAMES, SECTOR_NAMES, TYPE_NAMES
from tests.games.conftest import bot_for, play_to_end, token_client
from tournaments import services as t_services
from tournaments.models import Match

pytestmark = pytest.mark.django_db

RAW = ("battle_bonus", "no_life_dice", "match_time_over", "end_turn", "defender_first")


def _page(user, game_id) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(f"/games/{game_id}/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_waiting_game_names_both_players(duo, settings):
    settings.GAMES_SWAP_WINDOW_SECONDS = 120
    game = token_client(duo["a"]).post("/api/games/", {"match": duo["match"].pk}, format="json")
    assert game.json()["status"] == "waiting"
    body = _page(duo["a"], game.json()["id"])
    match = duo["match"]
    a, b = match.player_a.player.display_name, match.player_b.player.display_name
    assert f"<strong>{a}</strong> vs <strong>{b}</strong>" in body
    assert "<strong></strong>" not in body


def test_the_black_bonus_says_plus_three_and_minus_one():
    board = {
        "dice": [
            {"colour": "black", "type": "shooter", "owner": 0},
            {"colour": "red", "type": "assault", "owner": 0},
            {"colour": "yellow", "type": "regenerator", "owner": 0},
        ]
    }
    engine = engine_for("irondie")
    text = selectors.describe_action(
        board, {"kind": "bonus", "targets": [1, 2]}, engine=engine, bonus_die=0
    )
    assert text == "Black bonus: +3 to Assault (red, A), -1 to Regenerator (yellow, A)"
    assert bonus_amounts("black") == (3, -1)  # the rulebook: +3 allied, -1 own life
    none = selectors.describe_action(
        board, {"kind": "bonus", "targets": [1, None]}, engine=engine, bonus_die=0
    )
    assert none.endswith("-1 to no die (none can take it)")


def test_every_phase_decision_and_end_reason_has_words():
    engine = engine_for("irondie")
    for kind in ("phases", "decisions", "end_reasons"):
        for code in WORDS[kind]:
            text = selectors.game_words(engine, kind, code)
            assert text and "_" not in text
    assert selectors.game_words(engine, "phases", "some_new_phase") == "some new phase"


def test_the_page_speaks_in_words_and_drops_the_clock_after_the_match(duo):
    alice, bob = token_client(duo["a"]), token_client(duo["b"])
    game = alice.post("/api/games/", {"match": duo["match"].pk}, format="json").json()
    game_id = game["id"]
    body = _page(duo["a"], game_id)
    assert "Battle: choosing the dice to throw" in body
    assert "Match time" in body  # the match is being played
    bots = [bot_for("random", 1), bot_for("random", 2)]
    play_to_end([alice, bob], game_id, bots)
    body = _page(duo["a"], game_id)
    assert "Game over" in body
    for raw in RAW:
        assert raw not in body, raw
    # The judge confirms the match: the game page stops counting the match down.
    match = Match.objects.get(pk=duo["match"].pk)
    if match.status != Match.Status.CONFIRMED:
        t_services.report_result(
            match=match, by=duo["judge"], games=["a", "a"], expected_version=match.version
        )
    assert "Match time" not in _page(duo["a"], game_id)


def test_the_bonus_buttons_say_what_the_bonus_does(duo, monkeypatch):
    """A player offered a black bonus reads "+3 to ..., -1 to ..." on each button."""
    alice = token_client(duo["a"])
    game_id = alice.post("/api/games/", {"match": duo["match"].pk}, format="json").json()["id"]
    data = alice.get(f"/api/games/{game_id}/").json()  # the game as seat 0 sees it
    board = data["view"]
    mine = [d for d in board["dice"] if d["owner"] == 0]
    black, first, second = mine[0], mine[1], mine[2]
    black["colour"] = "black"
    board["phase"] = "battle_bonus"
    board["decision"] = {"kind": "bonus", "player": 0, "die": black["id"]}
    data.update(
        split=None,
        legal_count=1,
        legal_actions=[{"kind": "bonus", "targets": [first["id"], second["id"]]}],
    )
    monkeypatch.setattr(selectors, "game_state", lambda *args, **kwargs: data)
    monkeypatch.setattr(selectors, "log_in_words", lambda *args, **kwargs: [])
    body = _page(duo["a"], game_id)
    assert "Battle: colour bonuses" in body
    assert "Your decision: choose where the colour bonus goes" in body
    assert "Black bonus: +3 to " in body and ", -1 to " in body
    assert "battle_bonus" not in body.replace('data-action="', "")


def test_the_dice_words_are_marked_under_the_codes_own_spelling():
    """The page translates a die's type, colour and sector from its code alone
    (games/selectors.py): the engine's tables must spell each name that way."""
    assert {t.value: t.value.replace("_", " ").title() for t in DieType} == TYPE_NAMES
    assert {c.value: c.value for c in Colour} == COLOUR_NAMES
    assert {c.value: c.value.capitalize() for c in DieClass} == SECTOR_NAMES
    with translation.override("ru"):
        assert selectors.type_word("power_booster") == "Нагнетатель мощности"
        assert selectors.colour_word("red") == "красный"
        assert selectors.sector_word("defense") == "Защита"
        board = {"dice": [{"colour": "red", "type": "assault", "owner": 1}]}
        assert selectors.die_name(board, 0) == "Штурмовой (красный, B)"


@pytest.mark.parametrize(
    ("game", "seats", "question"),
    [
        ("dice-forge", 2, "Your opponent wins it"),
        ("dice-forge", 3, "You are placed last while the others play on"),
        ("36d6", 4, "You are placed last while the others play on"),
        ("irondie", 4, "Concede this game for your team? The other team wins it"),
    ],
)
def test_the_concede_question_says_what_conceding_does_at_this_table(
    make_user, game, seats, question
):
    user = make_user(f"conceder-{game}-{seats}")
    created = token_client(user).post(
        "/api/games/", {"game": game, "seats": seats, "bot": "random"}, format="json"
    )
    assert created.status_code == 201, created.json()
    body = _page(user, created.json()["id"])
    assert question in body
    if seats > 2:
        assert "Your opponent wins it" not in body


@pytest.mark.django_db
@pytest.mark.parametrize("game, keyed", [("irondie", True), ("36d6", False), ("dice-forge", False)])
def test_the_die_symbols_key_is_only_under_a_game_of_irondie_dice(make_user, game, keyed):
    """The key names IRONDIE's die types; 36d6 and Dice Forge play other dice."""
    client = Client()
    client.force_login(make_user("keyed"))
    answer = client.post("/games/practice/", {"game": game, "seats": "2"})
    assert answer.status_code == 302 and answer["Location"].startswith("/games/"), answer
    page = client.get(answer["Location"]).content.decode()
    assert 'id="game"' in page
    assert ('class="dice-key"' in page) is keyed
