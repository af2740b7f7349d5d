"""Bots: a random player and a heuristic one that decides from its own view only.

``HeuristicBot`` reads nothing but ``view(state, seat)`` and ``legal_actions(state,
seat)``. It values a face by what it yields (a sun or moon shard is worth 2.5 gold, a
glory point 1.5), forges the dearest faces it can afford over its weakest faces while
the game is young, performs the feat worth the most glory once it can afford a big one
(or in the last three rounds), and takes the extra action whenever it can use it.
"""

from __future__ import annotations

import random
from functools import lru_cache

from . import engine as E

WEIGHT = {"gold": 1.0, "sun": 2.5, "moon": 2.5, "glory": 1.5}


class RandomBot:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, state: E.State, seat: int) -> dict:
        return E.random_action(state, seat, self.rng)


# The special faces: the x3 triples the other die's face (about an upgraded face's worth
# twice over); the Mirror copies the best face another player shows.
SPECIAL_VALUE = {E.X3: 6.0, E.MIRROR: 5.0, E.SHIP: 4.0}


@lru_cache(maxsize=256)
def face_value(face: str) -> float:
    if face in SPECIAL_VALUE:
        return SPECIAL_VALUE[face]
    if face in E.SHIELDS:  # its own resource, or now and then 5 glory
        resource, amount = E.SHIELDS[face]
        return max(WEIGHT[E.RESOURCES[resource]] * amount, 5.0)
    mode, gains = E._face_info(face)
    values = [WEIGHT[E.RESOURCES[r]] * amount for r, amount in gains]
    return max(values) if mode == "choice" else sum(values)


def feat_value(card: str) -> float:
    info = E.CARDS[card]
    bonus = {"blacksmiths_chest": 1.0, "wild_spirits": 4.0, "guardians_owl": 3.0}
    bonus.update({"silver_hind": 3.0, "elder": 3.0, "blacksmiths_hammer": 4.0})
    bonus.update({"satyrs": 4.0, "helmet_of_invisibility": 8.0, "cancer": 6.0})
    bonus.update({"minotaur": 3.0, "mirror_of_the_abyss": 6.0, "sphinx": 6.0})
    bonus.update({"great_bear": 2.0, "triton": 5.0, "typhon": 4.0, "cerberus": 4.0})
    bonus.update({"sentinel": 6.0, "cyclops": 6.0, "celestial_ship": 4.0})
    bonus.update({E.BOAR_CARD: 4.0, E.SHIELD_CARD: 4.0})
    return info["glory"] + bonus.get(card, 0.0)


