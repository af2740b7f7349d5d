"""Penalties: what each kind needs and does to the match and the player (PENALTY_RULES),
and the one path that applies them."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import selectors
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


@dataclass(frozen=True)
class MatchEffect:
    """What a penalty does to the match it is given in.

    match_loss: the penalised player loses the match (their side's match loss flag).
    ends_intentional_draw: an intentional draw agreed earlier no longer stands.
    records_result: a judge's confirmed result is recorded (a new version, logged);
    otherwise the match's result so far is only re-decided, which checks that an
    awarded game still fits in a best of three.
    """

    match_loss: bool = False
    ends_intentional_draw: bool = False
    records_result: bool = False


@dataclass(frozen=True)
class PenaltyRule:
    """What one kind of penalty needs and does, to the match and to the player."""

    needs_match: bool
    allowed_on_bye: bool
    # The match while it is still being played (or awaits confirmation) ...
    open_match: MatchEffect
    # ... and once its result is confirmed.
    confirmed_match: MatchEffect
    disqualifies: bool = False


_LOSES_MATCH_NOW = MatchEffect(match_loss=True, ends_intentional_draw=True, records_result=True)

PENALTY_RULES: dict[str, PenaltyRule] = {
    Penalty.Kind.WARNING: PenaltyRule(
        needs_match=False,
        allowed_on_bye=True,
        open_match=MatchEffect(),
        confirmed_match=MatchEffect(),
    ),
    # A game loss counts as a game won by the opponent (see penalty_game_wins): an
    # open match only checks it still fits, a confirmed one is re-decided with it.
    Penalty.Kind.GAME_LOSS: PenaltyRule(
        needs_match=True,
        allowed_on_bye=False,
        open_match=MatchEffect(),
        confirmed_match=MatchEffect(records_result=True),
    ),
    Penalty.Kind.MATCH_LOSS: PenaltyRule(
        needs_match=True,
        allowed_on_bye=False,
        open_match=_LOSES_MATCH_NOW,
        confirmed_match=MatchEffect(match_loss=True, records_result=True),
    ),
    # A disqualification loses the match being played; a result already confirmed stands.
    Penalty.Kind.DISQUALIFICATION: PenaltyRule(
        needs_match=False,
        allowed_on_bye=False,
        open_match=_LOSES_MATCH_NOW,
        confirmed_match=MatchEffect(),
        disqualifies=True,
    ),
}


@transaction.atomic
def give_penalty(
    *, registration: Registration, kind: str, reason: str, by, match: Match | None = None
) -> Penalty:
    registration = locked_registration(registration)
    tournament = registration.tournament
    require_judge(by, tournament)
    rule = PENALTY_RULES.get(kind) if isinstance(kind, str) else None
    if rule is None:
        raise ValidationError(
            {
                "kind": [
                    _("Unknown penalty “%(kind)s”; choose one of %(known)s.")
                    % {"kind": kind, "known": ", ".join(Penalty.Kind.values)}
                ]
            }
        )
    if not (reason or "").strip():
        raise ValidationError({"reason": [_("Give the reason for the penalty.")]})
    match = match or selectors.match_awaiting_result(registration)
    if match is not None and match.side_of(registration.pk) is None:
        raise ValidationError({"match": [_("This player is not in that match.")]})
    if rule.needs_match and match is None:
        raise ValidationError({"match": [_("A game or match loss needs the match it applies to.")]})
    if match is not None and match.is_bye and not rule.allowed_on_bye:
        raise ValidationError({"match": [_("A bye cannot carry a game or match loss.")]})
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
        _apply_to_match(locked_match(match), registration, rule, note=f"{kind}: {reason}", by=by)
    if rule.disqualifies:
        registration.disqualified = True
        registration.dropped = True
        registration.dropped_after_round = last_round_number(tournament)
        registration.save(update_fields=["disqualified", "dropped", "dropped_after_round"])
    return penalty


def _apply_to_match(match: Match, registration: Registration, rule: PenaltyRule, *, note, by):
    """The match's latest confirmed result (or none yet) with the penalty's effect."""
    confirmed = match.status == Match.Status.CONFIRMED
    effect = rule.confirmed_match if confirmed else rule.open_match
    latest = match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).first()
    if latest:
        fields = result_fields(latest.games, latest.intentional_draw, latest.conceded_by)
        flags = {"match_loss_a": latest.match_loss_a, "match_loss_b": latest.match_loss_b}
    else:
        fields, flags = result_fields([], False, ""), {}
    if effect.match_loss:
        flags[f"match_loss_{match.side_of(registration.pk)}"] = True
    if effect.ends_intentional_draw:
        fields["intentional_draw"] = False
    if effect.records_result:
        record_confirmed_result(
            match, source=ResultSubmission.Source.JUDGE, by=by, note=note, **fields, **flags
        )
    else:
        decide_with_penalties(match, **fields, **flags)
    refresh_round_status(match.round)
