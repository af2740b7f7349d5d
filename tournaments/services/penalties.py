"""Penalties and what each one does to the current match."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from tournaments.audit import audit
from tournaments.models import (
    Match,
    Penalty,
    Registration,
    ResultSubmission,
)
from tournaments.services.guards import (
    last_round_number,
    locked_match,
    locked_registration,
    require_judge,
)
from tournaments.services.results import (
    decide_with_penalties,
    record_confirmed_result,
    refresh_round_status,
    result_fields,
)


def _current_match(registration: Registration) -> Match | None:
    return (
        (
            Match.objects.filter(round__tournament=registration.tournament_id).filter(
                player_a=registration
            )
            | Match.objects.filter(
                round__tournament=registration.tournament_id, player_b=registration
            )
        )
        .exclude(status=Match.Status.CONFIRMED)
        .order_by("-round__number")
        .first()
    )


@transaction.atomic
def give_penalty(
    *, registration: Registration, kind: str, reason: str, by, match: Match | None = None
) -> Penalty:
    registration = locked_registration(registration)
    tournament = registration.tournament
    require_judge(by, tournament)
    if kind not in Penalty.Kind.values:
        raise ValidationError(
            {"kind": [f"Unknown penalty {kind!r}; choose one of {', '.join(Penalty.Kind.values)}."]}
        )
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Give the reason for the penalty."]})
    match = match or _current_match(registration)
    if match is not None and match.side_of(registration.pk) is None:
        raise ValidationError({"match": ["This player is not in that match."]})
    if kind in (Penalty.Kind.GAME_LOSS, Penalty.Kind.MATCH_LOSS) and match is None:
        raise ValidationError({"match": ["A game or match loss needs the match it applies to."]})
    if match is not None and match.is_bye and kind != Penalty.Kind.WARNING:
        raise ValidationError({"match": ["A bye cannot carry a game or match loss."]})
    penalty = Penalty.objects.create(
        registration=registration, match=match, kind=kind, reason=reason.strip(), judge=by
    )
    audit(
        tournament,
        by,
        f"penalty.{kind}",
        registration,
        after={"match": getattr(match, "pk", None)},
        reason=reason,
    )
    if match is not None:
        match = locked_match(match)
        side = match.side_of(registration.pk)
        latest = match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).first()
        fields = (
            result_fields(latest.games, latest.intentional_draw, latest.conceded_by)
            if latest
            else result_fields([], False, "")
        )
        flags = (
            {"match_loss_a": latest.match_loss_a, "match_loss_b": latest.match_loss_b}
            if latest
            else {}
        )
        if (
            kind in (Penalty.Kind.MATCH_LOSS, Penalty.Kind.DISQUALIFICATION)
            and match.status != Match.Status.CONFIRMED
        ):
            flags[f"match_loss_{side}"] = True
            fields["intentional_draw"] = False
            record_confirmed_result(
                match,
                source=ResultSubmission.Source.JUDGE,
                by=by,
                note=f"{kind}: {reason}",
                **fields,
                **flags,
            )
        elif kind == Penalty.Kind.MATCH_LOSS:
            flags[f"match_loss_{side}"] = True
            record_confirmed_result(
                match,
                source=ResultSubmission.Source.JUDGE,
                by=by,
                note=f"{kind}: {reason}",
                **fields,
                **flags,
            )
        elif kind == Penalty.Kind.GAME_LOSS and match.status == Match.Status.CONFIRMED:
            # The result is already in: re-decide it with the awarded game (a logged correction).
            record_confirmed_result(
                match,
                source=ResultSubmission.Source.JUDGE,
                by=by,
                note=f"{kind}: {reason}",
                **fields,
                **flags,
            )
        else:
            decide_with_penalties(
                match, **fields, **flags
            )  # the awarded game must fit in a best of three
        refresh_round_status(match.round)
    if kind == Penalty.Kind.DISQUALIFICATION:
        registration.disqualified = True
        registration.dropped = True
        registration.dropped_after_round = last_round_number(tournament)
        registration.save(update_fields=["disqualified", "dropped", "dropped_after_round"])
    return penalty
