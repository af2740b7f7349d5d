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

__all__ = [
    "Bye",
    "Pair",
    "PairingCost",
    "PairingError",
    "PairingPlayer",
    "PairingResult",
    "Reason",
    "ReasonCode",
    "evaluate_pairing",
    "pair_round",
]
