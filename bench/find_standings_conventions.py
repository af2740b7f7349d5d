"""Find the standings conventions an organiser's tool used, from its published numbers.

Tries every combination of the conventions docs/standings.md lists (floor, game points
for a drawn game, own GW% floored or not, how a bye counts, the value with no opponent
and with no game) against a published table and prints how many figures each misses,
best first. Usage: python bench/find_standings_conventions.py tests/tournaments/data/standings/X.json
"""

import itertools
import json
import sys
from fractions import Fraction as F


def rounded(x, decimals):
    s = x * 10**decimals
    return F((s.numerator * 2 + s.denominator) // (2 * s.denominator), 10**decimals)


def empty_player():
    return dict(mp=0, rounds=0, gp=0, games=0, opps=[], w=0, l=0, dr=0)


def misses(event, floor, game_draw, own_gw_floored, bye_mode, no_opponents, no_games):
    """{figure: [players whose published value differs]} under one set of conventions."""
    decimals = event["decimals"]
    stats = {}
    for matches in event["rounds"]:
        for m in matches:
            a = stats.setdefault(m["p1"], empty_player())
            if m["p2"] is None:
                a["w"] += 1
                a["mp"] += 3
                if bye_mode == "win_2_0":
                    a["rounds"] += 1
                    a["gp"] += 6
                    a["games"] += 2
                continue
            b = stats.setdefault(m["p2"], empty_player())
            for x, other, wx, wy in (
                (a, m["p2"], m["w1"], m["w2"]),
                (b, m["p1"], m["w2"], m["w1"]),
            ):
                x["rounds"] += 1
                x["opps"].append(other)
                x["gp"] += 3 * wx + game_draw * m["d"]
                x["games"] += wx + wy + m["d"]
                if wx > wy:
                    x["w"] += 1
                    x["mp"] += 3
                elif wx < wy:
                    x["l"] += 1
                else:
                    x["dr"] += 1
                    x["mp"] += 1
    mw = {
        p: max(F(s["mp"], 3 * s["rounds"]), floor) if s["rounds"] else floor
        for p, s in stats.items()
    }
    gw_raw = {p: F(s["gp"], 3 * s["games"]) if s["games"] else no_games for p, s in stats.items()}
    gw_floored = {p: max(v, floor) for p, v in gw_raw.items()}
    bad = {}
    for row in event["standings"]:
        s = stats.get(row["player"], empty_player())
        opps = s["opps"]
        omw = sum(mw[q] for q in opps) / len(opps) if opps else no_opponents
        ogw = sum(gw_floored[q] for q in opps) / len(opps) if opps else no_opponents
        gw = (gw_floored if own_gw_floored else gw_raw).get(row["player"], no_games)
        got = dict(
            points=s["mp"],
            omwp=rounded(omw, decimals),
            gwp=rounded(gw, decimals),
            ogwp=rounded(ogw, decimals),
            wins=s["w"],
            losses=s["l"],
            draws=s["dr"],
        )
        for field, value in got.items():
            if F(str(row[field])) != value:
                bad.setdefault(field, []).append(row["player"])
    return bad


def main(path):
    with open(path, encoding="utf-8") as handle:
        event = json.load(handle)
    results = []
    for combo in itertools.product(
        [F(1, 3), F(33, 100)],
        [0, 1],
        [True, False],
        ["win_2_0", "not_counted"],
        [F(1, 3), F(33, 100)],
        [F(1, 3), F(0), F(-1, 5)],
    ):
        bad = misses(event, *combo)
        results.append((sum(map(len, bad.values())), combo, bad))
    results.sort(key=lambda item: item[0])
    names = ["floor", "game_draw", "own_gw_floored", "bye", "no_opponents", "no_games"]
    for count, combo, bad in results[:10]:
        settings = ", ".join(f"{n}={v}" for n, v in zip(names, combo, strict=True))
        detail = {k: v if count < 6 else len(v) for k, v in bad.items()}
        print(f"{count:3d} misses  {settings}  {detail}")


if __name__ == "__main__":
    main(sys.argv[1])
