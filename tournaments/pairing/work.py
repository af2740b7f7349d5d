"""The work a pairing spends, counted in the cost model of a blossom matching (its node
count cubed), with an optional limit and a progress callback.

The limit lets a caller that must answer quickly (a web request) pair every round whose
proof is cheap and hand the others to a background job: when the next matching would
take the total past the limit, PairingDeferred is raised before it runs, and nothing is
lost but the cheap tiers' work. Without a limit the pairing always completes.
"""

from __future__ import annotations

from collections.abc import Callable
from math import isqrt

# progress(stage, work spent so far, work the stage about to run will spend)
Progress = Callable[[str, int, int], None]

# Stages reported to the progress callback, in the order the tiers run.
STAGE_LOWER_BOUND = "lower_bound"
STAGE_WINDOWS = "windows"
STAGE_PROGRAMME = "programme"
STAGE_EXACT = "exact"


class PairingDeferred(Exception):
    """The pairing needs more work than the caller allowed: run it without a limit (in
    the background). estimate is the work spent so far plus the matching that would
    have passed the limit."""

    def __init__(self, stage: str, estimate: int, limit: int) -> None:
        super().__init__(
            f"pairing needs more than {limit:,} units of work ({stage}: at least {estimate:,})"
        )
        self.stage = stage
        self.estimate = estimate
        self.limit = limit


class Work:
    """Work spent so far; spend() raises PairingDeferred instead of passing the limit."""

    def __init__(self, limit: int | None = None, progress: Progress | None = None) -> None:
        self.limit = limit
        self.progress = progress
        self.spent = 0

    def spend(self, stage: str, units: int) -> None:
        if self.limit is not None and self.spent + units > self.limit:
            raise PairingDeferred(stage, self.spent + units, self.limit)
        if self.progress is not None:
            self.progress(stage, self.spent, units)
        self.spent += units


def matching_work(nodes: int) -> int:
    """The cost model of one blossom matching of that many nodes."""
    return nodes**3


def sparse_matching_work(nodes: int, edges: int) -> int:
    """The cost model of a blossom matching of a sparse graph, in the same units as
    matching_work (a window of k nodes: k^3, about 0.25-0.3 s of CPU per million on the
    shared machine). Measured on the whole-field graphs of the pairs who have not met
    (fields of 64, 128 and 256 players, from the first rounds of a round-robin to its
    last), 4 x nodes x sqrt(nodes x edges) takes about as long per unit on dense graphs
    and over-estimates the sparsest (a few pairs left per player) by up to 3 or 4 times.
    The earlier model, nodes x edges + nodes^3 / 2, charged the nodes^3 / 2 even where
    the graph had a handful of edges per node: 8.4 million units for the last round of a
    256-player round-robin, which takes 0.03 s."""
    return 4 * nodes * isqrt(nodes * edges) + nodes
