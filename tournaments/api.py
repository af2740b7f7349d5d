"""REST API for tournaments. Views are thin: reads go through the selectors and
prefetching querysets, every write through tournaments/services/, which checks the
roles again and raises ValidationError (400) or PermissionDenied (403).

Who sees what:
- organisers and judges of a tournament see everything (drafts, audit, queue, swaps);
- the two players of a match see that match, its result history and their own swaps;
- everyone else (the public) sees pairings, standings and results only while the
  tournament's publish switches are on, and never a swap that is still secret.
"""

from django.contrib.auth import get_user_model
from django.db.models import Count, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response

from config.dbtime import db_now
from config.gcpause import gc_paused
from config.params import int_param
from players.models import Player
from tournaments import (
    csv_exports,
    pod_online,
    pod_selectors,
    records,
    selectors,
    services,
    visibility,
)
from tournaments import permissions as roles
from tournaments import serializers as s
from tournaments.models import (
    AuditEntry,
    Match,
    PairingJob,
    Penalty,
    PodReport,
    PodSeat,
    PodTable,
    Registration,
    ResultSubmission,
    Round,
    SetSwap,
    Team,
    Tournament,
)
from tournaments.permissions import can_judge

User = get_user_model()

PAIRINGS_HIDDEN = "The organiser has not made the pairings public."


def _round_parameter(request) -> str | None:
    """``?round=``, given at most once (a repeated one is a 400, never the last one read)."""
    values = request.query_params.getlist("round")
    if len(values) > 1:
        raise ValidationError({"round": [_("Give the round only once.")]})
    return values[0] if values else None


STANDINGS_HIDDEN = "The organiser has not made the standings public."
PLACINGS_HIDDEN = "The organiser has not made the standings and results public."
PLACINGS_NOT_FINAL = "Final placings are shown once the event is finished."
STANDINGS_ROUND_PARAMETER = OpenApiParameter(
    "round",
    int,
    description=gettext_lazy("The standings as they stood after this Swiss round; default: now"),
)
STANDINGS_EXPLAIN_PARAMETER = OpenApiParameter(
    "explain",
    bool,
    description=gettext_lazy(
        "1: every row carries its `explanation` (the arithmetic behind it; costly "
        "for a large event: ask one row's at standings/{registration}/ instead); default: none"
    ),
)
RESULTS_HIDDEN = "The organiser has not made the results public."
NOT_PODS = "This event is paired two-player: it has no pod tables."

SIDE_RELATED = ("player_a__player", "player_a__team", "player_b__player", "player_b__team")


def _matches_queryset():
    return Match.objects.select_related(*SIDE_RELATED).order_by("table", "id")


def _own_registration_id(request, tournament) -> int | None:
    """The viewer's registration in this tournament (one query, cached per request)."""
    user = request.user
    if not user.is_authenticated:
        return None
    cache = request.__dict__.setdefault("_own_registrations", {})
    if tournament.pk not in cache:
        cache[tournament.pk] = (
            Registration.objects.filter(tournament=tournament, player__user=user)
            .values_list("pk", flat=True)
            .first()
        )
    return cache[tournament.pk]


