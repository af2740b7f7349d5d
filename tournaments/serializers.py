"""Serializers of the tournaments API: input checks, and the answers themselves (the API
sends them, the pages read some of them, the OpenAPI schema is generated from them).

Writes never happen here: the views pass validated data to tournaments/services/.
"""

import json
from functools import cached_property

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import SkipField
from rest_framework.utils import html

from config.dbtime import db_now
from players.api import DieSerializer
from players.models import DiceSet, Player
from players.people import PersonField, person_label
from tournaments import words
from tournaments.clocks import match_clock, round_clock
from tournaments.conventions import CONVENTION_FIELDS
from tournaments.games import GAMES, game_choices
from tournaments.match_rules import format_score
from tournaments.models import (
    SETTING_BOUNDS,
    AuditEntry,
    Match,
    PairingJob,
    Penalty,
    Registration,
    ResultSubmission,
    Round,
    SetSwap,
    Tournament,
    bound_message,
)
from tournaments.permissions import can_manage, role_in
from tournaments.phases import ADVANCE_KINDS, phase_errors
from tournaments.placings import Stage as PlacingStage
from tournaments.standings import (
    PRESETS,
    format_percentage,
    percentage_formatter,
    tiebreaker_names,
    tiebreaker_order_errors,
)
from tournaments.tiebreakers import REGISTRY

User = get_user_model()


# --- tournaments ----------------------------------------------------------------------


def _filled_lazily(template: str, **values) -> str:
    """``template`` (marked with ``gettext_noop``) in the reader's language, with
    ``values`` filled in, when it is used rather than at import."""
    return lazy(lambda: _(template) % values, str)()


def _bounded(setting: str) -> dict:
    """Field options of a bounded setting, with the message that says the bounds."""
    low, high, _what, _unit = SETTING_BOUNDS[setting]
    message = bound_message(setting)
    return {
        "min_value": low,
        "max_value": high,
        "error_messages": {"min_value": message, "max_value": message},
    }


class SwissPhaseListSerializer(serializers.ListSerializer):
    """A form-encoded request sends the list as one JSON text, which is read as such
    (DRF would look for "swiss_phases[0]advance" keys and, finding none, ignore it)."""

    def get_value(self, dictionary):
        if html.is_html_input(dictionary) and self.field_name in dictionary:
            values = dictionary.getlist(self.field_name)
            if len(values) != 1:
                return values
            try:
                return json.loads(values[0])
            except ValueError:
                return values[0]  # not a list: refused with DRF's message
        return super().get_value(dictionary)


class SwissPhaseSerializer(serializers.Serializer):
    """One Swiss phase but the final one, and the cut into the next (docs/standings.md)."""

    ends_after_round = serializers.IntegerField(
        min_value=1,
        max_value=SETTING_BOUNDS["swiss_rounds"][1],
        help_text=gettext_lazy("Its last round."),
    )
    advance = serializers.ChoiceField(
        choices=list(ADVANCE_KINDS),
        help_text=gettext_lazy(
            '"points": players with at least `value` match points advance; "top": the '
            "first `value` of the standings (and anyone level with the last of them on every "
            'tiebreaker); "all": nobody is cut.'
        ),
    )
    value = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text=gettext_lazy('Match points ("points") or players ("top"); left out for "all".'),
    )

    class Meta:
        list_serializer_class = SwissPhaseListSerializer


