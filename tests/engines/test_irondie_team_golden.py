"""Golden master of the team game: fixed seeds and fixed random action sequences give
exactly the 2 v 2 and 3 v 3 games they gave when these digests were recorded (rolls,
events, final states, legal actions, default actions, views, refusals, bot choices).

Speed work on the engine must leave every digest unchanged. To re-record after a
deliberate rules change, run this file as a script and paste its output below.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from games.engines import engine_for

IRONDIE = engine_for("irondie")


def config(index: int, seats: int) -> dict:
    rng = random.Random(f"team-golden-{seats}-{index}")
    return IRONDIE.random_config(rng, seats=seats, game_id=f"team-golden-{seats}-{index}")


def _feed(digest, obj) -> None:
    digest.update(json.dumps(obj, sort_keys=True).encode())


def _limit(state, digest):
    """The time limit as the bots' whole games call it (SIMULATED_LIMIT_TURN)."""
    if state.turn >= IRONDIE.SIMULATED_LIMIT_TURN and state.sudden_death_from is None:
        state, events = IRONDIE.enable_sudden_death(state)
        _feed(digest, events)
    return state


def random_bot_game(index: int, seats: int) -> str:
    """Random bots at every seat; every action, event list and the final state."""
    bots = [IRONDIE.BOTS["random"](seats * index + seat) for seat in range(seats)]
    state = IRONDIE.new_game(config(index, seats), f"seed-{index}")
    digest = hashlib.sha256()
    while not IRONDIE.is_over(state):
        state = _limit(state, digest)
        if IRONDIE.is_over(state):
            break
        seat = min(IRONDIE.to_act(state))
        action = bots[seat].choose(state, seat)
        state, events = IRONDIE.apply(state, seat, action)
        _feed(digest, [seat, action, events])
    _feed(digest, state.to_dict())
    return digest.hexdigest()[:20]


def legal_choice_game(index: int, seats: int) -> str:
    """Choices from ``legal_actions``, ``random_action`` and ``default_action``; every
    seat's legal and default actions, every view, to_act, a few refused actions (their
    messages) and the final state."""
    rng = random.Random(index)
    state = IRONDIE.new_game(config(index, seats), f"seed-{index}")
    digest = hashlib.sha256()
    dice = 9 * seats
    while not IRONDIE.is_over(state):
        state = _limit(state, digest)
        if IRONDIE.is_over(state):
            break
        for seat in range(seats):
            _feed(
                digest,
                [IRONDIE.legal_actions(state, seat), IRONDIE.default_action(state, seat)],
            )
        for viewer in (*range(seats), IRONDIE.JUDGE, IRONDIE.SPECTATOR):
            _feed(digest, IRONDIE.view(state, viewer))
        acting = sorted(IRONDIE.to_act(state))
        _feed(digest, acting)
        seat = acting[0]
        idle = next((s for s in range(seats) if s not in acting), None)
        probes = [
            (seat, {"kind": "throw", "die": rng.randrange(dice), "targets": [rng.randrange(dice)]}),
            (seat, {"kind": "split", "throw": [rng.randrange(dice)]}),
            (seat, {"kind": "bonus", "targets": [rng.randrange(dice), None]}),
            (seat, {"kind": "damage", "die": rng.randrange(dice), "points": rng.randrange(4)}),
            (seat, {"kind": "return", "die": rng.randrange(dice)}),
            (seat, {"kind": "decline"}),
        ]
        if idle is not None:
            probes.append((idle, {"kind": "pass"}))
        for who, probe in probes:
            try:
                _after, events = IRONDIE.apply(state, who, probe)
                _feed(digest, ["accepted", events])
            except IRONDIE.IllegalAction as exc:
                _feed(digest, ["refused", str(exc)])
        draw = rng.random()
        if draw < 0.3:
            action = IRONDIE.default_action(state, seat)
        elif draw < 0.6:
            action = IRONDIE.random_action(state, seat, rng)
        else:
            action = rng.choice(IRONDIE.legal_actions(state, seat))
        state, events = IRONDIE.apply(state, seat, action)
        _feed(digest, [seat, action, events])
    _feed(digest, state.to_dict())
    return digest.hexdigest()[:20]


