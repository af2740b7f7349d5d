"""Admin for tournaments. Superusers see every event; a staff account holding model
permissions sees and changes only the events it organises (tournaments/permissions.py),
and only an event's owner changes its co-organisers here."""

from django import forms
from django.contrib import admin
from django.db.models import Q

from games.models import GameAction
from tournaments import permissions as roles
from tournaments.audit import audit
from tournaments.models import (
    AuditEntry,
    GameResult,
    Match,
    MatchGame,
    PairingJob,
    Penalty,
    PodGame,
    PodReport,
    PodSeat,
    PodTable,
    RatingChange,
    Registration,
    ResultSubmission,
    Round,
    SetSwap,
    Team,
    Tournament,
)
from tournaments.standings import tiebreaker_order_errors

# Never deleted one by one; deleted with the event they belong to.
_DELETED_ONLY_WITH_THEIR_EVENT = (AuditEntry, GameAction)


class EventScopedAdmin(admin.ModelAdmin):
    """Rows of one event. Superusers do anything; other staff accounts (with the model
    permissions) see the rows of the events they organise and change nothing here: the
    console and the API make those changes through the services, with their rules and
    the audit log (and a row edited here could be moved into someone else's event)."""

    event_path = "tournament"  # the lookup from this model to its Tournament

    def _event_of(self, obj):
        for name in self.event_path.split("__"):
            obj = getattr(obj, name)
        return obj

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if roles.is_site_staff(request.user):
            return queryset
        managed = Tournament.objects.filter(roles.managed_q(request.user)).values("pk")
        return queryset.filter(**{f"{self.event_path}__in": managed})

    def _may(self, request, obj) -> bool:
        return obj is None or roles.can_manage(request.user, self._event_of(obj))

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) and self._may(request, obj)

    def has_add_permission(self, request, *args):
        return super().has_add_permission(request, *args) and roles.is_site_staff(request.user)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and roles.is_site_staff(request.user)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and roles.is_site_staff(request.user)


class TournamentAdminForm(forms.ModelForm):
    """The tiebreaker order is checked here as in the services (blank: the default)."""

    class Meta:
        model = Tournament
        fields = "__all__"  # noqa: DJ007 - the admin shows every field

    def clean_tiebreakers(self):
        order = self.cleaned_data.get("tiebreakers")
        order = [] if order is None else order
        if errors := tiebreaker_order_errors(order):
            raise forms.ValidationError(errors)
        return order