class TournamentSerializer(serializers.ModelSerializer):
    # People are named by players/people.py (display names), except that the event's
    # organisers see the login names of its team: they add co-organisers by login name.
    organiser = serializers.SerializerMethodField()
    head_judge = serializers.PrimaryKeyRelatedField(
        queryset=User.objects.all(), required=False, allow_null=True
    )
    head_judge_username = serializers.SerializerMethodField()
    floor_judges = serializers.SerializerMethodField()
    floor_judge_ids = serializers.PrimaryKeyRelatedField(
        queryset=User.objects.all(),
        many=True,
        write_only=True,
        required=False,
        help_text=gettext_lazy("User ids of the floor judges (replaces the list)."),
    )
    co_organisers = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "The co-organisers: login names for the event's organisers, "
            "display names for everyone else."
        )
    )
    my_role = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            'The viewer\'s role in this event: "owner", "co_organiser", "judge", '
            '"staff" (site staff) or null.'
        )
    )
    players = serializers.IntegerField(source="player_count", read_only=True, default=None)
    swiss_phases = SwissPhaseSerializer(
        many=True,
        required=False,
        max_length=19,
        help_text=gettext_lazy(
            "Every Swiss phase but the final one, in order, with the cut into the next "
            "(applied when its last round is closed); empty: one phase. Each row is taken at "
            "the end of the player's last phase."
        ),
    )
    swiss_phase_ends = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=19,
        help_text=gettext_lazy(
            "The last round of each phase of `swiss_phases` (e.g. [9]). Written alone "
            '(the earlier form of the setting), a new end gets the cut "all" and an end already '
            "in `swiss_phases` keeps its cut."
        ),
    )
    standings_preset = serializers.ChoiceField(
        choices=list(PRESETS),
        write_only=True,
        required=False,
        error_messages={
            "invalid_choice": _filled_lazily(
                gettext_noop('"{input}" is not a standings preset; choose one of %(presets)s.'),
                presets=", ".join(PRESETS),
            )
        },
        help_text=_filled_lazily(
            gettext_noop(
                "Sets every standings convention at once (docs/standings.md): %(presets)s. "
                "Conventions given in the same request win over the preset."
            ),
            presets=", ".join(PRESETS),
        ),
    )
    tiebreakers = serializers.ListField(
        child=serializers.ChoiceField(
            choices=list(tiebreaker_names()),
            error_messages={
                "invalid_choice": _filled_lazily(
                    gettext_noop(
                        "Unknown tiebreaker {input!r}; use each of %(names)s at most once."
                    ),
                    names=", ".join(tiebreaker_names()),
                )
            },
        ),
        required=False,
        max_length=len(tiebreaker_names()),
        help_text=gettext_lazy(
            "The ranking order, each name at most once; "
            "empty: match_points, opponents_match_win, game_win, opponents_game_win."
        ),
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "date",
            "venue",
            "game",
            "games_to_win",
            "team_size",
            "organiser",
            "co_organisers",
            "head_judge",
            "head_judge_username",
            "floor_judges",
            "floor_judge_ids",
            "status",
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
            "swiss_phase_ends",
            "standings_preset",
            "tiebreakers",
            "publish_pairings",
            "publish_standings",
            "publish_results",
            "players",
            "my_role",
            "created_at",
        ]
        read_only_fields = [
            "id",
            "organiser",
            "co_organisers",
            "status",
            "created_at",
            "floor_judges",
        ]
        extra_kwargs = {
            **{setting: _bounded(setting) for setting in SETTING_BOUNDS},
            "game": {
                "help_text": "The game the event is of: "
                + ", ".join(GAMES)
                + ' (default "irondie"). It brings its defaults for games_to_win, '
                "match_minutes and game_minutes when they are not given (docs/events.md); "
                "fixed once a player has registered."
            },
            "pods": {
                "help_text": "Swiss pods: rounds seat tables of 4 and 3 (or 3) scored by "
                "placing, for games whose engine seats more than two (36d6, Dice Forge); "
                "needs no top cut; fixed once a round is paired (docs/pairing.md)."
            },
            "pod_mode": {
                "help_text": 'The tables of an event in pods: "four_three" (tables of 4, as '
                'few of 3 as fit) or "three" (tables of 3).'
            },
            "pods_online": {
                "help_text": gettext_lazy(
                    "Pod tables played online: when a round starts each table of two or "
                    "more players gets one game of the event's game, whose placings become "
                    "the table's; needs pods."
                )
            },
            "games_to_win": {
                "help_text": "The match format: game wins that take a match (1: best of one, "
                "2: best of three); default: the game's. Fixed once a round is paired."
            },
        }

    def validate_swiss_phases(self, value):
        phases = [
            {key: item[key] for key in ("ends_after_round", "advance", "value") if key in item}
            for item in value
        ]
        for item in phases:
            if item.get("value") is None:
                item.pop("value", None)
        if errors := phase_errors(phases):
            raise serializers.ValidationError(errors)
        return phases

    def validate_swiss_phase_ends(self, value):
        if value != sorted(set(value)):
            raise serializers.ValidationError(
                [_("Phase ends must be in order, each later than the one before.")]
            )
        return value

    def validate(self, attrs):
        if "swiss_phase_ends" in attrs:
            ends = attrs.pop("swiss_phase_ends")
            if "swiss_phases" in attrs:
                raise serializers.ValidationError(
                    {"swiss_phase_ends": [_("Give swiss_phases or swiss_phase_ends, not both.")]}
                )
            known = {
                item["ends_after_round"]: item
                for item in (self.instance.swiss_phases if self.instance is not None else [])
                if isinstance(item, dict) and "ends_after_round" in item
            }
            attrs["swiss_phases"] = [
                known.get(end, {"ends_after_round": end, "advance": "all"}) for end in ends
            ]
        return attrs

    def validate_tiebreakers(self, value):
        if errors := tiebreaker_order_errors(value):
            raise serializers.ValidationError(errors)
        return value

    def get_organiser(self, obj) -> str | None:
        return self._team_label(obj.organiser, obj)

    def get_head_judge_username(self, obj) -> str | None:
        return self._team_label(obj.head_judge, obj)

    def get_floor_judges(self, obj) -> list[str | None]:
        return [self._team_label(judge, obj) for judge in obj.floor_judges.all()]

    def get_co_organisers(self, obj) -> list[str | None]:
        return [self._team_label(person, obj) for person in obj.co_organisers.all()]

    def _team_label(self, person, tournament) -> str | None:
        viewer = self._viewer()
        if person is not None and can_manage(viewer, tournament):
            return person.get_username()
        return person_label(person, viewer)

    def _viewer(self):
        return getattr(self.context.get("request"), "user", None)

    def get_my_role(self, obj) -> str | None:
        request = self.context.get("request")
        return role_in(request.user, obj) if request is not None else None


class CoOrganiserSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150, help_text=gettext_lazy("The user's login name.")
    )


class StatusChangeSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=[
            Tournament.Status.DRAFT,
            Tournament.Status.REGISTRATION,
            Tournament.Status.CHECK_IN,
        ]
    )


class SeedSerializer(serializers.Serializer):
    seed = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text=gettext_lazy("Optional pairing seed."),
    )


# --- registrations --------------------------------------------------------------------


class PlayerBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "display_name", "player_number", "country", "club"]


class RegistrationSerializer(serializers.ModelSerializer):
    """The registered snapshot (the set reveal), never the swaps made since."""

    player = PlayerBriefSerializer(read_only=True)
    playing_dice = DieSerializer(many=True, read_only=True)
    additional_dice = DieSerializer(many=True, read_only=True)

    class Meta:
        model = Registration
        fields = [
            "id",
            "tournament",
            "player",
            "playing_dice",
            "additional_dice",
            "checked_in",
            "dropped",
            "dropped_after_round",
            "cut_after_round",
            "disqualified",
            "late_entry_round",
            "registered_at",
            "team",
            "pairing_unit",
            "team_accepted",
        ]
        read_only_fields = fields


class RegisterSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        required=False,
        help_text=gettext_lazy(
            "Organisers only; players register their own profile (leave it out)."
        ),
    )
    dice_set = serializers.PrimaryKeyRelatedField(
        queryset=DiceSet.objects.all(),
        required=False,
        allow_null=True,
        help_text=gettext_lazy(
            "The player's dice set: required for an IRONDIE event, refused for a game "
            "without dice sets (the event's `game`; docs/events.md)."
        ),
    )


# --- team events (docs/events.md "Team events") ----------------------------------------


class TeamMemberSerializer(serializers.Serializer):
    registration = serializers.IntegerField(source="pk")
    player = PlayerBriefSerializer()
    captain = serializers.BooleanField(source="pairing_unit")
    accepted = serializers.BooleanField(
        source="team_accepted",
        help_text=gettext_lazy("False while the player has not accepted the team."),
    )


class TeamSerializer(serializers.Serializer):
    """A team: its members (each with their own registration, set and swaps); the
    captain's registration (``registration``) is the team in pairings and standings."""

    id = serializers.IntegerField()
    tournament = serializers.IntegerField(source="tournament_id")
    name = serializers.CharField()
    registration = serializers.IntegerField(
        source="unit_id", help_text=gettext_lazy("The captain's registration: the team in matches.")
    )
    members = TeamMemberSerializer(many=True, source="members.all")
    complete = serializers.SerializerMethodField(
        help_text=gettext_lazy("Every member accepted (a team that is not is not paired).")
    )
    dropped = serializers.BooleanField(source="unit.dropped")
    final_place = serializers.IntegerField(source="unit.final_place", allow_null=True)

    def get_complete(self, team) -> bool:
        return all(member.team_accepted for member in team.members.all())


class TeamMatchSerializer(serializers.Serializer):
    """One of a team's matches, from the team's side."""

    match = serializers.IntegerField()
    round = serializers.IntegerField()
    stage = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    opponent = serializers.CharField(
        allow_null=True, help_text=gettext_lazy("The other team; null: a bye.")
    )
    opponent_team = serializers.IntegerField(allow_null=True)
    score = serializers.CharField(
        allow_null=True,
        help_text=gettext_lazy('Games won-lost(-drawn) by this team, e.g. "2-1"; null: none yet.'),
    )
    outcome = serializers.ChoiceField(
        choices=["win", "loss", "draw"],
        allow_null=True,
        help_text=gettext_lazy("Null: no result (yet)."),
    )


