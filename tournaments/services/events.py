"""An event's lifecycle: creation, settings, co-organisers and status changes."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.audit import audit
from tournaments.conventions import CONVENTION_FIELDS, with_preset
from tournaments.games import DEFAULT_GAME, FORMAT_SETTINGS, GAMES, with_game_defaults
from tournaments.models import (
    POD_LATE_ENTRY_REFUSED,
    Round,
    Tournament,
)
from tournaments.permissions import (
    can_create_tournament,
    forget_roles,
)
from tournaments.services.guards import locked_tournament, require_manager, require_owner
from tournaments.services.phases import apply_phase_cut, check_phase_change
from tournaments.standings import tiebreaker_order_errors

Status = Tournament.Status


@transaction.atomic
def create_tournament(*, organiser, name: str, date, **options) -> Tournament:
    """``organiser`` creates the event and becomes its owner."""
    if not can_create_tournament(organiser):
        raise PermissionDenied(_("Only organisers may create tournaments."))
    floor_judges = options.pop("floor_judges", None)
    options = with_preset(options)
    _check_game(options.get("game", DEFAULT_GAME))
    options = with_game_defaults(options, options.get("game") or DEFAULT_GAME)
    if "tiebreakers" in options:
        _check_tiebreakers(options["tiebreakers"])
    options = _with_pod_late_entry(options, pods=options.get("pods", False))
    tournament = Tournament(organiser=organiser, name=(name or "").strip(), date=date, **options)
    tournament.full_clean()
    tournament.save()
    if floor_judges:
        tournament.floor_judges.set(floor_judges)
    audit(tournament, organiser, "tournament.created", tournament, after={"name": tournament.name})
    return tournament


EDITABLE_SETTINGS = (
    "name",
    "date",
    "venue",
    "game",
    "games_to_win",
    "team_size",
    "head_judge",
    "swiss_rounds",
    "top_cut_size",
    "match_minutes",
    "game_minutes",
    "late_entry",
    "bracket_losers",
    "round_one_seeding",
    "pods",
    "pod_mode",
    "pods_online",
    *CONVENTION_FIELDS,
    "tiebreakers",
    "publish_pairings",
    "publish_standings",
    "publish_results",
)


@transaction.atomic
def update_tournament(*, tournament, by, floor_judges=None, **changes) -> Tournament:
    """Change a tournament's settings (and its floor judges), with the rules of when."""
    tournament = locked_tournament(tournament)
    require_manager(by, tournament)
    changes = with_preset(changes)
    unknown = set(changes) - set(EDITABLE_SETTINGS)
    if unknown:
        raise ValidationError(
            _("These settings cannot be changed: %(value1)s.")
            % {"value1": ", ".join(sorted(unknown))}
        )
    played = tournament.rounds.filter(stage=Round.Stage.SWISS).count()
    changes = _game_changes(tournament, changes)
    if (
        "swiss_rounds" in changes
        and changes["swiss_rounds"] is not None
        and changes["swiss_rounds"] < played  # below 1: the model's bounds say so
    ):
        raise ValidationError(
            {
                "swiss_rounds": [
                    _("%(played)s Swiss rounds are already paired; choose at least that many.")
                    % {"played": played}
                ]
            }
        )
    if (
        changes.get("team_size", tournament.team_size) != tournament.team_size
        and tournament.registrations.exists()
    ):
        raise ValidationError(
            {"team_size": [_("Entries have registered: individual or team can no longer change.")]}
        )
    if "top_cut_size" in changes and tournament.status in (Status.TOP_CUT, Status.FINISHED):
        raise ValidationError({"top_cut_size": [_("The top cut has already started.")]})
    if "tiebreakers" in changes:
        _check_tiebreakers(changes["tiebreakers"])
    phases_changed = (
        "swiss_phases" in changes and changes["swiss_phases"] != tournament.swiss_phases
    )
    if phases_changed:
        check_phase_change(tournament, changes["swiss_phases"])
    if (
        changes.get("round_one_seeding", tournament.round_one_seeding)
        != tournament.round_one_seeding
        and played
    ):
        raise ValidationError(
            {
                "round_one_seeding": [
                    _("Round 1 is already paired; its seeding can no longer change.")
                ]
            }
        )
    for field in ("pods", "pod_mode"):
        if field in changes and changes[field] != getattr(tournament, field) and played:
            raise ValidationError(
                {field: [_("A round is paired: play in pods or in pairs can no longer change.")]}
            )
    changes = _with_pod_late_entry(
        changes,
        pods=changes.get("pods", tournament.pods),
        current=tournament.late_entry,
    )
    before = {field: _plain(getattr(tournament, field)) for field in changes}
    for field, value in changes.items():
        setattr(tournament, field, value)
    tournament.full_clean()
    tournament.save()
    after = {field: _plain(getattr(tournament, field)) for field in changes}
    if floor_judges is not None:
        before["floor_judges"] = sorted(tournament.floor_judges.values_list("id", flat=True))
        tournament.floor_judges.set(floor_judges)
        forget_roles(tournament)
        after["floor_judges"] = sorted(u.pk for u in floor_judges)
    audit(tournament, by, "tournament.updated", tournament, before=before, after=after)
    last = tournament.rounds.filter(stage=Round.Stage.SWISS).order_by("-number").first()
    if phases_changed and last is not None and last.status == Round.Status.CLOSED:
        # The last round is closed and the next not paired: the cut after it follows
        # the new setting now (it is computed again when the next round is paired).
        apply_phase_cut(tournament, after_round=last.number, by=by, always_log=False)
    return tournament


