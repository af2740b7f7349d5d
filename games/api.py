"""REST API for online games (docs/online-play.md). Views are thin: every write goes
through games/services/, every read through games/selectors.py, which builds all
output from the engine's view for the requesting viewer (a seat, a judge, a spectator).

Errors: 400 ``{"detail", "errors"}`` for a refused action, 403 for the wrong person,
409 ``{"detail", "errors", "version"}`` for a decision made on an outdated state.
"""

import random

from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.exceptions import ValidationError as ApiValidationError
from rest_framework.response import Response

from games import hosts, selectors, services, visibility
from games.engines import ENGINES
from games.models import GameSession
from players.demo import random_valid_set

NOT_OVER = "The full record and the seed are published when the game is over."


class CreateGameSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["practice", "demo", "tournament"], default="practice")
    bot = serializers.ChoiceField(choices=["heuristic", "random"], default="heuristic")
    dice_set = serializers.IntegerField(required=False)
    match = serializers.IntegerField(required=False)
    game = serializers.ChoiceField(
        choices=sorted(ENGINES),
        default="irondie",
        help_text=gettext_lazy(
            "Practice: the game (a bot of kind ``bot`` in every other seat); demo:"
            " the game its bots play."
        ),
    )
    seats = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text=gettext_lazy(
            "Practice of a game of more seats: how many (IRONDIE: 2, or 4 or 6 for the team game)."
        ),
    )
    variants = serializers.ListField(
        child=serializers.CharField(max_length=20),
        required=False,
        max_length=9,  # Dice Forge's nine alternate cards
        help_text=gettext_lazy(
            "Practice: the game's variants (36d6: stronghold, elemental, team, zombie;"
            " Dice Forge: the alternate cards great_bear, sentinel, cyclops, celestial_ship,"
            " cerberus, triton, typhon, tenacious_boar, guardians_shield)."
        ),
    )


class ActionSerializer(serializers.Serializer):
    action = serializers.JSONField()
    expected_version = serializers.IntegerField(required=False, min_value=0)


class ConcedeSerializer(serializers.Serializer):
    match = serializers.BooleanField(default=False)


class RulingSerializer(serializers.Serializer):
    winner = serializers.IntegerField(
        min_value=0, help_text=gettext_lazy("The seat the game goes to.")
    )
    reason = serializers.CharField(max_length=300)


class PauseSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class GameSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.CharField(allow_null=True)
    you = serializers.BooleanField()


class GameSummarySerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    match = serializers.SerializerMethodField()
    game_number = serializers.SerializerMethodField()

    class Meta:
        model = GameSession
        fields = [
            "id",
            "engine",
            "kind",
            "status",
            "version",
            "match",
            "game_number",
            "players",
            "commitment",
            "result",
            "created_at",
        ]

    @extend_schema_field(GameSeatSerializer(many=True))
    def get_players(self, session) -> list[dict]:
        request = self.context.get("request")
        return selectors.players(session, session.seat_of(request.user if request else None))

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_match(self, session) -> int | None:
        """The match a tournament game belongs to (its host), else null."""
        return hosts.host_of(session).describe(session)["match"]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_game_number(self, session) -> int | None:
        return hosts.host_of(session).describe(session)["game_number"]


# --- answer shapes ----------------------------------------------------------------------
# games/selectors.py builds every game answer from the engine's view; these serializers
# only say what those dicts hold, for the OpenAPI schema (tests/test_api_schema.py checks
# real answers against it). The board itself (``view``, ``config``, ``log``) is the
# engine's and documented in docs/engine.md.


