"""Admin for online games. The action log is read-only (append-only by design); the
seed is not shown while a game is running."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games import hosts
from games.models import GameAction, GameSession


def _judged_games(request, queryset, path: str):
    """Superusers see every game; other staff accounts only what the sessions' hosts let
    them (the tournament games of the events they judge: the log holds secret choices of
    games still being played)."""
    allowed = hosts.staff_sessions(request.user, path)
    return queryset if allowed is None else queryset.filter(allowed)


class GameActionInline(admin.TabularInline):
    model = GameAction
    extra = 0
    can_delete = False
    fields = ["index", "version", "actor", "cause", "action", "note", "created_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "status", "hosted_as", "name_0", "name_1", "version"]
    list_filter = ["kind", "status"]
    search_fields = ["name_0", "name_1"]
    raw_id_fields = ["user_0", "user_1", "created_by"]
    exclude = ["seed", "state"]
    readonly_fields = ["commitment", "version", "result", "config", "revealed_seed"]
    inlines = [GameActionInline]

    def get_queryset(self, request):
        queryset = super().get_queryset(request).select_related(*hosts.related())
        return _judged_games(request, queryset, "")

    @admin.display(description=_("match, game"))
    def hosted_as(self, obj):
        described = hosts.host_of(obj).describe(obj)
        return (
            ""
            if described["match"] is None
            else f"{described['match']}, {described['game_number']}"
        )

    @admin.display(description=_("seed"))
    def revealed_seed(self, obj):
        return obj.seed if obj.status == GameSession.Status.FINISHED else "(secret until the end)"

    def has_change_permission(self, request, obj=None):
        return False  # games change only through games/services/


@admin.register(GameAction)
class GameActionAdmin(admin.ModelAdmin):
    list_display = ["session", "index", "actor", "cause", "created_at"]
    list_filter = ["cause"]
    raw_id_fields = ["session", "user"]

    def get_queryset(self, request):
        return _judged_games(request, super().get_queryset(request), "session__")

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False
