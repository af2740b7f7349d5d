"""Bots: a random player and a heuristic one that decides from its own view only.

``HeuristicBot`` reads nothing but ``view(state, seat)`` and ``legal_actions(state,
seat)``. For every move it computes the exact chances of the fight (all 36 pairs of
rolls, with the variant's modifiers as the view shows them), values a capture at the
captured face, and subtracts what its moved die would offer the next player. With
zombies (R15-R17) it weighs zombie moves too: a zombie's attack or bite removes a die
the next player might capture and may earn an extra go, and a zombie's quiet step
offers the next player no die.
"""

from __future__ import annotations

import random
from functools import lru_cache

from . import engine as E


class RandomBot:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, state: E.State, seat: int) -> dict:
        return E.random_action(state, seat, self.rng)


@lru_cache(maxsize=4096)
def fight_chances(
    attack_face: int, defence_face: int, attack_mod: int, defence_mod: int
) -> tuple[float, float, float]:
    """(win, lose, natural six) chances of an attack, the attacker's side."""
    win = lose = 0
    for a in range(1, 7):
        for d in range(1, 7):
            got = E.outcome(a, d, attack_face + a + attack_mod, defence_face + d + defence_mod)
            if got == "win":
                win += 1
            elif got in ("lose", "both"):
                lose += 1
    return win / 36, lose / 36, 1 / 6


def _element_code(name):
    return E.ELEMENTS.index(name) if name else None


# A zombie's quiet step moves no die: it scores as moving a die showing 1.5, so it is
# preferred to moving any die but a 1 to an empty square.
ZOMBIE_QUIET = -0.15
# A die removed by a zombie is a die the next player cannot capture: a tenth of its face
# a pip, as a quiet move's cost counts a die offered to the next player.
DENIAL = 0.1
NO_ZOMBIE = {"element": None}


class HeuristicBot:
    """Takes the attack worth the most captured pips on average; among quiet moves, the
    one that leaves the fewest pips open to the next player; zombie moves by the same
    measure (a die removed, an extra go earned, nothing offered)."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, state: E.State, seat: int) -> dict:
        return self.decide(E.view(state, seat), E.legal_actions(state, seat), seat)

    def decide(self, view: dict, legal: list[dict], seat: int) -> dict:
        if len(legal) == 1:
            return legal[0]
        board = view["board"]
        dice = view["dice"]
        strongholds = {tuple(sq) for sq in view["tiles"]["strongholds"]}
        elements = view["tiles"]["elements"]
        zombies = view["zombies"]
        best, best_score = None, None
        for action in legal:
            kind = action["kind"]
            if kind == "move":
                score = self._score(action, board, dice, strongholds, elements, zombies)
            elif kind in ("zombie", "bite"):
                score = self._zombie_score(action, board, dice, strongholds)
            else:
                score = 0.05  # giving up an extra go: only when every move looks worse
            score += self.rng.random() * 1e-6
            if best_score is None or score > best_score:
                best, best_score = action, score
        return best

    def _modifiers(self, attacker, defender, square, strongholds, elements):
        att = dfn = 0
        if elements is not None:
            tile = _element_code(elements[square[0]][square[1]])
            att += E.element_modifiers(_element_code(attacker["element"]), tile)[0]
            dfn += E.element_modifiers(_element_code(defender["element"]), tile)[1]
        if tuple(square) in strongholds:
            dfn += 1
        return att, dfn

    def _score(self, action, board, dice, strongholds, elements, zombies=None):
        die = dice[action["die"]]
        r, c = action["to"]
        target = board[r][c]
        if target is None and zombies and zombies[r][c]:
            # R17: fighting a zombie captures nothing; a win moves the die one face up
            # (what it then offers), a natural 6 earns an extra go.
            att, dfn = self._modifiers(die, NO_ZOMBIE, (r, c), strongholds, elements)
            win, _lose, six = fight_chances(die["face"], E.ZOMBIE_FACE, att, dfn)
            return six * 1.0 - 0.1 * (die["face"] + win)
        if target is None:
            # A quiet move: what the die would offer from its new square.
            return -0.1 * die["face"]
        defender = dice[target]
        att, dfn = self._modifiers(die, defender, (r, c), strongholds, elements)
        win, _lose, six = fight_chances(die["face"], defender["face"], att, dfn)
        return win * defender["face"] + six * 1.0 + 0.5

    def _zombie_score(self, action, board, dice, strongholds):
        """R15: a zombie stepping onto an empty square, or attacking (stepping onto or
        biting on its own square) the die there as a 2."""
        r, c = action["to"] if action["kind"] == "zombie" else action["at"]
        target = board[r][c]
        if target is None:
            return ZOMBIE_QUIET
        defender = dice[target]
        att, dfn = self._modifiers(NO_ZOMBIE, defender, (r, c), strongholds, None)
        win, _lose, six = fight_chances(E.ZOMBIE_FACE, defender["face"], att, dfn)
        return win * DENIAL * defender["face"] + six * 1.0
