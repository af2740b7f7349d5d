"""Pages of team events (docs/events.md "Team events"): the teams of an event with the
form that registers one, and a team's page with its members and its matches. Reads go
through the selectors, writes through tournaments/services/teams.py."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from players.models import Player
from tournaments import selectors, services, visibility
from tournaments.forms import TeamForm
from tournaments.models import Tournament
from tournaments.permissions import can_judge, can_manage
from tournaments.views import _form_errors, _roles, _visible_tournament

Status = Tournament.Status
OPEN = (Status.REGISTRATION, Status.CHECK_IN)


def _team_event(request, pk) -> Tournament:
    tournament = _visible_tournament(request, pk)
    if not tournament.is_team_event:
        raise Http404(_("This is not a team event."))
    return tournament


def _form_for(request, tournament, own_team):
    """The register-a-team form the viewer may use (None: none): organisers while
    registration is open and for late entries during Swiss; a player with a profile,
    as the captain, while registration is open."""
    if can_manage(request.user, tournament):
        return TeamForm(request.POST or None, tournament=tournament) if _open(tournament) else None
    if not request.user.is_authenticated or tournament.status not in OPEN:
        return None
    player = Player.objects.filter(user=request.user).first()
    if player is None or own_team is not None:
        return None  # a player in a team already registers no other
    form = TeamForm(request.POST or None, tournament=tournament, player=player)
    if not form.fields["set_1"].queryset.exists():
        return None  # no set of their own to captain with: the page says how to get one
    return form


def _own_team(request, tournament):
    """The team the viewer plays in (None: none, or not signed in)."""
    if not request.user.is_authenticated:
        return None
    return selectors.teams(tournament).filter(members__player__user=request.user).first()


def _open(tournament) -> bool:
    return tournament.status in (*OPEN, Status.SWISS)


def team_list(request, pk):
    tournament = _team_event(request, pk)
    own_team = _own_team(request, tournament)
    form = _form_for(request, tournament, own_team)
    if request.method == "POST":
        if form is None:
            raise PermissionDenied
        if form.is_valid():
            members = form.members()
            try:
                team = services.register_team(
                    tournament=tournament,
                    name=form.cleaned_data["name"],
                    captain=members[0][0],
                    members=members,
                    by=request.user,
                )
            except ValidationError as exc:
                _form_errors(form, exc)
            else:
                messages.success(request, _("Team “%(name)s” registered.") % {"name": team.name})
                return redirect("tournaments:team", pk=tournament.pk, team_id=team.pk)
    context = _roles(request, tournament)
    teams = list(selectors.teams(tournament))
    context.update(
        teams=teams,
        waiting={t for t in teams if any(not m.team_accepted for m in t.members.all())},
        form=form.suggest() if form is not None else None,
        own_team=own_team,
        # A signed-in player, not in a team, who could captain one but has no set.
        no_set=form is None
        and own_team is None
        and tournament.status in OPEN
        and request.user.is_authenticated
        and not can_manage(request.user, tournament)
        and Player.objects.filter(user=request.user).exists(),
    )
    return render(request, "tournaments/teams.html", context)


def team_detail(request, pk, team_id):
    tournament = _team_event(request, pk)
    team = get_object_or_404(selectors.teams(tournament), pk=team_id)
    members = list(team.members.all())
    matches = []
    if visibility.can_see_pairings(request.user, tournament):
        matches = selectors.team_matches(
            team,
            visibility.visible_rounds(request.user, tournament),
            show_results=visibility.can_see_results(request.user, tournament),
        )
    mine = next((m for m in members if visibility.is_own_player(m.player, request.user)), None)
    manager = can_manage(request.user, tournament)
    context = _roles(request, tournament)
    context.update(
        team=team,
        members=members,
        matches=matches,
        complete=all(m.team_accepted for m in members),
        may_accept=mine is not None and not mine.team_accepted,
        may_approve=manager,
        may_withdraw=(manager or mine is not None) and tournament.status in (Status.DRAFT, *OPEN),
        staff=can_judge(request.user, tournament),
    )
    return render(request, "tournaments/team.html", context)


@login_required
@require_POST
def team_action(request, pk, team_id, action):
    tournament = _team_event(request, pk)
    team = get_object_or_404(selectors.teams(tournament), pk=team_id)
    if action == "accept":
        mine = team.members.filter(player__user=request.user).first()
        if mine is None:
            raise PermissionDenied
        call, done = (
            (lambda: services.accept_team(registration=mine, by=request.user)),
            _("You are in team “%(name)s”."),
        )
    elif action == "approve":
        call, done = (
            (lambda: services.approve_team(team=team, by=request.user)),
            _("Team “%(name)s” approved."),
        )
    elif action == "withdraw":
        reason = (request.POST.get("reason") or "")[:300]
        call, done = (
            (lambda: services.withdraw_team(team=team, by=request.user, reason=reason)),
            _("Team “%(name)s” withdrawn."),
        )
    else:
        raise Http404(_("No such action."))
    try:
        call()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("tournaments:team", pk=tournament.pk, team_id=team.pk)
    messages.success(request, done % {"name": team.name})
    if action == "withdraw":
        return redirect("tournaments:teams", pk=tournament.pk)
    return redirect("tournaments:team", pk=tournament.pk, team_id=team.pk)
