"""Tournament pages: thin views over tournaments.services (writes) and
tournaments.selectors (reads). Every list page runs a fixed number of queries."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from config.confirm import ask, is_confirmed
from config.dbtime import db_now
from config.gcpause import gc_paused
from games.models import GameSession
from players.models import Player
from tournaments import (
    clocks,
    csv_exports,
    live,
    online,
    pod_day_views,
    pod_views,
    records,
    selectors,
    services,
    standings_page,
    visibility,
    words,
)
from tournaments import permissions as roles
from tournaments.forms import (
    PenaltyForm,
    ReasonForm,
    RegisterForm,
    RejectForm,
    ResultForm,
    SwapDiceForm,
    SwapPlayersForm,
    TournamentForm,
    WalkInForm,
    form_error_text,
)
from tournaments.games import rules_for
from tournaments.live import live_page
from tournaments.match_rules import max_games
from tournaments.models import (
    AuditEntry,
    Match,
    PairingJob,
    Penalty,
    Registration,
    ResultSubmission,
    Round,
    SetSwap,
    Tournament,
)
from tournaments.permissions import can_judge, can_manage
from tournaments.standings import format_percentage

Status = Tournament.Status


# --- helpers --------------------------------------------------------------------------


def _tournaments(request):
    """The events as the pages read them, each with ``viewer_plays`` for the menu."""
    return visibility.with_viewer_plays(
        Tournament.objects.select_related("organiser__player", "head_judge__player"),
        request.user,
    )


def _tournament(request, pk) -> Tournament:
    return get_object_or_404(_tournaments(request), pk=pk)


def _visible_tournament(request, pk) -> Tournament:
    """The same query as the API's: a hidden event is a 404."""
    return get_object_or_404(
        visibility.visible_tournaments(request.user, _tournaments(request)), pk=pk
    )


def _roles(request, tournament) -> dict:
    return {
        "tournament": tournament,
        "can_manage": can_manage(request.user, tournament),
        "can_judge": can_judge(request.user, tournament),
        "is_owner": roles.is_owner(request.user, tournament),
    }


def _require(allowed: bool):
    if not allowed:
        raise PermissionDenied


def _error_text(exc: ValidationError) -> str:
    return " ".join(exc.messages)


def _form_errors(form, exc: ValidationError, rename: dict | None = None):
    """Put a service's ValidationError on the form: field errors inline when the field
    exists (``rename`` maps a service's field names to the form's), the rest at the top."""
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            field = (rename or {}).get(field, field)
            for error in errors:
                form.add_error(field if field in form.fields else None, error)
    else:
        for error in exc.messages:
            form.add_error(None, error)


def _run(request, action, success: str) -> bool:
    """Call one service; its ValidationError becomes an error message (PermissionDenied
    goes up and becomes a 403)."""
    try:
        action()
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return False
    messages.success(request, success)
    return True


def _my_registration(request, tournament) -> Registration | None:
    if not request.user.is_authenticated:
        return None
    return (
        Registration.objects.filter(tournament=tournament, player__user=request.user)
        .select_related("player", "team")
        .first()
    )


def _round(tournament, number) -> Round:
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    round_.tournament = tournament
    return round_


def _visible_round(request, tournament, number) -> Round:
    round_ = _round(tournament, number)
    _require(visibility.can_see_round(request.user, round_))
    return round_


def _results_visible(request, tournament) -> bool:
    return visibility.can_see_results(request.user, tournament)


def _round_matches(round_):
    return list(
        round_.matches.select_related(
            "player_a__player", "player_a__team", "player_b__player", "player_b__team"
        ).order_by("table", "id")
    )


def staff_post(check):
    """A POST-only action for users who pass ``check(user, tournament)``."""

    def decorator(view):
        @wraps(view)
        @login_required
        @require_POST
        def wrapper(request, pk, *args, **kwargs):
            tournament = _tournament(request, pk)
            _require(check(request.user, tournament))
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorator


def _run_pairing(request, call, result):
    """Pair (or pair again) a round: to the new draft, or to the background job's page
    when the round takes long to pair; None when the service refused (message shown)."""
    try:
        call()
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return None
    paired = result["paired"]
    if isinstance(paired, PairingJob):
        messages.info(
            request,
            _("Round %(n)s takes long to pair: it is being paired in the background.")
            % {"n": paired.number},
        )
        return redirect("tournaments:pairing_job", pk=paired.tournament_id, job_id=paired.pk)
    messages.success(request, _("Round paired as a draft: check it, then publish."))
    return redirect("tournaments:round_manage", pk=paired.tournament_id, number=paired.number)


# How often the page of a running pairing job reloads itself (seconds).
PAIRING_JOB_REFRESH = 2


@login_required
def pairing_job(request, pk, job_id):
    """A round being paired in the background: progress while it runs (the page reloads
    itself), the draft when done, the error when it failed."""
    tournament = _tournament(request, pk)
    _require(visibility.can_see_log(request.user, tournament))
    job = get_object_or_404(PairingJob, tournament=tournament, pk=job_id)
    if job.status == PairingJob.Status.DONE and job.round_id is not None:
        return redirect("tournaments:round_manage", pk=tournament.pk, number=job.number)
    context = _roles(request, tournament)
    context.update(job=job, refresh=PAIRING_JOB_REFRESH if job.active else None)
    return render(request, "tournaments/pairing_job.html", context)


# --- list, home, create, edit ---------------------------------------------------------


def tournament_list(request):
    user = request.user
    tournaments = (
        Tournament.objects.annotate(players=Count("registrations"))
        .filter(visibility.visible_q(user))
        .order_by("-date", "name")
    )
    mine = []
    if user.is_authenticated:
        # "My events": the ones this user organises or judges, with their role in each.
        mine = list(
            Tournament.objects.filter(roles.mine_q(user))
            .prefetch_related("co_organisers", "floor_judges")
            .order_by("-date", "name")[:100]
        )
        for event in mine:
            event.my_role = roles.role_in(user, event)
    return render(
        request, "tournaments/list.html", {"tournaments": tournaments[:200], "mine": mine}
    )


