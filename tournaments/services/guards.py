"""Who may act, and the row locks every write takes first."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.models import (
    Match,
    Registration,
    Round,
    Tournament,
)
from tournaments.permissions import (
    can_judge,
    can_manage,
    can_manage_co_organisers,
)
from tournaments.visibility import own_registration_id


def require_manager(user, tournament):
    if not can_manage(user, tournament):
        raise PermissionDenied(_("Only the tournament's organisers may do this."))


def require_judge(user, tournament):
    if not can_judge(user, tournament):
        raise PermissionDenied(_("Only the tournament's judges and organisers may do this."))


def require_owner(user, tournament):
    if not can_manage_co_organisers(user, tournament):
        raise PermissionDenied(_("Only the tournament's owner may change its co-organisers."))


def locked_round(round_) -> Round:
    return (
        Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_.pk)
    )


def locked_registration(registration) -> Registration:
    return (
        Registration.objects.select_for_update(of=("self",))
        .select_related("tournament", "player")
        .get(pk=registration.pk)
    )


def locked_tournament(tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def locked_match(match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related(
            "round__tournament",
            "player_a__player",
            "player_a__team",
            "player_b__player",
            "player_b__team",
        )
        .get(pk=match.pk)
    )


def last_round_number(tournament) -> int:
    return tournament.rounds.aggregate(n=Max("number"))["n"] or 0


def own_registration(match: Match, by) -> Registration:
    own = own_registration_id(by, match)
    if own is not None:
        return match.player_a if match.player_a_id == own else match.player_b
    raise PermissionDenied(
        _("Only the two players of this match and its judges may report its result.")
    )


def require_dispute_note(note) -> str:
    """A dispute (of a match's reported result or a table's reported placings) says what
    is wrong: the judge who comes to the table starts from it. Blank or only spaces is
    refused, naming the field; returns the note without surrounding spaces."""
    note = (note or "").strip()
    if not note:
        raise ValidationError({"note": [_("Say what is wrong with the report.")]})
    return note