def heuristic_game(index: int, seats: int) -> str:
    """Heuristic bots on one team (team ``index % 2``), random bots on the other."""
    team = index % 2
    bots = [
        IRONDIE.BOTS["heuristic" if seat % 2 == team else "random"](seats * index + seat)
        for seat in range(seats)
    ]
    state = IRONDIE.new_game(config(index, seats), f"seed-{index}")
    digest = hashlib.sha256()
    while not IRONDIE.is_over(state):
        state = _limit(state, digest)
        if IRONDIE.is_over(state):
            break
        seat = min(IRONDIE.to_act(state))
        action = bots[seat].choose(state, seat)
        state, events = IRONDIE.apply(state, seat, action)
        _feed(digest, [seat, action])
    _feed(digest, state.to_dict())
    return digest.hexdigest()[:20]


GAMES = {"random": random_bot_game, "legal": legal_choice_game, "heuristic": heuristic_game}
COUNTS = {"random": 16, "legal": 4, "heuristic": 6}
CASES = [(kind, seats) for kind in sorted(GAMES) for seats in (4, 6)]

GOLDEN = {
    "heuristic-4": [
        "d4869ec0f81e774ea23f",
        "cac5331e2f4f42bcfcf1",
        "aaba7bcc6245c422ba6b",
        "eaa5a1d1968c7fda7b5b",
        "e4b977f290172bf8f1a8",
        "fa911669cece341e7035",
    ],
    "heuristic-6": [
        "7d14d0ee30699c46de58",
        "328302f4a3738852becf",
        "c9311584a359d2f8680d",
        "d4cfca2139a866de07a6",
        "0a053abd658e7ee27518",
        "eafc54d04081a3a45650",
    ],
    "legal-4": [
        "0e8582c3a5cb12f01d60",
        "2bb51b95a7ef054e9e11",
        "00712f075c98ea29fa06",
        "0d54e0a3883118215d6b",
    ],
    "legal-6": [
        "bfc35722fafa192251e6",
        "0d140032d2c532ad5b52",
        "99b2602ed780b41da6f7",
        "66e15a31696eb3efbf19",
    ],
    "random-4": [
        "0b95f3b7caab2835026c",
        "173b7852f7ec27683bf7",
        "3dff258aef6cf9e8ba9f",
        "ff8e6d72c6dae2684dfb",
        "246e28f1543909edd6f2",
        "6c2d8891a585ae31848d",
        "320f0bd7c551d6285e60",
        "58d4b16db2880bdd4608",
        "67a84211221ff0005067",
        "72095a2b6d231b206163",
        "460cc54daade981617c8",
        "e237407a92984232bbe2",
        "911c5419e390c44a8483",
        "2a12c9fd15d0dc717079",
        "5f66234f0b6d94c159c5",
        "8a1c636bf05d097cca31",
    ],
    "random-6": [
        "0c3d80fcab770d6705b5",
        "cc6895702cd1c8e3269d",
        "85b65bffe1084482d3d2",
        "90f634af1a8195096685",
        "b404c8479be06bdff2d9",
        "dd35fa816c569959fd90",
        "5bfdcfc1e14b3217f60d",
        "7debabfa58b17e3e365c",
        "1bba86f6cc76b90e5878",
        "6189a1e97d0c897632ac",
        "3edd0a8647a229a9e36d",
        "5b3819237f294110f631",
        "c8fcba37ac3e23861603",
        "9218353973ff79245287",
        "2911381954bdb8f2c55f",
        "76c9e1913fd1dadfbbc1",
    ],
}


@pytest.mark.parametrize(("kind", "seats"), CASES)
def test_team_games_match_the_recorded_digests(kind, seats):
    got = [GAMES[kind](i, seats) for i in range(COUNTS[kind])]
    assert got == GOLDEN[f"{kind}-{seats}"]


if __name__ == "__main__":
    print("GOLDEN = {")
    for kind, seats in CASES:
        print(
            f"    {kind + '-' + str(seats)!r}: {[GAMES[kind](i, seats) for i in range(COUNTS[kind])]!r},"
        )
    print("}")
