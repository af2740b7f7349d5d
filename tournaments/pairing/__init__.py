"""Swiss pairing engine (pure Python). See docs/pairing.md."""

from tournaments.pairing.swiss import (
    Bye,
    Pair,
    PairingCost,
    PairingError,
    PairingPlayer,
    PairingResult,
    Reason,
    ReasonCode,
    evaluate_pairing,
    pair_round,
)

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