class HeuristicBot:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, state: E.State, seat: int) -> dict:
        view = E.view(state, seat)
        if view["phase"] in ("action", "forge") and seat == view["active"]:
            # The hundreds of forge options are read from the view (the sanctuary, the
            # gold, the pools already used); the few others from legal_actions.
            legal = E.legal_actions_besides_forging(state, seat)
            legal += self._forge_options(view, seat)
        else:
            legal = E.legal_actions(state, seat)
        return self.decide(view, legal, seat)

    def _forge_options(self, view: dict, seat: int) -> list[dict]:
        """For each face on offer, the forge over the weakest face of either die."""
        me = view["players"][seat]
        slots = [
            (face_value(face), die, slot)
            for die in (0, 1)
            for slot, face in enumerate(me["dice"][die]["faces"])
            if face not in E.BOAR_FACES  # a Boar's face stays (F28)
        ]
        _value, die, slot = min(slots)
        options = []
        for pool in view["sanctuary"]:
            if pool["price"] > me["gold"] or pool["pool"] in view["bought"]:
                continue
            for face in dict.fromkeys(pool["faces"]):
                options.append(
                    {"kind": "forge", "pool": pool["pool"], "face": face, "die": die, "slot": slot}
                )
        return options

    def decide(self, view: dict, legal: list[dict], seat: int) -> dict:
        if len(legal) == 1:
            return legal[0]
        me = view["players"][seat]
        kind = legal[0]["kind"]
        if kind == "hammer":
            return max(legal, key=lambda a: a["gold"])  # 30 gold on it make 25 glory
        if kind == "choose":
            code = next(c for who, c in view["pending"] if who == seat)
            if code.startswith("-"):
                # A loss to the Minotaur: give up what is worth least (or is not there).
                return min(legal, key=lambda a: self._loss_value(me, a["resource"]))
            return max(legal, key=lambda a: self._room_value(me, a["resource"]))
        if kind == "convert":
            return max(legal, key=lambda a: a["count"])  # glory outweighs what it replaces
        if kind == "ship":
            return self._ship(me, legal)
        if kind == "boar":  # the Boar's face goes over the weakest face
            return min(legal, key=lambda a: face_value(me["dice"][a["die"]]["faces"][a["slot"]]))
        if kind == "mirror":
            return max(legal, key=lambda a: face_value(a["face"]))
        if kind == "satyrs":
            code = next(c for who, c in view["pending"] if who == seat)
            faces = code[len(E.SATYRS) :].split("|")
            return max(legal, key=lambda a: self._pair_value([faces[i] for i in a["take"]]))
        if view["phase"] == "reinforce":
            if {"kind": "cerberus"} in legal and self._cerberus_now(view, me):
                return {"kind": "cerberus"}
            return self._reinforce(me, legal)
        if view["phase"] == "extra":
            return {"kind": "extra"} if self._worth_extra(me) else {"kind": "end_turn"}
        tokens = [a for a in legal if a["kind"] == "triton"]
        if tokens:
            # A Triton token is worth nothing unspent: spent at once, where it fits best.
            return max(tokens, key=lambda a: self._token_value(me, a["resource"]))
        late = view["round"] > view["rounds"] - 3
        feats = [a for a in legal if a["kind"] == "feat"]
        best_feat = max(feats, key=lambda a: self._feat_score(me, a), default=None)
        if best_feat and (late or E.CARDS[best_feat["card"]]["glory"] >= 12):
            return best_feat
        forge = self._best_forge(me, legal)
        if forge and not late:
            return forge
        if best_feat:
            return best_feat
        if forge:
            return forge
        return {"kind": "pass"} if {"kind": "pass"} in legal else {"kind": "end_forge"}

    def _feat_score(self, me, action):
        """A card's value; a face forged by a card goes over the weakest face, the Sphinx
        rolls the better die."""
        score = feat_value(action["card"])
        if "face" in action:  # the Shield's faces: the one worth most
            score += 0.001 * face_value(action["face"])
        if "slot" in action:
            score -= 0.01 * face_value(me["dice"][action["die"]]["faces"][action["slot"]])
        elif "die" in action:
            score += 0.01 * self._die_value(me, action["die"])
        return score

    def _ship(self, me, legal):
        """The Celestial Ship's forge: the best upgrade over the face it replaces, if any."""
        best, best_gain = {"kind": "ship"}, 0.0
        for action in legal:
            if "face" in action:
                old = me["dice"][action["die"]]["faces"][action["slot"]]
                gain = face_value(action["face"]) - face_value(old)
                if gain > best_gain:
                    best, best_gain = action, gain
        return best

    def _cerberus_now(self, view, me):
        """The Cerberus token doubles the faces showing: spent on a good pair, or in the
        last round (unspent, it is worth nothing)."""
        faces = [die["faces"][die["up"]] for die in me["dice"]]
        return self._pair_value(faces) >= 5.0 or view["round"] == view["rounds"]

    def _token_value(self, me, resource):
        index = ("gold", "sun", "moon").index(resource)
        room = me["maximum"][index] - me[resource]
        return WEIGHT[resource] * min(E.TRITON_GAINS[resource], room)

    def _pair_value(self, faces):
        if E.X3 in faces:
            other = faces[1] if faces[0] == E.X3 else faces[0]
            return 0.0 if other == E.X3 else 3 * face_value(other)
        return face_value(faces[0]) + face_value(faces[1])

    def _loss_value(self, me, resource):
        return WEIGHT[resource] * (1 if me[resource] > 0 else 0)

    def _room_value(self, me, resource):
        if resource == "glory":
            return WEIGHT["glory"]
        index = ("gold", "sun", "moon").index(resource)
        room = me["maximum"][index] - me[resource]
        return WEIGHT[resource] if room > 0 else 0.0

    def _reinforce(self, me, legal):
        options = [a for a in legal if a["kind"] == "reinforce"]
        if not options:
            return {"kind": "done"}
        owl = [a for a in options if a["card"] == "guardians_owl"]
        if owl:
            return max(owl, key=lambda a: self._room_value(me, a["resource"]))
        hind = [a for a in options if a["card"] == "silver_hind"]
        if hind:
            return max(hind, key=lambda a: self._die_value(me, a["die"]))
        return options[0]

    def _die_value(self, me, die):
        return sum(face_value(f) for f in me["dice"][die]["faces"])

    def _worth_extra(self, me):
        return me["gold"] >= 5 or me["sun"] >= 6 or me["moon"] >= 4

    def _best_forge(self, me, legal):
        best, best_score = None, 0.0
        for action in legal:
            if action["kind"] != "forge":
                continue
            old = me["dice"][action["die"]]["faces"][action["slot"]]
            gain = face_value(action["face"]) - face_value(old)
            score = gain + self.rng.random() * 1e-6
            if score > best_score:
                best, best_score = action, score
        return best