def tournament_home(request, pk):
    tournament = _visible_tournament(request, pk)
    context = _roles(request, tournament)
    # A round of pods has tables, not matches: the column counts them.
    rounds = list(
        visibility.visible_rounds(request.user, tournament)
        .annotate(match_count=Count("pod_tables" if tournament.pods else "matches"))
        .order_by("number")
    )
    registration = _my_registration(request, tournament)
    register_form = None
    if (
        request.user.is_authenticated
        and registration is None
        and tournament.status in (Status.REGISTRATION, Status.CHECK_IN)
        and not tournament.is_team_event  # teams register on the Teams page
    ):
        player = Player.objects.filter(user=request.user).first()
        if player is not None:
            register_form = RegisterForm(tournament=tournament, player=player)
    user = request.user
    can_see_standings = visibility.can_see_standings(user, tournament)
    results = _results_visible(request, tournament)
    placings = selectors.placings(tournament) if can_see_standings and results else None
    context.update(
        rounds=rounds,
        current_round=rounds[-1] if rounds else None,
        registration=registration,
        register_form=register_form,
        player_count=tournament.registrations.filter(dropped=False).count(),
        can_see_pairings=visibility.can_see_pairings(user, tournament),
        can_see_standings=can_see_standings,
        can_see_sets=visibility.can_see_registered_sets(user, tournament),
        can_register_walk_in=context["can_manage"]
        and not tournament.is_team_event
        and tournament.status in (Status.REGISTRATION, Status.CHECK_IN, Status.SWISS),
        can_register_team=tournament.is_team_event
        and request.user.is_authenticated
        and tournament.status in (Status.REGISTRATION, Status.CHECK_IN),
        # The podium of a finished event: places 1-3 (two 3rds when semifinal losers share).
        podium=[p for p in placings if p.place is not None and p.place <= 3] if placings else [],
    )
    return render(request, "tournaments/home.html", context)


@login_required
def tournament_create(request):
    _require(roles.can_create_tournament(request.user))
    form = TournamentForm(request.POST or None, initial={"top_cut_size": 8})
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(organiser=request.user, **form.cleaned_data)
        except ValidationError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, _("Tournament created."))
            return redirect("tournaments:console", pk=tournament.pk)
    return render(request, "tournaments/edit.html", {"form": form, "tournament": None})


@login_required
def tournament_edit(request, pk):
    tournament = _tournament(request, pk)
    _require(can_manage(request.user, tournament))
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        changes = dict(form.cleaned_data)
        judges = list(changes.pop("floor_judges"))
        try:
            services.update_tournament(
                tournament=tournament, by=request.user, floor_judges=judges, **changes
            )
        except ValidationError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, _("Tournament saved."))
            return redirect("tournaments:console", pk=tournament.pk)
    return render(request, "tournaments/edit.html", {"form": form, "tournament": tournament})


# --- organiser's console --------------------------------------------------------------


@login_required
def console(request, pk):
    tournament = _tournament(request, pk)
    _require(can_judge(request.user, tournament))
    context = _roles(request, tournament)
    registrations = list(
        tournament.registrations.select_related("player", "dice_set", "team").order_by(
            "player__display_name", "id"
        )
    )
    if tournament.pods:
        # A round of pods: its tables, open while a seat has no placing (a bye has one).
        counts = {
            "match_count": Count("pod_tables", distinct=True),
            "open_count": Count(
                "pod_tables", filter=Q(pod_tables__seats__placing__isnull=True), distinct=True
            ),
        }
    else:
        counts = {
            "match_count": Count("matches"),
            "open_count": Count("matches", filter=~Q(matches__status=Match.Status.CONFIRMED)),
        }
    rounds = list(tournament.rounds.annotate(**counts).order_by("number"))
    last = rounds[-1] if rounds else None
    job = tournament.pairing_jobs.first()  # the latest
    if job is not None and not (job.active or job.status == PairingJob.Status.FAILED):
        job = None
    if job is not None and job.status == PairingJob.Status.FAILED and last is not None:
        job = job if last.number < job.number else None  # a later pairing succeeded
    context.update(
        pairing_job=job,
        registrations=registrations,
        active_count=sum(not r.dropped for r in registrations),
        checked_in_count=sum(r.checked_in and not r.dropped for r in registrations),
        rounds=rounds,
        last_round=last,
        **_offered_actions(tournament, rounds, job),
        register_form=RegisterForm(tournament=tournament).suggest()
        if tournament.status in (Status.REGISTRATION, Status.CHECK_IN, Status.SWISS)
        and not tournament.is_team_event  # teams register on the Teams page
        else None,
        Status=Status,
        co_organisers=list(tournament.co_organisers.order_by("username")),
        floor_judges=list(tournament.floor_judges.order_by("username")),
    )
    return render(request, "tournaments/console.html", context)


def _offered_actions(tournament, rounds, pairing_job=None) -> dict:
    """Which of the console's event actions the services would allow now (the same
    conditions as services.pair_next_round, start_top_cut and finish_tournament; no
    pairing while a background pairing job is active)."""
    all_closed = all(r.status == Round.Status.CLOSED for r in rounds)
    swiss_closed = sum(
        r.stage == Round.Stage.SWISS and r.status == Round.Status.CLOSED for r in rounds
    )
    next_number = (rounds[-1].number if rounds else 0) + 1
    swiss_done = tournament.status == Status.SWISS and next_number > (tournament.swiss_rounds or 0)
    return {
        "can_pair": all_closed
        and not (pairing_job is not None and pairing_job.active)
        and (
            tournament.status in (Status.REGISTRATION, Status.CHECK_IN)
            or tournament.status == Status.SWISS
            and not swiss_done
        ),
        "next_round_number": next_number,
        "swiss_done": swiss_done and all_closed,
        "can_top_cut": tournament.status == Status.SWISS
        and bool(tournament.top_cut_size)
        and all_closed
        and swiss_closed >= (tournament.swiss_rounds or 0),
        "can_finish": tournament.status in (Status.SWISS, Status.TOP_CUT) and all_closed,
    }


@staff_post(can_manage)
def co_organiser_action(request, tournament, action):
    """The owner adds or removes a co-organiser (by login name); a co-organiser may
    step down. The service decides who may."""
    username = request.POST.get("username", "").strip()
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if action == "add":
        call, message = services.add_co_organiser, _("%(name)s is now a co-organiser.")
    elif action == "remove":
        call, message = services.remove_co_organiser, _("%(name)s is no longer a co-organiser.")
    else:
        raise Http404
    if action == "remove" and user is not None and not is_confirmed(request):
        return _confirm_co_organiser_removal(request, tournament, user)
    done = _run(
        request,
        lambda: call(tournament=tournament, user=user, by=request.user),
        message % {"name": username},
    )
    if done and action == "remove" and user == request.user:
        return redirect("tournaments:list")  # stepped down: a draft is no longer theirs to see
    return redirect("tournaments:console", pk=tournament.pk)


