"""Clock endpoints: read the round and match clocks (with the server's time, so clients
count down without drifting) and the judges' controls. Rules: tournaments/clocks.py."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.response import Response

from config.dbtime import db_now
from tournaments import clocks
from tournaments.models import Match, PodTable, Round
from tournaments.pod_selectors import table_clock
from tournaments.serializers import (
    MatchClockSerializer,
    PodTableClockSerializer,
    ReasonSerializer,
    RoundClockSerializer,
)
from tournaments.visibility import can_see_match, can_see_pod_table, can_see_round

CLOCKS_HIDDEN = "The organiser has not made the pairings public."


class ExtendSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(
        min_value=clocks.EXTENSION_MINUTES[0],
        max_value=clocks.EXTENSION_MINUTES[1],
        error_messages={
            "min_value": clocks.EXTENSION_MESSAGE,
            "max_value": clocks.EXTENSION_MESSAGE,
        },
        help_text=_("1-60 minutes; at most 120 in all for one match or pod table."),
    )
    reason = serializers.CharField(max_length=300)


class RoundClockMatchSerializer(MatchClockSerializer):
    players = serializers.ListField(child=serializers.CharField(), help_text=_("A, then B."))
    has_result = serializers.BooleanField()


class RoundClocksSerializer(serializers.Serializer):
    """The shape of ``round_clocks`` (which builds it for the API and the clock pages)."""

    round = RoundClockSerializer()
    matches = RoundClockMatchSerializer(many=True, help_text=_("Most urgent first; no byes."))


def round_clocks(round_: Round) -> dict:
    """The round clock and every match clock of the round, most urgent first (3 queries)."""
    now = db_now()
    matches = round_.matches.filter(player_b__isnull=False).select_related(
        "player_a__player", "player_a__team", "player_b__player", "player_b__team"
    )
    match_clocks = []
    for match in matches:
        clock = clocks.match_clock(match, now)
        clock["players"] = [match.player_a.entry_name, match.player_b.entry_name]
        clock["has_result"] = match.status == Match.Status.CONFIRMED
        match_clocks.append(clock)
    match_clocks.sort(key=clocks.urgency_key)
    return {"round": clocks.round_clock(round_, now), "matches": match_clocks}


def _round(request, pk) -> Round:
    round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
    if not can_see_round(request.user, round_):
        raise Http404(CLOCKS_HIDDEN)
    return round_


def _match(request, pk) -> Match:
    match = get_object_or_404(
        Match.objects.select_related(
            "round__tournament",
            "player_a__player",
            "player_a__team",
            "player_b__player",
            "player_b__team",
        ),
        pk=pk,
    )
    # A player sees their own match's clock (as on their match page) even while the
    # pairings are not public.
    if not can_see_match(request.user, match):
        raise Http404(CLOCKS_HIDDEN)
    return match


@extend_schema(
    summary="Round clock and all match clocks, most urgent first", responses=RoundClocksSerializer
)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def round_clock(request, pk):
    return Response(round_clocks(_round(request, pk)))


@extend_schema(
    summary="Pause every running clock of the round (judges)",
    request=ReasonSerializer,
    responses=RoundClocksSerializer,
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def round_clock_pause(request, pk):
    data = _valid(ReasonSerializer, request)
    round_ = clocks.pause_round(round_=_round(request, pk), by=request.user, reason=data["reason"])
    return Response(round_clocks(round_))


@extend_schema(
    summary="Resume the round and its paused match clocks (judges)",
    request=None,
    responses=RoundClocksSerializer,
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def round_clock_resume(request, pk):
    round_ = clocks.resume_round(round_=_round(request, pk), by=request.user)
    return Response(round_clocks(round_))


@extend_schema(summary="One match's clock", responses=MatchClockSerializer)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def match_clock(request, pk):
    return Response(clocks.match_clock(_match(request, pk), db_now()))


@extend_schema(
    summary="Extend one match's time (judges), with a reason",
    request=ExtendSerializer,
    responses=MatchClockSerializer,
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_clock_extend(request, pk):
    data = _valid(ExtendSerializer, request)
    match = clocks.extend_match(
        match=_match(request, pk), minutes=data["minutes"], reason=data["reason"], by=request.user
    )
    return Response(clocks.match_clock(match, db_now()))


@extend_schema(
    summary="Pause one match's clock (judges), e.g. during a judge call",
    request=ReasonSerializer,
    responses=MatchClockSerializer,
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_clock_pause(request, pk):
    data = _valid(ReasonSerializer, request)
    match = clocks.pause_match(match=_match(request, pk), by=request.user, reason=data["reason"])
    return Response(clocks.match_clock(match, db_now()))


@extend_schema(
    summary="Resume one match's clock (judges)", request=None, responses=MatchClockSerializer
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_clock_resume(request, pk):
    match = clocks.resume_match(match=_match(request, pk), by=request.user)
    return Response(clocks.match_clock(match, db_now()))


def _pod_tables():
    return PodTable.objects.select_related("round__tournament", "online_game").prefetch_related(
        "seats"
    )


def _pod_table(request, pk) -> PodTable:
    table = get_object_or_404(_pod_tables(), pk=pk)
    if not can_see_pod_table(request.user, table):
        raise Http404(CLOCKS_HIDDEN)
    return table


def _table_clock(table: PodTable) -> dict:
    return table_clock(table, db_now())


@extend_schema(summary="One pod table's clock", responses=PodTableClockSerializer)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def pod_table_clock(request, pk):
    return Response(_table_clock(_pod_table(request, pk)))


@extend_schema(
    summary="Extend one pod table's time (judges), with a reason",
    request=ExtendSerializer,
    responses=PodTableClockSerializer,
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def pod_table_clock_extend(request, pk):
    table = _pod_table(request, pk)
    data = _valid(ExtendSerializer, request)
    clocks.extend_pod_table(
        table=table, minutes=data["minutes"], reason=data["reason"], by=request.user
    )
    return Response(_table_clock(_pod_tables().get(pk=table.pk)))


def _valid(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