class TeamDetailSerializer(TeamSerializer):
    matches = TeamMatchSerializer(
        many=True,
        help_text=gettext_lazy("The team's published matches; results while results are public."),
    )


class TeamMemberEntrySerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    dice_set = serializers.PrimaryKeyRelatedField(
        queryset=DiceSet.objects.all(), help_text=gettext_lazy("The member's own dice set (9 + 3).")
    )


class RegisterTeamSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    captain = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        required=False,
        help_text=gettext_lazy(
            "Organisers name the captain; a player registering is the captain (leave it out)."
        ),
    )
    members = TeamMemberEntrySerializer(
        many=True,
        max_length=3,
        help_text=gettext_lazy(
            "Every member, the captain among them, each with their own dice set."
        ),
    )


class CheckInSerializer(serializers.Serializer):
    checked_in = serializers.BooleanField(default=True)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300, default="")


# --- rounds and matches ---------------------------------------------------------------
# The serializers below produce the answers (pages and API read the same ones) and so
# are what the OpenAPI schema says. A match's visibility rules arrive in the context:
# ``show_results`` (False: status and result hidden) and ``now`` (config.dbtime.db_now(),
# read once per request so a list of clocks agrees).


def score_text(match: Match) -> str:
    """A confirmed result as "2-1" (games won by A, by B), "-1" more for drawn games."""
    return format_score(match.games_a, match.games_b, match.games_drawn)


def _now(context) -> object:
    """The request's one reading of the database clock, taken on first use."""
    if context.get("now") is None:
        context["now"] = db_now()
    return context["now"]


class DirectOutput:
    """For answers listed by the hundred (matches, standings rows): ``represent`` builds
    the answer directly, because DRF's field machinery costs about 0.4 ms for each match.
    The declared fields still say the shape (and generate the schema); a test checks that
    ``represent`` gives exactly what they give (tests/test_api_schema.py)."""

    def to_representation(self, instance):
        return self.represent(instance)

    def by_fields(self, instance):
        """The answer as the declared fields build it."""
        return super().to_representation(instance)


def side_answer(registration) -> dict | None:
    """SideSerializer's answer, built directly (see DirectOutput)."""
    if registration is None:
        return None
    return {
        "registration": registration.pk,
        "player": registration.player_id,
        "name": registration.entry_name,
        "team": registration.team_id if registration.pairing_unit else None,
        "dropped": registration.dropped,
    }


class SideSerializer(serializers.Serializer):
    registration = serializers.IntegerField(source="pk")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(
        source="entry_name",
        help_text=gettext_lazy("The player's name; in a team event the team's."),
    )
    team = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "The team this side is (a team event; the player is its captain), else null."
        )
    )
    dropped = serializers.BooleanField()

    def get_team(self, registration) -> int | None:
        return registration.team_id if registration.pairing_unit else None


class MatchResultSerializer(serializers.Serializer):
    """A confirmed result."""

    games_a = serializers.IntegerField()
    games_b = serializers.IntegerField()
    games_drawn = serializers.IntegerField()
    score = serializers.SerializerMethodField()
    match_loss_a = serializers.BooleanField()
    match_loss_b = serializers.BooleanField()
    winner = serializers.IntegerField(source="winner_id", allow_null=True)
    is_draw = serializers.SerializerMethodField()

    def get_score(self, match) -> str:
        return score_text(match)

    def get_is_draw(self, match) -> bool:
        return match.winner_id is None and not match.is_bye


CLOCK_STATES = ["not_started", "running", "paused", "time_called", "finished"]
ROUND_CLOCK_STATES = ["not_started", "running", "paused", "finished"]
SIDES = ["a", "b"]


class MatchClockSerializer(serializers.Serializer):
    """The shape of ``tournaments.clocks.match_clock`` (which builds it): a match's
    deadline with the server's time, so a page counts down without drifting."""

    match = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(choices=CLOCK_STATES)
    server_time = serializers.DateTimeField()
    deadline_at = serializers.DateTimeField(allow_null=True)
    remaining_seconds = serializers.FloatField(
        allow_null=True, help_text=gettext_lazy("Negative once the deadline has passed.")
    )
    extension_minutes = serializers.FloatField()
    time_called_at = serializers.DateTimeField(allow_null=True)
    game = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("The game being played.")
    )
    game_deadline_at = serializers.DateTimeField(allow_null=True)
    game_remaining_seconds = serializers.FloatField(allow_null=True)
    sudden_death_game = serializers.IntegerField(allow_null=True)
    sudden_death_from_next_turn = serializers.BooleanField()


class PodTableClockSerializer(serializers.Serializer):
    """The shape of ``tournaments.clocks.pod_table_clock`` (which builds it): a pod
    table's time, the round's end plus its extensions (its game's limit when online)."""

    pod_table = serializers.IntegerField(help_text=gettext_lazy("The table's id."))
    round = serializers.IntegerField(help_text=gettext_lazy("The round's number."))
    table = serializers.IntegerField(help_text=gettext_lazy("The table's number in the round."))
    state = serializers.ChoiceField(choices=CLOCK_STATES)
    server_time = serializers.DateTimeField()
    deadline_at = serializers.DateTimeField(allow_null=True)
    remaining_seconds = serializers.FloatField(
        allow_null=True, help_text=gettext_lazy("Negative once the deadline has passed.")
    )
    extension_minutes = serializers.FloatField()
    time_called_at = serializers.DateTimeField(allow_null=True)
    online = serializers.BooleanField(help_text=gettext_lazy("The table plays online."))


class RoundClockSerializer(serializers.Serializer):
    """The shape of ``tournaments.clocks.round_clock`` (which builds it)."""

    round = serializers.IntegerField(help_text=gettext_lazy("The round's number."))
    state = serializers.ChoiceField(choices=ROUND_CLOCK_STATES)
    server_time = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True)
    remaining_seconds = serializers.FloatField(allow_null=True)


