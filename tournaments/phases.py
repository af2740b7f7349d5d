"""Swiss phases: day 1, then a cut into day 2 (docs/standings.md, "Swiss phases").

Pure Python and free of Django. A tournament's ``swiss_phases`` setting lists every
phase but the final one, each as ``{"ends_after_round": 9, "advance": "points",
"value": 18}``:

- ``"points"``: players with at least ``value`` match points after that round
  advance;
- ``"top"``: the first ``value`` players of the standings after that round advance
  (the standings order, tiebreakers included); players level with the last of them
  on every tiebreaker (sharing their rank) advance too, so a shared rank is never
  split by the cut;
- ``"all"``: nobody is cut (the phase only fixes when rows are taken; players leave
  by dropping).

The final phase ends with the last Swiss round. This module checks the setting,
reads it, writes it as the one line the settings form shows ("9 points 18; 12 top
8"), and says who makes a cut.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from tournaments.standings import Standings

__all__ = [
    "ADVANCE_KINDS",
    "SwissPhase",
    "advancing_players",
    "format_phases",
    "parse_phases",
    "parse_phases_text",
    "phase_errors",
]

POINTS = "points"
TOP = "top"
ALL = "all"
ADVANCE_KINDS = (POINTS, TOP, ALL)
MAX_PHASES = 19  # at most 20 Swiss rounds, and the final phase takes at least one

SHAPE_MESSAGE = (
    'Give the Swiss phases as a list of {"ends_after_round": 9, "advance": "points", '
    '"value": 18} objects ("advance": "points", "top" or "all").'
)


@dataclass(frozen=True, slots=True)
class SwissPhase:
    """One phase but the final one: it ends after ``ends_after_round``; ``advance``
    and ``value`` are the cut into the next phase (``value`` is None for "all")."""

    ends_after_round: int
    advance: str
    value: int | None = None

    def as_dict(self) -> dict:
        answer: dict = {"ends_after_round": self.ends_after_round, "advance": self.advance}
        if self.value is not None:
            answer["value"] = self.value
        return answer

    def describe(self) -> str:
        """The cut as people read it."""
        if self.advance == POINTS:
            return f"players with at least {self.value} match points advance"
        if self.advance == TOP:
            return f"the top {self.value} advance (and anyone level with the last of them)"
        return "everyone advances"


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shape_errors(raw) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(item, dict) for item in raw):
        return [SHAPE_MESSAGE]
    if len(raw) > MAX_PHASES:
        return [f"At most {MAX_PHASES} phases end before the final one."]
    errors = []
    for number, item in enumerate(raw, start=1):
        unknown = set(item) - {"ends_after_round", "advance", "value"}
        end, advance, value = item.get("ends_after_round"), item.get("advance"), item.get("value")
        if unknown:
            errors.append(f"Phase {number}: unknown keys {', '.join(sorted(map(str, unknown)))}.")
        if not _is_int(end) or end < 1:
            errors.append(f"Phase {number}: ends_after_round must be a round number from 1 up.")
        if advance not in ADVANCE_KINDS:
            errors.append(f'Phase {number}: advance must be "points", "top" or "all".')
        elif advance == ALL and value is not None:
            errors.append(f'Phase {number}: "all" advances everyone and takes no value.')
        elif advance == POINTS and (not _is_int(value) or value < 0):
            errors.append(f"Phase {number}: give the match points needed to advance (0 or more).")
        elif advance == TOP and (not _is_int(value) or value < 2):
            errors.append(
                f"Phase {number}: give how many players advance (at least 2, to pair a round)."
            )
    return errors


def phase_errors(
    raw, *, swiss_rounds: int | None = None, field_size: int | None = None
) -> list[str]:
    """What is wrong with a ``swiss_phases`` setting (empty: fine). ``swiss_rounds``
    and ``field_size`` (players still in the event), when known, are checked too."""
    if errors := _shape_errors(raw):
        return errors
    phases = parse_phases(raw)
    ends = [phase.ends_after_round for phase in phases]
    if ends != sorted(set(ends)):
        return [
            "Phase ends must be in order, each later than the one before "
            f"(got rounds {', '.join(map(str, ends))})."
        ]
    errors = []
    if swiss_rounds is not None and ends and ends[-1] >= swiss_rounds:
        errors.append(
            f"A phase ends after round {ends[-1]}, but the event has {swiss_rounds} Swiss "
            "rounds: each phase but the final one must end before the last round."
        )
    previous_top = None
    for number, phase in enumerate(phases, start=1):
        if phase.advance == POINTS and phase.value > 3 * phase.ends_after_round:
            errors.append(
                f"Phase {number}: nobody can have {phase.value} match points after "
                f"{phase.ends_after_round} rounds (at most {3 * phase.ends_after_round})."
            )
        if phase.advance == TOP:
            if field_size is not None and phase.value > field_size:
                errors.append(
                    f"Phase {number}: the top {phase.value} cannot advance, only "
                    f"{field_size} players are in the event."
                )
            if previous_top is not None and phase.value > previous_top:
                errors.append(
                    f"Phase {number}: the top {phase.value} cannot advance from a phase "
                    f"that only {previous_top} players reached."
                )
            previous_top = phase.value
    return errors


def parse_phases(raw: Iterable[dict]) -> tuple[SwissPhase, ...]:
    """The phases of a setting already checked by :func:`phase_errors`."""
    return tuple(
        SwissPhase(item["ends_after_round"], item["advance"], item.get("value")) for item in raw
    )


def format_phases(raw) -> str:
    """The setting as the settings form writes it: "9 points 18; 12 top 8"."""
    if _shape_errors(raw):
        return ""
    parts = []
    for phase in parse_phases(raw):
        value = "" if phase.value is None else f" {phase.value}"
        parts.append(f"{phase.ends_after_round} {phase.advance}{value}")
    return "; ".join(parts)


_ENTRY = re.compile(r"^(\d{1,3})\s+(points|top|all)(?:\s+(\d{1,5}))?$", re.IGNORECASE)


def parse_phases_text(text: str) -> tuple[list[dict], list[str]]:
    """The settings form's line ("9 points 18; 12 top 8", ";" or new lines between
    phases) as the stored list, and what cannot be read in it."""
    phases, errors = [], []
    for part in re.split(r"[;\n]", text or ""):
        part = " ".join(part.split())
        if not part:
            continue
        match = _ENTRY.match(part)
        if match is None:
            errors.append(
                f"Cannot read “{part[:40]}”: write the last round of the phase and its cut, "
                "e.g. “9 points 18” (at least 18 match points), “9 top 32” or “9 all”."
            )
            continue
        end, advance, value = match.groups()
        item: dict = {"ends_after_round": int(end), "advance": advance.lower()}
        if value is not None:
            item["value"] = int(value)
        phases.append(item)
    return phases, errors


def advancing_players(table: Standings, phase: SwissPhase, eligible: Collection[int]) -> set[int]:
    """Who of ``eligible`` (player ids: active players of the phase) makes the cut
    of ``phase``, from ``table``, the standings after its last round."""
    rows = [row for row in table.rows if row.player_id in eligible]
    if phase.advance == POINTS:
        return {row.player_id for row in rows if row.match_points >= phase.value}
    if phase.advance == TOP:
        if len(rows) <= phase.value:
            return {row.player_id for row in rows}
        last_rank = rows[phase.value - 1].rank
        return {row.player_id for index, row in enumerate(rows) if index < phase.value} | {
            row.player_id for row in rows if row.rank == last_rank
        }
    return {row.player_id for row in rows}
