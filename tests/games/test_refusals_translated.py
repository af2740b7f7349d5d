"""The rules engines' refusals reach a person in their language (docs/translation.md).

- Through the API, an illegal move in each game (the IRONDIE team game too) is refused
  with a 400 whose message is Russian for a Russian reader and the engine's English,
  unchanged, for an English one.
- Every refusal the engines raise while bots play random games and random illegal
  attempts are made at every decision (another seat's move, fields changed, keys dropped,
  junk, system actions, after the end) and every refused config is made of catalogue
  entries that have a Russian translation.
"""

from __future__ import annotations

import random
from pathlib import Path

import polib
import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from games.engines import ENGINES, errors
from players import services as player_services
from tests.engines.test_conformance import mutations, play_random, seat_counts

from .conftest import login_client

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "ru" / "LC_MESSAGES" / "django.po"


def _post(client, game_id, action, version, language):
    return client.post(
        f"/api/games/{game_id}/actions/",
        {"action": action, "expected_version": version},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


def _refused(client, created, action):
    """The action refused in English and in Russian: (english, russian) messages."""
    game = created.json()
    answers = []
    for language in ("en", "ru"):
        response = _post(client, game["id"], action, game["version"], language)
        assert response.status_code == 400, response.json()
        message = response.json()["errors"]["action"][0]
        assert message in response.json()["detail"]
        answers.append(message)
    # Refused, so nothing changed: the version is the same.
    assert client.get(f"/api/games/{game['id']}/").json()["version"] == game["version"]
    return answers


@pytest.mark.django_db
def test_an_illegal_irondie_move_is_refused_in_the_reader_s_language(make_user):
    client = login_client(make_user("ira"))
    created = client.post("/api/games/", {"kind": "practice"}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["view"]["decision"]["kind"] == "split"
    # Die 17 is the bot's: never in seat 0's hand.
    english, russian = _refused(client, created, {"kind": "split", "throw": [17]})
    assert english == "Die 17 is not in your hand. [rule: Phase 1: Battle, A]"
    assert russian == "Кубика 17 нет в вашей руке. [правило: Фаза 1: Битва, A]"


@pytest.mark.django_db
def test_an_illegal_team_game_move_is_refused_in_the_reader_s_language(make_user):
    client = login_client(make_user("oleg"))
    created = client.post("/api/games/", {"game": "irondie", "seats": 4}, format="json")
    assert created.status_code == 201, created.json()
    view = created.json()["view"]
    assert view["seats"] == 4 and view["phase"] == "split" and view["to_act"] == [0]
    # Die 18 is the teammate's (seat 2 owns ids 18 to 26): never in seat 0's hand.
    english, russian = _refused(client, created, {"kind": "split", "throw": [18]})
    assert english == "Die 18 is not in your hand. [rule: Phase 1: Battle, A]"
    assert russian == "Кубика 18 нет в вашей руке. [правило: Фаза 1: Битва, A]"


@pytest.mark.django_db
def test_an_illegal_36d6_move_is_refused_in_the_reader_s_language(make_user):
    client = login_client(make_user("dima"))
    created = client.post("/api/games/", {"game": "36d6", "seats": 2}, format="json")
    assert created.status_code == 201, created.json()
    english, russian = _refused(client, created, {"kind": "move", "die": 0, "to": [9, 9]})
    assert english == "A square is [row, column], each 0 to 5. (How To Play)"
    assert russian == "Клетка задаётся как [ряд, столбец], каждое от 0 до 5. (Как играть)"


@pytest.mark.django_db
def test_an_illegal_dice_forge_move_is_refused_in_the_reader_s_language(make_user):
    client = login_client(make_user("fedor"))
    created = client.post("/api/games/", {"game": "dice-forge", "seats": 2}, format="json")
    assert created.status_code == 201, created.json()
    english, russian = _refused(client, created, {"kind": "fly"})
    assert english == "Unknown action kind 'fly'. (Game)"
    assert russian == "Неизвестный вид действия 'fly'. (Игра)"


@pytest.mark.django_db
def test_a_refused_practice_config_is_in_the_reader_s_language(make_user):
    client = login_client(make_user("vera"))
    body = {"game": "36d6", "seats": 2, "variants": ["team"]}
    english = client.post("/api/games/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    russian = client.post("/api/games/", body, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert english.status_code == russian.status_code == 400
    assert english.json()["errors"]["variants"] == [
        "The Team game needs an even number of players, at least 4."
    ]
    assert russian.json()["errors"]["variants"] == [
        "Для командной игры нужно чётное число игроков, не меньше 4."
    ]


# --- every refusal's words are in the catalogue ------------------------------------------


def _translated() -> dict[str, str]:
    return {e.msgid: e.msgstr for e in polib.pofile(str(CATALOGUE)) if e.translated()}


def _attempts(engine, s, seat, legal, rng, pool):
    """Illegal attempts at one decision: actions near a legal one, another seat's move,
    a seat that does not exist, junk and system actions."""
    out = [(seat, a) for a in mutations(rng.choice(legal), rng, pool) if a not in legal]
    out += [(other, rng.choice(legal)) for other in range(8) if other not in engine.to_act(s)]
    out += [(seat, "junk"), (seat, None), (99, {"kind": "x"}), ("judge", {"kind": "x"})]
    out += [
        ("system", junk)
        for junk in (
            "junk",
            {"kind": "x"},
            {"kind": "forfeit", "player": 99},
            {"kind": "forfeit"},
            {"kind": "sudden_death", "extra": 1},
        )
    ]
    return out


def _refusals(engine, game) -> dict[tuple[str, ...], str]:
    """The templates of every refusal met in one random game, with an example text."""
    met: dict[tuple[str, ...], str] = {}
    pool: list = []

    def on_state(s, rng):
        attempts = [(0, {"kind": "anything"})] if engine.is_over(s) else []
        for seat in sorted(engine.to_act(s)):
            legal = engine.legal_actions(s, seat)
            attempts += _attempts(engine, s, seat, legal, rng, pool)
            pool.extend(rng.sample(legal, min(2, len(legal))))
        for actor, action in rng.sample(attempts, min(12, len(attempts))):
            try:
                engine.apply(s, actor, action)
            except engine.IllegalAction as exc:
                met.setdefault(exc.templates(), str(exc))

    play_random(engine, game, on_state)
    return met


BAD_CONFIGS = (
    None,
    [],
    {"surprise": True},
    {"game_id": 3},
    {"seats": 99},
    {"seats": "two"},
    {"variants": "all"},
    {"variants": ["no-such"]},
    {"variants": ["zombie", "elemental"]},
    {"variants": ["team", "team"]},
    {"seats": 3, "variants": ["team"]},
    {"sets": "none"},
    {"sets": [[], []]},
    {"sets": ["x", "y"]},
    {"sets": [[{"type": "nothing"}], []]},
    {"sudden_death_turn": 0},
)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_refusal_met_in_random_games_is_translated(name):
    engine = ENGINES[name]
    translated = _translated()
    met: dict[tuple[str, ...], str] = {}
    for number in range(3):
        rng = random.Random(number)
        seats = rng.choice(list(seat_counts(engine)))
        game = {
            "config": engine.random_config(rng, seats=seats, game_id="t"),
            "seed": f"refusals-{number}",
            "choices": number,
        }
        met.update(_refusals(engine, game))
    for config in BAD_CONFIGS:
        try:
            engine.new_game(config, "seed")
        except errors.ConfigError as exc:
            met.setdefault(exc.templates(), str(exc))
    with pytest.raises(errors.ConfigError) as caught:
        engine.new_game(engine.random_config(random.Random(1), game_id="t"), "")
    met.setdefault(caught.value.templates(), str(caught.value))
    # Enough kinds of refusal were met for the check to mean something.
    assert len({templates[1] for templates in met if len(templates) == 3}) >= 8, met
    missing = sorted(
        {
            text
            for templates in met
            for text in templates
            if any(c.isalpha() for c in text) and text not in translated
        }
    )
    assert not missing, f"refusals without a Russian translation: {missing}"


@pytest.mark.django_db
def test_a_dice_set_s_problems_are_in_the_reader_s_language(make_player):
    from tests.conftest import api_as

    client = api_as(make_player("Alice").user)
    body = {"name": "Main", "playing_dice": [{"type": "crusher", "colour": "red"}] * 8}
    english = client.post("/api/dice-sets/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    russian = client.post("/api/dice-sets/", body, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert english.status_code == russian.status_code == 400
    assert english.json()["errors"]["playing_dice"][0] == (
        "A playing set must have exactly 9 dice; this one has 8."
    )
    assert russian.json()["errors"]["playing_dice"] == [
        "В игровом наборе должно быть ровно 9 кубиков; в этом — 8.",
        "В игровом наборе нужен хотя бы один кубик класса ЗАЩИТА.",
        "В игровом наборе нужен хотя бы один кубик класса ЖИЗНЬ.",
    ]
    # A malformed die (the dice set form; the API's serializer names the bad field itself).
    with translation.override("ru"), pytest.raises(ValidationError) as caught:
        player_services.validate_dice_set([{"type": "laser", "colour": "red"}], [])
    assert caught.value.message_dict["playing_dice"][0].startswith(
        "Кубик 1: Неизвестный тип кубика 'laser'; выберите один из: crusher, "
    )


def test_every_dice_set_problem_is_translated():
    from games.engines.irondie.dice import Die, additional_set_errors, playing_set_errors

    translated = _translated()
    rng = random.Random(5)
    problems = []
    for _ in range(200):
        dice = [
            Die.from_dict(
                {
                    "type": rng.choice(["crusher", "barrier", "absorber"]),
                    "colour": "red",
                    "rare": rng.random() < 0.5,
                }
            )
            for _ in range(rng.randint(0, 12))
        ]
        problems += playing_set_errors(dice) + additional_set_errors(dice)
    for junk in ("x", {"type": "laser"}, {"type": "crusher", "colour": "mauve"}):
        with pytest.raises(errors.ConfigError) as caught:
            Die.from_dict(junk)
        problems.append(caught.value)
    with pytest.raises(errors.ConfigError) as caught:
        Die.from_dict({"type": "crusher", "colour": "red", "rare": "yes"})
    problems.append(caught.value)
    templates = {t for problem in problems for t in problem.templates()}
    assert len(templates) >= 9, templates
    missing = sorted(t for t in templates if t not in translated)
    assert not missing, f"dice set problems without a Russian translation: {missing}"


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_verification_problem_is_translated(name):
    """A record that does not verify (wrong seed, changed roll, forged log entry, changed
    result, seed not revealed): every problem's words are in the catalogue."""
    engine = ENGINES[name]
    translated = _translated()
    rng = random.Random(11)
    config = engine.random_config(rng, game_id="verify")
    s = play_random(engine, {"config": config, "seed": "verify", "choices": 11})
    record = engine.view(s, engine.SPECTATOR)
    rolls = [r % 6 + 1 for r in record["rolls"]]
    forged_log = [[-1, {"kind": "nothing"}], *record["log"]]
    reports = [
        engine.verify(record, seed="wrong"),
        engine.verify({**record, "rolls": rolls}),
        engine.verify({**record, "rolls": record["rolls"][:-1]}),
        engine.verify({**record, "log": forged_log}),
        engine.verify({**record, "result": {"changed": True}}),
        engine.verify({**record, "seed": None}),
    ]
    problems = [problem for report in reports for problem in report["problems"]]
    templates = {t for problem in problems for t in problem.templates()}
    assert len(templates) >= 5, problems
    missing = sorted(t for t in templates if t not in translated)
    assert not missing, f"verification problems without a Russian translation: {missing}"