def _confirm_co_organiser_removal(request, tournament, user):
    if user == request.user:
        title = _("Step down from %(event)s?") % {"event": tournament.name}
        consequences = [
            _("You will no longer organise %(event)s.") % {"event": tournament.name},
            _("Only its owner can make you a co-organiser again."),
        ]
        button = _("Step down")
    else:
        name = user.get_username()
        title = _("Remove %(name)s?") % {"name": name}
        consequences = [
            _("%(name)s will no longer organise %(event)s.")
            % {"name": name, "event": tournament.name},
            _("You can add them again later."),
        ]
        button = _("Remove %(name)s") % {"name": name}
    return ask(
        request,
        title=title,
        consequences=consequences,
        button=button,
        cancel_url=reverse("tournaments:console", args=[tournament.pk]),
    )


STATUS_ACTIONS = {
    "open_registration": Status.REGISTRATION,
    "open_check_in": Status.CHECK_IN,
    "back_to_draft": Status.DRAFT,
}


@staff_post(can_manage)
def tournament_action(request, tournament, action):
    user = request.user
    if action in STATUS_ACTIONS:
        to = STATUS_ACTIONS[action]
        _run(
            request,
            lambda: services.change_status(tournament=tournament, to=to, by=user),
            _("Status changed to “%(s)s”.") % {"s": Status(to).label},
        )
    elif action == "pair":
        result = {}

        def pair():
            result["paired"] = services.pair_next_round(tournament=tournament, by=user)

        paired = _run_pairing(request, pair, result)
        if paired is not None:
            return paired
    elif action == "top_cut" and not tournament.top_cut_size:
        # services.start_top_cut raises ValueError (not ValidationError) for a cut of 0.
        messages.error(request, _("This tournament has no top cut: finish it instead."))
    elif action == "top_cut" and not is_confirmed(request):
        return ask(
            request,
            title=_("Start the top cut of %(event)s?") % {"event": tournament.name},
            consequences=[
                _("End the Swiss rounds: no more Swiss rounds can be paired."),
                _(
                    "Seed the top %(n)s players of the standings into a single-elimination "
                    "bracket and pair its first round as a draft."
                )
                % {"n": tournament.top_cut_size},
            ],
            button=_("Start the top cut"),
            cancel_url=reverse("tournaments:console", args=[tournament.pk]),
        )
    elif action == "top_cut":
        _run(
            request,
            lambda: services.start_top_cut(tournament=tournament, by=user),
            _("Top cut started."),
        )
    elif action == "finish" and not is_confirmed(request):
        return ask(
            request,
            title=_("Finish %(event)s?") % {"event": tournament.name},
            consequences=[
                _("Mark the tournament as finished: no more rounds can be paired."),
                _("Make the standings final and show the final placings."),
                _("A finished tournament cannot be reopened."),
            ],
            button=_("Finish the tournament"),
            cancel_url=reverse("tournaments:console", args=[tournament.pk]),
        )
    elif action == "finish":
        _run(
            request,
            lambda: services.finish_tournament(tournament=tournament, by=user),
            _("Tournament finished."),
        )
    else:
        raise Http404
    return redirect("tournaments:console", pk=tournament.pk)


@login_required
@require_POST
def register(request, pk):
    """Organisers register anyone (late entries during Swiss); players themselves."""
    tournament = _tournament(request, pk)
    manager = can_manage(request.user, tournament)
    player = None if manager else Player.objects.filter(user=request.user).first()
    _require(manager or player is not None)
    form = RegisterForm(request.POST, tournament=tournament, player=player)
    if form.is_valid():
        dice_set = form.cleaned_data.get("dice_set")
        entrant = dice_set.player if dice_set else form.cleaned_data.get("player") or player
        _run(
            request,
            lambda: services.register(
                tournament=tournament, player=entrant, dice_set=dice_set, by=request.user
            ),
            _("%(name)s registered.") % {"name": entrant.display_name},
        )
    else:
        messages.error(request, form_error_text(form))
    if manager:
        return redirect("tournaments:console", pk=tournament.pk)
    return redirect("tournaments:home", pk=tournament.pk)


# Service error fields -> the walk-in form's fields (the rest go at the top of the form).
# The service names the account "user"; the form's field is "username".
WALK_IN_FIELDS = {"user": "username"}


@login_required
def walk_in(request, pk):
    """The desk: a walk-in player, their set and their registration in one form."""
    tournament = _tournament(request, pk)
    _require(can_manage(request.user, tournament))
    needs_dice_set = rules_for(tournament.game).needs_dice_set
    form = WalkInForm(request.POST or None, needs_dice_set=needs_dice_set)
    is_open = tournament.status in (Status.REGISTRATION, Status.CHECK_IN, Status.SWISS)
    if request.method == "POST" and not is_open:
        form.is_valid()
        form.add_error(None, _("Registration is not open."))
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            registration = services.register_walk_in(
                tournament=tournament,
                by=request.user,
                display_name=data["display_name"],
                user=data["username"],
                country=data["country"],
                club=data["club"],
                set_name=data.get("name", ""),
                playing_dice=data.get("playing_dice"),
                additional_dice=data.get("additional_dice"),
            )
        except ValidationError as exc:
            _form_errors(form, exc, rename=WALK_IN_FIELDS)
        else:
            message = _("%(name)s registered.") % {"name": registration.player.display_name}
            if registration.late_entry_round:
                message += " " + _("Late entry from round %(n)s.") % {
                    "n": registration.late_entry_round
                }
            messages.success(request, message)
            return redirect("tournaments:walk_in", pk=tournament.pk)
    context = _roles(request, tournament)
    context.update(form=form, is_open=is_open, needs_dice_set=needs_dice_set)
    return render(request, "tournaments/walk_in.html", context)


@login_required
@require_POST
def registration_action(request, pk, registration_id, action):
    tournament = _tournament(request, pk)
    registration = get_object_or_404(
        Registration.objects.select_related("player", "tournament"),
        pk=registration_id,
        tournament=tournament,
    )
    registration.tournament = tournament
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error_text(form))
        return _after_registration_action(request, tournament)
    user, reason = request.user, form.cleaned_data["reason"]
    name = registration.player.display_name
    if action == "drop" and not registration.dropped and not is_confirmed(request):
        # Who may drop is asked first: nobody else is shown the confirmation.
        _require(visibility.player_or_staff(user, registration.player, tournament))
        return _confirm_drop(request, tournament, registration)
    actions = {
        "check_in": (
            lambda: services.check_in(registration=registration, by=user),
            _("%(name)s checked in."),
        ),
        "check_out": (
            lambda: services.check_in(registration=registration, by=user, checked_in=False),
            _("%(name)s is no longer checked in."),
        ),
        "drop": (
            lambda: services.drop(registration=registration, by=user, reason=reason),
            _("%(name)s dropped."),
        ),
        "reinstate": (
            lambda: services.reinstate(registration=registration, by=user, reason=reason),
            _("%(name)s reinstated."),
        ),
    }
    if action not in actions:
        raise Http404
    call, message = actions[action]
    _run(request, call, message % {"name": name})
    return _after_registration_action(request, tournament)