class MatchSerializer(DirectOutput, serializers.Serializer):
    """One pairing. Context: ``show_results`` (False hides the status and the result)
    and ``now``."""

    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round_id")
    table = serializers.IntegerField(allow_null=True)
    bracket_position = serializers.IntegerField(allow_null=True)
    is_bye = serializers.BooleanField()
    player_a = SideSerializer()
    player_b = SideSerializer(allow_null=True, help_text=gettext_lazy("Null for a bye."))
    reasons = serializers.ListField(
        child=serializers.DictField(),
        help_text=gettext_lazy("Why the pairing solver chose this pairing."),
    )
    status = serializers.SerializerMethodField(
        help_text=gettext_lazy("Null when results are not public.")
    )
    result = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "The confirmed result; null before it, or when results are not public."
        )
    )
    current_game = serializers.IntegerField()
    current_game_started = serializers.SerializerMethodField()
    next_game = serializers.IntegerField(help_text=gettext_lazy("The game that starts next."))
    next_game_ready = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            'Sides ("a", "b") that have said the next game may start (paper play).'
        )
    )
    version = serializers.IntegerField()
    clock = serializers.SerializerMethodField()

    def _show_results(self) -> bool:
        return self.context.get("show_results", True)

    @extend_schema_field(serializers.ChoiceField(choices=Match.Status.choices, allow_null=True))
    def get_status(self, match) -> str | None:
        return match.status if self._show_results() else None

    @extend_schema_field(MatchResultSerializer(allow_null=True))
    def get_result(self, match) -> dict | None:
        if not self._show_results() or match.status != Match.Status.CONFIRMED:
            return None
        return self._result_serializer.to_representation(match)

    @cached_property
    def _result_serializer(self):
        # One instance for every match of a list: building a serializer copies its fields.
        return MatchResultSerializer()

    def represent(self, match) -> dict:
        shown = self._show_results()
        result = None
        if shown and match.status == Match.Status.CONFIRMED:
            result = {
                "games_a": match.games_a,
                "games_b": match.games_b,
                "games_drawn": match.games_drawn,
                "score": score_text(match),
                "match_loss_a": match.match_loss_a,
                "match_loss_b": match.match_loss_b,
                "winner": match.winner_id,
                "is_draw": match.winner_id is None and not match.is_bye,
            }
        return {
            "id": match.pk,
            "round": match.round_id,
            "table": match.table,
            "bracket_position": match.bracket_position,
            "is_bye": match.is_bye,
            "player_a": side_answer(match.player_a),
            "player_b": side_answer(match.player_b),
            "reasons": match.reasons,
            "status": match.status if shown else None,
            "result": result,
            "current_game": match.current_game,
            "current_game_started": match.current_game_started_at is not None,
            "next_game": match.next_game,
            "next_game_ready": match.ready_sides(),
            "version": match.version,
            "clock": match_clock(match, _now(self.context)),
        }

    def get_current_game_started(self, match) -> bool:
        return match.current_game_started_at is not None

    @extend_schema_field(serializers.ListField(child=serializers.ChoiceField(choices=SIDES)))
    def get_next_game_ready(self, match) -> list[str]:
        return match.ready_sides()

    @extend_schema_field(MatchClockSerializer)
    def get_clock(self, match) -> dict:
        return match_clock(match, _now(self.context))


class GameStartSerializer(serializers.Serializer):
    """What a start-game request achieved: the game started, or whose word it awaits."""

    game = serializers.IntegerField()
    started = serializers.BooleanField()
    ready = serializers.ListField(child=serializers.ChoiceField(choices=SIDES))
    awaiting = serializers.ListField(child=serializers.ChoiceField(choices=SIDES))
    detail = serializers.CharField(help_text=gettext_lazy("One sentence."))

    def to_representation(self, match):
        number = self.context["game"]
        started = match.current_game == number and match.current_game_started_at is not None
        ready = ["a", "b"] if started else match.ready_sides()
        awaiting = [side for side in ("a", "b") if side not in ready]
        if started:
            detail = f"Game {number} has started."
        else:
            names = [getattr(match, f"player_{side}").entry_name for side in awaiting]
            detail = f"Game {number} starts when {' and '.join(names)} also say so."
        return super().to_representation(
            {
                "game": number,
                "started": started,
                "ready": ready,
                "awaiting": awaiting,
                "detail": detail,
            }
        )


class MatchGameStartSerializer(MatchSerializer):
    """The match after a start-game request. Context: ``game`` (the number asked for)."""

    game_start = serializers.SerializerMethodField()

    @extend_schema_field(GameStartSerializer)
    def get_game_start(self, match) -> dict:
        return GameStartSerializer(match, context=self.context).data

    def represent(self, match) -> dict:
        return {**super().represent(match), "game_start": self.get_game_start(match)}


class PairingJobSerializer(serializers.Serializer):
    """A round being paired in the background (docs/pairing.md "Background pairing"):
    poll status_url until status is done (round is the new draft) or failed (error)."""

    id = serializers.IntegerField()
    tournament = serializers.IntegerField(source="tournament_id")
    number = serializers.IntegerField(help_text=gettext_lazy("The round being paired."))
    status = serializers.ChoiceField(choices=PairingJob.Status.choices)
    stage = serializers.CharField(
        help_text=gettext_lazy("The pairing tier running: lower_bound, windows or exact.")
    )
    work_done = serializers.IntegerField(
        help_text=gettext_lazy("Work spent so far (cubed matching nodes).")
    )
    work_next = serializers.IntegerField(
        help_text=gettext_lazy("Work of the matching now running.")
    )
    estimate = serializers.IntegerField(
        help_text=gettext_lazy("Work estimated when the round was handed over.")
    )
    error = serializers.CharField(help_text=gettext_lazy("Why the job failed (empty otherwise)."))
    round = serializers.IntegerField(source="round_id", allow_null=True)
    created_at = serializers.DateTimeField(format=None)
    started_at = serializers.DateTimeField(allow_null=True, format=None)
    finished_at = serializers.DateTimeField(allow_null=True, format=None)
    status_url = serializers.SerializerMethodField()

    def get_status_url(self, job) -> str:
        path = reverse("tournament-pairing-job", args=[job.tournament_id, job.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class RoundSerializer(serializers.Serializer):
    """One round with its matches (prefetched). Context: ``show_results``, ``now`` and
    ``staff`` (judges and organisers also get the pairing seed and cost)."""

    OPTIONAL_OUTPUT = ("pairing_seed", "pairing_cost", "pairing_proof")  # staff only

    id = serializers.IntegerField()
    tournament = serializers.IntegerField(source="tournament_id")
    number = serializers.IntegerField()
    stage = serializers.ChoiceField(choices=Round.Stage.choices)
    status = serializers.ChoiceField(choices=Round.Status.choices)
    started_at = serializers.DateTimeField(allow_null=True, format=None)
    closed_at = serializers.DateTimeField(allow_null=True, format=None)
    clock = serializers.SerializerMethodField()
    matches = MatchSerializer(many=True, source="matches.all")
    pairing_seed = serializers.CharField(
        required=False, help_text=gettext_lazy("Judges and organisers.")
    )
    pairing_cost = serializers.DictField(
        required=False, help_text=gettext_lazy("Judges and organisers.")
    )
    pairing_proof = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "Judges and organisers, pod rounds: the seating's proof, or its cost beside "
            "the least any seating could cost (not proved) or beside its cost as paired "
            "(changed by hand); null for two-player rounds."
        )
    )

    def get_pairing_proof(self, round_) -> str | None:
        if "method" not in (round_.pairing_cost or {}):
            return None
        return words.pod_proof_in_words(round_.pairing_cost)

    @extend_schema_field(RoundClockSerializer)
    def get_clock(self, round_) -> dict:
        return round_clock(round_, _now(self.context))

    def to_representation(self, round_):
        data = super().to_representation(round_)
        if not self.context.get("staff"):
            for name in self.OPTIONAL_OUTPUT:
                del data[name]
        return data


