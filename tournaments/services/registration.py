"""Entering players: registration with a frozen set, check-in, drops and reinstatement."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from players.models import DiceSet, Player
from players.services import create_dice_set, create_player, freeze_dice_set
from tournaments.audit import audit
from tournaments.games import rules_for
from tournaments.models import (
    Registration,
    Round,
    Tournament,
)
from tournaments.permissions import can_manage
from tournaments.services.guards import (
    last_round_number,
    locked_registration,
    locked_tournament,
    require_manager,
)
from tournaments.visibility import player_or_staff

Status = Tournament.Status


@transaction.atomic
def register(*, tournament, player: Player, dice_set: DiceSet | None = None, by) -> Registration:
    """Register a player, with a dice set frozen as a snapshot when the event's game needs
    one (IRONDIE; docs/events.md) and without one otherwise. Late entries during Swiss."""
    tournament = locked_tournament(tournament)
    if not player_or_staff(by, player, tournament, staff=can_manage):
        raise PermissionDenied(_("Players register themselves; organisers may register anyone."))
    rules = rules_for(tournament.game)
    if rules.needs_dice_set and dice_set is None:
        raise ValidationError(
            {"dice_set": [_("%(game)s events need a dice set.") % {"game": rules.label}]}
        )
    if not rules.needs_dice_set and dice_set is not None:
        raise ValidationError(
            {
                "dice_set": [
                    _("%(game)s events take no dice set: register without one.")
                    % {"game": rules.label}
                ]
            }
        )
    if dice_set is not None and dice_set.player_id != player.pk:
        raise ValidationError({"dice_set": [_("This dice set belongs to another player.")]})
    if tournament.is_team_event:
        raise ValidationError(_("This is a team event: register a team on its Teams page."))
    late_round = entry_round(tournament, by)
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ValidationError(
            _("%(display_name)s is already registered.") % {"display_name": player.display_name}
        )
    snapshot = (
        freeze_dice_set(dice_set=dice_set)
        if dice_set is not None
        else {"playing": [], "additional": [], "name": None}
    )
    registration = Registration.objects.create(
        tournament=tournament,
        player=player,
        dice_set=dice_set,
        playing_dice=snapshot["playing"],
        additional_dice=snapshot["additional"],
        late_entry_round=late_round,
        checked_in=late_round is not None,
    )
    audit(
        tournament,
        by,
        "registration.created",
        registration,
        after={
            "player": player.display_name,
            "late_entry_round": late_round,
            "set": snapshot["name"],
        },
    )
    return registration


def entry_round(tournament, by) -> int | None:
    """Whether an entry may be made now, and from which round it plays: None before the
    Swiss rounds; during them (organisers only) the first round it can be paired in."""
    if tournament.status == Status.SWISS:
        if not can_manage(by, tournament):
            raise ValidationError(_("Registration is closed; ask the organiser for a late entry."))
        last = tournament.rounds.aggregate(n=Max("number"))["n"] or 0
        open_round = tournament.rounds.filter(number=last, status=Round.Status.DRAFT).exists()
        return last if open_round else last + 1
    if tournament.status not in (Status.REGISTRATION, Status.CHECK_IN):
        raise ValidationError(
            _("Registration is not open (the tournament is “%(value1)s”).")
            % {"value1": tournament.get_status_display()}
        )
    return None


@transaction.atomic
def register_walk_in(
    *,
    tournament,
    by,
    display_name: str,
    set_name: str = "",
    playing_dice=None,
    additional_dice=None,
    user=None,
    country: str = "",
    club: str = "",
) -> Registration:
    """A walk-in at the desk in one step: a new player (with their user account when they
    have one), their dice set when the event's game needs one (validated as every set is:
    players.services) and their registration. Organisers only. All or nothing: any error leaves no player, no set
    and no registration behind."""
    if not can_manage(by, tournament):
        raise PermissionDenied(_("Only the event's organisers register walk-ins."))
    player = create_player(
        display_name=display_name, user=user, country=country, club=club, created_by=by
    )
    dice_set = None
    if rules_for(tournament.game).needs_dice_set:
        dice_set = create_dice_set(
            player=player,
            name=set_name,
            playing_dice=playing_dice or [],
            additional_dice=additional_dice,
        )
    registration = register(tournament=tournament, player=player, dice_set=dice_set, by=by)
    audit(
        tournament,
        by,
        "registration.walk_in",
        registration,
        after={"player": player.display_name, "account": user.get_username() if user else None},
    )
    return registration


def _refuse_for_member(registration: Registration) -> None:
    """A team member other than the captain is never paired on their own: the team checks
    in and drops through its captain's registration (docs/events.md "Team events")."""
    if not registration.pairing_unit:
        raise ValidationError(
            _("%(player)s plays in a team: the team checks in and drops through its captain.")
            % {"player": registration.player.display_name}
        )


@transaction.atomic
def check_in(*, registration: Registration, by, checked_in: bool = True) -> Registration:
    registration = locked_registration(registration)
    tournament = registration.tournament
    if not player_or_staff(by, registration.player, tournament, staff=can_manage):
        raise PermissionDenied(_("Only the player or an organiser may check in."))
    if tournament.status not in (Status.REGISTRATION, Status.CHECK_IN):
        raise ValidationError(_("Check-in is over: the Swiss rounds have started."))
    _refuse_for_member(registration)
    if registration.dropped:
        raise ValidationError(
            _("A dropped player cannot check in; an organiser can reinstate them first.")
        )
    registration.checked_in = checked_in
    registration.save(update_fields=["checked_in"])
    audit(
        tournament,
        by,
        "registration.checked_in" if checked_in else "registration.checked_out",
        registration,
    )
    return registration


# Told of every player who drops, inside the transaction with the registration locked:
# tournaments.pod_online puts them out of their pod table's game in play (it sits above
# the services and registers in TournamentsConfig.ready).
_dropped = []


def on_dropped(listener) -> None:
    """Call ``listener(registration, by)`` when a player drops."""
    if listener not in _dropped:
        _dropped.append(listener)


@transaction.atomic
def drop(*, registration: Registration, by, reason: str = "") -> Registration:
    """A dropped player is never paired again and keeps their standing."""
    registration = locked_registration(registration)
    tournament = registration.tournament
    if not player_or_staff(by, registration.player, tournament):
        raise PermissionDenied(_("Only the player, a judge or an organiser may drop a player."))
    _refuse_for_member(registration)
    if registration.dropped:
        raise ValidationError(
            _("%(display_name)s has already dropped.")
            % {"display_name": registration.player.display_name}
        )
    registration.dropped = True
    registration.dropped_after_round = last_round_number(tournament)
    registration.save(update_fields=["dropped", "dropped_after_round"])
    audit(
        tournament,
        by,
        "registration.dropped",
        registration,
        after={"after_round": registration.dropped_after_round},
        reason=reason,
    )
    for listener in _dropped:
        listener(registration, by)
    return registration


@transaction.atomic
def reinstate(*, registration: Registration, by, reason: str = "") -> Registration:
    registration = locked_registration(registration)
    require_manager(by, registration.tournament)
    if not registration.dropped:
        raise ValidationError(_("This player has not dropped."))
    if registration.disqualified:
        raise ValidationError(_("A disqualified player cannot be reinstated."))
    before = {"dropped_after_round": registration.dropped_after_round}
    registration.dropped = False
    registration.dropped_after_round = None
    registration.save(update_fields=["dropped", "dropped_after_round"])
    audit(
        registration.tournament,
        by,
        "registration.reinstated",
        registration,
        before=before,
        reason=reason,
    )
    return registration
