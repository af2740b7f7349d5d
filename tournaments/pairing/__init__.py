"""Swiss pairing engine (pure Python). See docs/pairing.md."""

from tournaments.pairing.model import (
    Bye,
    Pair,
    PairingCost,
    PairingError,
    PairingPlayer,
    PairingResult,
    Reason,
    ReasonCode,
)
from tournaments.pairing.swiss import evaluate_pairing, pair_round
from tournaments.pairing.work import PairingDeferred

__all__ = [
    "Bye",
    "Pair",
    "PairingCost",
    "PairingDeferred",
    "PairingError",
    "PairingPlayer",
    "PairingResult",
    "Reason",
    "ReasonCode",
    "evaluate_pairing",
    "pair_round",
]