class RoundListSerializer(serializers.Serializer):
    """The rounds of an event as the viewer may see them (``published`` False: the
    pairings are not public and ``results`` is empty)."""

    published = serializers.BooleanField()
    detail = serializers.CharField(
        allow_null=True, help_text=gettext_lazy("Why something is hidden.")
    )
    results = RoundSerializer(many=True)


class SwapPlayersSerializer(serializers.Serializer):
    first = serializers.PrimaryKeyRelatedField(queryset=Registration.objects.all())
    second = serializers.PrimaryKeyRelatedField(queryset=Registration.objects.all())
    reason = serializers.CharField(max_length=300)


GAME_CHOICES = [("a", "Player A won"), ("b", "Player B won"), ("draw", "Draw")]


class ReportSerializer(serializers.Serializer):
    games = serializers.ListField(
        child=serializers.ChoiceField(choices=GAME_CHOICES), allow_empty=True, max_length=5
    )
    intentional_draw = serializers.BooleanField(default=False)
    conceded_by = serializers.ChoiceField(
        choices=[("", "Nobody"), ("a", "A"), ("b", "B")], default="", allow_blank=True
    )
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
    expected_version = serializers.IntegerField(required=False, allow_null=True, min_value=0)


class SubmissionChoiceSerializer(serializers.Serializer):
    submission = serializers.IntegerField(
        required=False,
        help_text=gettext_lazy("The version's id; default: the latest pending report."),
    )
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class SubmissionSerializer(serializers.ModelSerializer):
    submitted_by = PersonField()
    confirmed_by = PersonField()
    conceded_by = serializers.ChoiceField(
        choices=[("a", "A"), ("b", "B")], allow_blank=True, read_only=True
    )

    class Meta:
        model = ResultSubmission
        fields = [
            "id",
            "match",
            "number",
            "source",
            "submitted_by",
            "submitted_for",
            "games",
            "intentional_draw",
            "conceded_by",
            "match_loss_a",
            "match_loss_b",
            "note",
            "status",
            "confirmed_by",
            "confirmed_at",
            "created_at",
        ]
        read_only_fields = fields


class StartGameSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        min_value=1, max_value=5, help_text=gettext_lazy("The match's next game (``next_game``).")
    )
    games_so_far = serializers.ListField(
        child=serializers.ChoiceField(choices=["a", "b", "draw"]),
        max_length=4,
        required=False,
        help_text=(
            gettext_lazy(
                "Only after time is called (paper play): the games played so far in order, an "
                "unfinished game left out. A further game starts only if they leave the match "
                "needing one (the top-cut decider while level)."
            )
        ),
    )


class RecordSwapSerializer(serializers.Serializer):
    registration = serializers.IntegerField(
        required=False,
        help_text=gettext_lazy("Judges only; players swap for themselves (leave it out)."),
    )
    swap_out = serializers.ListField(
        child=serializers.IntegerField(min_value=0), min_length=1, max_length=3
    )
    swap_in = serializers.ListField(
        child=serializers.IntegerField(min_value=0), min_length=1, max_length=3
    )


class SwapSerializer(serializers.ModelSerializer):
    swapped_out = DieSerializer(many=True, read_only=True)
    swapped_in = DieSerializer(many=True, read_only=True)
    playing_after = DieSerializer(many=True, read_only=True)
    additional_after = DieSerializer(many=True, read_only=True)
    recorded_by = PersonField()

    class Meta:
        model = SetSwap
        fields = [
            "id",
            "registration",
            "match",
            "before_game",
            "swapped_out",
            "swapped_in",
            "playing_after",
            "additional_after",
            "superseded",
            "recorded_by",
            "created_at",
        ]
        read_only_fields = fields


class PenaltyInSerializer(serializers.Serializer):
    registration = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Penalty.Kind.choices)
    reason = serializers.CharField(max_length=300)


class PenaltySerializer(serializers.ModelSerializer):
    judge = PersonField()
    player = serializers.CharField(source="registration.player.display_name", read_only=True)

    class Meta:
        model = Penalty
        fields = ["id", "registration", "player", "match", "kind", "reason", "judge", "created_at"]
        read_only_fields = fields


class AuditSerializer(serializers.ModelSerializer):
    actor = PersonField()

    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "created_at",
            "actor",
            "action",
            "object_type",
            "object_id",
            "before",
            "after",
            "reason",
        ]
        read_only_fields = fields


# --- judges' queue --------------------------------------------------------------------


class QueueMatchSerializer(MatchSerializer):
    """A match in the judges' queue, with its open result versions (prefetched into
    ``open_submissions``)."""

    submissions = SubmissionSerializer(many=True, source="open_submissions")

    def represent(self, match) -> dict:
        submissions = self.fields["submissions"].to_representation(match.open_submissions)
        return {**super().represent(match), "submissions": submissions}


# --- standings ------------------------------------------------------------------------


class PercentageSerializer(serializers.Serializer):
    """An exact fraction as a string plus its rounded percentage."""

    fraction = serializers.SerializerMethodField(help_text=gettext_lazy('e.g. "7/9"'))
    percent = serializers.SerializerMethodField(help_text=gettext_lazy('e.g. "77.78%"'))

    def get_fraction(self, value) -> str:
        return str(value)

    def get_percent(self, value) -> str:
        return format_percentage(value)


def percentage_answer(value, places: int = 2) -> dict:
    """PercentageSerializer's answer, built directly (see DirectOutput); ``places`` of
    the percentage follow the tournament's standings decimals."""
    return {"fraction": str(value), "percent": format_percentage(value, places)}


class _PercentageAnswers:
    """percentage_answer for a whole table: rows share few distinct percentages (a
    player's MW% is points over rounds), so each is formatted once."""

    def __init__(self, places: int) -> None:
        self._percent = percentage_formatter(places)

    def __call__(self, value) -> dict:
        return {"fraction": str(value), "percent": self._percent(value)}


class OpponentLineSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round_number")
    registration = serializers.IntegerField(source="opponent_id")
    name = serializers.CharField(source="opponent_name")
    match_win = serializers.CharField(help_text=gettext_lazy("Exact fraction, floored."))
    match_win_floored = serializers.BooleanField()
    game_win = serializers.CharField(help_text=gettext_lazy("Exact fraction, floored."))
    game_win_floored = serializers.BooleanField()


class ExplanationSerializer(serializers.Serializer):
    """The arithmetic behind one row (tournaments.standings.RowExplanation)."""

    lines = serializers.SerializerMethodField()
    opponents = OpponentLineSerializer(many=True)

    def get_lines(self, explanation) -> list[str]:
        return words.explanation_lines(explanation)  # in the reader's language


class TiebreakValuesSerializer(serializers.Serializer):
    """The figures of the chosen tiebreakers outside the MTR set (docs/standings.md),
    each an exact value as a string ("12", "7/2"); only the chosen ones are present."""

    OPTIONAL_OUTPUT = tuple(REGISTRY)

    def get_fields(self):
        return {
            name: serializers.CharField(required=False, help_text=gettext_lazy(system.description))
            for name, system in REGISTRY.items()
        }


def tiebreak_values_answer(row) -> dict:
    return {name: str(value) for name, value in row.tiebreak_values.items()}


class ChosenTiebreakValuesField(serializers.SerializerMethodField):
    """Left out of a row when no tiebreaker outside the MTR set is chosen."""

    def get_attribute(self, row):
        if not row.tiebreak_values:
            raise SkipField
        return super().get_attribute(row)


class AskedExplanationField(serializers.SerializerMethodField):
    """Left out of a row unless the context asks for explanations (``explain``)."""

    def get_attribute(self, row):
        if not self.context.get("explain"):
            raise SkipField
        return super().get_attribute(row)


class StandingsRowSerializer(DirectOutput, serializers.Serializer):
    """One row of the standings (tournaments.standings.StandingsRow). Context:
    ``standings`` (the table, which explains each row) and ``explain``: whether each row
    carries its arithmetic (``?explain=1``; building it costs ten times the row)."""

    # tiebreak_values: when such tiebreakers are chosen; explanation: when asked for.
    OPTIONAL_OUTPUT = ("tiebreak_values", "explanation")

    rank = serializers.IntegerField()
    registration = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    dropped = serializers.BooleanField()
    phase = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "The Swiss phase (1, 2, ...) at whose end the row is taken: the last "
            "phase the player played in (1 when the event has one phase)."
        )
    )
    cut_after_round = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy(
            "The round after which the player did not make the cut into the next "
            "Swiss phase (shown as “did not advance”); null for everyone else."
        ),
    )
    match_points = serializers.IntegerField()
    record = serializers.CharField(help_text=gettext_lazy("Wins-losses-draws; byes count as wins."))
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    byes = serializers.IntegerField()
    rounds_played = serializers.IntegerField()
    game_points = serializers.IntegerField()
    match_win = PercentageSerializer()
    game_win = PercentageSerializer()
    opponents_match_win = PercentageSerializer()
    opponents_game_win = PercentageSerializer()
    tiebreak_values = ChosenTiebreakValuesField()
    explanation = AskedExplanationField()

    def get_phase(self, row) -> int:
        return self.context["standings"].phase(row.player_id)

    @extend_schema_field(TiebreakValuesSerializer)
    def get_tiebreak_values(self, row) -> dict:
        return tiebreak_values_answer(row)

    @extend_schema_field(ExplanationSerializer)
    def get_explanation(self, row) -> dict:
        explanation = self.context["standings"].explain(row.player_id)
        return self._explanation_serializer.to_representation(explanation)

    @cached_property
    def _explanation_serializer(self):
        # One instance for every row: building a serializer copies its fields.
        return ExplanationSerializer()

    @cached_property
    def _percentage(self) -> _PercentageAnswers:
        return _PercentageAnswers(self.context["standings"].conventions.decimals - 2)

    def represent(self, row) -> dict:
        percentage = self._percentage
        answer = {
            "rank": row.rank,
            "registration": row.player_id,
            "name": row.name,
            "dropped": row.dropped,
            "phase": self.context["standings"].phase(row.player_id),
            "cut_after_round": row.cut_after_round,
            "match_points": row.match_points,
            "record": row.record,
            "wins": row.wins,
            "losses": row.losses,
            "draws": row.draws,
            "byes": row.byes,
            "rounds_played": row.rounds_played,
            "game_points": row.game_points,
            "match_win": percentage(row.match_win),
            "game_win": percentage(row.game_win),
            "opponents_match_win": percentage(row.opponents_match_win),
            "opponents_game_win": percentage(row.opponents_game_win),
        }
        if row.tiebreak_values:
            answer["tiebreak_values"] = tiebreak_values_answer(row)
        if self.context.get("explain"):
            answer["explanation"] = self._explanation_answer(row)
        return answer

    def _explanation_answer(self, row) -> dict:
        table = self.context["standings"]
        explanation = table.explain(row.player_id)
        return {
            "lines": words.explanation_lines(explanation, table.conventions.decimals - 2),
            "opponents": [
                {
                    "round": line.round_number,
                    "registration": line.opponent_id,
                    "name": line.opponent_name,
                    "match_win": str(line.match_win),
                    "match_win_floored": line.match_win_floored,
                    "game_win": str(line.game_win),
                    "game_win_floored": line.game_win_floored,
                }
                for line in explanation.opponents
            ],
        }


class ExplainedStandingsRowSerializer(StandingsRowSerializer):
    """One row of the standings with its arithmetic (always present here)."""

    OPTIONAL_OUTPUT = ("tiebreak_values",)

    explanation = serializers.SerializerMethodField()

    def __init__(self, *args, **kwargs):
        kwargs["context"] = {**kwargs.get("context", {}), "explain": True}
        super().__init__(*args, **kwargs)


class StandingsSerializer(serializers.Serializer):
    """The Swiss standings, or ``published`` False with empty rows while they are not
    public. The instance: ``{"published", "detail", "standings"}``."""

    published = serializers.BooleanField()
    detail = serializers.CharField(
        allow_null=True, help_text=gettext_lazy("Why something is hidden.")
    )
    tiebreakers = serializers.SerializerMethodField()
    floor = serializers.SerializerMethodField(
        help_text=gettext_lazy('The percentage floor, e.g. "1/3".')
    )
    as_of_round = serializers.SerializerMethodField(
        help_text=gettext_lazy("The Swiss round these standings stand after (?round=N); null: now.")
    )
    rows = serializers.SerializerMethodField(
        help_text=gettext_lazy("Each row carries its `explanation` only with `?explain=1`.")
    )

    def get_as_of_round(self, answer) -> int | None:
        table = answer["standings"]
        return table.as_of_round if table is not None else None

    def get_tiebreakers(self, answer) -> list[str]:
        table = answer["standings"]
        return [str(t) for t in table.tiebreakers] if table is not None else []

    def get_floor(self, answer) -> str:
        table = answer["standings"]
        return str(table.floor) if table is not None else ""

    @extend_schema_field(StandingsRowSerializer(many=True))
    def get_rows(self, answer) -> list[dict]:
        table = answer["standings"]
        if table is None:
            return []
        context = {"standings": table, "explain": self.context.get("explain", False)}
        return StandingsRowSerializer(table, many=True, context=context).data


