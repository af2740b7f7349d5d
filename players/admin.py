from django.contrib import admin

from players.models import DiceSet, Player, Rating


class DiceSetInline(admin.TabularInline):
    model = DiceSet
    extra = 0
    fields = ["name", "frozen_at", "updated_at"]
    readonly_fields = ["frozen_at", "updated_at"]
    show_change_link = True


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "player_number", "country", "club", "user", "created_at"]
    list_filter = ["country", "club"]
    search_fields = ["display_name", "player_number", "user__username", "club"]
    raw_id_fields = ["user", "created_by"]
    inlines = [DiceSetInline]


@admin.register(DiceSet)
class DiceSetAdmin(admin.ModelAdmin):
    list_display = ["name", "player", "frozen_at", "updated_at"]
    list_filter = [("frozen_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "player__display_name", "player__player_number"]
    list_select_related = ["player"]
    raw_id_fields = ["player"]
    readonly_fields = ["frozen_at", "created_at", "updated_at"]


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """Read-only: tournaments writes ratings when results are confirmed."""

    list_display = ["player", "game", "mu", "sigma", "matches", "updated_at"]
    list_filter = ["game"]
    list_select_related = ["player"]
    search_fields = ["player__display_name", "player__player_number"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
