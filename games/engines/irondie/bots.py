"""Bots: a random player and a heuristic one that decides from its own view only.

``HeuristicBot`` reads nothing but ``view(state, seat)`` and ``legal_actions(state,
seat)``: it never sees the opponent's pending secret choice or the seed. ``RandomBot``
picks uniformly among the legal actions (``random_action``).
"""

from __future__ import annotations

import random

from . import engine as E

# What losing a die of each class from the battle zone is worth, roughly in points.
_CLASS_WEIGHT = {"attack": 1.0, "defense": 0.9, "life": 1.3}
# Dice worth keeping in reserve for the CLASH, best first.
_CLASH_KEEPERS = ("crusher", "annulator", "shooter")


class RandomBot:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, state: E.State, seat: int) -> dict:
        return E.random_action(state, seat, self.rng)


class HeuristicBot:
    """Throws its LIFE, ATTACK and DEFENSE dice but keeps two strong clash dice; uses
    colour bonuses and clash throws by a one-step estimate of points won; spreads damage
    to lose as few LIFE dice as possible."""

    def __init__(self, seed=None, keep_in_reserve: int = 2):
        self.rng = random.Random(seed)
        self.keep_in_reserve = keep_in_reserve

    def choose(self, state: E.State, seat: int) -> dict:
        return self.decide(E.view(state, seat), E.legal_actions(state, seat), seat)

    def decide(self, view: dict, legal: list[dict], seat: int) -> dict:
        if len(legal) == 1:
            return legal[0]
        kind = legal[0]["kind"]
        dice = view["dice"]
        if kind == "split":
            return self._split(view, legal, seat)
        if kind == "bonus":
            return max(legal, key=lambda a: self._bonus_score(dice, view, a, seat))
        if kind in ("throw", "decline", "pass"):
            return self._clash(view, legal, seat)
        if kind == "damage":
            return max(legal, key=lambda a: self._damage_score(dice, a))
        if kind == "return":
            return self._return(dice, legal, seat)
        return self.rng.choice(legal)

    # --- decisions -------------------------------------------------------------------

    def _split(self, view, legal, seat):
        hand = [d for d in view["dice"] if d["owner"] == seat and d["zone"] == "hand"]
        keep = set()
        if not view["sudden_death"]["active"]:
            keepers = sorted(
                (d for d in hand if d["type"] in _CLASH_KEEPERS),
                key=lambda d: _CLASH_KEEPERS.index(d["type"]),
            )
            keep = {d["id"] for d in keepers[: self.keep_in_reserve]}
        action = {"kind": "split", "throw": sorted(d["id"] for d in hand if d["id"] not in keep)}
        return action if action in legal else legal[-1]

    def _bonus_score(self, dice, view, action, seat):
        score = 0.0
        colour = dice[view["decision"]["die"]]["colour"]
        amounts = _BONUS_AMOUNTS[colour]
        for amount, target in zip(amounts, action["targets"], strict=False):
            if target is None:
                continue
            d = dice[target]
            after = min(6, d["value"] + amount)
            weight = _CLASS_WEIGHT[d["class"]] if d["zone"] == "battle" else 0.5
            if after <= 0:
                score -= 6 * weight
            else:
                score += (after - d["value"]) * weight
        return score

    def _clash(self, view, legal, seat):
        dice = view["dice"]
        opponent_life = [
            d for d in dice if d["owner"] != seat and d["zone"] == "battle" and d["class"] == "life"
        ]
        threats = {}
        if view["duel"]:
            for throw in view["duel"]["throws"]:
                thrower = dice[throw["die"]]
                if thrower["owner"] != seat and thrower["zone"] == "clash":
                    threats[throw["die"]] = _threat(thrower, [dice[t] for t in throw["targets"]])
        best, best_score = None, 0.0
        for action in legal:
            if action["kind"] != "throw":
                continue
            score = self._throw_score(dice, action, seat, opponent_life, threats)
            if score > best_score:
                best, best_score = action, score
        threshold = 0.9 if view["duel"] is None else 1.2
        if best is not None and best_score >= threshold:
            return best
        return next(a for a in legal if a["kind"] in ("decline", "pass"))

    def _throw_score(self, dice, action, seat, opponent_life, threats):
        die = dice[action["die"]]
        kind = die["type"]
        targets = [dice[t] for t in action["targets"]]
        if kind == "regenerator":
            return 3.5 * _CLASS_WEIGHT[targets[0]["class"]]
        if kind in ("absorber", "fortress"):
            return sum(2 * _p_at_least(t["value"]) * _worth(t, threats) for t in targets)
        target = targets[0]
        p = _p_greater(target["value"], die)
        own = target["owner"] == seat
        worth = _worth(target, threats)
        last_life = (
            target["class"] == "life" and target["zone"] == "battle" and (len(opponent_life) == 1)
        )
        if kind == "crusher":
            gain = p * (worth + (20 if last_life else 0)) - (1 - p) * 2.5
        elif kind == "annulator":
            gain = p * worth
        elif kind == "shooter":
            drop = p * 2 + (1 - p)
            kills = (
                target["class"] == "life" and target["zone"] == "battle" and target["value"] <= 2
            )
            gain = drop * _per_point(target) + (p * (8 if last_life else 3) if kills else 0)
        elif kind == "power_booster":
            gain = (p * 3 + (1 - p)) * _per_point(target) * (1 if target["value"] < 6 else 0)
        else:  # assault, barrier: plus on own dice, minus on the opponent's
            shift = p * 3.5 + (1 - p)
            headroom = 6 - target["value"] if own else target["value"] - 1
            gain = min(shift, headroom) * _per_point(target)
        return gain

    @staticmethod
    def _damage_score(dice, action):
        lost = sum(1 for d, a in action["amounts"] if a >= dice[d]["value"])
        remaining = [dice[d]["value"] - a for d, a in action["amounts"] if a < dice[d]["value"]]
        return (-lost, min(remaining, default=0))

    @staticmethod
    def _return(dice, legal, seat):
        life = [
            d for d in dice if d["owner"] == seat and d["zone"] == "battle" and d["class"] == "life"
        ]
        low = [d for d in life if d["value"] <= 2]
        if len(life) >= 3 and low:
            candidate = {"kind": "return", "die": min(low, key=lambda d: d["value"])["id"]}
            if candidate in legal:
                return candidate
        return {"kind": "return", "die": None}


