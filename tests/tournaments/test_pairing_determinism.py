"""The same seed and state re-derive the same round in any process (docs/pairing.md).

Strings hash differently in every Python process (PYTHONHASHSEED), so anything the pairer
iterates in hash order (a set or a networkx matching holding string-keyed nodes) would
give another, equally good, pairing elsewhere. Each state here is paired again in fresh
interpreters with different hash seeds, and every answer must be the same.
"""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from tournaments.pairing import PairingPlayer, pair_round
from tournaments.pairing.simulation import SimulatedSwiss

ROOT = Path(__file__).resolve().parents[2]
HASH_SEEDS = ("0", "1", "2", "7", "123", "4242")

# Re-pairs the states read from stdin and prints what it got, in the child process.
CHILD = """
import json, runpy, sys
from tournaments.pairing import PairingPlayer, pair_round
summary = runpy.run_path(sys.argv[1])["summary"]
states = json.load(sys.stdin)
out = []
for state in states:
    players = [PairingPlayer(p[0], p[1], frozenset(p[2]), p[3], p[4]) for p in state["players"]]
    out.append(summary(pair_round(players, state["round"], state["seed"])))
print(json.dumps(out))
"""


def summary(result):
    return {
        "method": result.method,
        "pairs": [list(pair.ids) for pair in result.pairs],
        "bye": result.bye.player_id if result.bye else None,
        "cost": list(result.cost.key()),
        "reasons": [pair.explanation for pair in result.pairs],
    }


def player(pid, points=0, met=(), byes=0, rank=None):
    return PairingPlayer(pid, points, frozenset(met), byes, pid if rank is None else rank)


def state(players, round_number, seed):
    return {
        "players": [[p.id, p.points, sorted(p.opponents), p.byes, p.rank] for p in players],
        "round": round_number,
        "seed": seed,
    }


def window_states():
    """Two leaders who met cannot pair each other: both float down, a window proves it."""
    field = [player(1, 6, met=[2]), player(2, 6, met=[1])]
    field += [player(pid, 3) for pid in (3, 4, 5, 6)] + [player(7, 0), player(8, 0)]
    states = [state(field, 3, seed) for seed in range(12)]
    # Larger: three leaders who all met, floating into a group of eight, two windows deep.
    leaders = [player(pid, 9, met={1, 2, 3} - {pid}) for pid in (1, 2, 3)]
    middle = [player(pid, 6, met=[pid + 1] if pid % 2 == 0 else [pid - 1]) for pid in range(4, 12)]
    tail = [player(pid, 3) for pid in range(12, 19)] + [player(pid, 0) for pid in range(19, 22)]
    states += [state(leaders + middle + tail, 4, f"seed-{n}") for n in range(6)]
    return states


def exact_states():
    """Five players who have all met: rematches are unavoidable, the whole field is solved."""
    field = [
        player(pid, points, met={1, 2, 3, 4, 5} - {pid}, byes=1 if pid == 5 else 0)
        for pid, points in zip((1, 2, 3, 4, 5), (12, 9, 6, 3, 3), strict=True)
    ]
    return [state(field, 6, seed) for seed in range(4)]


def barrier_states():
    """Players who have met everyone else, split off along a barrier: two in an even
    field of 20 (the others a component of their own), and three in an odd field of 71,
    where the bye (a string-tagged node) is in the barrier and the others' component is
    paired apart with each possible partner."""
    states = []
    for count, saturated in ((20, {1, 2}), (71, {1, 2, 3})):
        everyone = set(range(1, count + 1))
        field = [
            player(pid, 3 * (pid % 4), met=everyone - {pid} if pid in saturated else saturated)
            for pid in range(1, count + 1)
        ]
        states += [state(field, 6, seed) for seed in range(3)]
    return states


def rematch_states():
    """Dense histories where rematches are unavoidable, odd (the bye vertex, a string-tagged
    node, in the Gallai-Edmonds search) and even, and an even field whose one player has
    met everyone (paired with their meetings erased)."""
    rng = random.Random(5)
    states = []
    for count in (9, 10, 13, 14):
        met = {pid: set() for pid in range(1, count + 1)}
        for a in range(1, count + 1):
            for b in range(a + 1, count + 1):
                if rng.random() < 0.8:
                    met[a].add(b)
                    met[b].add(a)
        field = [player(pid, 3 * rng.randrange(4), met=met[pid]) for pid in met]
        states += [state(field, 9, seed) for seed in range(3)]
    lone = [player(1, 6, met=range(2, 9))] + [player(pid, 3, met=[1]) for pid in range(2, 9)]
    lone[1] = player(2, 3, met=[1, 3])
    states += [state(lone, 8, seed) for seed in range(4)]
    return states


def simulated_states():
    """Every round of two simulated events, draws and drops included."""
    states = []
    for seed, size in ((11, 33), (12, 64)):
        swiss = SimulatedSwiss(seed=seed, draw_rate=0.15, drop_rate=0.03)
        swiss.enter(size)
        for round_number in range(1, 8):
            players = swiss.active_players()
            pairing_seed = swiss.rng.randrange(2**31)
            states.append(state(players, round_number, pairing_seed))
            swiss.record(pair_round(players, round_number, pairing_seed))
    return states


def pair_in_child(states, hash_seed):
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    completed = subprocess.run(
        [sys.executable, "-c", CHILD, __file__],
        input=json.dumps(states),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def test_the_same_seed_gives_the_same_round_whatever_the_hash_seed():
    states = (
        window_states() + exact_states() + rematch_states() + barrier_states() + simulated_states()
    )
    here = [
        summary(
            pair_round(
                [PairingPlayer(p[0], p[1], frozenset(p[2]), p[3], p[4]) for p in s["players"]],
                s["round"],
                s["seed"],
            )
        )
        for s in states
    ]
    methods = {result["method"] for result in here}
    # The states must reach every tier, the window tier above all (its matching holds
    # string-keyed virtual nodes).
    assert methods == {"lower_bound", "window", "exact", "forced_bye", "forced_rematch", "barrier"}
    assert any(r["method"] == "exact" and r["cost"][0] and len(r["pairs"]) > 4 for r in here)
    for hash_seed in HASH_SEEDS:
        elsewhere = pair_in_child(states, hash_seed)
        for index, (mine, theirs) in enumerate(zip(here, elsewhere, strict=True)):
            assert theirs == mine, (
                f"state {index} ({mine['method']}) paired differently with "
                f"PYTHONHASHSEED={hash_seed}"
            )


def test_the_seed_still_matters():
    """Different seeds give different rounds (the determinism is not a fixed order)."""
    field = [player(pid, 0) for pid in range(1, 17)]
    rounds = {tuple(map(tuple, summary(pair_round(field, 1, seed))["pairs"])) for seed in range(5)}
    assert len(rounds) == 5
