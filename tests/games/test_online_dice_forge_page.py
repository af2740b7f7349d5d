"""The Dice Forge play page: each player's two dice drawn face by face, the reserves with
their maxima, the Sanctuary with prices, the islands' feat cards with costs, the legal
actions as buttons in words (played to the end by pressing them), the log in words, and
nothing hidden (the seed) before the end."""

import html
import json
import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import dice_forge_board, services
from games.engines.dice_forge.engine import ALTERNATES, CARD_NAMES, POOLS
from games.models import GameSession

from .conftest import login_client

pytestmark = pytest.mark.django_db


def _buttons(page: str) -> list[tuple[dict, str]]:
    found = re.findall(
        r'<button type="button" class="game-choice" data-action="([^"]+)">(.*?)</button>',
        page,
        flags=re.S,
    )
    return [
        (json.loads(html.unescape(a)), re.sub(r"<svg.*?</svg>", "", t, flags=re.S))
        for a, t in found
    ]


ALL_ALTERNATES = list(ALTERNATES)
# Raw engine codes a person should never read: face ids, card and action names.
RAW = re.compile(r"\b(gold|sun|moon|glory)\d|[a-z]_[a-z]|[{}\[\]|@*]|\bx3\b|\bship:|\bmirror:")


def _press(rng, buttons):
    """A button to press: first a kind of action at random (so feats, tokens and the cards'
    decisions come up as often as the hundreds of forge places), then one of its buttons."""
    kinds = sorted({a["kind"] for a, _text in buttons})
    kind = rng.choice(kinds)
    return rng.choice([b for b in buttons if b[0]["kind"] == kind])


