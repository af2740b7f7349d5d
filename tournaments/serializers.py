"""Serializers of the tournaments API: input checks and the shapes of the answers.

Writes never happen here: the views pass validated data to tournaments/services/.
"""

from django.contrib.auth import get_user_model
from rest_framework import serializers

from config.dbtime import db_now
from players.api import DieSerializer
from players.models import DiceSet, Player
from players.people import PersonField, person_label
from tournaments.clocks import match_clock, round_clock
from tournaments.match_rules import format_score
from tournaments.models import (
    SETTING_BOUNDS,
    AuditEntry,
    Match,
    Penalty,
    Registration,
    ResultSubmission,
    Round,
    SetSwap,
    Tournament,
    bound_message,
)
from tournaments.permissions import can_manage, role_in
from tournaments.standings import Tiebreaker, format_percentage, tiebreaker_order_errors

User = get_user_model()


# --- tournaments ----------------------------------------------------------------------


def _bounded(setting: str) -> dict:
    """Field options of a bounded setting, with the message that says the bounds."""
    low, high, _what, _unit = SETTING_BOUNDS[setting]
    message = bound_message(setting)
    return {
        "min_value": low,
        "max_value": high,
        "error_messages": {"min_value": message, "max_value": message},
    }


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
        help_text="User ids of the floor judges (replaces the list).",
    )
    co_organisers = serializers.SerializerMethodField(
        help_text="The co-organisers: login names for the event's organisers, "
        "display names for everyone else."
    )
    my_role = serializers.SerializerMethodField(
        help_text='The viewer\'s role in this event: "owner", "co_organiser", "judge", '
        '"staff" (site staff) or null.'
    )
    players = serializers.IntegerField(source="player_count", read_only=True, default=None)
    tiebreakers = serializers.ListField(
        child=serializers.ChoiceField(choices=[t.value for t in Tiebreaker]),
        required=False,
        max_length=len(Tiebreaker),
        help_text="The ranking order, each name at most once; "
        "empty: match_points, opponents_match_win, game_win, opponents_game_win.",
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "date",
            "venue",
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
            "percentage_floor",
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
        extra_kwargs = {setting: _bounded(setting) for setting in SETTING_BOUNDS}

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
    username = serializers.CharField(max_length=150, help_text="The user's login name.")


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
        required=False, allow_blank=True, max_length=64, help_text="Optional pairing seed."
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
            "disqualified",
            "late_entry_round",
            "registered_at",
        ]
        read_only_fields = fields


class RegisterSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        required=False,
        help_text="Organisers only; players register their own profile (leave it out).",
    )
    dice_set = serializers.PrimaryKeyRelatedField(queryset=DiceSet.objects.all())


class CheckInSerializer(serializers.Serializer):
    checked_in = serializers.BooleanField(default=True)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300, default="")


# --- rounds and matches ---------------------------------------------------------------


class SideSerializer(serializers.Serializer):
    registration = serializers.IntegerField(source="pk")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.display_name")
    dropped = serializers.BooleanField()


def side_data(registration):
    if registration is None:
        return None
    return {
        "registration": registration.pk,
        "player": registration.player_id,
        "name": registration.player.display_name,
        "dropped": registration.dropped,
    }


def result_data(match: Match) -> dict | None:
    if match.status != Match.Status.CONFIRMED:
        return None
    return {
        "games_a": match.games_a,
        "games_b": match.games_b,
        "games_drawn": match.games_drawn,
        "score": format_score(match.games_a, match.games_b, match.games_drawn),
        "match_loss_a": match.match_loss_a,
        "match_loss_b": match.match_loss_b,
        "winner": match.winner_id,
        "is_draw": match.winner_id is None and not match.is_bye,
    }


def match_data(match: Match, *, show_results: bool, now=None) -> dict:
    """One pairing. ``show_results`` False hides the status and result (results not public).

    ``clock`` carries the match deadline with the server's time (tournaments/clocks.py);
    pass ``now`` (config.dbtime.db_now()) once per request when listing many matches.
    """
    return {
        "id": match.pk,
        "round": match.round_id,
        "table": match.table,
        "bracket_position": match.bracket_position,
        "is_bye": match.is_bye,
        "player_a": side_data(match.player_a),
        "player_b": side_data(match.player_b),
        "reasons": match.reasons,
        "status": match.status if show_results else None,
        "result": result_data(match) if show_results else None,
        "current_game": match.current_game,
        "current_game_started": match.current_game_started_at is not None,
        "next_game": match.next_game,
        "next_game_ready": match.ready_sides(),
        "version": match.version,
        "clock": match_clock(match, now or db_now()),
    }