@admin.register(Tournament)
class TournamentAdmin(EventScopedAdmin):
    event_path = "pk"
    form = TournamentAdminForm

    def get_deleted_objects(self, objs, request):
        """An event is deleted whole: its audit log (and its games' moves) go with it,
        though neither is ever deleted entry by entry (their admins refuse that)."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        if roles.is_site_staff(request.user):
            perms_needed = perms_needed - {
                str(model._meta.verbose_name) for model in _DELETED_ONLY_WITH_THEIR_EVENT
            }
        return deleted, counts, perms_needed, protected

    list_display = [
        "name",
        "date",
        "venue",
        "game",
        "status",
        "organiser",
        "swiss_rounds",
        "top_cut_size",
    ]
    list_filter = ["status", "date", "top_cut_size"]
    search_fields = ["name", "venue", "organiser__username"]
    raw_id_fields = ["organiser", "head_judge"]
    filter_horizontal = ["co_organisers", "floor_judges"]
    date_hierarchy = "date"

    def _event_of(self, obj):
        return obj

    def has_change_permission(self, request, obj=None):
        """An event's organisers may edit it here too: settings and judges, and for its
        owner the co-organisers (what moves the event along stays in the console)."""
        return admin.ModelAdmin.has_change_permission(self, request, obj) and self._may(
            request, obj
        )

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            # The game and the match format change through the event's form and API,
            # which know when they are fixed (tournaments/services/events.py).
            readonly += ["game", "games_to_win", "team_size", "pods", "pod_mode"]
        if not roles.is_site_staff(request.user):
            readonly += ["status", "top_cut_seeds"]
        if obj is not None and not roles.can_manage_co_organisers(request.user, obj):
            readonly += ["organiser", "co_organisers"]
        return readonly

    def save_related(self, request, form, formsets, change):
        """Changes of who runs the event go to its audit log, as from the console."""
        event = form.instance
        watched = ("co_organisers", "floor_judges")
        before = {
            name: sorted(getattr(event, name).values_list("pk", flat=True)) for name in watched
        }
        super().save_related(request, form, formsets, change)
        roles.forget_roles(event)
        after = {
            name: sorted(getattr(event, name).values_list("pk", flat=True)) for name in watched
        }
        changed = [name for name in watched if before[name] != after[name]]
        if change and changed:
            audit(
                event,
                request.user,
                "tournament.updated",
                event,
                before={name: before[name] for name in changed},
                after={name: after[name] for name in changed},
                reason="Changed in the admin.",
            )


@admin.register(Registration)
class RegistrationAdmin(EventScopedAdmin):
    event_path = "tournament"
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
    raw_id_fields = ["player", "dice_set", "tournament", "team"]


class TeamMemberInline(admin.TabularInline):
    model = Registration
    fk_name = "team"
    extra = 0
    fields = ["player", "pairing_unit", "team_accepted", "dropped", "final_place"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Team)
class TeamAdmin(EventScopedAdmin):
    """Teams of team events (docs/events.md "Team events"); registered and withdrawn
    through the services (the team pages and API), which check sizes, sets and consent."""

    event_path = "tournament"
    list_display = ["name", "tournament", "unit", "created_at"]
    list_filter = ["tournament"]
    search_fields = ["name", "tournament__name", "members__player__display_name"]
    list_select_related = ["tournament", "unit__player"]
    raw_id_fields = ["tournament", "unit"]
    inlines = [TeamMemberInline]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["table", "player_a", "player_b", "status", "games_a", "games_b", "games_drawn"]
    raw_id_fields = ["player_a", "player_b"]
    show_change_link = True


@admin.register(Round)
class RoundAdmin(EventScopedAdmin):
    event_path = "tournament"
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
class MatchAdmin(EventScopedAdmin):
    event_path = "round__tournament"
    list_display = ["__str__", "status", "games_a", "games_b", "games_drawn", "winner"]
    list_filter = ["status", "round__stage", "round__tournament"]
    search_fields = ["player_a__player__display_name", "player_b__player__display_name"]
    list_select_related = ["round__tournament", "player_a__player", "player_b__player", "winner"]
    raw_id_fields = ["round", "player_a", "player_b", "winner"]
    inlines = [GameInline, SubmissionInline]


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(EventScopedAdmin):
    event_path = "match__round__tournament"
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
class SetSwapAdmin(EventScopedAdmin):
    event_path = "registration__tournament"
    list_display = ["registration", "match", "before_game", "superseded", "created_at"]
    list_filter = ["superseded", "before_game"]
    search_fields = ["registration__player__display_name"]
    raw_id_fields = ["registration", "match", "recorded_by"]


@admin.register(Penalty)
class PenaltyAdmin(EventScopedAdmin):
    event_path = "registration__tournament"
    list_display = ["registration", "kind", "reason", "judge", "created_at"]
    list_filter = ["kind"]
    search_fields = ["registration__player__display_name", "reason"]
    raw_id_fields = ["registration", "match", "judge"]


@admin.register(AuditEntry)
class AuditEntryAdmin(EventScopedAdmin):
    """Read-only: the audit log is never edited."""

    event_path = "tournament"

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
class GameResultAdmin(EventScopedAdmin):
    event_path = "match__round__tournament"
    list_display = ["match", "number", "outcome"]
    list_filter = ["outcome"]
    search_fields = [
        "match__player_a__player__display_name",
        "match__player_b__player__display_name",
    ]
    raw_id_fields = ["match"]


@admin.register(MatchGame)
class MatchGameAdmin(EventScopedAdmin):
    """Read-only: a match's online games are linked when they are opened."""

    event_path = "match__round__tournament"
    list_display = ["match", "number", "session"]
    search_fields = [
        "match__player_a__player__display_name",
        "match__player_b__player__display_name",
    ]
    raw_id_fields = ["match", "session"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(EventScopedAdmin):
    """Read-only: the rating history is written when results are confirmed (and
    rebuilt by ``manage.py recompute_ratings``)."""

    list_display = [
        "game",
        "match",
        "pod_table",
        "player",
        "opponent",
        "outcome",
        "place",
        "mu_after",
        "sigma_after",
    ]
    list_filter = ["game", "outcome"]
    list_select_related = ["match", "pod_table", "player", "opponent"]
    search_fields = ["player__display_name", "player__player_number"]
    raw_id_fields = ["match", "pod_table", "player", "opponent"]

    # A row belongs to a match or to a pod table: both lead to the event.
    def _event_of(self, obj):
        return (obj.match or obj.pod_table).round.tournament

    def get_queryset(self, request):
        queryset = admin.ModelAdmin.get_queryset(self, request)
        if roles.is_site_staff(request.user):
            return queryset
        managed = Tournament.objects.filter(roles.managed_q(request.user)).values("pk")
        return queryset.filter(
            Q(match__round__tournament__in=managed) | Q(pod_table__round__tournament__in=managed)
        )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(PairingJob)
class PairingJobAdmin(EventScopedAdmin):
    """Read-only: a job is run by the worker (tournaments/services/rounds.py)."""

    event_path = "tournament"
    list_display = ["tournament", "number", "status", "stage", "created_at", "finished_at"]
    list_filter = ["status"]
    raw_id_fields = ["tournament", "round", "requested_by"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class PodSeatInline(admin.TabularInline):
    model = PodSeat
    extra = 0
    fields = ["seat", "registration", "placing"]
    raw_id_fields = ["registration"]


@admin.register(PodTable)
class PodTableAdmin(EventScopedAdmin):
    """Tables of an event in pods; seated by the pairing and scored by the judges
    (tournaments/services/pods.py)."""

    event_path = "round__tournament"
    list_display = ["round", "number", "size"]
    list_filter = ["round__tournament"]
    list_select_related = ["round__tournament"]
    raw_id_fields = ["round"]
    inlines = [PodSeatInline]


@admin.register(PodSeat)
class PodSeatAdmin(EventScopedAdmin):
    event_path = "round__tournament"
    list_display = ["table", "seat", "registration", "placing"]
    list_select_related = ["table__round__tournament", "registration__player"]
    search_fields = ["registration__player__display_name"]
    raw_id_fields = ["table", "round", "registration"]


@admin.register(PodReport)
class PodReportAdmin(EventScopedAdmin):
    """Placings a table's players reported (tournaments/services/pod_reports.py); read here,
    settled on the judges' queue, where the audit log records it."""

    event_path = "table__round__tournament"
    list_display = ["table", "number", "status", "submitted_for", "created_at"]
    list_filter = ["status"]
    list_select_related = ["table__round__tournament", "submitted_for__player"]
    raw_id_fields = ["table", "submitted_by", "submitted_for", "disputed_by"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(PodGame)
class PodGameAdmin(EventScopedAdmin):
    """Read-only: a pod table's online game is linked when its round starts
    (tournaments/pod_online.py)."""

    event_path = "table__round__tournament"
    list_display = ["table", "session", "deadline_at", "time_called_at"]
    list_select_related = ["table__round__tournament"]
    raw_id_fields = ["table", "session"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
