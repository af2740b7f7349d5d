"""Clock pages: the venue's big screen for a round, and the judges' view of every clock."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournaments import clocks
from tournaments.clock_api import round_clocks
from tournaments.forms import ClockExtensionForm, ReasonForm, form_error_text
from tournaments.models import Match, Round
from tournaments.permissions import can_judge
from tournaments.visibility import can_see_round


def _round(request, pk) -> Round:
    round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
    if not can_see_round(request.user, round_):
        raise Http404
    return round_


def big_screen(request, pk):
    """Projector view: the round's countdown, big, counting locally from the server's time."""
    round_ = _round(request, pk)
    return render(
        request,
        "clocks/big_screen.html",
        {"round": round_, "tournament": round_.tournament, "clocks": round_clocks(round_)},
    )


@login_required
def judges_clocks(request, pk):
    round_ = _round(request, pk)
    if not can_judge(request.user, round_.tournament):
        raise PermissionDenied
    return render(
        request,
        "clocks/judges.html",
        {"round": round_, "tournament": round_.tournament, "clocks": round_clocks(round_)},
    )


def _run(request, action):
    try:
        action()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, "Clock updated.")


@login_required
@require_POST
def match_clock_action(request, pk):
    match = get_object_or_404(Match.objects.select_related("round__tournament"), pk=pk)
    if not can_judge(request.user, match.round.tournament):
        raise PermissionDenied
    action = request.POST.get("action")
    form = (ClockExtensionForm if action == "extend" else ReasonForm)(request.POST)
    if not form.is_valid():
        messages.error(request, form_error_text(form))
        return redirect("clocks:judges", pk=match.round_id)
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
        messages.error(request, "Unknown clock action.")
    return redirect("clocks:judges", pk=match.round_id)


@login_required
@require_POST
def round_clock_action(request, pk, action):
    round_ = _round(request, pk)
    if not can_judge(request.user, round_.tournament):
        raise PermissionDenied
    if action == "pause":
        form = ReasonForm(request.POST)
        if not form.is_valid():
            messages.error(request, form_error_text(form))
            return redirect("clocks:judges", pk=round_.pk)
        reason = form.cleaned_data["reason"]
        _run(request, lambda: clocks.pause_round(round_=round_, by=request.user, reason=reason))
    elif action == "resume":
        _run(request, lambda: clocks.resume_round(round_=round_, by=request.user))
    else:
        raise Http404
    return redirect("clocks:judges", pk=round_.pk)
