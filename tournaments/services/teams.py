"""Team events: registering a team, its members' consent, withdrawing it.

A team event (``Tournament.team_size`` 2 or 3, IRONDIE only) takes teams instead of
players. Every member gets a registration of their own, with their own frozen set
(validated as every set is: players.services.freeze_dice_set) and their own swaps; the
captain's registration is the team's pairing unit (``Team.unit``): pairings, matches,
results and standings take it as they take a player in an individual event. The other
members' registrations have ``pairing_unit`` false and are never paired.

Consent (docs/events.md "Team events"): an organiser entering a team vouches for it;
a captain entering their own team names teammates who each accept (or decline, which
withdraws the team) on the team's page. A team that is not accepted by all its members
when the Swiss rounds start is not paired (dropped after round 0), unless an organiser
approved it first.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from players.models import DiceSet, Player
from players.services import freeze_dice_set
from tournaments.audit import audit
from tournaments.models import Registration, Team, Tournament
from tournaments.permissions import can_manage
from tournaments.services.guards import locked_tournament, require_manager
from tournaments.services.registration import entry_round
from tournaments.visibility import is_own_player

Status = Tournament.Status


def _member_label(player: Player) -> str:
    return player.display_name


@transaction.atomic
def register_team(
    *,
    tournament,
    name: str,
    captain: Player,
    members: list[tuple[Player, DiceSet | None]],
    by,
) -> Team:
    """Register a team: ``members`` lists every member (the captain among them) with
    the dice set they play. An organiser's entry is complete at once; a captain's
    waits for each teammate's acceptance (accept_team). All or nothing."""
    tournament = locked_tournament(tournament)
    organiser = can_manage(by, tournament)
    if not (organiser or is_own_player(captain, by)):
        raise PermissionDenied(
            _("A captain registers their own team; organisers may register any team.")
        )
    if not tournament.is_team_event:
        raise ValidationError(_("This is not a team event: players register one by one."))
    late_round = entry_round(tournament, by)
    name = (name or "").strip()
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = [_("Give the team a name.")]
    elif tournament.teams.filter(name__iexact=name).exists():
        errors["name"] = [
            _("A team called “%(name)s” is already registered in this event.") % {"name": name}
        ]
    players = [player for player, _set in members]
    ids = [player.pk for player in players]
    if len(set(ids)) != len(ids):
        errors.setdefault("members", []).append(_("A player is named twice in this team."))
    elif len(ids) != tournament.team_size:
        errors.setdefault("members", []).append(
            _("A team of this event has %(size)s players; this one has %(count)s.")
            % {"size": tournament.team_size, "count": len(ids)}
        )
    if captain.pk not in ids:
        errors.setdefault("captain", []).append(_("The captain must be one of the members."))
    taken = Registration.objects.filter(tournament=tournament, player__in=players).select_related(
        "team", "player"
    )
    for registration in taken:
        team_name = registration.team.name if registration.team_id else ""
        errors.setdefault("members", []).append(
            _("%(player)s is already in team “%(team)s” of this event.")
            % {"player": registration.player.display_name, "team": team_name}
            if team_name
            else _("%(player)s is already registered in this event.")
            % {"player": registration.player.display_name}
        )
    for player, dice_set in members:
        if dice_set is None:
            errors.setdefault("members", []).append(
                _("%(player)s needs a dice set.") % {"player": _member_label(player)}
            )
        elif dice_set.player_id != player.pk:
            errors.setdefault("members", []).append(
                _("The dice set “%(set)s” is not %(player)s's.")
                % {"set": dice_set.name, "player": _member_label(player)}
            )
    if errors:
        raise ValidationError(errors)
    snapshots = []
    for player, dice_set in members:
        try:
            snapshots.append(freeze_dice_set(dice_set=dice_set))
        except ValidationError as error:
            raise ValidationError(
                {
                    "members": [
                        _("The set of %(player)s is not valid: %(errors)s")
                        % {"player": _member_label(player), "errors": " ".join(error.messages)}
                    ]
                }
            ) from None
    registrations = {}
    for (player, dice_set), snapshot in zip(members, snapshots, strict=True):
        is_captain = player.pk == captain.pk
        registrations[player.pk] = Registration.objects.create(
            tournament=tournament,
            player=player,
            dice_set=dice_set,
            playing_dice=snapshot["playing"],
            additional_dice=snapshot["additional"],
            late_entry_round=late_round,
            checked_in=late_round is not None,
            pairing_unit=is_captain,
            team_accepted=organiser or is_captain,
        )
    team = Team.objects.create(tournament=tournament, name=name, unit=registrations[captain.pk])
    Registration.objects.filter(pk__in=[r.pk for r in registrations.values()]).update(team=team)
    audit(
        tournament,
        by,
        "team.created",
        team,
        after={
            "name": name,
            "captain": captain.display_name,
            "members": [p.display_name for p in players],
            "sets": [s["name"] for s in snapshots],
            "late_entry_round": late_round,
            "accepted": organiser,
        },
    )
    return team