@extend_schema_field({"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]})
class ViewerField(serializers.Field):
    """A seat (0, 1, ... up to the game's seats), "judge" or "spectator"."""


@extend_schema_field({"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]})
class ActorField(serializers.Field):
    """A seat (0, 1, ...) or "system" (the server: clocks, judges)."""


@extend_schema_field({"type": "object", "additionalProperties": True})
class EngineObjectField(serializers.DictField):
    """An object whose keys another part decides: the rules engine's (docs/engine.md)."""


class GameClockSerializer(serializers.Serializer):
    """The shape of ``games.clocks.clock_dict``."""

    server_time = serializers.DateTimeField()
    state = serializers.ChoiceField(choices=GameSession.Status.choices)
    decision_seconds = serializers.IntegerField()
    deadline_at = serializers.DateTimeField(allow_null=True)
    seat_deadlines = serializers.ListField(child=serializers.DateTimeField(allow_null=True))
    seat_remaining_seconds = serializers.ListField(child=serializers.FloatField(allow_null=True))
    game_deadline_at = serializers.DateTimeField(allow_null=True)
    start_deadline_at = serializers.DateTimeField(allow_null=True)
    # The tournaments app adds its match clock here; games does not describe it.
    match = EngineObjectField(
        allow_null=True, help_text=gettext_lazy("A tournament game's match clock.")
    )


class SplitChoiceSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["split"])
    hand = serializers.ListField(child=serializers.IntegerField())
    choose = serializers.CharField()
    count = serializers.IntegerField()
    action = serializers.CharField(help_text=gettext_lazy("How to write the action."))


class GameStateSerializer(serializers.Serializer):
    """The shape of ``games.selectors.game_state``: the game as the viewer may see it."""

    id = serializers.IntegerField()
    engine = serializers.CharField()
    engine_version = serializers.CharField()
    kind = serializers.ChoiceField(choices=GameSession.Kind.choices)
    status = serializers.ChoiceField(choices=GameSession.Status.choices)
    version = serializers.IntegerField()
    viewer = ViewerField()
    seat = serializers.IntegerField(allow_null=True)
    players = GameSeatSerializer(many=True)
    match = serializers.IntegerField(allow_null=True)
    game_number = serializers.IntegerField(allow_null=True)
    team_names = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text=gettext_lazy(
            "A team event's match: the names of team 0 (player A's) and team 1; null otherwise."
        ),
    )
    next_game = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("The next game's id.")
    )
    ready = serializers.ListField(
        child=serializers.IntegerField(), help_text=gettext_lazy("Seats ready.")
    )
    commitment = serializers.CharField(allow_null=True)
    split = SplitChoiceSerializer(allow_null=True)
    legal_count = serializers.IntegerField()
    legal_actions = serializers.ListField(child=EngineObjectField(), allow_null=True)
    decision_since = serializers.IntegerField(allow_null=True)
    end_cause = serializers.CharField(allow_null=True)
    clock = GameClockSerializer()
    view = EngineObjectField(allow_null=True)


class GameLogEntrySerializer(serializers.Serializer):
    """The shape of one entry of ``games.selectors.game_log``."""

    index = serializers.IntegerField()
    version = serializers.IntegerField()
    actor = ActorField()
    cause = serializers.CharField()
    hidden = serializers.BooleanField()
    action = EngineObjectField(allow_null=True)
    events = serializers.ListField(child=EngineObjectField())
    note = serializers.CharField(allow_blank=True)
    at = serializers.DateTimeField()


class GameLogSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    over = serializers.BooleanField()
    seed = serializers.CharField(
        allow_null=True, help_text=gettext_lazy("Once the game is finished.")
    )
    entries = GameLogEntrySerializer(many=True)


class GameRecordSerializer(serializers.Serializer):
    """The shape of ``games.selectors.game_record``."""

    id = serializers.IntegerField()
    engine = serializers.CharField()
    engine_version = serializers.CharField()
    config = EngineObjectField()
    commitment = serializers.CharField()
    seed = serializers.CharField()
    log = serializers.ListField(child=serializers.ListField())
    rolls = serializers.ListField(child=serializers.IntegerField())
    result = EngineObjectField(allow_null=True)
    actions = GameLogEntrySerializer(many=True)


class VerificationSerializer(serializers.Serializer):
    """The shape of ``games.selectors.verification``."""

    id = serializers.IntegerField()
    commitment = serializers.CharField()
    seed = serializers.CharField()
    ok = serializers.BooleanField()
    problems = serializers.ListField(child=serializers.CharField())
    rolls_checked = serializers.IntegerField()
    result = EngineObjectField(allow_null=True)


def _valid(serializer_class, request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Online games: anyone may watch (spectator view), the two players act, judges see
    everything and may pause or award a game."""

    serializer_class = GameSummarySerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        queryset = selectors.session_queryset().order_by("-created_at", "-id")
        params = self.request.query_params
        queryset = hosts.filter_sessions(queryset, params)  # e.g. ?match= (tournament games)
        if status_ := params.get("status"):
            if status_ not in GameSession.Status.values:
                raise ApiValidationError(
                    {
                        "status": [
                            _("Choose one of %(value1)s.")
                            % {"value1": ", ".join(GameSession.Status.values)}
                        ]
                    }
                )
            queryset = queryset.filter(status=status_)
        if self.request.query_params.get("mine") and self.request.user.is_authenticated:
            user = self.request.user
            queryset = queryset.filter(GameSession.seated(user))
        return queryset

    def _session(self) -> GameSession:
        return self._watched(self.get_object())

    def _watched(self, session) -> GameSession:
        if not visibility.can_watch(self.request.user, session):
            raise NotFound(_("No such game."))
        return session

    def _target(self) -> GameSession:
        """For writes: just the id; the service locks and loads the row once (a missing
        row is a 404, see ``handle_exception``)."""
        try:
            return GameSession(pk=int(self.kwargs["pk"]))
        except (TypeError, ValueError):
            raise NotFound(_("No such game.")) from None

    def handle_exception(self, exc):
        if isinstance(exc, GameSession.DoesNotExist):
            exc = NotFound(_("No such game."))
        return super().handle_exception(exc)

    def _state(self, session, *, code=200):
        """The answer after a read or a write: the time of the database read with the row
        (or of the write) stands for now, so no extra query asks the clock."""
        viewer = visibility.viewer_for(session, self.request.user)
        now = selectors.time_of_read(session)
        every = self.request.query_params.get("legal") == "all"
        return Response(selectors.game_state(session, viewer, now, all_legal=every), status=code)

    @extend_schema(responses=GameStateSerializer)
    def retrieve(self, request, *args, **kwargs):
        """The game as the viewer may see it, the viewer's legal actions and the clocks.
        ``?legal=all`` lists every legal split too (by default a split of more than 16
        choices is described by ``split`` and ``legal_count``, docs/online-play.md)."""
        return self._state(self._watched(selectors.viewed_session(self.kwargs["pk"])))

    @extend_schema(request=CreateGameSerializer, responses={201: GameStateSerializer})
    def create(self, request):
        """Start a practice game against a bot, a demo game (judges), or open a
        tournament match for online play (its players or judges)."""
        data = _valid(CreateGameSerializer, request)
        if data["kind"] == "tournament" or "match" in data:
            host = hosts.host_for_kind(GameSession.Kind.TOURNAMENT)
            session = host.open_session(data.get("match"), by=request.user)
            if session is None:
                raise ApiValidationError({"match": [_("No such match.")]})
        elif data["kind"] == "demo":
            rng = random.Random()
            sets = [[d.to_dict() for d in random_valid_set(rng)] for _ in range(2)]
            if data["game"] == "irondie":
                session = services.create_demo_game(by=request.user, sets=sets)
            else:
                session = services.create_demo_game(
                    by=request.user,
                    game=data["game"],
                    seats=data.get("seats"),
                    variants=data.get("variants", []),
                    bots=("heuristic", "random"),
                )
        elif data["game"] != "irondie":
            session = services.create_practice_game(
                by=request.user,
                bot=data["bot"],
                game=data["game"],
                seats=data.get("seats"),
                variants=data.get("variants", []),
            )
        else:
            playing_dice = selectors.practice_dice(request.user, data.get("dice_set"))
            if playing_dice is None:
                raise NotFound(_("You have no dice set with that id."))
            session = services.create_practice_game(
                by=request.user,
                playing_dice=playing_dice,
                bot=data["bot"],
                bot_dice=[d.to_dict() for d in random_valid_set(random.Random())],
                seats=data.get("seats"),
            )
        return self._state(
            selectors.session_queryset().get(pk=session.pk), code=status.HTTP_201_CREATED
        )

    @extend_schema(request=ActionSerializer, responses=GameStateSerializer)
    @action(detail=True, methods=["post"])
    def actions(self, request, pk=None):
        """Submit a decision: ``{"action": {...}, "expected_version": n}``."""
        data = _valid(ActionSerializer, request)
        try:
            session = services.submit_action(
                session=self._target(),
                by=request.user,
                action=data["action"],
                expected_version=data.get("expected_version"),
            )
        except services.StaleVersion as exc:
            errors = exc.message_dict
            return Response(
                {
                    "detail": errors["expected_version"][0],
                    "errors": errors,
                    "version": exc.current,
                },
                status=status.HTTP_409_CONFLICT,
            )
        return self._state(session)

    @extend_schema(request=ConcedeSerializer, responses=GameStateSerializer)
    @action(detail=True, methods=["post"])
    def concede(self, request, pk=None):
        """Concede the game (``{"match": true}``: the whole match)."""
        data = _valid(ConcedeSerializer, request)
        session = services.concede(
            session=self._target(), by=request.user, whole_match=data["match"]
        )
        return self._state(session)

    @extend_schema(request=None, responses=GameStateSerializer)
    @action(detail=True, methods=["post"])
    def ready(self, request, pk=None):
        """A player is ready for this game (after any swap); it starts when both are."""
        return self._state(services.mark_ready(session=self._target(), by=request.user))

    @extend_schema(responses=GameLogSerializer)
    @action(detail=True, methods=["get"])
    def log(self, request, pk=None):
        """The log so far, redacted for the viewer (secret choices show as hidden)."""
        session = self._session()
        viewer = visibility.viewer_for(session, request.user)
        return Response(
            {
                "id": session.pk,
                "version": session.version,
                "over": session.is_over,
                "seed": selectors.game_record(session)["seed"]
                if visibility.can_see_record(session)
                else None,
                "entries": selectors.game_log(session, viewer),
            }
        )

    @extend_schema(responses=GameRecordSerializer)
    @action(detail=True, methods=["get"])
    def record(self, request, pk=None):
        """After the end: config, commitment, seed, the full log and every roll."""
        session = self._session()
        if not visibility.can_see_record(session):
            raise ApiValidationError({"non_field_errors": [NOT_OVER]})
        return Response(selectors.game_record(session))

    @extend_schema(responses=VerificationSerializer)
    @action(detail=True, methods=["get"])
    def verify(self, request, pk=None):
        """Re-derive every roll from the revealed seed and replay the log."""
        session = self._session()
        if not visibility.can_see_record(session):
            raise ApiValidationError({"non_field_errors": [NOT_OVER]})
        return Response(selectors.verification(session))

    @extend_schema(request=PauseSerializer, responses=GameStateSerializer)
    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        """Judges: stop the clocks (and the match clock of a tournament game)."""
        data = _valid(PauseSerializer, request)
        return self._state(
            services.pause_game(session=self._target(), by=request.user, reason=data["reason"])
        )

    @extend_schema(request=None, responses=GameStateSerializer)
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        return self._state(services.resume_game(session=self._target(), by=request.user))

    @extend_schema(request=RulingSerializer, responses=GameStateSerializer)
    @action(detail=True, methods=["post"])
    def ruling(self, request, pk=None):
        """Judges: award the game to a seat (its team, if any), with the reason (audited)."""
        data = _valid(RulingSerializer, request)
        return self._state(
            services.award_game(
                session=self._target(),
                by=request.user,
                winner=data["winner"],
                reason=data["reason"],
            )
        )


@csrf_exempt
@require_GET
def poll(request, pk):
    """``GET /api/games/{id}/poll/``: the cheap question pages and clients ask every
    second or so: has anything changed? Public and the same for everyone, so it is a plain
    Django view outside DRF (no authentication, no content negotiation): one query of an
    indexed row, about a third of the cost of the same answer through a viewset."""
    try:
        return JsonResponse(selectors.poll(pk))
    except Http404:
        return JsonResponse({"detail": _("No such game.")}, status=404)