def _confirm_drop(request, tournament, registration):
    event = tournament.name
    if visibility.is_own_player(registration.player, request.user):
        title = _("Drop from %(event)s?") % {"event": event}
        consequences = [
            _("Take you out of %(event)s: you will not be paired in any later round.")
            % {"event": event},
            _("Keep your results so far in the standings."),
            _("Only an organiser can put you back in."),
        ]
        button = _("Drop from the tournament")
    else:
        name = registration.player.display_name
        title = _("Drop %(name)s?") % {"name": name}
        consequences = [
            _("%(name)s will not be paired in any later round.") % {"name": name},
            _("Their results so far stay in the standings."),
            _("An organiser can reinstate them later."),
        ]
        button = _("Drop %(name)s") % {"name": name}
    back = "tournaments:console" if can_judge(request.user, tournament) else "tournaments:home"
    return ask(
        request,
        title=title,
        consequences=consequences,
        button=button,
        cancel_url=reverse(back, args=[tournament.pk]),
    )


def _after_registration_action(request, tournament):
    if can_judge(request.user, tournament):
        return redirect("tournaments:console", pk=tournament.pk)
    return redirect("tournaments:home", pk=tournament.pk)


# --- rounds: draft, publish, start, close ---------------------------------------------


def _seated(round_) -> list:
    """The registrations seated at a pod round's tables, table by table (one query)."""
    seats = round_.pod_seats.select_related("registration__player").order_by(
        "table__number", "seat"
    )
    return [seat.registration for seat in seats]


@login_required
def round_manage(request, pk, number, swap_form=None):
    tournament = _tournament(request, pk)
    _require(can_judge(request.user, tournament))
    round_ = _round(tournament, number)
    if tournament.pods:
        context = _roles(request, tournament)
        if swap_form is None and round_.status == Round.Status.DRAFT:
            swap_form = SwapPlayersForm(registrations=_seated(round_))
        context["swap_form"] = swap_form
        return pod_views.round_manage(request, tournament, round_, context)
    matches = _round_matches(round_)
    points = selectors.points_at_pairing(tournament, round_.number)
    registrations = [r for m in matches for r in (m.player_a, m.player_b) if r is not None]
    if swap_form is None and round_.status == Round.Status.DRAFT:
        swap_form = SwapPlayersForm(registrations=registrations)
    context = _roles(request, tournament)
    context.update(
        round=round_,
        rows=[
            {
                "match": m,
                "points_a": points.get(m.player_a_id, 0),
                "points_b": points.get(m.player_b_id, 0) if m.player_b_id else None,
                "score": selectors.match_score(m),
            }
            for m in matches
        ],
        swap_form=swap_form,
        # What services.close_round allows: a round under way whose every match has a
        # confirmed result.
        can_close=round_.status
        in (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS, Round.Status.COMPLETE)
        and all(m.status == Match.Status.CONFIRMED for m in matches),
    )
    return render(request, "tournaments/round_manage.html", context)


@staff_post(can_judge)
def round_placings(request, tournament, number):
    """Judges and organisers: one pod table's placings from the round's page."""
    return pod_views.record_placings(request, tournament, _round(tournament, number))


@staff_post(can_judge)
def pod_report_accept(request, tournament, number, report_id):
    """Judges: accept a pod table's open report as it stands (from the queue)."""
    return pod_day_views.accept_report(request, tournament, number, report_id)