# --- final placings ---------------------------------------------------------------------


class PlacingSerializer(serializers.Serializer):
    """One line of the final placings (tournaments.placings.Placing)."""

    place = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy("Shared places repeat (1, 2, 3, 3, 5); null if disqualified."),
    )
    registration = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    stage = serializers.ChoiceField(choices=[stage.value for stage in PlacingStage])
    finish = serializers.CharField(
        help_text=gettext_lazy(
            '"Champion", the bracket round lost ("Final", "Semifinals", ...), '
            '"Swiss" below the cut, or "Disqualified".'
        )
    )
    seed = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("Top-cut seed; null below it.")
    )
    swiss_rank = serializers.IntegerField(help_text=gettext_lazy("Rank in the Swiss standings."))
    dropped = serializers.BooleanField()
    disqualified = serializers.BooleanField()


class PlacingsSerializer(serializers.Serializer):
    """The final placings: ``final`` False with empty rows until the event is finished
    (or while its standings or results are not public). The instance:
    ``{"final", "detail", "bracket_losers", "placings"}``."""

    final = serializers.BooleanField()
    detail = serializers.CharField(
        allow_null=True, help_text=gettext_lazy("Why there are no rows.")
    )
    bracket_losers = serializers.ChoiceField(
        choices=Tournament.BracketLosers.choices,
        help_text=gettext_lazy(
            "Losers of one bracket round share a place or are split by Swiss order."
        ),
    )
    rows = PlacingSerializer(many=True, source="placings")


# --- top-cut bracket --------------------------------------------------------------------


class BracketSlotSerializer(serializers.Serializer):
    registration = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    seed = serializers.IntegerField()


class BracketMatchSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    a = BracketSlotSerializer(
        allow_null=True, help_text=gettext_lazy("Null until the slot is decided.")
    )
    b = BracketSlotSerializer(
        allow_null=True, help_text=gettext_lazy("Null until the slot is decided.")
    )
    winner = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy("The winner's registration; null while results are hidden."),
    )
    score = serializers.CharField(
        allow_null=True,
        help_text=gettext_lazy(
            'Games won, slot a first ("2-1"; "1-1-1" with a drawn game); null until '
            "the result is confirmed or while results are hidden."
        ),
    )


class BracketRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField(help_text=gettext_lazy('e.g. "Semifinals".'))
    matches = BracketMatchSerializer(many=True)


class BracketSerializer(serializers.Serializer):
    """The top cut: ``started`` False (no top cut yet, or the pairings not public)
    with empty rounds; else its size, seeds, rounds and the champion. Built by
    ``tournaments.selectors.bracket_view`` for the API and the bracket page."""

    started = serializers.BooleanField()
    detail = serializers.CharField(
        allow_null=True, help_text=gettext_lazy("Why something is hidden.")
    )
    size = serializers.IntegerField(required=False)
    seeds = BracketSlotSerializer(many=True, required=False)
    champion = serializers.IntegerField(
        allow_null=True, required=False, help_text=gettext_lazy("Null while results are hidden.")
    )
    rounds = BracketRoundSerializer(many=True)

    OPTIONAL_OUTPUT = ("size", "seeds", "champion")  # once the top cut has started

    def to_representation(self, answer):
        data = super().to_representation(answer)
        return {key: value for key, value in data.items() if key in answer}


# --- a player's record across events (GET /api/players/{id}/rating/) --------------------


class RatingFiguresSerializer(serializers.Serializer):
    mu = serializers.FloatField(
        help_text=gettext_lazy("The skill estimate (openskill Plackett-Luce).")
    )
    sigma = serializers.FloatField(help_text=gettext_lazy("Its uncertainty."))
    ordinal = serializers.FloatField(help_text=gettext_lazy("The displayed rating: mu - 3 sigma."))


class RatingHistoryEntrySerializer(serializers.Serializer):
    match = serializers.IntegerField(
        source="match_id",
        allow_null=True,
        help_text=gettext_lazy("The match rated; null for a pod table."),
    )
    table = serializers.IntegerField(
        source="table_id",
        allow_null=True,
        help_text=gettext_lazy("The pod table rated; null for a match."),
    )
    game = serializers.ChoiceField(
        choices=game_choices(), help_text=gettext_lazy("The game whose rating moved.")
    )
    kind = serializers.ChoiceField(
        choices=["match", "team", "table"],
        help_text=gettext_lazy("A two-player match, a team match or a pod table."),
    )
    tournament = serializers.IntegerField(source="tournament_id")
    tournament_name = serializers.CharField()
    tournament_date = serializers.DateField()
    round = serializers.IntegerField(source="round_number")
    stage = serializers.ChoiceField(choices=Round.Stage.choices)
    opponent = serializers.IntegerField(
        source="opponent_id",
        allow_null=True,
        help_text=gettext_lazy("The opponent's player id (two-player matches only)."),
    )
    opponent_name = serializers.CharField(
        help_text=gettext_lazy("The opponent, or the other team; empty at a pod table.")
    )
    team_name = serializers.CharField(
        help_text=gettext_lazy("The player's team in a team match; empty otherwise.")
    )
    place = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy("The place rated (1 = first, shared when tied); null: not rated."),
    )
    field_size = serializers.IntegerField(
        help_text=gettext_lazy("Sides rated together: 2 for a match, the seats of a pod table.")
    )
    outcome = serializers.ChoiceField(
        choices=["win", "loss", "draw", "placed", ""],
        help_text=gettext_lazy('"" when the match was not rated (docs/ratings.md).'),
    )
    score = serializers.CharField(
        help_text=gettext_lazy("Games from this player's side, e.g. 2-1.")
    )
    before = RatingFiguresSerializer()
    after = RatingFiguresSerializer()
    change = serializers.FloatField(help_text=gettext_lazy("after.ordinal - before.ordinal"))


class GameRatingSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=game_choices())
    label = serializers.CharField(help_text=gettext_lazy("The game's name."))
    rating = RatingFiguresSerializer()
    rated_matches = serializers.IntegerField(
        help_text=gettext_lazy("Rated matches and pod tables in this game.")
    )
    hidden_matches = serializers.IntegerField(
        help_text=gettext_lazy("Rated matches of events whose results you may not see (left out).")
    )


class PlayerEventSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament_id")
    tournament_name = serializers.CharField()
    tournament_date = serializers.DateField()
    game = serializers.ChoiceField(
        choices=game_choices(), help_text=gettext_lazy("The game the event was of.")
    )
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    final_place = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy("Once the event is finished and its standings are public."),
    )
    record = serializers.CharField(
        help_text=gettext_lazy("Wins-losses-draws, byes counted as wins.")
    )
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    byes = serializers.IntegerField()


class PlayerRatingSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk")
    display_name = serializers.CharField(source="player.display_name")
    player_number = serializers.CharField(source="player.player_number")
    ratings = GameRatingSerializer(
        many=True,
        help_text=gettext_lazy("One rating per game the player was rated in (docs/ratings.md)."),
    )
    hidden_matches = serializers.IntegerField(
        help_text=gettext_lazy("Rated matches of events whose results you may not see (left out).")
    )
    history = RatingHistoryEntrySerializer(many=True, help_text=gettext_lazy("Newest first."))
    events = PlayerEventSerializer(many=True, help_text=gettext_lazy("Latest event first."))


# --- Swiss pods (docs/pairing.md "Swiss pods") ------------------------------------------------


class PodSeatSerializer(serializers.Serializer):
    """One seat of a pod table; the placing and its points only while results are seen."""

    seat = serializers.IntegerField()
    registration = serializers.IntegerField()
    player = serializers.CharField()
    placing = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("1 = first; shared places repeat; null: not in.")
    )
    points = serializers.CharField(
        allow_null=True,
        help_text=gettext_lazy('The pod points of the placing as a fraction, e.g. "5/2".'),
    )


class PodTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    size = serializers.IntegerField()
    bye = serializers.BooleanField(help_text=gettext_lazy("A lone player's table of one seat."))
    complete = serializers.BooleanField(help_text=gettext_lazy("Every seat has its placing."))
    seats = PodSeatSerializer(many=True)


class PodRoundSerializer(serializers.Serializer):
    """A round's pod tables. The instance: ``{"pods", "round", "status", "tables"}``."""

    pods = serializers.BooleanField(
        help_text=gettext_lazy("False: the event is paired two-player (no tables).")
    )
    round = serializers.IntegerField()
    status = serializers.CharField()
    tables = PodTableSerializer(many=True)


class PlacingsInputSerializer(serializers.Serializer):
    table = serializers.IntegerField(
        min_value=1, help_text=gettext_lazy("The table's number in the round.")
    )
    placings = serializers.DictField(
        child=serializers.IntegerField(),
        allow_empty=False,
        help_text=gettext_lazy(
            "Registration id -> place (1 to the table's size; players sharing a place "
            "have the same number and the next place skips: 1, 1, 3, 4)."
        ),
    )


class PodReportInputSerializer(PlacingsInputSerializer):
    """A seated player reports their table's placings (services.report_placings)."""

    note = serializers.CharField(
        max_length=300,
        required=False,
        default="",
        allow_blank=True,
        help_text=gettext_lazy("Anything the tablemates or the judges should know."),
    )


class PodReportChoiceSerializer(serializers.Serializer):
    """Which table's pending report a tablemate confirms or disputes."""

    table = serializers.IntegerField(
        min_value=1, help_text=gettext_lazy("The table's number in the round.")
    )
    report = serializers.IntegerField(
        required=False,
        help_text=gettext_lazy(
            "The report's id as last seen; refused when a newer report replaced it. "
            "Left out: the table's pending report."
        ),
    )
    note = serializers.CharField(
        max_length=300,
        required=False,
        default="",
        allow_blank=True,
        help_text=gettext_lazy("A dispute: what is wrong."),
    )


class PodReportSerializer(serializers.Serializer):
    """One version of a table's placings as a player reported them."""

    id = serializers.IntegerField()
    number = serializers.IntegerField(help_text=gettext_lazy("Version number within the table."))
    status = serializers.CharField(
        help_text=gettext_lazy('"pending", "confirmed", "disputed" or "superseded".')
    )
    submitted_for = serializers.IntegerField(
        source="submitted_for_id",
        allow_null=True,
        help_text=gettext_lazy("The reporting player's registration id."),
    )
    placings = serializers.DictField(
        child=serializers.IntegerField(),
        help_text=gettext_lazy("Registration id -> place."),
    )
    confirmed_by = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=gettext_lazy("Registration ids of the players who agree, the reporter first."),
    )
    disputed_by = serializers.IntegerField(
        source="disputed_by_id",
        allow_null=True,
        help_text=gettext_lazy("The registration id of the tablemate who disputed it."),
    )
    note = serializers.CharField()


class QueueSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    registration = serializers.IntegerField(source="registration_id")
    player = serializers.CharField(source="registration.player.display_name")


class QueueTableSerializer(serializers.Serializer):
    """A pod table without its placings in the judges' queue (pod_selectors.pod_queue)."""

    table = serializers.IntegerField(source="table.number")
    size = serializers.IntegerField(source="table.size")
    state = serializers.CharField(
        help_text=gettext_lazy('"at_time", "disputed", "reported" or "waiting", most urgent first.')
    )
    seats = QueueSeatSerializer(many=True)
    report = PodReportSerializer(
        allow_null=True, help_text=gettext_lazy("The table's open report, if any.")
    )


class QueueSerializer(serializers.Serializer):
    round = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("The current round's number.")
    )
    results = QueueMatchSerializer(many=True)
    tables = QueueTableSerializer(
        many=True,
        help_text=gettext_lazy(
            "An event in pods: the round's tables still to be placed (else empty)."
        ),
    )


class PodStandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    registration = serializers.IntegerField()
    player = serializers.CharField()
    dropped = serializers.BooleanField()
    points = serializers.CharField(help_text=gettext_lazy('Exact, e.g. "11/2".'))
    points_display = serializers.CharField(help_text=gettext_lazy('e.g. "5.5".'))
    tables = serializers.IntegerField()
    byes = serializers.IntegerField()
    opponents_placing = serializers.CharField(
        help_text=gettext_lazy("Opponents' placing percentage as an exact fraction.")
    )
    placing = serializers.CharField(
        help_text=gettext_lazy("Own placing percentage as an exact fraction.")
    )
    opponents_opponents_placing = serializers.CharField()


class PodStandingsSerializer(serializers.Serializer):
    """The pod standings. The instance: ``{"pods", "published", "detail", "as_of_round",
    "rows"}``."""

    pods = serializers.BooleanField()
    published = serializers.BooleanField()
    detail = serializers.CharField(allow_null=True)
    as_of_round = serializers.IntegerField(allow_null=True)
    rows = PodStandingsRowSerializer(many=True)