def _require_log_access(request, tournament):
    if not visibility.can_see_log(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's judges and organisers may see this."))


def _flag(value) -> bool:
    return (value or "").lower() in ("1", "true", "yes")


def _explain_asked(request) -> bool:
    """``?explain=1`` (or true/yes); 0, false, no or nothing: no; anything else is a 400."""
    raw = (request.query_params.get("explain") or "").lower()
    if raw in ("", "0", "false", "no"):
        return False
    if raw in ("1", "true", "yes"):
        return True
    raise ValidationError({"explain": ["explain must be 1 (each row's arithmetic) or 0."]})


def _player_count():
    """The players still in, as a subquery: a join with the registrations grouped by
    tournament makes PostgreSQL expect millions of rows for an event of thousands of
    players, and compile the query (JIT) for seconds before running it in milliseconds."""
    players = (
        Registration.objects.filter(tournament=OuterRef("pk"), dropped=False)
        .order_by()
        .values("tournament")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(players), 0)


def _visible_rounds(request, tournament):
    rounds = visibility.visible_rounds(request.user, tournament)
    return rounds.prefetch_related(Prefetch("matches", queryset=_matches_queryset()))


# --- tournaments ----------------------------------------------------------------------


class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    http_method_names = ["get", "post", "patch", "head", "options"]
    """Tournaments. Drafts are seen by their own organisers and judges only."""

    serializer_class = s.TournamentSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        user = self.request.user
        queryset = (
            Tournament.objects.select_related("organiser__player", "head_judge__player")
            .prefetch_related(
                Prefetch(
                    "floor_judges", queryset=get_user_model().objects.select_related("player")
                ),
                Prefetch(
                    "co_organisers", queryset=get_user_model().objects.select_related("player")
                ),
            )
            .annotate(player_count=_player_count())
            .order_by("-date", "name", "id")
            .filter(visibility.visible_q(user))
        )
        if self.action == "list" and _flag(self.request.query_params.get("mine")):
            queryset = queryset.filter(roles.mine_q(user))
        return queryset

    def tournament(self) -> Tournament:
        return self.get_object()

    @extend_schema(request=s.TournamentSerializer, responses={201: s.TournamentSerializer})
    def create(self, request, *args, **kwargs):
        """Organisers create a tournament (in draft)."""
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        if "floor_judge_ids" in data:
            data["floor_judges"] = data.pop("floor_judge_ids")
        tournament = services.create_tournament(
            organiser=request.user, name=data.pop("name"), date=data.pop("date"), **data
        )
        tournament = self.get_queryset().get(pk=tournament.pk)
        return Response(self.get_serializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.TournamentSerializer, responses=s.TournamentSerializer)
    def partial_update(self, request, *args, **kwargs):
        """Organisers change settings, release switches and judges (logged)."""
        tournament = self.get_object()
        serializer = self.get_serializer(tournament, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        judges = data.pop("floor_judge_ids", None)
        services.update_tournament(
            tournament=tournament, by=request.user, floor_judges=judges, **data
        )
        return self._answer(tournament)

    # lifecycle -------------------------------------------------------------------------

    def _answer(self, tournament):
        return Response(self.get_serializer(self.get_queryset().get(pk=tournament.pk)).data)

    @extend_schema(request=s.StatusChangeSerializer, responses=s.TournamentSerializer)
    @action(detail=True, methods=["post"])
    def status(self, request, pk=None):
        """Organisers: draft <-> registration <-> check-in."""
        data = _valid(s.StatusChangeSerializer, request)
        return self._answer(
            services.change_status(tournament=self.tournament(), to=data["status"], by=request.user)
        )

    @extend_schema(
        request=s.SeedSerializer, responses={201: s.RoundSerializer, 202: s.PairingJobSerializer}
    )
    @action(detail=True, methods=["post"])
    def pair(self, request, pk=None):
        """Organisers: pair the next Swiss round as a draft (the first starts the Swiss).
        A round that would take long to pair is paired in the background: 202 with the
        job, whose status_url (also the Location header) tells when the round is there."""
        data = _valid(s.SeedSerializer, request)
        paired = services.pair_next_round(
            tournament=self.tournament(), by=request.user, seed=data.get("seed") or None
        )
        return _paired_answer(paired, request)

    @extend_schema(request=None, responses=s.PairingJobSerializer)
    @action(
        detail=True,
        methods=["get"],
        url_path=r"pairing-jobs/(?P<job_id>[0-9]+)",
        url_name="pairing-job",
    )
    def pairing_job(self, request, pk=None, job_id=None):
        """Judges and organisers: a round being paired in the background (poll it)."""
        tournament = self.tournament()
        _require_log_access(request, tournament)
        job = PairingJob.objects.filter(tournament=tournament, pk=job_id).first()
        if job is None:
            raise Http404("No such pairing job in this tournament.")
        return Response(s.PairingJobSerializer(job, context={"request": request}).data)

    @extend_schema(request=None, responses={201: s.RoundSerializer, 200: s.TournamentSerializer})
    @action(detail=True, methods=["post"], url_path="top-cut")
    def top_cut(self, request, pk=None):
        """Organisers: seed the top cut from the final standings and pair its first round."""
        tournament = self.tournament()
        if tournament.top_cut_size == 0:
            # services.start_top_cut passes 0 to effective_cut_size, which rejects it
            # (ValueError); an event without a top cut simply finishes.
            return self._answer(services.finish_tournament(tournament=tournament, by=request.user))
        result = services.start_top_cut(tournament=tournament, by=request.user)
        if isinstance(result, Tournament):  # no top cut: the tournament is finished
            return self._answer(result)
        return Response(_round_answer(result, request), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=s.TournamentSerializer)
    @action(detail=True, methods=["post"])
    def finish(self, request, pk=None):
        """Organisers: finish the tournament once every round is closed."""
        return self._answer(
            services.finish_tournament(tournament=self.tournament(), by=request.user)
        )

    # co-organisers ---------------------------------------------------------------------

    def _team_change(self, request, change):
        tournament = self.tournament()
        data = _valid(s.CoOrganiserSerializer, request)
        # Looked up here, judged by the service: an unknown name is a 400 for the owner
        # only (everyone else gets the 403 first, so names cannot be probed).
        user = User.objects.filter(username=data["username"], is_active=True).first()
        tournament = change(tournament=tournament, user=user, by=request.user)
        if not self.get_queryset().filter(pk=tournament.pk).exists():
            # A co-organiser stepped down from a draft, which they no longer see.
            return Response(status=status.HTTP_204_NO_CONTENT)
        return self._answer(tournament)

    @extend_schema(request=s.CoOrganiserSerializer, responses=s.TournamentSerializer)
    @action(detail=True, methods=["post"], url_path="co-organisers")
    def co_organisers(self, request, pk=None):
        """The owner adds a co-organiser: they manage this event (and no other)."""
        return self._team_change(request, services.add_co_organiser)

    @extend_schema(request=s.CoOrganiserSerializer, responses=s.TournamentSerializer)
    @action(detail=True, methods=["post"], url_path="co-organisers/remove")
    def remove_co_organiser(self, request, pk=None):
        """The owner removes a co-organiser; a co-organiser may remove themselves (204 when
        the event is a draft they then no longer see)."""
        return self._team_change(request, services.remove_co_organiser)

    # registrations ---------------------------------------------------------------------

    @extend_schema(methods=["get"], responses=s.RegistrationSerializer(many=True), request=None)
    @extend_schema(
        methods=["post"], request=s.RegisterSerializer, responses={201: s.RegistrationSerializer}
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def registrations(self, request, pk=None):
        """GET: everyone registered with the registered sets (the set reveal; never the
        swaps made since). POST: a player registers with one of their dice sets;
        organisers may register any player."""
        tournament = self.tournament()
        if request.method == "GET":
            if not visibility.can_see_registered_sets(request.user, tournament):
                raise PermissionDenied(
                    _("The registered sets are public once the Swiss rounds start.")
                )
            queryset = tournament.registrations.select_related("player").order_by(
                "player__display_name", "id"
            )
            return Response(s.RegistrationSerializer(queryset, many=True).data)
        data = _valid(s.RegisterSerializer, request)
        player = data.get("player")
        if player is None:
            player = Player.objects.filter(user=request.user).first()
            if player is None:
                raise ValidationError(
                    {"player": [_("Create your player profile first, or say which player.")]}
                )
        registration = services.register(
            tournament=tournament, player=player, dice_set=data.get("dice_set"), by=request.user
        )
        registration = Registration.objects.select_related("player").get(pk=registration.pk)
        return Response(s.RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)

    # teams (team events: docs/events.md "Team events") -----------------------------------

    @extend_schema(methods=["get"], responses=s.TeamSerializer(many=True), request=None)
    @extend_schema(
        methods=["post"], request=s.RegisterTeamSerializer, responses={201: s.TeamSerializer}
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def teams(self, request, pk=None):
        """GET: the teams and their members (no sets: those are the registrations' reveal).
        POST: a captain registers their team (each teammate then accepts it), or an
        organiser registers any team (complete at once)."""
        tournament = self.tournament()
        if request.method == "GET":
            return Response(s.TeamSerializer(selectors.teams(tournament), many=True).data)
        data = _valid(s.RegisterTeamSerializer, request)
        captain = data.get("captain")
        if captain is None:
            captain = Player.objects.filter(user=request.user).first()
            if captain is None:
                raise ValidationError(
                    {"captain": [_("Create your player profile first, or say who the captain is.")]}
                )
        team = services.register_team(
            tournament=tournament,
            name=data["name"],
            captain=captain,
            members=[(m["player"], m["dice_set"]) for m in data["members"]],
            by=request.user,
        )
        team = selectors.teams(tournament).get(pk=team.pk)
        return Response(s.TeamSerializer(team).data, status=status.HTTP_201_CREATED)

    # rounds, standings, bracket --------------------------------------------------------

    @extend_schema(request=None, responses=s.RoundListSerializer)
    @action(detail=True, methods=["get"])
    def rounds(self, request, pk=None):
        """Rounds with their matches. The public sees published rounds while pairings are
        public (results only while results are public); judges see drafts too."""
        tournament = self.tournament()
        staff = can_judge(request.user, tournament)
        if not visibility.can_see_pairings(request.user, tournament):
            answer = {"published": False, "detail": PAIRINGS_HIDDEN, "results": []}
            return Response(s.RoundListSerializer(answer).data)
        show_results = visibility.can_see_results(request.user, tournament)
        rounds = _visible_rounds(request, tournament)
        answer = {
            "published": True,
            "detail": None if show_results else RESULTS_HIDDEN,
            "results": rounds,
        }
        context = {"show_results": show_results, "staff": staff, "now": db_now()}
        return Response(s.RoundListSerializer(answer, context=context).data)

    @extend_schema(request=None, responses=s.MatchSerializer)
    @action(detail=True, methods=["get"], url_path="my-match")
    def my_match(self, request, pk=None):
        """The signed-in player's latest published match (opponent, table, result)."""
        tournament = self.tournament()
        own = _own_registration_id(request, tournament)
        if own is None:
            raise Http404(_("You are not registered in this tournament."))
        own = selectors.playing_unit_id(tournament, own)  # a team member: the team's match
        match = selectors.current_match(tournament.pk, own, queryset=_matches_queryset())
        if match is None:
            raise Http404(_("You have no published match yet."))
        return Response(s.MatchSerializer(match, context={"show_results": True}).data)

    def _standings(self, request):
        tournament = self.tournament()
        if not visibility.can_see_standings(request.user, tournament):
            return tournament, None
        try:
            as_of_round = selectors.requested_round(tournament, _round_parameter(request))
        except ValueError as error:
            raise ValidationError({"round": [str(error)]}) from None
        return tournament, selectors.standings(tournament, as_of_round=as_of_round)

    @extend_schema(
        request=None,
        parameters=[STANDINGS_ROUND_PARAMETER, STANDINGS_EXPLAIN_PARAMETER],
        responses=s.StandingsSerializer,
    )
    @action(detail=True, methods=["get"])
    @gc_paused
    def standings(self, request, pk=None):
        """Swiss standings: rank, points, record, MWP/GWP/OMW/OGW as exact fractions and
        rounded percentages; each row's arithmetic with `?explain=1`, or one row's at
        standings/{registration}/."""
        explain = _explain_asked(request)
        tournament, table = self._standings(request)
        answer = {
            "published": table is not None,
            "detail": STANDINGS_HIDDEN if table is None else None,
            "standings": table,
        }
        return Response(s.StandingsSerializer(answer, context={"explain": explain}).data)

    @extend_schema(
        request=None,
        parameters=[
            OpenApiParameter(
                "registration",
                int,
                OpenApiParameter.PATH,
                description=gettext_lazy("The player's registration in this tournament."),
            ),
            STANDINGS_ROUND_PARAMETER,
        ],
        responses=s.ExplainedStandingsRowSerializer,
        operation_id="tournaments_standings_row_retrieve",
    )
    @action(detail=True, methods=["get"], url_path=r"standings/(?P<registration>[0-9]+)")
    @gc_paused
    def standings_row(self, request, pk=None, registration=None):
        """One player's row of the standings with its arithmetic (`explanation`): what the
        standings page shows when a row is opened. Hidden standings are a 404."""
        _, table = self._standings(request)
        if table is None:
            raise Http404(STANDINGS_HIDDEN)
        try:
            row = table.row(int(registration))
        except (KeyError, ValueError):
            raise Http404("No such registration in this tournament.") from None
        return Response(s.ExplainedStandingsRowSerializer(row, context={"standings": table}).data)

    @extend_schema(
        request=None,
        parameters=[STANDINGS_ROUND_PARAMETER],
        responses={(200, "text/csv"): OpenApiTypes.STR},
    )
    @action(detail=True, methods=["get"], url_path="standings/csv")
    @gc_paused
    def standings_csv(self, request, pk=None):
        """The standings as CSV (organisers and judges; the public while published)."""
        tournament, table = self._standings(request)
        if table is None:
            raise Http404(STANDINGS_HIDDEN)
        return csv_exports.standings_csv(tournament, table)

    def _pod_standings(self, request):
        tournament = self.tournament()
        answer = {
            "pods": tournament.pods,
            "published": True,
            "detail": None,
            "as_of_round": None,
            "rows": [],
        }
        if not visibility.can_see_standings(request.user, tournament):
            answer.update(published=False, detail=STANDINGS_HIDDEN)
            return tournament, answer
        try:  # a wrong ?round= is a 400 whatever the event (as the two-player standings)
            as_of_round = selectors.requested_round(tournament, _round_parameter(request))
        except ValueError as error:
            raise ValidationError({"round": [str(error)]}) from None
        if not tournament.pods:
            answer["detail"] = NOT_PODS
            return tournament, answer
        rows = selectors.pod_standings_rows(tournament, as_of_round=as_of_round)
        answer.update(as_of_round=as_of_round, rows=rows)
        return tournament, answer

    @extend_schema(
        request=None, parameters=[STANDINGS_ROUND_PARAMETER], responses=s.PodStandingsSerializer
    )
    @action(detail=True, methods=["get"], url_path="pod-standings")
    def pod_standings(self, request, pk=None):
        """The standings of an event in pods: pod points by placing, then opponents'
        placing %, own placing %, opponents' opponents' placing % (exact fractions)."""
        _, answer = self._pod_standings(request)
        return Response(s.PodStandingsSerializer(answer).data)

    @extend_schema(
        request=None,
        parameters=[STANDINGS_ROUND_PARAMETER],
        responses={(200, "text/csv"): OpenApiTypes.STR},
    )
    @action(detail=True, methods=["get"], url_path="pod-standings/csv")
    def pod_standings_csv(self, request, pk=None):
        """The pod standings as CSV (organisers and judges; the public while published)."""
        tournament, answer = self._pod_standings(request)
        if not answer["pods"]:
            raise Http404(NOT_PODS)
        if not answer["published"]:
            raise Http404(STANDINGS_HIDDEN)
        return csv_exports.pod_standings_csv(tournament, answer["rows"], answer["as_of_round"])

    @extend_schema(
        request=None,
        parameters=[
            OpenApiParameter(
                "round", int, description=gettext_lazy("Round number; default: latest")
            )
        ],
        responses={(200, "text/csv"): OpenApiTypes.STR},
    )
    @action(detail=True, methods=["get"], url_path="pairings/csv")
    def pairings_csv(self, request, pk=None):
        """One round's pairings as CSV (organisers and judges; the public while published)."""
        tournament = self.tournament()
        if not visibility.can_see_pairings(request.user, tournament):
            raise Http404(PAIRINGS_HIDDEN)
        rounds = visibility.visible_rounds(request.user, tournament)
        number = int_param(request.query_params, "round", min_value=1)
        if number is not None:
            round_ = rounds.filter(number=number).first()
        else:
            round_ = rounds.order_by("-number").first()
        if round_ is None:
            raise Http404(_("No such round."))
        show_results = visibility.can_see_results(request.user, tournament)
        if tournament.pods:
            return csv_exports.pod_pairings_csv(tournament, round_, show_results=show_results)
        return csv_exports.pairings_csv(
            tournament, round_, _matches_queryset().filter(round=round_), show_results=show_results
        )

    @extend_schema(request=None, responses=s.BracketSerializer)
    @action(detail=True, methods=["get"])
    def bracket(self, request, pk=None):
        """The top-cut bracket: rounds, matches, seeds and winners."""
        tournament = self.tournament()
        if not visibility.can_see_pairings(request.user, tournament):
            answer = {"started": False, "detail": PAIRINGS_HIDDEN, "rounds": []}
            return Response(s.BracketSerializer(answer).data)
        show_winners = visibility.can_see_results(request.user, tournament)
        answer = selectors.bracket_view(tournament, show_winners=show_winners)
        if answer["started"] and not show_winners:
            answer["detail"] = RESULTS_HIDDEN
        return Response(s.BracketSerializer(answer).data)

    def _placings(self, request):
        """The tournament and an answer for PlacingsSerializer (rows only when final)."""
        tournament = self.tournament()
        answer = {"final": False, "bracket_losers": tournament.bracket_losers, "placings": []}
        if not (
            visibility.can_see_standings(request.user, tournament)
            and visibility.can_see_results(request.user, tournament)
        ):
            return tournament, {**answer, "detail": PLACINGS_HIDDEN}
        placings = selectors.placings(tournament)
        if placings is None:
            return tournament, {**answer, "detail": PLACINGS_NOT_FINAL}
        return tournament, {**answer, "final": True, "detail": None, "placings": placings}

    @extend_schema(request=None, responses=s.PlacingsSerializer)
    @action(detail=True, methods=["get"])
    def placings(self, request, pk=None):
        """Final placings once the event is finished: the champion and the top cut by the
        round each player lost in, then the Swiss order below the cut (docs/standings.md)."""
        _, answer = self._placings(request)
        return Response(s.PlacingsSerializer(answer).data)

    @extend_schema(request=None, responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="placings/csv")
    def placings_csv(self, request, pk=None):
        """The final placings as CSV, once the event is finished."""
        tournament, answer = self._placings(request)
        if not answer["final"]:
            raise Http404(answer["detail"])
        return csv_exports.placings_csv(tournament, answer["placings"])

    # judges ----------------------------------------------------------------------------

    @extend_schema(request=None, responses=s.AuditSerializer(many=True))
    @action(detail=True, methods=["get"])
    def audit(self, request, pk=None):
        """The audit log, newest first, paginated (judges and organisers)."""
        tournament = self.tournament()
        _require_log_access(request, tournament)
        queryset = (
            AuditEntry.objects.filter(tournament=tournament)
            .select_related("actor__player")
            .order_by("-created_at", "-id")
        )
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(
            s.AuditSerializer(page, many=True, context={"request": request}).data
        )

    @extend_schema(request=None, responses=s.QueueSerializer)
    @action(detail=True, methods=["get"])
    def queue(self, request, pk=None):
        """The judges' queue: matches of the current round without a confirmed result,
        time called first, then disputed, reported, pending; with their open submissions."""
        tournament = self.tournament()
        _require_log_access(request, tournament)
        round_ = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
        if round_ is None:
            return Response(s.QueueSerializer({"round": None, "results": [], "tables": []}).data)
        open_versions = Prefetch(
            "submissions",
            queryset=ResultSubmission.objects.filter(
                status__in=[ResultSubmission.Status.PENDING, ResultSubmission.Status.REJECTED]
            )
            .select_related("submitted_by__player", "confirmed_by__player")
            .order_by("number"),
            to_attr="open_submissions",
        )
        matches = sorted(
            _matches_queryset()
            .filter(round=round_)
            .exclude(status=Match.Status.CONFIRMED)
            .prefetch_related(open_versions),
            key=selectors.judges_queue_key,
        )
        now = db_now()
        context = {"request": request, "show_results": True, "now": now}
        answer = {"round": round_.number, "results": matches, "tables": []}
        if tournament.pods:
            rows = pod_selectors.pod_queue(round_, now)
            answer["tables"] = [row for row in rows if row["state"] != "placed"]
        return Response(s.QueueSerializer(answer, context=context).data)

    @extend_schema(request=None, responses=s.PenaltySerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def penalties(self, request, pk=None):
        """Every penalty of the tournament (judges and organisers)."""
        tournament = self.tournament()
        _require_log_access(request, tournament)
        queryset = Penalty.objects.filter(registration__tournament=tournament).select_related(
            "judge__player", "registration__player"
        )
        return Response(s.PenaltySerializer(queryset, many=True, context={"request": request}).data)


def _valid(serializer_class, request, **kwargs):
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _paired_answer(paired, request):
    """201 with the new round, or 202 with the background job pairing it."""
    if isinstance(paired, PairingJob):
        data = s.PairingJobSerializer(paired, context={"request": request}).data
        return Response(
            data, status=status.HTTP_202_ACCEPTED, headers={"Location": data["status_url"]}
        )
    return Response(_round_answer(paired, request), status=status.HTTP_201_CREATED)


def _round_answer(round_, request):
    round_ = (
        Round.objects.select_related("tournament")
        .prefetch_related(Prefetch("matches", queryset=_matches_queryset()))
        .get(pk=round_.pk)
    )
    context = {"show_results": True, "staff": can_judge(request.user, round_.tournament)}
    return s.RoundSerializer(round_, context=context).data


# --- registrations --------------------------------------------------------------------


class RegistrationViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """One registration; check in, drop, reinstate (the services check who may)."""

    serializer_class = s.RegistrationSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        return Registration.objects.select_related("player", "tournament").filter(
            tournament__in=visibility.visible_tournaments(self.request.user)
        )

    @extend_schema(responses=s.RegistrationSerializer)
    def retrieve(self, request, *args, **kwargs):
        """One registration with its registered set: public with everyone's sets (once
        the Swiss rounds start); before that the player's own, and the judges'."""
        registration = self.get_object()
        if not visibility.can_see_registration(request.user, registration):
            raise PermissionDenied(_("The registered sets are public once the Swiss rounds start."))
        return Response(self.get_serializer(registration).data)

    def _answer(self, registration):
        return Response(self.get_serializer(self.get_queryset().get(pk=registration.pk)).data)

    @extend_schema(request=s.CheckInSerializer, responses=s.RegistrationSerializer)
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request, pk=None):
        """The player or an organiser; ``checked_in: false`` undoes it."""
        data = _valid(s.CheckInSerializer, request)
        return self._answer(
            services.check_in(
                registration=self.get_object(), by=request.user, checked_in=data["checked_in"]
            )
        )

    @extend_schema(request=s.ReasonSerializer, responses=s.RegistrationSerializer)
    @action(detail=True, methods=["post"])
    def drop(self, request, pk=None):
        """The player, a judge or an organiser."""
        data = _valid(s.ReasonSerializer, request)
        return self._answer(
            services.drop(registration=self.get_object(), by=request.user, reason=data["reason"])
        )

    @extend_schema(request=s.ReasonSerializer, responses=s.RegistrationSerializer)
    @action(detail=True, methods=["post"])
    def reinstate(self, request, pk=None):
        """Organisers."""
        data = _valid(s.ReasonSerializer, request)
        return self._answer(
            services.reinstate(
                registration=self.get_object(), by=request.user, reason=data["reason"]
            )
        )


# --- teams ----------------------------------------------------------------------------


class TeamViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """One team with its members and its matches; accept, approve, withdraw."""

    serializer_class = s.TeamDetailSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        return Team.objects.select_related("tournament", "unit").filter(
            tournament__in=visibility.visible_tournaments(self.request.user)
        )

    def _answer(self, team, request):
        team = selectors.teams(team.tournament).select_related("tournament").get(pk=team.pk)
        tournament = team.tournament
        matches = []
        if visibility.can_see_pairings(request.user, tournament):
            matches = selectors.team_matches(
                team,
                visibility.visible_rounds(request.user, tournament),
                show_results=visibility.can_see_results(request.user, tournament),
            )
        team.matches = matches
        return Response(s.TeamDetailSerializer(team).data)

    @extend_schema(responses=s.TeamDetailSerializer)
    def retrieve(self, request, *args, **kwargs):
        """The team, its members and its matches (published ones; results while public)."""
        return self._answer(self.get_object(), request)

    @extend_schema(request=None, responses=s.TeamDetailSerializer)
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        """A member named by the captain accepts the team."""
        team = self.get_object()
        registration = team.members.filter(player__user=request.user).first()
        if registration is None:
            raise PermissionDenied(_("Only the named player accepts a place in a team."))
        services.accept_team(registration=registration, by=request.user)
        return self._answer(team, request)

    @extend_schema(request=None, responses=s.TeamDetailSerializer)
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        """Organisers: the team is complete without the members' acceptance."""
        team = self.get_object()
        services.approve_team(team=team, by=request.user)
        return self._answer(team, request)

    @extend_schema(request=s.ReasonSerializer, responses={204: None})
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        """Before the Swiss rounds: a member (declining) or an organiser withdraws it."""
        data = _valid(s.ReasonSerializer, request)
        services.withdraw_team(team=self.get_object(), by=request.user, reason=data["reason"])
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- rounds ---------------------------------------------------------------------------


class RoundViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """One round with its matches; publish, start, close, re-pair, edit a draft."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    queryset = Round.objects.select_related("tournament")
    serializer_class = s.RoundSerializer

    @extend_schema(responses=s.RoundSerializer)
    def retrieve(self, request, *args, **kwargs):
        round_ = self.get_object()
        tournament = round_.tournament
        if not visibility.can_see_round(request.user, round_):
            raise Http404(PAIRINGS_HIDDEN)
        staff = can_judge(request.user, tournament)
        round_ = (
            self.get_queryset()
            .prefetch_related(Prefetch("matches", queryset=_matches_queryset()))
            .get(pk=round_.pk)
        )
        context = {
            "show_results": visibility.can_see_results(request.user, tournament),
            "staff": staff,
        }
        return Response(s.RoundSerializer(round_, context=context).data)

    def _answer(self, round_):
        return Response(_round_answer(round_, self.request))

    @extend_schema(request=None, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        """Organisers: publish draft pairings (byes get their 2-0 at once)."""
        return self._answer(services.publish_round(round_=self.get_object(), by=request.user))

    @extend_schema(request=None, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        """Judges and organisers: start the clock of a published round."""
        return self._answer(services.start_round(round_=self.get_object(), by=request.user))

    @extend_schema(request=None, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        """Organisers: close a round whose every result is confirmed."""
        return self._answer(services.close_round(round_=self.get_object(), by=request.user))

    @extend_schema(
        request=s.SeedSerializer, responses={201: s.RoundSerializer, 202: s.PairingJobSerializer}
    )
    @action(detail=True, methods=["post"])
    def repair(self, request, pk=None):
        """Organisers: throw a draft Swiss pairing away and pair the round again. The new
        round has a new id (202 with a job when it is paired in the background, as for
        pair)."""
        data = _valid(s.SeedSerializer, request)
        paired = services.repair_round(
            round_=self.get_object(), by=request.user, seed=data.get("seed") or None
        )
        return _paired_answer(paired, request)

    @extend_schema(request=None, responses=s.PodRoundSerializer)
    @action(detail=True, methods=["get"])
    def tables(self, request, pk=None):
        """The round's pod tables in an event in pods (seats in order, placings while the
        results are seen); an event paired two-player answers ``pods`` false, no tables."""
        round_ = self.get_object()
        if not visibility.can_see_round(request.user, round_):
            raise Http404(PAIRINGS_HIDDEN)
        if not round_.tournament.pods:
            answer = {"pods": False, "round": round_.number, "status": round_.status, "tables": []}
        else:
            show = visibility.can_see_results(request.user, round_.tournament)
            answer = selectors.pod_round_answer(round_, show_results=show)
        return Response(s.PodRoundSerializer(answer).data)

    @extend_schema(request=s.PlacingsInputSerializer, responses=s.PodRoundSerializer)
    @action(detail=True, methods=["post"])
    def placings(self, request, pk=None):
        """Judges and organisers: enter (or correct, until the round closes) one table's
        placings. Bad placings are a 400 in words and change nothing."""
        round_ = self.get_object()
        data = _valid(s.PlacingsInputSerializer, request)
        table = PodTable.objects.filter(round=round_, number=data["table"]).first()
        if table is None:
            if not can_judge(request.user, round_.tournament):
                raise PermissionDenied(
                    _("Only the tournament's judges and organisers may do this.")
                )
            raise ValidationError({"table": [_("This round has no such table.")]})
        pod_online.record_placings(table=table, placings=data["placings"], by=request.user)
        answer = selectors.pod_round_answer(round_, show_results=True)
        return Response(s.PodRoundSerializer(answer).data)

    def _seated_round(self, request) -> Round:
        """The round, for a player seated at one of its tables; anyone else is refused
        before their request is read (judges enter placings instead)."""
        round_ = self.get_object()
        if not (
            request.user.is_authenticated
            and PodSeat.objects.filter(
                round=round_, registration__player__user=request.user
            ).exists()
        ):
            raise PermissionDenied(
                _("Only the players at this table may report or confirm its placings.")
            )
        return round_

    def _pod_table(self, round_, number: int) -> PodTable:
        table = PodTable.objects.filter(round=round_, number=number).first()
        if table is None:
            raise ValidationError({"table": [_("This round has no such table.")]})
        return table

    @extend_schema(request=s.PodReportInputSerializer, responses={201: s.PodReportSerializer})
    @action(detail=True, methods=["post"], url_path="table-report")
    def table_report(self, request, pk=None):
        """A player at a pod table reports its placings; the tablemates confirm them
        (docs/operations.md "Pod tables on event day"). Judges enter placings instead."""
        round_ = self._seated_round(request)
        data = _valid(s.PodReportInputSerializer, request)
        report = services.report_placings(
            table=self._pod_table(round_, data["table"]),
            by=request.user,
            placings=data["placings"],
            note=data["note"],
        )
        return Response(s.PodReportSerializer(report).data, status=status.HTTP_201_CREATED)

    def _pending_report(self, request) -> tuple[dict, PodReport]:
        round_ = self._seated_round(request)
        data = _valid(s.PodReportChoiceSerializer, request)
        table = self._pod_table(round_, data["table"])
        pending = PodReport.objects.filter(table=table, status=PodReport.Status.PENDING)
        report = pending.first()
        if report is None or data.get("report", report.pk) != report.pk:
            raise ValidationError(
                {"report": [_("This report is no longer waiting for confirmation.")]}
            )
        return data, report

    @extend_schema(request=s.PodReportChoiceSerializer, responses=s.PodReportSerializer)
    @action(detail=True, methods=["post"], url_path="table-confirm")
    def table_confirm(self, request, pk=None):
        """A tablemate agrees with the table's pending report; the last one places it."""
        _data, report = self._pending_report(request)
        report = services.confirm_placings(report=report, by=request.user)
        return Response(s.PodReportSerializer(report).data)

    @extend_schema(request=s.PodReportChoiceSerializer, responses=s.PodReportSerializer)
    @action(detail=True, methods=["post"], url_path="table-dispute")
    def table_dispute(self, request, pk=None):
        """A tablemate disagrees: the table goes to the judges' queue as disputed."""
        data, report = self._pending_report(request)
        report = services.dispute_placings(report=report, by=request.user, note=data["note"])
        return Response(s.PodReportSerializer(report).data)

    @extend_schema(request=s.SwapPlayersSerializer, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"], url_path="swap-players")
    def swap_players(self, request, pk=None):
        """Organisers: exchange two players between pairings of a draft, with a reason."""
        round_ = self.get_object()
        data = _valid(s.SwapPlayersSerializer, request)
        for key in ("first", "second"):
            if data[key].tournament_id != round_.tournament_id:
                raise ValidationError({key: [_("This player is not in this tournament.")]})
        return self._answer(
            services.swap_players_in_draft(
                round_=round_,
                first=data["first"],
                second=data["second"],
                by=request.user,
                reason=data["reason"],
            )
        )


# --- matches --------------------------------------------------------------------------


class MatchViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """One match: results (report, confirm, reject, history), games, swaps, penalties."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    queryset = Match.objects.select_related("round__tournament", *SIDE_RELATED)
    serializer_class = s.MatchSerializer

    def _visible_match(self):
        match = self.get_object()
        if not visibility.can_see_match(self.request.user, match):
            raise Http404(PAIRINGS_HIDDEN)
        return match

    def _answer(self, match, *, show_results=True):
        match = self.get_queryset().get(pk=match.pk)
        return Response(s.MatchSerializer(match, context={"show_results": show_results}).data)

    @extend_schema(responses=s.MatchSerializer)
    def retrieve(self, request, *args, **kwargs):
        match = self._visible_match()
        show = visibility.can_see_match_result(request.user, match)
        return self._answer(match, show_results=show)

    # results ---------------------------------------------------------------------------

    @extend_schema(request=s.ReportSerializer, responses={201: s.SubmissionSerializer})
    @action(detail=True, methods=["post"])
    def report(self, request, pk=None):
        """A player reports (the opponent confirms); a judge's entry is confirmed at once
        and corrects an earlier result. ``expected_version`` guards against a change made
        meanwhile."""
        data = _valid(s.ReportSerializer, request)
        submission = services.report_result(
            match=self.get_object(),
            by=request.user,
            games=data["games"],
            intentional_draw=data["intentional_draw"],
            conceded_by=data["conceded_by"],
            note=data["note"],
            expected_version=data.get("expected_version"),
        )
        return Response(
            s.SubmissionSerializer(submission, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    def _pending_submission(self, match, data) -> ResultSubmission:
        pending = match.submissions.filter(status=ResultSubmission.Status.PENDING)
        if "submission" in data:
            submission = pending.filter(pk=data["submission"]).first()
        else:
            submission = pending.order_by("-number").first()
        if submission is None:
            raise ValidationError(
                {"submission": [_("There is no report waiting for confirmation in this match.")]}
            )
        return submission

    @extend_schema(request=s.SubmissionChoiceSerializer, responses=s.SubmissionSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        """The opponent of the reporting player, or a judge, confirms a pending report."""
        match = self.get_object()
        data = _valid(s.SubmissionChoiceSerializer, request)
        submission = services.confirm_result(
            submission=self._pending_submission(match, data), by=request.user
        )
        return Response(s.SubmissionSerializer(submission, context={"request": request}).data)

    @extend_schema(request=s.SubmissionChoiceSerializer, responses=s.SubmissionSerializer)
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        """The opponent disagrees: the match goes to the judges' queue as disputed."""
        match = self.get_object()
        data = _valid(s.SubmissionChoiceSerializer, request)
        submission = services.reject_result(
            submission=self._pending_submission(match, data), by=request.user, note=data["note"]
        )
        return Response(s.SubmissionSerializer(submission, context={"request": request}).data)

    @extend_schema(request=None, responses=s.SubmissionSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def results(self, request, pk=None):
        """Every version of the result (who, when, what): judges and the two players."""
        match = self.get_object()
        if not visibility.can_see_submissions(request.user, match):
            raise PermissionDenied(_("Only the two players and the judges see the result history."))
        queryset = match.submissions.select_related(
            "submitted_by__player", "confirmed_by__player"
        ).order_by("number")
        return Response(
            s.SubmissionSerializer(queryset, many=True, context={"request": request}).data
        )

    # games and swaps -------------------------------------------------------------------

    @extend_schema(
        request=s.StartGameSerializer,
        responses={200: s.MatchGameStartSerializer, 202: s.MatchGameStartSerializer},
    )
    @action(detail=True, methods=["post"], url_path="start-game")
    def start_game(self, request, pk=None):
        """The match's next game starts when both players have said so (a judge starts it
        at once): a player's call records their word (repeating it changes nothing) and
        answers 202 with whose word is still awaited; the call that starts the game
        answers 200. Starting a game reveals the swaps made for it. Online matches start
        their games in the online game (both players ``ready``)."""
        data = _valid(s.StartGameSerializer, request)
        match = services.start_game(
            match=self.get_object(),
            number=data["number"],
            by=request.user,
            games_so_far=data.get("games_so_far"),
        )
        match = self.get_queryset().get(pk=match.pk)
        context = {"show_results": True, "game": data["number"]}
        answer = s.MatchGameStartSerializer(match, context=context).data
        started = answer["game_start"]["started"]
        return Response(answer, status=status.HTTP_200_OK if started else status.HTTP_202_ACCEPTED)

    @extend_schema(methods=["get"], request=None, responses=s.SwapSerializer(many=True))
    @extend_schema(
        methods=["post"], request=s.RecordSwapSerializer, responses={201: s.SwapSerializer}
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def swaps(self, request, pk=None):
        """GET: the swap history as the viewer may see it: a player sees all their own
        swaps, the opponent and the public a swap only once the game it was made for has
        started; judges see everything. POST: a player records a swap for the next game
        (positions in the current playing set and additional set)."""
        match = self.get_object()
        if request.method == "POST":
            data = _valid(s.RecordSwapSerializer, request)
            registration_id = data.get("registration") or visibility.own_registration_id(
                request.user, match
            )
            if registration_id is None:
                raise PermissionDenied(_("Players record their own swaps."))
            if match.side_of(registration_id) is None:
                raise ValidationError({"registration": [_("This player is not in that match.")]})
            registration = (match.player_a, match.player_b)[
                0 if match.side_of(registration_id) == "a" else 1
            ]
            swap = services.record_swap(
                registration=registration,
                match=match,
                swap_out=data["swap_out"],
                swap_in=data["swap_in"],
                by=request.user,
            )
            return Response(
                s.SwapSerializer(swap, context={"request": request}).data,
                status=status.HTTP_201_CREATED,
            )
        if not visibility.can_see_match(request.user, match):
            raise Http404(PAIRINGS_HIDDEN)
        swaps = (
            SetSwap.objects.filter(match=match)
            .select_related("recorded_by__player")
            .order_by("before_game", "created_at", "id")
        )
        visible = [swap for swap in swaps if visibility.can_see_swap(request.user, swap, match)]
        return Response(s.SwapSerializer(visible, many=True, context={"request": request}).data)

    # penalties -------------------------------------------------------------------------

    @extend_schema(methods=["get"], request=None, responses=s.PenaltySerializer(many=True))
    @extend_schema(
        methods=["post"], request=s.PenaltyInSerializer, responses={201: s.PenaltySerializer}
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def penalties(self, request, pk=None):
        """Judges: give a penalty to one of the two players (warning, game_loss,
        match_loss, disqualification) or list this match's penalties."""
        match = self.get_object()
        _require_log_access(request, match.round.tournament)
        if request.method == "POST":
            data = _valid(s.PenaltyInSerializer, request)
            if match.side_of(data["registration"]) is None:
                raise ValidationError({"registration": [_("This player is not in that match.")]})
            registration = Registration.objects.get(pk=data["registration"])
            penalty = services.give_penalty(
                registration=registration,
                kind=data["kind"],
                reason=data["reason"],
                by=request.user,
                match=match,
            )
            penalty = Penalty.objects.select_related("judge__player", "registration__player").get(
                pk=penalty.pk
            )
            return Response(
                s.PenaltySerializer(penalty, context={"request": request}).data,
                status=status.HTTP_201_CREATED,
            )
        queryset = match.penalties.select_related("judge__player", "registration__player")
        return Response(s.PenaltySerializer(queryset, many=True, context={"request": request}).data)


class PlayerRatingView(generics.GenericAPIView):
    """A player's rating across events: the current figures, the history match by match
    (newest first) and the past events, as the caller may see them (docs/ratings.md).
    Players are public; matches of events whose results are hidden are left out."""

    serializer_class = s.PlayerRatingSerializer
    permission_classes = [permissions.AllowAny]
    queryset = Player.objects.all()

    @extend_schema(responses=s.PlayerRatingSerializer)
    def get(self, request, pk: int):
        player = self.get_queryset().filter(pk=pk).first()
        if player is None:
            raise Http404(_("No such player."))
        return Response(self.get_serializer(records.player_record(player, request.user)).data)
