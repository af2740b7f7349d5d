"""The bots of ``BOTS``: the two-player bots (``bots``) for two-player states, and the
same ideas at a team seat, deciding from that seat's view and legal actions only.

A team seat's heuristic sees its team as one side: the view's dice are relabelled so
that every die of its team is "its own" and every other die the opponent's, and the
two-player heuristic scores clash throws, bonuses and damage from that. Only the
decisions about the seat's own board (the split, the end-of-turn return) read its own
dice.
"""

from __future__ import annotations

from . import bots
from . import team as T

_OPPONENT = -1
_random_action = T.random_action


class RandomBot(bots.RandomBot):
    def choose(self, state, seat: int) -> dict:
        # ``team.random_action`` hands a two-player state to ``engine.random_action``.
        return _random_action(state, seat, self.rng)


class HeuristicBot(bots.HeuristicBot):
    def choose(self, state, seat: int) -> dict:
        if type(state) is T.TeamState:
            return self.decide_team(T.view(state, seat), T.legal_actions(state, seat), seat)
        return super().choose(state, seat)

    def decide_team(self, view: dict, legal: list[dict], seat: int) -> dict:
        if len(legal) == 1:
            return legal[0]
        kind = legal[0]["kind"]
        if kind == "damage":
            return max(legal, key=lambda a: _damage_step_score(view["dice"], a))
        if kind in ("split", "return"):
            # The seat's own board: the two-player rules of thumb on its own dice.
            return self.decide(view, legal, seat)
        team = view["teams"][seat]
        sided = {
            **view,
            "dice": [
                {**d, "owner": seat if d["team"] == team else _OPPONENT} for d in view["dice"]
            ],
        }
        return self.decide(sided, legal, seat)


__all__ = ["HeuristicBot", "RandomBot"]


def _damage_step_score(dice: list[dict], action: dict) -> tuple:
    """A step of the team's damage distribution: keep the die alive if possible, and
    then take as many points on it as possible (the high dice absorb, the rest survive)."""
    value = dice[action["die"]]["value"]
    return (action["points"] < value, action["points"], -action["die"])