@staff_post(can_manage)
def round_action(request, tournament, number, action):
    round_ = _round(tournament, number)
    user = request.user
    if action == "swap":
        if tournament.pods:
            registrations = _seated(round_)
        else:
            matches = _round_matches(round_)
            registrations = [r for m in matches for r in (m.player_a, m.player_b) if r is not None]
        form = SwapPlayersForm(request.POST, registrations=registrations)
        if form.is_valid():
            try:
                services.swap_players_in_draft(
                    round_=round_,
                    first=form.cleaned_data["first"],
                    second=form.cleaned_data["second"],
                    by=user,
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as exc:
                _form_errors(form, exc)
            else:
                messages.success(request, _("Players swapped."))
                return redirect("tournaments:round_manage", pk=tournament.pk, number=number)
        return round_manage(request, tournament.pk, number, swap_form=form)
    actions = {
        "publish": (
            lambda: services.publish_round(round_=round_, by=user),
            _("Pairings published."),
        ),
        "start": (lambda: services.start_round(round_=round_, by=user), _("Round started.")),
        "close": (lambda: services.close_round(round_=round_, by=user), _("Round closed.")),
        "repair": (
            lambda: services.repair_round(round_=round_, by=user),
            _("Round paired again."),
        ),
    }
    if action not in actions:
        raise Http404
    if not is_confirmed(request):
        return _confirm_round_action(request, tournament, round_, action)
    call, message = actions[action]
    if action == "repair":
        result = {}

        def repair():
            result["paired"] = call()

        paired = _run_pairing(request, repair, result)
        return paired or redirect("tournaments:round_manage", pk=tournament.pk, number=number)
    ok = _run(request, call, message)
    if ok and action == "close":
        return redirect("tournaments:console", pk=tournament.pk)
    return redirect("tournaments:round_manage", pk=tournament.pk, number=number)


def _confirm_round_action(request, tournament, round_, action):
    n = {"n": round_.number}
    if action == "publish":
        title = _("Publish the pairings of round %(n)s?") % n
        consequences = [
            _("Show the pairings of round %(n)s to the players.") % n,
            _("Fix them: a published round cannot be paired again."),
        ]
        # A pod bye is a table of one, already placed when the round was seated.
        if not tournament.pods:
            consequences.append(
                _("Record the bye, if there is one, as a %(won)s-0 win.")
                % {"won": tournament.games_to_win}
            )
        button = _("Publish pairings")
    elif action == "repair":
        title = _("Pair round %(n)s again?") % n
        consequences = [
            _("Throw away the draft pairings of round %(n)s, with every change made by hand.") % n,
            _("Pair the round again with a new seed."),
        ]
        button = _("Pair again")
    elif action == "start":
        title = _("Start round %(n)s?") % n
        if tournament.pods:
            consequences = [
                _("Start the clock of round %(n)s: %(m)s minutes for every table.")
                % {**n, "m": tournament.match_minutes}
            ]
            if tournament.pods_online:
                consequences.append(_("Open an online game for every table of two or more."))
        else:
            consequences = [
                _("Start the clock of every match of round %(n)s: %(m)s minutes a match.")
                % {**n, "m": tournament.match_minutes}
            ]
        consequences.append(_("A started round cannot be stopped; judges can pause its clocks."))
        button = _("Start the round")
    else:
        title = _("Close round %(n)s?") % n
        consequences = [
            _("Close round %(n)s: a closed round cannot be reopened.") % n,
            _("Its results count in the standings and the next pairing."),
        ]
        if round_.stage == Round.Stage.TOP_CUT:
            consequences.append(
                _("Pair the next round of the bracket, or finish the event after the final.")
            )
        button = _("Close the round")
    return ask(
        request,
        title=title,
        consequences=consequences,
        button=button,
        cancel_url=reverse("tournaments:round_manage", args=[tournament.pk, round_.number]),
    )


# --- public pages ---------------------------------------------------------------------


SEARCH_MAX = 80


def _search_text(*registrations) -> str:
    """What the pairings search looks in (lower case: the page's script compares it with
    what is typed, lowered the same way)."""
    return " | ".join(r.entry_name.lower() for r in registrations if r is not None)


def _opponent_of(user, match, unit_id=None):
    if match is None:
        return None
    if unit_id == match.player_a_id or (
        visibility.own_registration_id(user, match) == match.player_a_id
    ):
        return match.player_b
    return match.player_a


def _my_team_unit_id(request, tournament) -> int | None:
    """In a team event, the pairing unit (the captain's registration) of the viewer's
    team: every member's table is their team's. None elsewhere (no query)."""
    if not tournament.is_team_event or not request.user.is_authenticated:
        return None
    return (
        Registration.objects.filter(
            tournament=tournament, player__user=request.user, team__isnull=False
        )
        .values_list("team__unit_id", flat=True)
        .first()
    )


@live_page()
def pairings(request, pk, number):
    """A round's pairings, phone first: search by name (as you type, or ?q= without
    script), the viewer's own table highlighted and first, the round clock, and each
    player's points when the round was paired. A fixed number of queries."""
    tournament = _visible_tournament(request, pk)
    round_ = _visible_round(request, tournament, number)
    if tournament.pods:
        context = _roles(request, tournament)
        context["search_max"] = SEARCH_MAX
        return pod_views.pairings(request, tournament, round_, context)
    matches = _round_matches(round_)
    points = selectors.points_at_pairing(tournament, round_.number)
    show_results = _results_visible(request, tournament)
    sort = request.GET.get("sort", "table")
    query = request.GET.get("q", "").strip()[:SEARCH_MAX]
    unit_id = _my_team_unit_id(request, tournament)
    mine = next(
        (
            m
            for m in matches
            if visibility.own_registration_id(request.user, m) is not None
            or (unit_id is not None and unit_id in (m.player_a_id, m.player_b_id))
        ),
        None,
    )
    if sort == "name":
        rows = []
        for m in matches:
            for me, opp, side in ((m.player_a, m.player_b, "a"), (m.player_b, m.player_a, "b")):
                if me is None:
                    continue
                rows.append(
                    {
                        "name": me.entry_name,
                        "points": points.get(me.pk, 0),
                        "table": m.table,
                        "opponent": opp.entry_name if opp else None,
                        "opponent_points": points.get(opp.pk, 0) if opp else None,
                        "side": side,
                        "match": m,
                        "search": _search_text(me),
                        "mine": m is mine,
                    }
                )
        rows.sort(key=lambda r: (r["name"].casefold(), r["table"] or 0))
    else:
        sort = "table"
        rows = [
            {
                "match": m,
                "points_a": points.get(m.player_a_id, 0),
                "points_b": points.get(m.player_b_id, 0) if m.player_b_id else None,
                "score": selectors.match_score(m) if show_results else "",
                "search": _search_text(m.player_a, m.player_b),
                "mine": m is mine,
            }
            for m in matches
        ]
    if query:
        wanted = query.lower()
        rows = [r for r in rows if wanted in r["search"]]
    rows.sort(key=lambda r: not r["mine"])  # stable: the viewer's own table first
    clock = clocks.round_clock(round_, db_now())
    context = _roles(request, tournament)
    context.update(
        round=round_,
        rows=rows,
        sort=sort,
        show_results=show_results,
        query=query,
        mine=mine,
        my_opponent=_opponent_of(request.user, mine, unit_id),
        clock=clock,
        timer=round_.status == Round.Status.IN_PROGRESS and clock["state"] != "not_started",
        search_max=SEARCH_MAX,
    )
    context["not_advanced"] = selectors.not_advanced_names(tournament, round_)
    return render(request, "tournaments/pairings.html", context)


def _requested_round(request, tournament, played: list[int] | None = None) -> int | None:
    try:
        return selectors.requested_round(tournament, request.GET.get("round"), played)
    except ValueError as error:
        raise BadRequest(str(error)) from None


@live_page()
@gc_paused
def standings(request, pk):
    tournament = _visible_tournament(request, pk)
    _require(visibility.can_see_standings(request.user, tournament))
    # One read of the rounds for the selector, the closed count and the standings.
    rounds = selectors.swiss_rounds(tournament)
    played = [number for _, number, _ in rounds]
    as_of_round = _requested_round(request, tournament, played)
    if tournament.pods:
        return pod_views.standings(
            request, tournament, _roles(request, tournament), as_of_round, played
        )
    table = selectors.standings(tournament, as_of_round=as_of_round, rounds=rounds)
    context = _roles(request, tournament)
    context["rows"] = standings_page.rows_html(
        table,
        row_url=reverse("tournaments:standings", args=[tournament.pk]),
        query=_round_query(as_of_round),
    )
    context["tiebreak_columns"] = [words.tiebreak_label(name) for name in table.other_tiebreakers]
    context["rounds_closed"] = sum(status == Round.Status.CLOSED for _, _, status in rounds)
    context["as_of_round"] = as_of_round
    context["swiss_rounds"] = played
    # Final placings above the Swiss table once the event is finished (not on an earlier
    # round's table); they name the champion, so they need the results to be visible too.
    if as_of_round is None and _results_visible(request, tournament):
        context["placings"] = selectors.placings(tournament, table=table)
    return render(request, "tournaments/standings.html", context)


def _round_query(as_of_round: int | None) -> str:
    return f"?round={as_of_round}" if as_of_round is not None else ""


@gc_paused
def standings_row(request, pk, registration):
    """One row of the standings with its arithmetic: where the table's rows link to (and
    what their script shows in place when a row opens). Seen by those who see the table."""
    tournament = _visible_tournament(request, pk)
    _require(visibility.can_see_standings(request.user, tournament))
    as_of_round = _requested_round(request, tournament)
    if tournament.pods:
        # Pod standings have no per-row arithmetic of match and game wins: the table
        # itself is the place (an address of pairs' rows, shared or typed, lands there).
        return redirect(
            reverse("tournaments:standings", args=[tournament.pk]) + _round_query(as_of_round)
        )
    table = selectors.standings(tournament, as_of_round=as_of_round)
    try:
        explanation = table.explain(registration)
    except KeyError:
        raise Http404("No such player in these standings.") from None
    places = table.conventions.decimals - 2
    row = explanation.row
    context = _roles(request, tournament)
    context.update(
        row=row,
        percent={
            "omw": format_percentage(row.opponents_match_win, places),
            "gwp": format_percentage(row.game_win, places),
            "ogw": format_percentage(row.opponents_game_win, places),
        },
        lines=words.explanation_lines(explanation, places),
        as_of_round=as_of_round,
        table_url=reverse("tournaments:standings", args=[tournament.pk])
        + _round_query(as_of_round),
    )
    return render(request, "tournaments/standings_row.html", context)


@gc_paused
def standings_csv(request, pk):
    tournament = _visible_tournament(request, pk)
    _require(visibility.can_see_standings(request.user, tournament))
    as_of_round = _requested_round(request, tournament)
    if tournament.pods:
        return pod_views.standings_csv(tournament, as_of_round)
    return csv_exports.standings_csv(
        tournament, selectors.standings(tournament, as_of_round=as_of_round)
    )


def placings_csv(request, pk):
    tournament = _visible_tournament(request, pk)
    _require(
        visibility.can_see_standings(request.user, tournament)
        and _results_visible(request, tournament)
    )
    placings = selectors.placings(tournament)
    if placings is None:
        raise Http404(_("Final placings are shown once the event is finished."))
    return csv_exports.placings_csv(tournament, placings)


def pairings_csv(request, pk, number):
    tournament = _visible_tournament(request, pk)
    round_ = _visible_round(request, tournament, number)
    show_results = _results_visible(request, tournament)
    if tournament.pods:
        return csv_exports.pod_pairings_csv(tournament, round_, show_results=show_results)
    return csv_exports.pairings_csv(
        tournament, round_, _round_matches(round_), show_results=show_results
    )


def print_pairings(request, pk, number):
    """Paper pairings boards: everyone by name, with table and opponent."""
    tournament = _visible_tournament(request, pk)
    round_ = _visible_round(request, tournament, number)
    if tournament.pods:
        # The tables page prints as the board (its search and links are not printed).
        context = _roles(request, tournament)
        context["search_max"] = SEARCH_MAX
        return pod_views.pairings(request, tournament, round_, context)
    matches = _round_matches(round_)
    points = selectors.points_at_pairing(tournament, round_.number)
    rows = []
    for m in matches:
        for me, opp in ((m.player_a, m.player_b), (m.player_b, m.player_a)):
            if me is not None:
                rows.append(
                    {
                        "name": me.entry_name,
                        "points": points.get(me.pk, 0),
                        "table": m.table,
                        "opponent": opp.entry_name if opp else None,
                    }
                )
    rows.sort(key=lambda r: r["name"].casefold())
    context = _roles(request, tournament)
    context.update(round=round_, rows=rows)
    return render(request, "tournaments/print_pairings.html", context)


@login_required
def match_slips(request, pk, number):
    tournament = _tournament(request, pk)
    _require(can_judge(request.user, tournament))
    round_ = _round(tournament, number)
    if tournament.pods:
        return pod_day_views.slips(request, tournament, round_, _roles(request, tournament))
    matches = [m for m in _round_matches(round_) if not m.is_bye]
    context = _roles(request, tournament)
    games = range(1, max_games(tournament.games_to_win) + 1)
    context.update(round=round_, matches=matches, games=games)
    return render(request, "tournaments/slips.html", context)


def dice_sets(request, pk):
    """The registered sets (set reveal): public once the Swiss rounds start."""
    tournament = _visible_tournament(request, pk)
    _require(visibility.can_see_registered_sets(request.user, tournament))
    if not tournament.needs_dice_set:
        raise Http404("This event's game has no dice sets.")
    registrations = tournament.registrations.select_related("player", "dice_set").order_by(
        "player__display_name", "id"
    )
    if tournament.is_team_event:
        # Each set under its team (captain first); a team drops through its captain.
        registrations = registrations.select_related("team__unit").order_by(
            "team__name", "team_id", "-pairing_unit", "player__display_name", "id"
        )
    context = _roles(request, tournament)
    context["registrations"] = registrations
    return render(request, "tournaments/sets.html", context)


@live_page()
def bracket(request, pk):
    tournament = _visible_tournament(request, pk)
    _require(visibility.can_see_pairings(request.user, tournament))
    context = _roles(request, tournament)
    # The same answer as GET /api/tournaments/{id}/bracket/.
    answer = selectors.bracket_view(tournament, show_winners=_results_visible(request, tournament))
    seeds = {slot["registration"]: slot["name"] for slot in answer.get("seeds", [])}
    rounds = answer["rounds"]
    champion = seeds.get(answer.get("champion"))
    context.update(rounds=rounds, champion=champion)
    return render(request, "tournaments/bracket.html", context)


# --- judges: results, disputes, history, penalties, audit -----------------------------


@live_page()
@login_required
def results_queue(request, pk):
    """Time called without a result first, then disputed, reported, pending; confirmed last."""
    tournament = _tournament(request, pk)
    _require(visibility.can_see_log(request.user, tournament))
    rounds = list(tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number"))
    round_ = None
    if rounds:
        wanted = request.GET.get("round")
        round_ = next((r for r in rounds if str(r.number) == wanted), rounds[-1])
    if tournament.pods:
        context = _roles(request, tournament)
        return pod_day_views.results_queue(request, tournament, context, rounds, round_)
    matches = []
    if round_ is not None:
        matches = sorted(
            round_.matches.select_related(
                "player_a__player", "player_a__team", "player_b__player", "player_b__team"
            ),
            key=selectors.judges_queue_key,
        )
    context = _roles(request, tournament)
    context.update(
        rounds=rounds,
        round=round_,
        rows=[{"match": m, "score": selectors.match_score(m)} for m in matches],
        open_count=sum(m.status != Match.Status.CONFIRMED for m in matches),
    )
    return render(request, "tournaments/results_queue.html", context)


def _match(tournament, match_id) -> Match:
    return get_object_or_404(
        Match.objects.select_related(
            "round", "player_a__player", "player_a__team", "player_b__player", "player_b__team"
        ),
        pk=match_id,
        round__tournament=tournament,
    )


def _history(match):
    return list(
        match.submissions.select_related(
            "submitted_by__player", "confirmed_by__player", "submitted_for__player"
        ).order_by("-number")
    )


def _game_rows(match):
    return list(match.games.order_by("number"))


@login_required
def match_detail(request, pk, match_id):
    """A judge's result entry (confirmed at once, corrects a confirmed result) and the
    full history of the match: every version, the games, the swaps, the penalties."""
    tournament = _tournament(request, pk)
    _require(can_judge(request.user, tournament))
    match = _match(tournament, match_id)
    match.round.tournament = tournament
    form = None
    if not match.is_bye:
        form = ResultForm(request.POST or None, match=match)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                services.report_result(
                    match=match,
                    by=request.user,
                    games=data["games"],
                    intentional_draw=data["intentional_draw"],
                    conceded_by=data["conceded_by"],
                    note=data["note"],
                    expected_version=data["expected_version"],
                )
            except ValidationError as exc:
                _form_errors(form, exc)
            else:
                messages.success(request, _("Result confirmed."))
                return redirect("tournaments:results", pk=tournament.pk)
    swaps = list(
        SetSwap.objects.filter(match=match)
        .select_related("registration__player", "recorded_by__player")
        .order_by("before_game", "created_at")
    )
    context = _roles(request, tournament)
    context.update(
        match=match,
        form=form,
        history=_history(match),
        games=_game_rows(match),
        swaps=swaps,
        penalties=list(match.penalties.select_related("registration__player", "judge__player")),
        score=selectors.match_score(match),
    )
    return render(request, "tournaments/match_detail.html", context)


@login_required
def penalties(request, pk):
    tournament = _tournament(request, pk)
    _require(visibility.can_see_log(request.user, tournament))
    form = PenaltyForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid() and not is_confirmed(request):
        return _confirm_penalty(request, tournament, form.cleaned_data)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.give_penalty(
                registration=data["registration"],
                kind=data["kind"],
                reason=data["reason"],
                match=data.get("match"),  # an event in pods has no match to name
                by=request.user,
            )
        except ValidationError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, _("Penalty recorded."))
            return redirect("tournaments:penalties", pk=tournament.pk)
    given = Penalty.objects.filter(registration__tournament=tournament).select_related(
        "registration__player", "judge__player", "match__round"
    )
    context = _roles(request, tournament)
    context.update(form=form, penalties=given)
    return render(request, "tournaments/penalties.html", context)


PENALTY_EFFECTS = {
    Penalty.Kind.WARNING: gettext_lazy("Record a warning; it changes no result."),
    Penalty.Kind.GAME_LOSS: gettext_lazy(
        "Count a game of the match as won by the opponent; a confirmed result is decided "
        "again with it."
    ),
    Penalty.Kind.MATCH_LOSS: gettext_lazy("Make them lose the match."),
    Penalty.Kind.DISQUALIFICATION: gettext_lazy(
        "Disqualify them: they lose the match being played, are dropped from the event "
        "and can never be reinstated."
    ),
}


# An event in pods has no match to lose: a disqualification only drops the player.
POD_PENALTY_EFFECTS = {
    Penalty.Kind.DISQUALIFICATION: gettext_lazy(
        "Disqualify them: they are dropped from the event and can never be reinstated."
    ),
}


def _confirm_penalty(request, tournament, data):
    name = data["registration"].player.display_name
    kind = Penalty.Kind(data["kind"])
    match = data.get("match")
    effect = POD_PENALTY_EFFECTS.get(kind) if tournament.pods else None
    consequences = [
        _("Give %(name)s a penalty: %(kind)s.") % {"name": name, "kind": kind.label},
        str(effect or PENALTY_EFFECTS[kind]),
    ]
    if match is not None:
        consequences.append(
            _("It applies to round %(r)s, table %(t)s.")
            % {"r": match.round.number, "t": match.table or "—"}
        )
    consequences.append(_("A penalty stays on the record and in the audit log."))
    return ask(
        request,
        title=_("Give %(name)s a %(kind)s?") % {"name": name, "kind": kind.label.lower()},
        consequences=consequences,
        button=_("Record penalty"),
        cancel_url=reverse("tournaments:penalties", args=[tournament.pk]),
    )


@login_required
def audit_log(request, pk):
    tournament = _tournament(request, pk)
    _require(visibility.can_see_log(request.user, tournament))
    entries = AuditEntry.objects.filter(tournament=tournament).select_related("actor__player")
    action = request.GET.get("action", "").strip()
    if action:
        entries = entries.filter(action__startswith=action)
    page = Paginator(entries, 100).get_page(request.GET.get("page"))
    context = _roles(request, tournament)
    context.update(
        page=page,
        rows=words.audit_rows(page.object_list, request.user),
        action=action,
        groups=words.audit_groups(action),
    )
    return render(request, "tournaments/audit.html", context)


# --- player's "my match" --------------------------------------------------------------


@live_page(scope=None)
@login_required
def my_table(request, pk):
    """A player's table in an event in pods ("My table"): the same page as "My match",
    whose address serves it too; an event of pairs has matches, so it goes there."""
    tournament = _visible_tournament(request, pk)
    if not tournament.pods:
        return redirect("tournaments:my_match", pk=tournament.pk)
    return _my_page(request, tournament)


@live_page(scope=None)
@login_required
def my_match(request, pk):
    """A player's match this round (in an event in pods: their table, as "My table")."""
    return _my_page(request, _visible_tournament(request, pk))


def _my_page(request, tournament):
    registration = _my_registration(request, tournament)
    if registration is None:
        messages.error(request, _("You are not registered in this tournament."))
        return redirect("tournaments:home", pk=tournament.pk)
    registration.tournament = tournament
    if tournament.pods:
        # The event's rounds, not one match (pod tables write PodTable entries).
        request.live_scope = live.EVENT
        return pod_day_views.my_table(
            request, tournament, registration, _roles(request, tournament)
        )
    # A team member plays their team's matches (the captain's registration's); they
    # swap their own dice, the captain reports (docs/events.md "Team events").
    unit_id = registration.team.unit_id if registration.team_id else registration.pk
    match = selectors.current_match(
        tournament.pk,
        unit_id,
        queryset=Match.objects.select_related(
            "round", "player_a__player", "player_a__team", "player_b__player", "player_b__team"
        ),
    )
    request.live_scope = live.match_scope(match)
    context = _roles(request, tournament)
    context.update(
        registration=registration,
        match=match,
        unit_id=unit_id,
        reports=registration.pairing_unit,
        team=registration.team,
    )
    playing, additional = selectors.current_sets(registration)
    swap_form = SwapDiceForm(playing=playing, additional=additional)
    context.update(playing=playing, additional=additional)
    if match is not None:
        match.round.tournament = tournament
        side = match.side_of(unit_id)
        opponent = match.player_b if side == "a" else match.player_a
        report_form = None
        reject_form = None
        if request.method == "POST":
            result = _my_match_post(request, match, registration, playing, additional)
            if not isinstance(result, dict):
                return result
            report_form = result.get("report_form")
            reject_form = result.get("reject_form")
            swap_form = result.get("swap_form", swap_form)
        history = _history(match)
        pending = next((s for s in history if s.status == ResultSubmission.Status.PENDING), None)
        opponent_swaps = []
        if opponent is not None:
            # As a player, even one who also judges the event: the opponent's secret
            # swaps stay secret here.
            # A team's opponents: every member's swaps (each plays their own set).
            theirs = (
                Q(registration__team=opponent.team_id)
                if opponent.team_id
                else Q(registration=opponent)
            )
            opponent_swaps = [
                s
                for s in SetSwap.objects.filter(theirs, match=match, superseded=False).order_by(
                    "before_game", "registration_id"
                )
                if visibility.swap_revealed(s, match)
            ]
        online_game = (
            GameSession.objects.filter(match_game__match=match)
            .exclude(status=GameSession.Status.CANCELLED)
            .order_by("-match_game__number")
            .first()
        )
        context.update(
            online_game=online_game,
            online_game_open=online_game is not None
            and online_game.status in ("waiting", "active", "paused"),
            clock=clocks.match_clock(match, db_now()),
            side=side,
            opponent=opponent,
            history=history,
            pending=pending,
            pending_mine=pending is not None and pending.submitted_for_id == unit_id,
            report_form=report_form or ResultForm(match=match),
            reject_form=reject_form or RejectForm(),
            next_game=match.next_game,
            next_game_exists=match.next_game <= max_games(tournament.games_to_win),
            ready_sides=match.ready_sides(),
            opponent_swaps=opponent_swaps,
            score=selectors.match_score(match),
            open=not match.is_bye and match.status != Match.Status.CONFIRMED,
        )
    context.update(
        swap_form=swap_form,
        my_swaps=list(
            SetSwap.objects.filter(registration=registration)
            .select_related("match__round")
            .order_by("match__round__number", "before_game", "created_at")
        ),
    )
    return render(request, "tournaments/my_match.html", context)


def _my_match_post(request, match, registration, playing, additional):
    user = request.user
    action = request.POST.get("action")
    here = redirect("tournaments:my_match", pk=registration.tournament_id)
    try:
        if action == "report":
            form = ResultForm(request.POST, match=match)
            if not form.is_valid():
                return {"report_form": form}
            data = form.cleaned_data
            try:
                services.report_result(
                    match=match,
                    by=user,
                    games=data["games"],
                    intentional_draw=data["intentional_draw"],
                    conceded_by=data["conceded_by"],
                    note=data["note"],
                    expected_version=data["expected_version"],
                )
            except ValidationError as exc:
                _form_errors(form, exc)
                return {"report_form": form}
            messages.success(request, _("Result reported."))
        elif action in ("confirm", "reject"):
            submission = get_object_or_404(
                ResultSubmission, pk=request.POST.get("submission"), match=match
            )
            if action == "confirm":
                services.confirm_result(submission=submission, by=user)
                messages.success(request, _("Result confirmed."))
            else:
                form = RejectForm(request.POST)
                if not form.is_valid():
                    return {"reject_form": form}
                services.reject_result(
                    submission=submission, by=user, note=form.cleaned_data["note"]
                )
                messages.success(request, _("Result disputed: a judge will come to your table."))
        elif action == "play_online":
            session = online.open_match(match=match, by=user)
            return redirect("games:play", pk=session.pk)
        elif action == "start_game":
            number = int(request.POST.get("number") or 0)
            # After time only: the games played so far, e.g. "a b" (docs/rules.md).
            said = request.POST.get("games_so_far")
            games_so_far = said.replace(",", " ").split() if said is not None else None
            match = services.start_game(
                match=match, number=number, by=user, games_so_far=games_so_far
            )
            if match.current_game == number and match.current_game_started_at is not None:
                messages.success(request, _("Game %(n)s started.") % {"n": number})
            else:
                messages.success(
                    request,
                    _("Noted: game %(n)s starts when your opponent says so too.") % {"n": number},
                )
        elif action == "swap":
            form = SwapDiceForm(request.POST, playing=playing, additional=additional)
            if not form.is_valid():
                return {"swap_form": form}
            try:
                services.record_swap(
                    registration=registration,
                    match=match,
                    swap_out=sorted(form.cleaned_data["swap_out"]),
                    swap_in=sorted(form.cleaned_data["swap_in"]),
                    by=user,
                )
            except ValidationError as exc:
                _form_errors(form, exc)
                return {"swap_form": form}
            messages.success(request, _("Swap recorded. It stays secret until the game starts."))
        else:
            raise Http404
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    except ValueError:
        messages.error(request, _("That request was not understood."))
    return here


# --- a player's record across events --------------------------------------------------


def player_page(request, pk):
    """A player's rating, rating history and past events (players are public; what the
    viewer may see of each event is asked of tournaments/visibility.py)."""
    player = get_object_or_404(Player, pk=pk)
    record = records.player_record(player, request.user)
    return render(request, "tournaments/player.html", {"record": record, "player": player})