def game_start_data(match: Match, number: int) -> dict:
    """What a start-game request achieved: the game started, or whose word it awaits."""
    started = match.current_game == number and match.current_game_started_at is not None
    ready = ["a", "b"] if started else match.ready_sides()
    awaiting = [side for side in ("a", "b") if side not in ready]
    if started:
        detail = f"Game {number} has started."
    else:
        names = [getattr(match, f"player_{side}").player.display_name for side in awaiting]
        detail = f"Game {number} starts when {' and '.join(names)} also say so."
    return {
        "game": number,
        "started": started,
        "ready": ready,
        "awaiting": awaiting,
        "detail": detail,
    }


def round_data(round_: Round, *, show_results: bool, staff: bool, now=None) -> dict:
    now = now or db_now()
    data = {
        "id": round_.pk,
        "tournament": round_.tournament_id,
        "number": round_.number,
        "stage": round_.stage,
        "status": round_.status,
        "started_at": round_.started_at,
        "closed_at": round_.closed_at,
        "clock": round_clock(round_, now),
        "matches": [
            match_data(m, show_results=show_results, now=now) for m in round_.matches.all()
        ],
    }
    if staff:
        data["pairing_seed"] = round_.pairing_seed
        data["pairing_cost"] = round_.pairing_cost
    return data


class MatchOutSerializer(serializers.Serializer):
    """Documentation of a match in answers (built by match_data)."""

    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    bracket_position = serializers.IntegerField(allow_null=True)
    is_bye = serializers.BooleanField()
    player_a = SideSerializer()
    player_b = SideSerializer(allow_null=True)
    reasons = serializers.ListField(child=serializers.DictField())
    status = serializers.CharField(allow_null=True, help_text="Null when results are not public.")
    result = serializers.DictField(allow_null=True)
    current_game = serializers.IntegerField()
    current_game_started = serializers.BooleanField()
    next_game = serializers.IntegerField(help_text="The game that starts next.")
    next_game_ready = serializers.ListField(
        child=serializers.CharField(),
        help_text='Sides ("a", "b") that have said the next game may start (paper play).',
    )
    version = serializers.IntegerField()


class GameStartOutSerializer(MatchOutSerializer):
    game_start = serializers.DictField(
        help_text="game, started, ready and awaiting (sides), detail (one sentence)."
    )


class RoundOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    number = serializers.IntegerField()
    stage = serializers.CharField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    matches = MatchOutSerializer(many=True)
    pairing_seed = serializers.CharField(required=False, help_text="Judges and organisers.")
    pairing_cost = serializers.DictField(required=False, help_text="Judges and organisers.")


class RoundListSerializer(serializers.Serializer):
    published = serializers.BooleanField()
    detail = serializers.CharField(allow_null=True)
    results = RoundOutSerializer(many=True)


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
        required=False, help_text="The version's id; default: the latest pending report."
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
        min_value=1, max_value=5, help_text="The match's next game (``next_game``)."
    )
    games_so_far = serializers.ListField(
        child=serializers.ChoiceField(choices=["a", "b", "draw"]),
        max_length=4,
        required=False,
        help_text=(
            "Only after time is called (paper play): the games played so far in order, an "
            "unfinished game left out. A further game starts only if they leave the match "
            "needing one (the top-cut decider while level)."
        ),
    )


class RecordSwapSerializer(serializers.Serializer):
    registration = serializers.IntegerField(
        required=False, help_text="Judges only; players swap for themselves (leave it out)."
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


# --- standings ------------------------------------------------------------------------


def percentage(value) -> dict:
    """An exact fraction as a string plus its rounded percentage."""
    return {"fraction": str(value), "percent": format_percentage(value)}


def explanation_data(explanation) -> dict:
    return {
        "lines": explanation.lines(),
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


def standings_row_data(row, explanation) -> dict:
    return {
        "rank": row.rank,
        "registration": row.player_id,
        "name": row.name,
        "dropped": row.dropped,
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
        "explanation": explanation_data(explanation),
    }


class StandingsOutSerializer(serializers.Serializer):
    published = serializers.BooleanField()
    detail = serializers.CharField(allow_null=True)
    tiebreakers = serializers.ListField(child=serializers.CharField())
    floor = serializers.CharField()
    rows = serializers.ListField(
        child=serializers.DictField(),
        help_text="rank, registration, name, dropped, match_points, record, wins, losses, "
        "draws, byes, rounds_played, game_points, match_win / game_win / opponents_match_win "
        '/ opponents_game_win as {"fraction": "7/9", "percent": "77.78%"}, explanation '
        "{lines, opponents}.",
    )
