"""Swiss phases: the cut into the next phase (tournaments/phases.py, docs/standings.md).

The cut is taken from the standings after the phase's last round. It is applied when
that round is closed, and computed again when the next round is paired (a result
corrected in between, or a cut rule changed, moves it); from then on it is fixed.
Players who do not make it get ``Registration.cut_after_round`` and are not paired
again. The audit log records each cut ("phase.cut").
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from tournaments import selectors
from tournaments.audit import audit
from tournaments.models import Registration, Round, Tournament
from tournaments.phases import ALL, SwissPhase, advancing_players, parse_phases, phase_errors


def phase_ending_after(tournament: Tournament, round_number: int) -> SwissPhase | None:
    """The phase of the tournament's setting that ends after ``round_number``, if any."""
    if phase_errors(tournament.swiss_phases):
        return None
    for phase in parse_phases(tournament.swiss_phases):
        if phase.ends_after_round == round_number:
            return phase
    return None


def apply_phase_cut(tournament: Tournament, *, after_round: int, by, always_log: bool) -> None:
    """Mark who did not make the cut after ``after_round`` (and clear the mark of anyone
    who now makes it, or of everyone when no phase ends there any more). Logged when
    the cut changes, or whenever ``always_log`` (the round that ends a phase closed).
    The caller holds the tournament's row lock."""
    phase = phase_ending_after(tournament, after_round)
    marked = Registration.objects.filter(tournament=tournament, cut_after_round=after_round)
    if phase is None and not marked.exists():
        return
    registrations = list(
        Registration.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, pairing_unit=True)
        .select_related("player", "team")
        .order_by("pk")
    )
    before = {r.pk for r in registrations if r.cut_after_round == after_round}
    for registration in registrations:
        if registration.cut_after_round == after_round:
            registration.cut_after_round = None  # computed again below
    cut: set[int] = set()
    if phase is not None and phase.advance != ALL:
        eligible = {
            r.pk
            for r in registrations
            if not r.dropped
            and r.cut_after_round is None
            and (r.late_entry_round or 1) <= after_round
        }
        table = selectors.standings(
            tournament, registrations=registrations, as_of_round=after_round
        )
        cut = eligible - advancing_players(table, phase, eligible)
    changed = []
    for registration in registrations:
        if registration.pk in cut:
            registration.cut_after_round = after_round
        if (registration.pk in before) != (registration.pk in cut):
            changed.append(registration)
    Registration.objects.bulk_update(changed, ["cut_after_round"])
    if not changed and not always_log:
        return
    rule = phase.as_dict() if phase is not None else None
    audit(
        tournament,
        by,
        "phase.cut",
        tournament,
        before={"after_round": after_round, "cut": sorted(before)} if before else None,
        after={"after_round": after_round, "rule": rule, "cut": sorted(cut)},
        reason=(
            f"Cut after round {after_round}: {phase.describe()}; {len(cut)} did not advance."
            if phase is not None
            else f"No phase ends after round {after_round} any more: nobody is cut there."
        ),
    )


def check_phase_change(tournament: Tournament, phases: list) -> None:
    """Refuse a ``swiss_phases`` change that would rewrite a cut already fixed (the
    next round paired) or that does not fit the players still in the event."""
    if errors := phase_errors(phases):
        raise ValidationError({"swiss_phases": errors})
    last_paired = (
        Round.objects.filter(tournament=tournament, stage=Round.Stage.SWISS)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    ) or 0
    old = {} if phase_errors(tournament.swiss_phases) else _by_end(tournament.swiss_phases)
    new = _by_end(phases)
    errors = []
    for end in sorted(set(old) | set(new)):
        if end >= last_paired or old.get(end) == new.get(end):
            continue
        cuts = [phase for phase in (old.get(end), new.get(end)) if phase and phase.advance != ALL]
        if cuts:
            errors.append(
                f"Round {end + 1} is already paired: the cut after round {end} is fixed and "
                "can no longer be added, changed or removed."
            )
    if tournament.status not in (
        Tournament.Status.DRAFT,
        Tournament.Status.REGISTRATION,
        Tournament.Status.CHECK_IN,
    ):
        field_size = Registration.objects.filter(tournament=tournament, dropped=False).count()
        errors += phase_errors(phases, field_size=field_size)
    if errors:
        raise ValidationError({"swiss_phases": errors})


def _by_end(raw) -> dict[int, SwissPhase]:
    return {phase.ends_after_round: phase for phase in parse_phases(raw)}