_BONUS_AMOUNTS = {
    "orange": (1, 1),
    "red": (2,),
    "purple": (1, 1),
    "blue": (2,),
    "yellow": (2,),
    "green": (1, 1),
    "black": (3, -1),
    "white": (1, 1),
}


def _p_greater(target_value: int, die: dict) -> float:
    """Chance a fresh roll beats ``target_value`` (ties count half: specialisation)."""
    return max(0, 6 - target_value) / 6 + 0.5 / 6


def _p_at_least(target_value: int) -> float:
    return max(0, 7 - target_value) / 6


def _per_point(die: dict) -> float:
    if die["zone"] == "clash":
        return 0.6
    return _CLASS_WEIGHT[die["class"]]


def _worth(die: dict, threats: dict) -> float:
    if die["zone"] == "clash":
        return threats.get(die["id"], 1.0)
    return die["value"] * _CLASS_WEIGHT[die["class"]] + (2 if die["class"] == "life" else 0)


def _threat(thrower: dict, targets: list[dict]) -> float:
    """How much an opponent's clash die threatens: what its effect would cost us."""
    stake = sum(_worth(t, {}) for t in targets if t["zone"] == "battle")
    factor = {
        "crusher": 1.0,
        "annulator": 0.8,
        "shooter": 0.5,
        "absorber": 0.5,
        "fortress": 0.5,
    }.get(thrower["type"], 0.3)
    return 1.0 + factor * stake


# Bots playing a whole game at once take no time, so the game limit (20 minutes, then
# sudden death) comes at a fixed turn instead; without it about one game in ten between
# two bots with random sets goes on for thousands of turns.
SIMULATED_LIMIT_TURN = 30


def play_game(config: dict, seed: str, bots, sudden_death_turn: int | None = SIMULATED_LIMIT_TURN):
    """Play one game between two bots; returns (final state, decisions).

    ``sudden_death_turn`` stands in for the clock: at that turn the system switches
    sudden death on, as the tournament layer does after 20 minutes.
    """
    state = E.new_game(config, seed)
    decisions = 0
    apply, over, simultaneous = E.apply, E.OVER, E._SIMULTANEOUS
    while state.phase != over:
        if (
            sudden_death_turn
            and state.turn >= sudden_death_turn
            and state.sudden_death_from is None
        ):
            state, _ = E.enable_sudden_death(state)
        # The first player in ``to_act``. During simultaneous choices player 0 commits
        # first; the order cannot matter because neither sees the other's choice.
        if state.bonus_queue:
            seat = state.bonus_queue[0][0]
        elif state.phase in simultaneous:
            seat = 0 if state.choices[0] is None else 1
        else:
            seat = state.actor
        state, _ = apply(state, seat, bots[seat].choose(state, seat), False)
        decisions += 1
    return state, decisions
