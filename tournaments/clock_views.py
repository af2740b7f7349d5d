"""Clock pages: the venue's big screen for a round, and the judges' view of every clock.

Their addresses name the round by the tournament and its number, as the pairings do:
/tournaments/{t}/rounds/{n}/clock/ (big screen) and .../clocks/ (judges). Round numbers
run on through the top cut (Swiss 1-5, then the cut's rounds 6, 7, ...), so {t}+{n} names
one round. The first addresses, by the round's id (/tournaments/rounds/{id}/clock/), send
the browser on to these (docs/timing.md)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponsePermanentRedirect
from django.http.response import HttpResponseRedirectBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import clocks, live, pod_day_views
from tournaments.clock_api import round_clocks
from tournaments.forms import ClockExtensionForm, ReasonForm, form_error_text
from tournaments.live import live_page
from tournaments.models import Match, Round, Tournament
from tournaments.permissions import can_judge
from tournaments.visibility import can_see_round, visible_tournaments, with_viewer_plays


class HttpResponsePermanentRedirectSameMethod(HttpResponseRedirectBase):
    """308: the browser repeats the request (a POST stays a POST) at the new address."""

    status_code = 308


def _round(request, pk, number) -> Round:
    tournaments = with_viewer_plays(Tournament.objects, request.user)
    tournament = get_object_or_404(visible_tournaments(request.user, tournaments), pk=pk)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    round_.tournament = tournament
    if not can_see_round(request.user, round_):
        raise Http404
    return round_


def _to_judges(round_):
    return redirect("tournaments:clocks", pk=round_.tournament_id, number=round_.number)


@live_page(scope=live.EVENT)
def big_screen(request, pk, number):
    """Projector view: the round's countdown, big, counting locally from the server's time."""
    round_ = _round(request, pk, number)
    return render(
        request,
        "clocks/big_screen.html",
        {"round": round_, "tournament": round_.tournament, "clocks": round_clocks(round_)},
    )


@live_page()
@login_required
def judges_clocks(request, pk, number):
    round_ = _round(request, pk, number)
    if not can_judge(request.user, round_.tournament):
        raise PermissionDenied
    if round_.tournament.pods:
        return pod_day_views.judges_clocks(request, round_)
    return render(
        request,
        "clocks/judges.html",
        {
            "round": round_,
            "tournament": round_.tournament,
            "clocks": round_clocks(round_),
            "can_judge": True,  # the event's menu (tournaments/_nav.html)
        },
    )


def _run(request, action):
    try:
        action()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Clock updated."))


@login_required
@require_POST
def match_clock_action(request, pk, match_id):
    match = get_object_or_404(
        Match.objects.select_related("round__tournament"), pk=match_id, round__tournament=pk
    )
    if not can_judge(request.user, match.round.tournament):
        raise PermissionDenied
    action = request.POST.get("action")
    form = (ClockExtensionForm if action == "extend" else ReasonForm)(request.POST)
    if not form.is_valid():
        messages.error(request, form_error_text(form))
        return _to_judges(match.round)
    reason = form.cleaned_data["reason"]
    if action == "extend":
        minutes = form.cleaned_data["minutes"]
        _run(
            request,
            lambda: clocks.extend_match(
                match=match, minutes=minutes, reason=reason, by=request.user
            ),
        )
    elif action == "pause":
        _run(request, lambda: clocks.pause_match(match=match, by=request.user, reason=reason))
    elif action == "resume":
        _run(request, lambda: clocks.resume_match(match=match, by=request.user))
    else:
        messages.error(request, _("Unknown clock action."))
    return _to_judges(match.round)


@login_required
@require_POST
def pod_table_clock_action(request, pk, number, table):
    """A judge's control of one pod table's time: an extension."""
    round_ = _round(request, pk, number)
    if not can_judge(request.user, round_.tournament):
        raise PermissionDenied
    if not round_.tournament.pods or request.POST.get("action") != "extend":
        raise Http404
    return pod_day_views.extend_table(request, round_, table)


@login_required
@require_POST
def round_clock_action(request, pk, number, action):
    round_ = _round(request, pk, number)
    if not can_judge(request.user, round_.tournament):
        raise PermissionDenied
    if action == "pause":
        form = ReasonForm(request.POST)
        if not form.is_valid():
            messages.error(request, form_error_text(form))
            return _to_judges(round_)
        reason = form.cleaned_data["reason"]
        _run(request, lambda: clocks.pause_round(round_=round_, by=request.user, reason=reason))
    elif action == "resume":
        _run(request, lambda: clocks.resume_round(round_=round_, by=request.user))
    else:
        raise Http404
    return _to_judges(round_)


# --- the first addresses, by id -------------------------------------------------------


def _moved(request, url):
    """301 for a page (bookmarks, projector tabs), 308 for a form sent from an old page."""
    if request.method in ("GET", "HEAD"):
        return HttpResponsePermanentRedirect(url)
    return HttpResponsePermanentRedirectSameMethod(url)


def old_round_address(request, round_id, page, action=None):
    """/tournaments/rounds/{id}/clock/ and the rest: on to the round's own address, for
    whoever may see the round (anyone else: 404, as the new address answers)."""
    round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=round_id)
    if not can_see_round(request.user, round_):
        raise Http404
    args = [round_.tournament_id, round_.number]
    if action is not None:
        return _moved(request, reverse("tournaments:clock_action", args=[*args, action]))
    return _moved(request, reverse(f"tournaments:{page}", args=args))


def old_match_address(request, match_id):
    match = get_object_or_404(Match.objects.select_related("round__tournament"), pk=match_id)
    if not can_see_round(request.user, match.round):
        raise Http404
    return _moved(
        request, reverse("tournaments:match_clock", args=[match.round.tournament_id, match.pk])
    )
