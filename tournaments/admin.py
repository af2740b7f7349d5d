from django.contrib import admin

from tournaments.models import (
    AuditEntry,
    GameResult,
    Match,
    Penalty,
    Registration,
    ResultSubmission,
    Round,
    SetSwap,
    Tournament,
)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "venue", "status", "organiser", "swiss_rounds", "top_cut_size"]
    list_filter = ["status", "date", "top_cut_size"]
    search_fields = ["name", "venue", "organiser__username"]
    raw_id_fields = ["organiser", "head_judge"]
    filter_horizontal = ["floor_judges"]
    date_hierarchy = "date"


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = [
        "player",
        "tournament",
        "checked_in",
        "dropped",
        "disqualified",
        "late_entry_round",
    ]
    list_filter = ["checked_in", "dropped", "disqualified", "tournament"]
    search_fields = ["player__display_name", "player__player_number", "tournament__name"]
    list_select_related = ["player", "tournament"]
    raw_id_fields = ["player", "dice_set", "tournament"]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["table", "player_a", "player_b", "status", "games_a", "games_b", "games_drawn"]
    raw_id_fields = ["player_a", "player_b"]
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "stage", "status", "started_at", "closed_at"]
    list_filter = ["stage", "status", "tournament"]
    search_fields = ["tournament__name"]
    list_select_related = ["tournament"]
    inlines = [MatchInline]


class SubmissionInline(admin.TabularInline):
    model = ResultSubmission
    extra = 0
    fields = ["number", "source", "submitted_by", "games", "status", "confirmed_by", "created_at"]
    readonly_fields = fields
    can_delete = False


class GameInline(admin.TabularInline):
    model = GameResult
    extra = 0
    fields = ["number", "outcome"]
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "games_a", "games_b", "games_drawn", "winner"]
    list_filter = ["status", "round__stage", "round__tournament"]
    search_fields = ["player_a__player__display_name", "player_b__player__display_name"]
    list_select_related = ["round__tournament", "player_a__player", "player_b__player", "winner"]
    raw_id_fields = ["round", "player_a", "player_b", "winner"]
    inlines = [GameInline, SubmissionInline]


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(admin.ModelAdmin):
    list_display = [
        "match",
        "number",
        "source",
        "status",
        "submitted_by",
        "confirmed_by",
        "created_at",
    ]
    list_filter = ["status", "source"]
    search_fields = [
        "match__player_a__player__display_name",
        "match__player_b__player__display_name",
    ]
    raw_id_fields = ["match", "submitted_by", "submitted_for", "confirmed_by"]


@admin.register(SetSwap)
class SetSwapAdmin(admin.ModelAdmin):
    list_display = ["registration", "match", "before_game", "superseded", "created_at"]
    list_filter = ["superseded", "before_game"]
    search_fields = ["registration__player__display_name"]
    raw_id_fields = ["registration", "match", "recorded_by"]


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    list_display = ["registration", "kind", "reason", "judge", "created_at"]
    list_filter = ["kind"]
    search_fields = ["registration__player__display_name", "reason"]
    raw_id_fields = ["registration", "match", "judge"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Read-only: the audit log is never edited."""

    list_display = [
        "created_at",
        "tournament",
        "actor",
        "action",
        "object_type",
        "object_id",
        "reason",
    ]
    list_filter = ["action", "tournament"]
    search_fields = ["action", "reason", "actor__username"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(GameResult)
class GameResultAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "outcome"]
    list_filter = ["outcome"]
    search_fields = [
        "match__player_a__player__display_name",
        "match__player_b__player__display_name",
    ]
    raw_id_fields = ["match"]