def _with_pod_late_entry(settings: dict, *, pods: bool, current=None) -> dict:
    """Pod standings count a round a late entry missed as not played, whatever the rule: an
    event in pods stores the rule it follows, whether made by the form, the API or code, and
    another rule given is refused in words rather than stored to be ignored."""
    followed = Tournament.POD_LATE_ENTRY
    if not pods:
        return settings
    if settings.get("late_entry", followed) != followed:
        raise ValidationError({"late_entry": [POD_LATE_ENTRY_REFUSED]})
    if current == followed:
        return settings
    return {**settings, "late_entry": followed}


def _check_game(game) -> None:
    if game not in GAMES:
        raise ValidationError(
            {"game": [f"No hosted game is called “{game}”; choose one of {', '.join(GAMES)}."]}
        )


def _game_changes(tournament, changes: dict) -> dict:
    """The game is fixed once anyone has registered or a round exists, the match format
    once a round exists. A new game brings its defaults for every format setting not
    given with it; a format setting given as None takes the game's default."""
    game = changes.get("game", tournament.game)
    if "game" in changes and game != tournament.game:
        _check_game(game)
        if tournament.registrations.exists() or tournament.rounds.exists():
            raise ValidationError(
                {"game": ["Players have registered: the event's game can no longer change."]}
            )
        return with_game_defaults(changes, game)
    changes = {**changes}
    changes.pop("game", None)
    given = {key: changes[key] for key in FORMAT_SETTINGS if key in changes}
    changes.update(with_game_defaults(given, game))
    for key in FORMAT_SETTINGS:
        if key not in given:
            changes.pop(key, None)
    if (
        changes.get("games_to_win", tournament.games_to_win) != tournament.games_to_win
        and tournament.rounds.exists()
    ):
        raise ValidationError(
            {"games_to_win": ["A round is paired: the match format can no longer change."]}
        )
    return changes


def _check_tiebreakers(order) -> None:
    if errors := tiebreaker_order_errors(order):
        raise ValidationError({"tiebreakers": errors})


def _plain(value):
    if hasattr(value, "pk"):
        return value.pk
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _co_organiser_ids(tournament) -> list[int]:
    return sorted(tournament.co_organisers.values_list("id", flat=True))


@transaction.atomic
def add_co_organiser(*, tournament, user, by) -> Tournament:
    """The owner makes ``user`` a co-organiser: they manage this event (not others)."""
    tournament = locked_tournament(tournament)
    require_owner(by, tournament)
    if user is None or not user.is_active:
        raise ValidationError({"username": [_("No active user by that name.")]})
    if user.pk == tournament.organiser_id:
        raise ValidationError({"username": [_("The owner already organises this event.")]})
    before = _co_organiser_ids(tournament)
    if user.pk in before:
        raise ValidationError(
            {
                "username": [
                    _("%(value1)s is already a co-organiser.") % {"value1": user.get_username()}
                ]
            }
        )
    tournament.co_organisers.add(user)
    forget_roles(tournament)
    audit(
        tournament,
        by,
        "tournament.co_organisers",
        tournament,
        before={"co_organisers": before},
        after={"co_organisers": sorted([*before, user.pk])},
    )
    return tournament


@transaction.atomic
def remove_co_organiser(*, tournament, user, by) -> Tournament:
    """The owner removes a co-organiser, or a co-organiser steps down."""
    tournament = locked_tournament(tournament)
    before = _co_organiser_ids(tournament)
    member = user is not None and user.pk in before
    if not (member and by is not None and user.pk == by.pk):
        require_owner(by, tournament)
    if not member:
        raise ValidationError({"username": [_("This user is not a co-organiser of this event.")]})
    tournament.co_organisers.remove(user)
    forget_roles(tournament)
    audit(
        tournament,
        by,
        "tournament.co_organisers",
        tournament,
        before={"co_organisers": before},
        after={"co_organisers": [pk for pk in before if pk != user.pk]},
    )
    return tournament


_STATUS_FLOW = {
    Status.DRAFT: {Status.REGISTRATION},
    Status.REGISTRATION: {Status.CHECK_IN, Status.DRAFT},
    Status.CHECK_IN: {Status.REGISTRATION},
}


@transaction.atomic
def change_status(*, tournament, to: str, by) -> Tournament:
    """Draft <-> registration <-> check-in. Swiss, top cut and finished follow from pairing."""
    tournament = locked_tournament(tournament)
    require_manager(by, tournament)
    allowed = _STATUS_FLOW.get(tournament.status, set())
    if to not in allowed:
        raise ValidationError(
            _("A tournament in “%(value1)s” cannot move to “%(label)s”.")
            % {"value1": tournament.get_status_display(), "label": Status(to).label}
        )
    before = tournament.status
    tournament.status = to
    tournament.save(update_fields=["status"])
    audit(
        tournament,
        by,
        "tournament.status",
        tournament,
        before={"status": before},
        after={"status": to},
    )
    return tournament
