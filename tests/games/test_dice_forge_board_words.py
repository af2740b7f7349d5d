"""Every card, face, token, decision and event the Dice Forge engine knows has words and
a drawing on the play page (games/dice_forge_board.py): random games of 2, 3 and 4 seats,
with and without the alternate cards, checked state by state for every seat to decide."""

import json
import random
import re
from collections import Counter

from games import dice_forge_board as board_words
from games.engines import dice_forge as df
from games.engines.dice_forge import engine as E

# Raw engine codes a person should never read: face ids, card and action names, codes.
RAW = re.compile(r"\b(gold|sun|moon|glory)\d|[a-z]_[a-z]|[{}\[\]|@*]|\bx3\b|\w:\d")
GAMES = 12
KINDS = {*E._SHAPES, "reinforce"}  # an action named by its bare kind
NAMES = ["Ann", "Bob", "Cyd", "Dee"]


def test_every_card_face_and_token_the_engine_knows_has_words():
    assert set(E.CARDS) == set(board_words.CARD_WORDS)
    assert set(E.CARDS) == set(board_words.CARD_EFFECTS)
    assert set(E.SPECIAL_FACES) == set(board_words.SPECIAL_FACE_WORDS)
    assert set(E.TOKEN_CARDS) == set(board_words.TOKEN_WORDS)
    faces = [*E.FACES, *E.SPECIAL_FACES, *E.SHIELDS, *E.BOAR_FACES]
    for face in faces:
        words = board_words.face_words(face)
        svg = board_words.face_svg(face)
        assert words and not RAW.search(words), face
        assert svg.startswith("<svg") and f"<title>{words}" in svg.replace("&#x27;", "'")
    # Each face is told apart by its words and by its drawing.
    assert len({board_words.face_words(f) for f in faces}) == len(faces)
    assert len({board_words.face_svg(f) for f in faces}) == len(faces)
    for card in E.CARDS:
        assert board_words.card_name(card) != card
        assert not RAW.search(board_words.CARD_EFFECTS[card])


def _what(action):
    return ("feat", action["card"]) if action["kind"] == "feat" else action["kind"]


def _policy(rng, legal, tried):
    """A kind at random, then one of its actions (a feat: a card, then one of its
    options); a kind or a card not tried yet first, most of the time, and feats often, so
    that the cards' decisions and events all come up."""
    new = [a for a in legal if _what(a) not in tried]
    if new and rng.random() < 0.7:
        legal = new
    kinds = sorted({a["kind"] for a in legal})
    # The shards go on feats more often than on extra actions.
    kind = "feat" if "feat" in kinds and rng.random() < 0.5 else rng.choice(kinds)
    legal = [a for a in legal if a["kind"] == kind]
    if kind == "feat":
        card = rng.choice(sorted({a["card"] for a in legal}))
        legal = [a for a in legal if a["card"] == card]
    action = rng.choice(legal)
    tried.add(_what(action))
    return action


def _check_page(state, seat, seen):
    board = df.view(state, seat)
    legal = df.legal_actions(state, seat)
    n = state.seats
    data = {
        "seat": seat,
        "legal_actions": legal,
        "clock": {"seat_deadlines": [None] * n, "seat_remaining_seconds": [None] * n},
    }
    drawn = board_words.context(board, data, NAMES[:n])
    # Every legal action has exactly one button, and nothing else has one.
    pressed = [json.loads(c["json"]) for c in drawn["choices"]]
    pressed += [json.loads(p["json"]) for g in drawn["forge_groups"] for p in g["places"]]
    key = lambda a: json.dumps(a, sort_keys=True)  # noqa: E731
    assert Counter(map(key, pressed)) == Counter(map(key, legal))
    # Each in words, no two buttons of a decision alike.
    texts = [c["text"] for c in drawn["choices"]] + [g["title"] for g in drawn["forge_groups"]]
    for text in texts:
        assert text and not RAW.search(text) and text not in KINDS, text
    assert len(set(texts)) == len(texts), texts
    for group in drawn["forge_groups"]:
        places = [p["text"] for p in group["places"]]
        assert len(set(places)) == len(places) and not any(RAW.search(t) for t in places)
    for player in drawn["players"]:
        for line in [*player["waiting"], *player["tokens"], *player["cards"]]:
            assert line and not RAW.search(line), line
        seen["tokens"] += len(player["tokens"])
    for action in legal:
        seen["kinds"].add(action["kind"])
        if action["kind"] == "feat":
            seen["feats"].add(action["card"])
        logged = board_words.describe_logged(board, action)
        assert logged and not RAW.search(logged) and logged not in KINDS, logged


def test_every_legal_action_in_random_states_has_a_button_in_words():
    rng = random.Random(5)
    seen = {"kinds": set(), "feats": set(), "events": set(), "tokens": 0}
    tried_in_all = set()
    for variants in ([], list(E.ALTERNATES)):  # a rich player: every feat on offer
        rich = df.new_game({"game_id": "rich", "seats": 3, "variants": variants}, "s").clone()
        rich.pending, rich.phase = [], "action"
        rich.res[rich.active] = [12, 6, 6, 0]
        assert len({a["card"] for a in df.legal_actions(rich, rich.active) if "card" in a}) == 15
        _check_page(rich, rich.active, seen)
    for game in range(GAMES):
        seats = 2 + game % 3
        variants = list(E.ALTERNATES) if game % 2 else []
        tried = set()  # each game tries every kind and card it can
        state = df.new_game({"game_id": f"g{game}", "seats": seats, "variants": variants}, "s")
        for _step in range(5000):
            if df.is_over(state):
                break
            acting = sorted(df.to_act(state))
            for seat in acting:
                _check_page(state, seat, seen)
            seat = acting[0]
            state, events = df.apply(
                state, seat, _policy(rng, df.legal_actions(state, seat), tried)
            )
            for event in events:
                said = board_words.describe_event({}, event, NAMES[:seats])
                assert said and not RAW.search(said), event
                seen["events"].add(event["type"])
        assert df.is_over(state)
        tried_in_all |= tried
    # The random games reached every decision, every card's feat and the cards' events.
    assert seen["kinds"] == set(E._SHAPES) | {"reinforce"}
    assert seen["feats"] == set(E.CARDS)
    assert seen["tokens"]
    assert seen["kinds"] - {"feat"} <= tried_in_all  # every decision was also taken
    events = {"mirror", "satyrs", "convert", "great_bear", "typhon", "loss", "cerberus", "triton"}
    events |= {"boar", "shield"}
    assert events <= seen["events"]