@pytest.mark.parametrize(
    ("seats", "variants"),
    [(2, []), (3, []), (4, []), (3, ALL_ALTERNATES)],
    ids=["2-seats", "3-seats", "4-seats", "3-seats-alternates"],
)
def test_the_page_draws_the_game_and_its_buttons_play_it_to_the_end(
    client, make_user, seats, variants
):
    user = make_user("alice")
    api = login_client(user)
    created = api.post(
        "/api/games/",
        {"game": "dice-forge", "seats": seats, "bot": "random", "variants": variants},
        format="json",
    )
    assert created.status_code == 201, created.json()
    game_id = created.json()["id"]
    session = GameSession.objects.get(pk=game_id)
    client.force_login(user)
    page = client.get(f"/games/{game_id}/").content.decode()
    assert 'class="board dice-forge"' in page
    # The players, each with two dice of six faces drawn as symbols, one face up.
    assert len(re.findall(r'class="df-player[ "]', page)) == seats
    assert len(re.findall(r'class="df-face[ "]', page)) == seats * 2 * 6
    assert page.count('class="df-face up"') == seats * 2
    assert 'aria-label="1 gold"' in page and 'aria-label="2 glory"' in page
    assert "<circle" in page and "<polygon" in page  # the coin and the glory star
    # Reserves against their maxima (gold 12, sun 6, moon 6; glory has none).
    assert re.search(r"gold: <strong>\d+</strong> / 12", page)
    assert re.search(r"sun shards: <strong>\d+</strong> / 6", page)
    # The Sanctuary with prices and the feats with their costs and effects in words.
    assert len(re.findall(r'class="df-pool[ "]', page)) == len(POOLS)
    assert "Pool 1: 2 gold" in page and "Pool 10: 12 gold" in page
    assert page.count('class="df-card"') == len(CARD_NAMES)
    if variants:
        assert "Typhon: cost" in page and "5 sun shards and 5 moon shards" in page
        assert "16 glory" in page and "1 glory for each face your forges have removed" in page
        assert "The Great Bear: cost" in page and "The Hydra" not in page
    else:
        assert "The Hydra: cost" in page and "5 sun shards and 5 moon shards" in page
        assert f"26 glory · {seats} left" in page
        assert "forge the ×3 face, which triples the other die&#x27;s face" in page
    # The seed is secret until the end.
    assert session.seed not in page
    rng = random.Random(7 + seats)
    pressed = set()
    for _turn in range(3000):
        fragment = client.get(f"/games/{game_id}/board/").content.decode()
        if "Game over" in fragment:
            break
        buttons = _buttons(fragment)
        assert buttons, "the player has a decision and no button"
        for _action, text in buttons:
            assert text.strip() and not RAW.search(html.unescape(text)), text
        action, _text = _press(rng, buttons)
        pressed.add(action["kind"])
        version = int(re.search(r'data-version="(\d+)"', fragment).group(1))
        answer = api.post(
            f"/api/games/{game_id}/actions/",
            {"action": action, "expected_version": version},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
    else:
        raise AssertionError("the game did not end")
    assert {"feat", "pass"} <= pressed
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert 'class="placings"' in fragment and session.seed in fragment
    assert "rolls the Light die" in fragment and "Game over: 1." in fragment
    lines = re.search(r'<section class="events">(.*?)</section>', fragment, re.S).group(1)
    assert not RAW.search(html.unescape(re.sub(r"<[^>]+>", "", lines)))
    # A spectator's fragment costs a constant number of queries.
    client.logout()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/games/{game_id}/board/").status_code == 200
    assert len(queries) <= 6


def test_faces_actions_and_events_in_words():
    assert dice_forge_board.face_words("gold3") == "3 gold"
    assert dice_forge_board.face_words("gold2+moon1") == "2 gold and 1 moon shards"
    assert dice_forge_board.face_words("gold1/sun1/moon1") == (
        "1 gold or 1 sun shards or 1 moon shards"
    )
    svg = dice_forge_board.face_svg("sun1+glory1", up=True)
    assert 'aria-label="1 sun shards and 1 glory"' in svg and 'stroke="#1565c0"' in svg
    board = {}
    words = dice_forge_board.describe_action
    assert words(board, {"kind": "forge", "pool": 0, "face": "gold3", "die": 1, "slot": 4}) == (
        "forge 3 gold onto your Dark die, face 5"
    )
    assert words(board, {"kind": "feat", "card": "hydra"}) == "perform a heroic feat: The Hydra"
    assert words(board, {"kind": "hammer", "gold": 2}) == (
        "put 2 gold on the hammer, the rest in the reserve"
    )
    assert words(board, {"kind": "reinforce", "card": "guardians_owl", "resource": "moon"}) == (
        "The Guardian's Owl: take 1 moon shards"
    )
    said = dice_forge_board.describe_event(
        board, {"type": "forge", "seat": 0, "face": "moon1", "removed": "gold1"}, ["Ann"]
    )
    assert said == "Ann forges 1 moon shards in place of 1 gold."
    # The special faces, the cards' decisions and their events.
    assert dice_forge_board.face_words("x3") == "×3 (triples the other die's face)"
    assert 'aria-label="mirror (copies' in dice_forge_board.face_svg("mirror")
    assert "<path" in dice_forge_board.face_svg("ship")
    assert words(board, {"kind": "mirror", "face": "gold3"}, "mirror:3:gold3|moon1") == (
        "the mirror copies 3 gold (tripled)"
    )
    assert words(board, {"kind": "satyrs", "take": [0, 2]}, "satyrs:gold1|sun1|x3|moon1") == (
        "take 1 gold and ×3 (triples the other die's face) (rolled faces 1 and 3)"
    )
    assert words(board, {"kind": "convert", "count": 1}, "sentinel@convert:sentinel:1:2") == (
        "1 sun shards become 2 glory, 1 sun shards to the reserve"
    )
    assert words(board, {"kind": "choose", "resource": "sun"}, "-3*gold1/sun1/moon1") == (
        "lose 3 sun shards"
    )
    assert words(board, {"kind": "triton", "resource": "gold"}) == "spend a Triton token for 6 gold"
    assert words(board, {"kind": "ship"}) == "the Celestial Ship: buy no face"
    assert words(board, {"kind": "feat", "card": "sphinx", "die": 1}) == (
        "perform a heroic feat: The Sphinx, rolling your Dark die"
    )
    assert dice_forge_board.pending_words("mirror:-1:gold3|moon1") == (
        "which face the mirror copies (to lose): 3 gold; 1 moon shards"
    )
    said = dice_forge_board.describe_event
    names = ["Ann", "Bob"]
    assert said(board, {"type": "mirror", "seat": 1, "face": None}, names) == (
        "Bob's mirror finds no face to copy."
    )
    assert said(board, {"type": "typhon", "seat": 0, "glory": 5}, names) == (
        "Ann gains 5 glory with Typhon, one per face removed."
    )
    convert = {"type": "convert", "seat": 0, "card": "cyclops", "resource": "gold", "count": 2}
    assert said(board, {**convert, "glory": 2}, names) == (
        "Ann turns 2 gold into 2 glory (The Cyclops)."
    )
    forged = {"type": "forge", "seat": 0, "face": "x3", "removed": "gold1"}
    assert said(board, {**forged, "card": "helmet_of_invisibility"}, names) == (
        "Ann forges ×3 (triples the other die's face) in place of 1 gold"
        " (The Helmet of Invisibility)."
    )


def test_conceding_a_game_of_three_leaves_the_bots_to_finish_it(client, make_user):
    user = make_user("carol")
    session = services.create_practice_game(by=user, bot="random", game="dice-forge", seats=3)
    services.concede(session=session, by=user)
    session.refresh_from_db()
    # The bots played on without the conceding seat, to the last round, at once.
    assert session.status == GameSession.Status.FINISHED
    assert session.result["reason"] == "rounds" and session.result["placings"][0] == 3
    assert services.replayed_state(session).to_dict() == session.state
    client.force_login(user)
    page = client.get(f"/games/{session.pk}/board/").content.decode()
    assert page.count("out (conceded)") == 1  # the log's last lines are the bots' game
    assert re.search(r'data-seat="0" data-placing="3"', page)