def _locked_team(team) -> Team:
    return Team.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=team.pk)


def team_complete(team: Team) -> bool:
    return not team.members.filter(team_accepted=False).exists()


@transaction.atomic
def accept_team(*, registration: Registration, by) -> Registration:
    """A member named by the captain accepts the team (themselves only)."""
    registration = Registration.objects.select_for_update(of=("self",)).get(pk=registration.pk)
    if registration.team_id is None:
        raise ValidationError(_("This registration is not in a team."))
    if not is_own_player(registration.player, by):
        raise PermissionDenied(_("Only the named player accepts a place in a team."))
    if registration.team_accepted:
        raise ValidationError(_("You have already accepted this team."))
    registration.team_accepted = True
    registration.save(update_fields=["team_accepted"])
    audit(registration.tournament, by, "team.accepted", registration.team)
    return registration


@transaction.atomic
def approve_team(*, team: Team, by) -> Team:
    """An organiser approves a team for its members (e.g. consent given at the desk)."""
    team = _locked_team(team)
    require_manager(by, team.tournament)
    waiting = list(team.members.filter(team_accepted=False).select_related("player"))
    if not waiting:
        raise ValidationError(_("Every member has already accepted this team."))
    team.members.filter(team_accepted=False).update(team_accepted=True)
    audit(
        team.tournament,
        by,
        "team.approved",
        team,
        after={"for": [r.player.display_name for r in waiting]},
    )
    return team


@transaction.atomic
def withdraw_team(*, team: Team, by, reason: str = "") -> None:
    """Before the Swiss rounds: the team and its members' registrations go (the sets stay
    frozen). The captain, a member declining, or an organiser. Once paired, a team drops
    instead (its captain's registration: services.drop)."""
    team = _locked_team(team)
    tournament = locked_tournament(team.tournament)
    members = list(team.members.select_related("player"))
    if not (can_manage(by, tournament) or any(is_own_player(r.player, by) for r in members)):
        raise PermissionDenied(_("Only the team's members or an organiser may withdraw it."))
    if tournament.status not in (Status.DRAFT, Status.REGISTRATION, Status.CHECK_IN):
        raise ValidationError(
            _("The Swiss rounds have started: the team drops instead of withdrawing.")
        )
    audit(
        tournament,
        by,
        "team.withdrawn",
        team,
        before={"name": team.name, "members": [r.player.display_name for r in members]},
        reason=reason,
    )
    ids = [r.pk for r in members]
    Registration.objects.filter(pk__in=ids).update(team=None)
    team.delete()
    Registration.objects.filter(pk__in=ids).delete()


def drop_unconfirmed_teams(tournament, by) -> None:
    """When the Swiss rounds start: a team some member has not accepted is not paired."""
    waiting = Registration.objects.filter(
        tournament=tournament, team__isnull=False, team_accepted=False
    ).values("team_id")
    units = Registration.objects.filter(
        tournament=tournament, pairing_unit=True, dropped=False, team__in=waiting
    )
    for registration in units.select_for_update(of=("self",)):
        registration.dropped = True
        registration.dropped_after_round = 0
        registration.save(update_fields=["dropped", "dropped_after_round"])
        audit(
            tournament,
            by,
            "registration.dropped",
            registration,
            reason="team not accepted by all its members",
        )


def unit_id_of(registration: Registration) -> int:
    """The registration that plays a member's matches: the captain's for a team member."""
    if registration.team_id is None:
        return registration.pk
    return Team.objects.values_list("unit_id", flat=True).get(pk=registration.team_id)
