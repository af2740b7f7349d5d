"""Tournaments: registration, rounds, matches, result versions, swaps, penalties, audit.

The rules these rows obey are enforced in tournaments/services/; the pure parts
(pairing, standings, top cut) live in tournaments/pairing/ and tournaments/standings.py.
"""

import datetime
from fractions import Fraction

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from players.models import DiceSet, Player
from tournaments.games import (
    DEFAULT_GAME,
    FORMATS,
    GAMES,
    POD_MODE_LABELS,
    game_choices,
    pod_modes,
    rules_for,
)
from tournaments.phases import parse_phases, phase_errors

TOP_CUT_SIZES = (0, 2, 4, 8, 16, 32)
# Tournament.team_size: 1 an individual event, 2 or 3 a team event of that many players.
TEAM_SIZES = [(1, _("players")), (2, _("teams of 2")), (3, _("teams of 3"))]

# Bounds of the time limits and counts of a tournament (docs/timing.md, docs/api.md):
# setting -> (lowest, highest, what it is, unit). The serializer, the form and
# Tournament.full_clean() all enforce them, with the same message.
SETTING_BOUNDS = {
    "match_minutes": (10, 240, "The match time limit", "minutes"),
    "game_minutes": (5, 120, "The game time limit", "minutes"),
    "swiss_rounds": (1, 20, "The number of Swiss rounds", "rounds"),
}


def bound_message(setting: str) -> str:
    low, high, what, unit = SETTING_BOUNDS[setting]
    return f"{what} is between {low} and {high} {unit}."


def validate_standings_value(text: str) -> None:
    """A convention value written as an exact number: "1/3", "0.33", "-0.2" (-1 to 1)."""
    if text == "":
        return
    try:
        value = Fraction(text)
    except (TypeError, ValueError, ZeroDivisionError):
        raise ValidationError(
            _("Write an exact number such as 1/3, 0.33 or -0.2 (or leave empty for the floor).")
        ) from None
    if not -1 <= value <= 1:
        raise ValidationError(_("Give a value between -1 and 1."))


def validate_swiss_phases(phases) -> None:
    """The shape of the ``swiss_phases`` setting (tournaments/phases.py); how it fits
    the number of rounds is checked by Tournament.clean()."""
    if errors := phase_errors(phases):
        raise ValidationError(errors)


def _bounds(setting: str) -> list:
    low, high, _what, _unit = SETTING_BOUNDS[setting]
    message = bound_message(setting)
    return [MinValueValidator(low, message), MaxValueValidator(high, message)]


# Pod standings count a round a late entry missed as not played, whatever the rule: the
# event services (which the form and the API call) keep that rule for an event in pods and
# refuse another in these words; the form also says so before the service is called.
POD_LATE_ENTRY_REFUSED = _(
    "An event in pods counts the rounds a late entry missed as not played "
    "(pod standings have no other rule): leave late entries as they are, or "
    "play in pairs."
)


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        CHECK_IN = "check_in", _("Check-in")
        SWISS = "swiss", _("Swiss rounds")
        TOP_CUT = "top_cut", _("Top cut")
        FINISHED = "finished", _("Finished")

    class LateEntry(models.TextChoices):
        LOSSES = "losses", _("Missed rounds count as match losses")
        NOTHING = "nothing", _("Missed rounds count as nothing (not played)")

    # The one rule pod standings follow, whatever the setting (which is for pairs).
    POD_LATE_ENTRY = LateEntry.NOTHING

    class Floor(models.TextChoices):
        THIRD = "1/3", _("Exactly one third")
        MTR = "0.33", _("0.33 as printed in the tournament rules")

    class BracketLosers(models.TextChoices):
        # The values of tournaments.placings.BracketLosers.
        SHARED = "shared", _("Losers of the same bracket round share a place")
        SWISS_ORDER = "swiss_order", _("Losers of the same bracket round are split by Swiss order")

    class ByeCounting(models.TextChoices):
        WIN_2_0 = "win_2_0", _("A bye is a match won 2-0 (MTR)")
        NOT_COUNTED = "not_counted", _("A bye is left out of MW% and GW%")

    class RoundOneSeeding(models.TextChoices):
        RANDOM = "random", _("Round 1 paired at random")
        RATING = "rating", _("Round 1 paired by rating: top half against bottom half")

    class GameDrawPoints(models.IntegerChoices):
        ONE = 1, _("A drawn game is worth one game point (MTR)")
        NONE = 0, _("A drawn game is worth no game point")

    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=160, blank=True)
    # The owner: the user who created the event. Roles are per event
    # (tournaments/permissions.py): the site group "organiser" only allows creating one.
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_tournaments",
        verbose_name=_("owner"),
        help_text=_("Created the event; manages it and chooses its co-organisers."),
    )
    co_organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="co_organised_tournaments",
        verbose_name=_("co-organisers"),
        help_text=_("Manage the event with its owner (and assign its judges)."),
    )
    head_judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="head_judged_tournaments",
        verbose_name=_("head judge"),
    )
    floor_judges = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="judged_tournaments",
        verbose_name=_("floor judges"),
    )
    status = models.CharField(
        max_length=20,
        choices=Status.choices,
        default=Status.DRAFT,
        db_index=True,
        verbose_name=_("status"),
    )
    # The game the event is of (tournaments/games.py: what registration asks for and the
    # defaults of the format); fixed once anyone has registered or a round exists.
    game = models.CharField(
        _("game"),
        max_length=20,
        choices=game_choices(),
        default=DEFAULT_GAME,
        help_text=_("Fixed once a player has registered."),
    )
    games_to_win = models.PositiveSmallIntegerField(
        _("match format"),
        choices=[(wins, _(label)) for wins, label in FORMATS.items()],
        default=2,
        help_text=_("Game wins that take a match; fixed once a round is paired."),
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        _("Swiss rounds"),
        null=True,
        blank=True,
        validators=_bounds("swiss_rounds"),
        help_text=_("Empty: decided from the player count when Swiss starts (1-20)."),
    )
    top_cut_size = models.PositiveSmallIntegerField(
        _("top cut"),
        default=8,
        choices=[(n, str(n) if n else _("no top cut")) for n in TOP_CUT_SIZES],
    )
    match_minutes = models.PositiveSmallIntegerField(
        _("match time limit (minutes)"),
        default=45,
        validators=_bounds("match_minutes"),
        help_text=_("10-240 minutes; also the length of the round clock."),
    )
    game_minutes = models.PositiveSmallIntegerField(
        _("game time limit (minutes)"),
        default=20,
        validators=_bounds("game_minutes"),
        help_text=_("5-120 minutes, and no longer than the match time limit."),
    )
    late_entry = models.CharField(
        max_length=10,
        choices=LateEntry.choices,
        default=LateEntry.LOSSES,
        verbose_name=_("late entry"),
    )
    percentage_floor = models.CharField(
        max_length=5, choices=Floor.choices, default=Floor.THIRD, verbose_name=_("percentage floor")
    )
    bracket_losers = models.CharField(
        _("bracket losers' places"),
        max_length=12,
        choices=BracketLosers.choices,
        default=BracketLosers.SHARED,
        help_text=_("In the final placings: semifinal losers share 3rd, or are 3rd and 4th."),
    )
    round_one_seeding = models.CharField(
        _("round 1 seeding"),
        max_length=10,
        choices=RoundOneSeeding.choices,
        default=RoundOneSeeding.RANDOM,
        help_text=_(
            "By rating: sorted by rating, the first half meets the second half in order "
            "(1 v n/2+1, ...); an odd field's lowest-rated player has the bye. In pods: "
            "the rating order dealt to the tables in a snake (1, 2, 3, then 3, 2, 1, ...)."
        ),
    )
    tiebreakers = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Order of tiebreakers; empty: points, OMW, GWP, OGW."),
        verbose_name=_("tiebreakers"),
    )
    # Standings conventions (docs/standings.md); the defaults are the MTR's.
    game_draw_points = models.PositiveSmallIntegerField(
        choices=GameDrawPoints.choices,
        default=GameDrawPoints.ONE,
        verbose_name=_("game draw points"),
    )
    floor_own_game_win = models.BooleanField(
        default=True,
        help_text=_("Raise a player's own GW% to the floor in the table."),
        verbose_name=_("floor own game win"),
    )
    no_opponents_value = models.CharField(
        max_length=12,
        blank=True,
        default="",
        validators=[validate_standings_value],
        help_text=_("OMW% and OGW% of a player who met no opponent; empty: the floor."),
        verbose_name=_("no opponents value"),
    )
    no_games_game_win = models.CharField(
        max_length=12,
        blank=True,
        default="",
        validators=[validate_standings_value],
        # xgettext:no-python-format
        help_text=_("GW% of a player who played no game; empty: the floor."),
        verbose_name=_("no games game win"),
    )
    bye_counting = models.CharField(
        max_length=12,
        choices=ByeCounting.choices,
        default=ByeCounting.WIN_2_0,
        verbose_name=_("bye counting"),
    )
    swiss_phases = models.JSONField(
        default=list,
        blank=True,
        validators=[validate_swiss_phases],
        help_text=_(
            "Every Swiss phase but the final one: its last round and the cut into the next "
            '(e.g. [{"ends_after_round": 9, "advance": "points", "value": 18}]); empty: one '
            "phase. Rows are taken at the end of each player's last phase."
        ),
        verbose_name=_("swiss phases"),
    )
    standings_decimals = models.PositiveSmallIntegerField(
        default=4,
        validators=[MinValueValidator(2), MaxValueValidator(10)],
        help_text=_("Decimals shown for percentages as fractions (4: 61.33%), rounded half up."),
        verbose_name=_("standings decimals"),
    )
    top_cut_seeds = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Registration ids in seed order, fixed when the top cut starts."),
        verbose_name=_("top cut seeds"),
    )
    # Team events (docs/events.md "Team events"): 1 is an individual event; 2 or 3 makes
    # every entry a team of that many players (IRONDIE only); fixed once anyone registered.
    team_size = models.PositiveSmallIntegerField(
        _("entries"),
        choices=TEAM_SIZES,
        default=1,
        help_text=_("Players or teams of 2 or 3 (IRONDIE only); fixed once anyone registered."),
    )
    # Swiss pods (docs/pairing.md "Swiss pods"): rounds seat tables of 3 or more by
    # placing instead of pairs; only for games whose engine seats more than two.
    pods = models.BooleanField(
        _("Swiss pods"),
        default=False,
        help_text=_(
            "Seat each round at tables of more than two players, scored by placing (games "
            "of three or more seats only); fixed once a round is paired."
        ),
    )
    pod_mode = models.CharField(
        _("pod table mode"),
        max_length=12,
        choices=[(mode, _(label)) for mode, label in POD_MODE_LABELS.items()],
        default="four_three",
    )
    # Pod tables played online (tournaments/pod_online.py, docs/online-play.md "Pod tables
    # online"): each table of a started round gets one game of the event's game.
    pods_online = models.BooleanField(
        _("pod tables played online"),
        default=False,
        help_text=_(
            "When a round starts, each table of two or more players gets one online game; "
            "its placings are recorded when the game ends."
        ),
    )
    publish_pairings = models.BooleanField(_("pairings public"), default=True)
    publish_standings = models.BooleanField(_("standings public"), default=True)
    publish_results = models.BooleanField(_("results public"), default=True)
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return f"{self.name} ({self.date})"

    @property
    def needs_dice_set(self) -> bool:
        """Whether registration asks for a dice set (IRONDIE; tournaments/games.py)."""
        return rules_for(self.game).needs_dice_set

    @property
    def is_team_event(self) -> bool:
        return self.team_size > 1

    @property
    def late_entry_applied(self) -> str:
        """The rule a late entry's missed rounds follow, in words: pod standings count a
        missed round as not played whatever the setting (which is for pairs)."""
        if self.pods:
            return Tournament.POD_LATE_ENTRY.label
        return self.get_late_entry_display()

    @property
    def swiss_phase_ends(self) -> list[int]:
        """The last round of each phase but the final one (empty: one phase)."""
        if phase_errors(self.swiss_phases):
            return []
        return [phase.ends_after_round for phase in parse_phases(self.swiss_phases)]

    def clean(self):
        self._clean_pods()
        shape_ok = isinstance(self.swiss_rounds, int) and not phase_errors(self.swiss_phases)
        if shape_ok and (errors := phase_errors(self.swiss_phases, swiss_rounds=self.swiss_rounds)):
            raise ValidationError({"swiss_phases": errors})
        if isinstance(self.team_size, int) and self.team_size > 1 and not self.needs_dice_set:
            raise ValidationError(
                {"team_size": [_("Team events are IRONDIE events: choose IRONDIE or players.")]}
            )
        if (
            isinstance(self.game_minutes, int)
            and isinstance(self.match_minutes, int)
            and self.game_minutes > self.match_minutes
        ):
            raise ValidationError(
                {
                    "game_minutes": [
                        f"The game time limit ({self.game_minutes} minutes) cannot be longer "
                        f"than the match time limit ({self.match_minutes} minutes)."
                    ]
                }
            )

    def _clean_pods(self):
        if self.pods_online and not self.pods:
            raise ValidationError(
                {"pods_online": [_("Only the tables of an event in pods are played online.")]}
            )
        if not self.pods or self.game not in GAMES:
            return
        modes = pod_modes(self.game)
        label = rules_for(self.game).label
        if not modes:
            raise ValidationError(
                {
                    "pods": [
                        _(
                            "%(game)s is played by two players at a table: its events are "
                            "paired two-player, not in pods."
                        )
                        % {"game": label}
                    ]
                }
            )
        if self.pod_mode not in modes:
            raise ValidationError(
                {
                    "pod_mode": [
                        _("%(game)s does not seat that many players at a table.") % {"game": label}
                    ]
                }
            )
        if self.swiss_phases:
            raise ValidationError(
                {"swiss_phases": [_("An event in pods is played in one Swiss phase.")]}
            )
        if self.top_cut_size:
            raise ValidationError(
                {
                    "top_cut_size": [
                        _(
                            "An event in pods has no top cut (a bracket is played in pairs); "
                            "choose no top cut."
                        )
                    ]
                }
            )


class Registration(models.Model):
    """A player in a tournament with the frozen snapshot of the set they registered."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="registrations",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="registrations", verbose_name=_("player")
    )
    dice_set = models.ForeignKey(
        DiceSet,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("dice set"),
    )
    playing_dice = models.JSONField(
        help_text=_("The registered playing set (snapshot)."), verbose_name=_("playing dice")
    )
    additional_dice = models.JSONField(default=list, blank=True, verbose_name=_("additional dice"))
    checked_in = models.BooleanField(default=False, verbose_name=_("checked in"))
    dropped = models.BooleanField(default=False, db_index=True, verbose_name=_("dropped"))
    dropped_after_round = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("dropped after round")
    )
    disqualified = models.BooleanField(default=False, verbose_name=_("disqualified"))
    # Swiss phases: not in the cut into the next phase after this round (not paired
    # from then on; unlike a drop, not the player's choice). tournaments/services/phases.py
    cut_after_round = models.PositiveSmallIntegerField(
        _("did not advance after round"), null=True, blank=True
    )
    late_entry_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("The first round this player could be paired in, for late entries."),
        verbose_name=_("late entry round"),
    )
    final_place = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_("The final placing, kept when the event finishes (and after corrections)."),
        verbose_name=_("final place"),
    )
    registered_at = models.DateTimeField(auto_now_add=True, verbose_name=_("registered at"))
    # Team events (docs/events.md "Team events"): every member has a registration of
    # their own (their set, swaps, penalties); the captain's one is the team's pairing
    # unit in matches and standings (pairing_unit), the others are not paired.
    team = models.ForeignKey(
        "Team",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="members",
        verbose_name=_("team"),
    )
    pairing_unit = models.BooleanField(
        _("pairing unit"),
        default=True,
        help_text=_("Paired and ranked; false for a team member other than the captain."),
    )
    team_accepted = models.BooleanField(
        _("accepted the team"),
        default=True,
        help_text=_("The member accepted the captain's team (or an organiser entered it)."),
    )

    class Meta:
        ordering = ["tournament_id", "player__display_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="one_registration_per_player"
            ),
        ]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")

    def __str__(self):
        return f"{self.player.display_name} @ {self.tournament.name}"

    @property
    def entry_name(self) -> str:
        """The name this entry plays under: its team's for a team's pairing unit (the
        captain's registration; select ``team`` with it), else the player's. No query
        for an individual event's registration."""
        if self.team_id is not None and self.pairing_unit:
            return self.team.name
        return self.player.display_name


class Round(models.Model):
    class Stage(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        TOP_CUT = "top_cut", _("Top cut")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft pairings")
        PUBLISHED = "published", _("Pairings published")
        IN_PROGRESS = "in_progress", _("In progress")
        COMPLETE = "complete", _("All results confirmed")
        CLOSED = "closed", _("Closed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    stage = models.CharField(
        max_length=10, choices=Stage.choices, default=Stage.SWISS, verbose_name=_("stage")
    )
    status = models.CharField(
        max_length=15, choices=Status.choices, default=Status.DRAFT, verbose_name=_("status")
    )
    pairing_seed = models.CharField(
        max_length=64,
        help_text=_("Seed the pairing was derived from."),
        verbose_name=_("pairing seed"),
    )
    pairing_cost = models.JSONField(default=dict, blank=True, verbose_name=_("pairing cost"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    # The round clock (tournaments/clocks.py): when the match time of the round runs out,
    # or, while the whole round is paused, how much of it was left.
    ends_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ends at"))
    paused_remaining = models.DurationField(
        null=True, blank=True, verbose_name=_("paused remaining")
    )
    closed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("closed at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")
        ]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self):
        return f"{self.tournament.name} round {self.number}"


class PairingJob(models.Model):
    """A Swiss round paired in the background: a round whose pairing would cost more
    than a request may spend (settings.PAIRING_SYNC_WORK, docs/pairing.md "Background
    pairing"). At most one queued or running job per tournament."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for a worker")
        RUNNING = "running", _("Pairing")
        DONE = "done", _("Paired")
        FAILED = "failed", _("Failed")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="pairing_jobs",
        verbose_name=_("tournament"),
    )
    number = models.PositiveSmallIntegerField(
        help_text=_("The round being paired."), verbose_name=_("number")
    )
    seed = models.CharField(max_length=64, verbose_name=_("seed"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED, verbose_name=_("status")
    )
    # Progress: the pairing tier running (tournaments/pairing/work.py stages), the work
    # spent so far and the work the running matching will spend, in the same units.
    stage = models.CharField(max_length=20, blank=True, verbose_name=_("stage"))
    work_done = models.BigIntegerField(default=0, verbose_name=_("work done"))
    work_next = models.BigIntegerField(default=0, verbose_name=_("work next"))
    estimate = models.BigIntegerField(
        default=0,
        help_text=_("Work estimated when the request handed the round over."),
        verbose_name=_("estimate"),
    )
    error = models.TextField(blank=True, verbose_name=_("error"))
    round = models.ForeignKey(
        Round,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("round"),
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        ordering = ["tournament_id", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"],
                condition=models.Q(status__in=["queued", "running"]),
                name="one_active_pairing_job",
            )
        ]
        verbose_name = _("pairing job")
        verbose_name_plural = _("pairing jobs")

    def __str__(self):
        return f"{self.tournament.name} round {self.number} pairing ({self.status})"

    @property
    def active(self) -> bool:
        return self.status in self.ACTIVE


class Match(models.Model):
    """One pairing of a round: best of three (first to two game wins), or a bye."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting result")
        REPORTED = "reported", _("Reported, awaiting confirmation")
        DISPUTED = "disputed", _("Disputed")
        CONFIRMED = "confirmed", _("Confirmed")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="matches", verbose_name=_("round")
    )
    table = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Empty for a bye."), verbose_name=_("table")
    )
    player_a = models.ForeignKey(
        Registration, on_delete=models.RESTRICT, related_name="+", verbose_name=_("player a")
    )
    player_b = models.ForeignKey(
        Registration,
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
        verbose_name=_("player b"),
    )
    bracket_position = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("bracket position")
    )
    reasons = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Why these players were paired."),
        verbose_name=_("reasons"),
    )
    status = models.CharField(
        max_length=10,
        choices=Status.choices,
        default=Status.PENDING,
        db_index=True,
        verbose_name=_("status"),
    )
    # The confirmed result, copied from the confirmed ResultSubmission for fast reads.
    games_a = models.PositiveSmallIntegerField(default=0, verbose_name=_("games a"))
    games_b = models.PositiveSmallIntegerField(default=0, verbose_name=_("games b"))
    games_drawn = models.PositiveSmallIntegerField(default=0, verbose_name=_("games drawn"))
    match_loss_a = models.BooleanField(default=False, verbose_name=_("match loss a"))
    match_loss_b = models.BooleanField(default=False, verbose_name=_("match loss b"))
    winner = models.ForeignKey(
        Registration,
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
        verbose_name=_("winner"),
    )
    current_game = models.PositiveSmallIntegerField(
        default=1, help_text=_("The game being played (1-3)."), verbose_name=_("current game")
    )
    current_game_started_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("current game started at")
    )
    # Paper play: the game number each player has said they are ready to start. A game
    # starts when both have said so for it (or a judge starts it); cleared when it starts.
    ready_a_for_game = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("ready a for game")
    )
    ready_b_for_game = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("ready b for game")
    )
    # Clocks (tournaments/clocks.py). A deadline is null while its clock is paused; the
    # time left is then in the matching *_remaining column.
    deadline_at = models.DateTimeField(
        null=True, blank=True, db_index=True, verbose_name=_("deadline at")
    )
    deadline_remaining = models.DurationField(
        null=True, blank=True, verbose_name=_("deadline remaining")
    )
    extension = models.DurationField(default=datetime.timedelta(0), verbose_name=_("extension"))
    time_called_at = models.DateTimeField(null=True, blank=True, verbose_name=_("time called at"))
    game_deadline_at = models.DateTimeField(
        null=True, blank=True, db_index=True, verbose_name=_("game deadline at")
    )
    game_deadline_remaining = models.DurationField(
        null=True, blank=True, verbose_name=_("game deadline remaining")
    )
    sudden_death_game = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("The game that passed its time limit: sudden-death turns from the next turn."),
        verbose_name=_("sudden death game"),
    )
    clock_version = models.PositiveIntegerField(
        default=0,
        help_text=_("Bumped whenever a deadline changes."),
        verbose_name=_("clock version"),
    )
    # When the one queued eta task of each deadline fires (None: none queued); a later
    # deadline queues nothing, that task re-queues itself (config/deadlines.py).
    deadline_task_eta = models.DateTimeField(
        null=True, blank=True, verbose_name=_("deadline task eta")
    )
    game_deadline_task_eta = models.DateTimeField(
        null=True, blank=True, verbose_name=_("game deadline task eta")
    )
    version = models.PositiveIntegerField(
        default=0,
        help_text=_("Bumped on every change (compare-and-set)."),
        verbose_name=_("version"),
    )

    class Meta:
        ordering = ["round_id", "table", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="table_unique_in_round"),
            models.CheckConstraint(
                condition=~Q(player_a=models.F("player_b")), name="match_two_different_players"
            ),
        ]
        verbose_name_plural = _("matches")
        verbose_name = _("match")

    def __str__(self):
        b = self.player_b.player.display_name if self.player_b_id else "BYE"
        return f"R{self.round.number} T{self.table}: {self.player_a.player.display_name} v {b}"

    @property
    def is_bye(self) -> bool:
        return self.player_b_id is None

    @property
    def next_game(self) -> int:
        """The game that starts next (and that a swap made now is for): the current game
        while it has not started, else the one after it."""
        return self.current_game if self.current_game_started_at is None else self.current_game + 1

    def ready_sides(self) -> list[str]:
        """The sides ("a", "b") that have said the next game may start."""
        number = self.next_game
        return [side for side in ("a", "b") if getattr(self, f"ready_{side}_for_game") == number]

    def side_of(self, registration_id: int) -> str | None:
        if registration_id == self.player_a_id:
            return "a"
        if registration_id == self.player_b_id:
            return "b"
        return None


class ResultSubmission(models.Model):
    """One version of a match result. Never edited: a change is a new version."""

    class Source(models.TextChoices):
        JUDGE = "judge", _("Judge")
        PLAYER = "player", _("Player")
        SYSTEM = "system", _("System (bye, online game, clock)")

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting the opponent's confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        REJECTED = "rejected", _("Rejected by the opponent")
        SUPERSEDED = "superseded", _("Superseded by a later version")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="submissions", verbose_name=_("match")
    )
    number = models.PositiveIntegerField(
        help_text=_("Version number within the match."), verbose_name=_("number")
    )
    source = models.CharField(max_length=10, choices=Source.choices, verbose_name=_("source"))
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_for = models.ForeignKey(
        Registration,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("submitted for"),
    )
    games = models.JSONField(
        help_text=_('Game outcomes in order: "a", "b" or "draw".'), verbose_name=_("games")
    )
    match_loss_a = models.BooleanField(default=False, verbose_name=_("match loss a"))
    match_loss_b = models.BooleanField(default=False, verbose_name=_("match loss b"))
    intentional_draw = models.BooleanField(default=False, verbose_name=_("intentional draw"))
    conceded_by = models.CharField(
        max_length=1, blank=True, choices=[("a", "A"), ("b", "B")], verbose_name=_("conceded by")
    )
    note = models.CharField(max_length=300, blank=True, verbose_name=_("note"))
    status = models.CharField(
        max_length=10, choices=Status.choices, db_index=True, verbose_name=_("status")
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("confirmed at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="result_version_unique"),
            # The guard against two confirmed results for one match lives in the database.
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status="confirmed"),
                name="one_confirmed_result_per_match",
            ),
        ]
        verbose_name = _("result submission")
        verbose_name_plural = _("result submissions")

    def __str__(self):
        return f"v{self.number} of match {self.match_id}: {'-'.join(self.games) or 'no games'} ({self.status})"


class GameResult(models.Model):
    """One game of a match as confirmed, with the playing set each player used."""

    class Outcome(models.TextChoices):
        A = "a", _("Player A won")
        B = "b", _("Player B won")
        DRAW = "draw", _("Draw")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="games", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    outcome = models.CharField(max_length=4, choices=Outcome.choices, verbose_name=_("outcome"))
    playing_set_a = models.JSONField(default=list, verbose_name=_("playing set a"))
    playing_set_b = models.JSONField(default=list, verbose_name=_("playing set b"))

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique")
        ]
        verbose_name = _("game result")
        verbose_name_plural = _("game results")

    def __str__(self):
        return f"match {self.match_id} game {self.number}: {self.outcome}"


class MatchGame(models.Model):
    """A game of a match played online: the link from the match to the game session
    that plays it (games/ knows nothing of matches; tournaments/online.py hosts the
    session). A game ended unfinished by the match limit keeps its number."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="online_games", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    session = models.OneToOneField(
        "games.GameSession",
        on_delete=models.CASCADE,
        related_name="match_game",
        verbose_name=_("session"),
    )

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_game_number_unique")
        ]
        verbose_name = _("match game")
        verbose_name_plural = _("match games")

    def __str__(self):
        return f"match {self.match_id} game {self.number}: session {self.session_id}"


class SetSwap(models.Model):
    """Dice swapped between the playing set and the additional set before a game.

    Secret until ``before_game`` starts (Tournament Rules: "the swap of dice takes
    place secretly, but players must show the resulting playing set to the opponent
    before the start of the next round").
    """

    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="swaps", verbose_name=_("registration")
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="swaps", verbose_name=_("match")
    )
    before_game = models.PositiveSmallIntegerField(verbose_name=_("before game"))
    swapped_out = models.JSONField(
        help_text=_("Dice moved from the playing set to the additional set."),
        verbose_name=_("swapped out"),
    )
    swapped_in = models.JSONField(
        help_text=_("Dice moved from the additional set to the playing set."),
        verbose_name=_("swapped in"),
    )
    playing_after = models.JSONField(verbose_name=_("playing after"))
    additional_after = models.JSONField(verbose_name=_("additional after"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    superseded = models.BooleanField(
        default=False,
        help_text=_("Replaced by a later swap for the same game."),
        verbose_name=_("superseded"),
    )

    class Meta:
        ordering = ["registration_id", "match_id", "before_game", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "match", "before_game"],
                condition=Q(superseded=False),
                name="one_live_swap_per_game",
            )
        ]
        verbose_name = _("set swap")
        verbose_name_plural = _("set swaps")

    def __str__(self):
        return f"swap of registration {self.registration_id} before game {self.before_game} of match {self.match_id}"


class Penalty(models.Model):
    class Kind(models.TextChoices):
        WARNING = "warning", _("Warning")
        GAME_LOSS = "game_loss", _("Game loss")
        MATCH_LOSS = "match_loss", _("Match loss")
        DISQUALIFICATION = "disqualification", _("Disqualification")

    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        related_name="penalties",
        verbose_name=_("registration"),
    )
    match = models.ForeignKey(
        Match,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="penalties",
        verbose_name=_("match"),
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, verbose_name=_("kind"))
    reason = models.CharField(max_length=300, verbose_name=_("reason"))
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("judge"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = _("penalties")
        verbose_name = _("penalty")

    def __str__(self):
        return f"{self.get_kind_display()} for registration {self.registration_id}"


class RatingChange(models.Model):
    """What one rated occasion did to one player's rating in its game (docs/ratings.md).
    An occasion is a confirmed match (two players, or two teams: a row per member) or a
    pod table's placings (a row per seated player).

    Made when the occasion is first confirmed; its place in the rating history (``id``)
    never changes, a correction rewrites the places and figures in place and replays the
    later entries it affects. An occasion not rated (an intentional draw, no game played)
    keeps its entries with ``place`` empty and after = before.
    """

    class Outcome(models.TextChoices):
        WIN = "win", _("Win")
        LOSS = "loss", _("Loss")
        DRAW = "draw", _("Draw")
        PLACED = "placed", _("Placed")
        NOT_RATED = "", _("Not rated")

    game = models.CharField(
        max_length=20,
        choices=game_choices(),
        default=DEFAULT_GAME,
        verbose_name=_("game"),
        help_text=_("The game whose rating moved: the event's game."),
    )
    match = models.ForeignKey(
        Match,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("match"),
    )
    pod_table = models.ForeignKey(
        "PodTable",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("pod table"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("player")
    )
    opponent = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("opponent"),
        help_text=_("The opponent of a two-player match; empty for teams and pod tables."),
    )
    # The openskill "team" the player was rated in: 0 or 1 for the two sides of a match
    # (every member of a team on their side), the seat's position at a pod table.
    side = models.PositiveSmallIntegerField(default=0, verbose_name=_("side"))
    place = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        verbose_name=_("place"),
        help_text=_(
            "The side's rank in the occasion (1 = first, shared when tied); empty: not rated."
        ),
    )
    outcome = models.CharField(
        max_length=6, blank=True, choices=Outcome.choices, verbose_name=_("outcome")
    )
    mu_before = models.FloatField(verbose_name=_("mu before"))
    sigma_before = models.FloatField(verbose_name=_("sigma before"))
    mu_after = models.FloatField(verbose_name=_("mu after"))
    sigma_after = models.FloatField(verbose_name=_("sigma after"))

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "player"], name="one_rating_change_per_player"
            ),
            models.UniqueConstraint(
                fields=["pod_table", "player"], name="one_rating_change_per_table_seat"
            ),
            models.CheckConstraint(
                condition=Q(match__isnull=False, pod_table__isnull=True)
                | Q(match__isnull=True, pod_table__isnull=False),
                name="rating_change_of_a_match_or_a_table",
            ),
        ]
        indexes = [models.Index(fields=["player", "id"], name="rating_change_player_idx")]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")

    def __str__(self):
        occasion = f"match {self.match_id}" if self.match_id else f"table {self.pod_table_id}"
        return f"{occasion} player {self.player_id}: {self.outcome or 'not rated'}"

    @property
    def occasion(self) -> tuple[str, int]:
        """The match or pod table the row belongs to (all its rows are rated together)."""
        return ("match", self.match_id) if self.match_id else ("table", self.pod_table_id)

    @property
    def ordinal_before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

    @property
    def ordinal_after(self) -> float:
        return self.mu_after - 3 * self.sigma_after


class AuditEntry(models.Model):
    """Every state change of a tournament: who, when, what, before and after."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="audit", verbose_name=_("tournament")
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("actor"),
    )
    action = models.CharField(max_length=60, db_index=True, verbose_name=_("action"))
    object_type = models.CharField(max_length=40, verbose_name=_("object type"))
    object_id = models.PositiveBigIntegerField(null=True, verbose_name=_("object id"))
    before = models.JSONField(null=True, blank=True, verbose_name=_("before"))
    after = models.JSONField(null=True, blank=True, verbose_name=_("after"))
    reason = models.CharField(max_length=300, blank=True, verbose_name=_("reason"))
    created_at = models.DateTimeField(
        auto_now_add=True, db_index=True, verbose_name=_("created at")
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = _("audit entries")
        # The live pages' change marker: a count of a tournament's entries (tournaments/live.py).
        indexes = [
            models.Index(
                fields=["tournament", "object_type", "object_id"], name="audit_live_marker"
            )
        ]
        verbose_name = _("audit entry")

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}"


class Team(models.Model):
    """A team of a team event (docs/events.md "Team events"). Its members are
    registrations (``members``); the captain's registration (``unit``) stands for the
    team in pairings, matches, results and standings, so the pairing, the result
    entry and the standings of individual events serve teams unchanged."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="teams", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=80)
    unit = models.OneToOneField(
        Registration,
        on_delete=models.CASCADE,
        related_name="team_unit",
        verbose_name=_("captain's registration"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["tournament_id", "name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "tournament", name="team_name_unique_per_event"),
        ]

    def __str__(self):
        return f"{self.name} @ {self.tournament_id}"


class PodTable(models.Model):
    """One table of a round of an event in pods (docs/pairing.md "Swiss pods"): seated
    by tournaments/pairing/pods.py, numbered best first. A table of one seat is a bye."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="pod_tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    size = models.PositiveSmallIntegerField(verbose_name=_("size"))
    # The judges' extensions of this table's time (tournaments/clocks.py): its time is the
    # round's end plus these; played online, its PodGame's limit moves with them.
    extension = models.DurationField(default=datetime.timedelta(0), verbose_name=_("extension"))

    class Meta:
        ordering = ["round_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="pod_table_number_unique"),
            models.CheckConstraint(
                condition=Q(size__gte=1) & Q(size__lte=8), name="pod_table_size_range"
            ),
        ]
        verbose_name = _("pod table")
        verbose_name_plural = _("pod tables")

    def __str__(self):
        return f"{self.round} table {self.number}"

    @property
    def is_bye(self) -> bool:
        return self.size == 1


class PodSeat(models.Model):
    """A player's seat at a pod table and their placing there (empty until entered).
    ``round`` repeats the table's round so that one seat per player per round is a
    constraint of the database."""

    table = models.ForeignKey(
        PodTable, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="pod_seats", verbose_name=_("round")
    )
    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        related_name="pod_seats",
        verbose_name=_("registration"),
    )
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    placing = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("placing"))

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "registration"], name="pod_seat_one_per_round"
            ),
            models.UniqueConstraint(fields=["table", "seat"], name="pod_seat_number_unique"),
            models.CheckConstraint(condition=Q(seat__gte=1), name="pod_seat_from_one"),
            models.CheckConstraint(
                condition=Q(placing__isnull=True) | Q(placing__gte=1),
                name="pod_seat_placing_from_one",
            ),
        ]
        verbose_name = _("pod seat")
        verbose_name_plural = _("pod seats")

    def __str__(self):
        return f"{self.table} seat {self.seat}"


class PodReport(models.Model):
    """One version of a pod table's placings as a player reported them (docs/operations.md
    "Pod tables on event day"). Never edited but for its status and confirmations: the
    placings reach the seats once every tablemate has confirmed; a tablemate's dispute
    sends the table to the judges, whose own entry (services.record_placings) settles it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting the tablemates' confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed by a tablemate")
        SUPERSEDED = "superseded", _("Superseded by a later report or a judge")

    OPEN = (Status.PENDING, Status.DISPUTED)

    table = models.ForeignKey(
        PodTable, on_delete=models.CASCADE, related_name="reports", verbose_name=_("table")
    )
    number = models.PositiveIntegerField(
        help_text=_("Version number within the table."), verbose_name=_("number")
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_for = models.ForeignKey(
        Registration,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("submitted for"),
    )
    placings = models.JSONField(
        help_text=_("Each seated registration id (as text) and its place."),
        verbose_name=_("placings"),
    )
    confirmed_by = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Registration ids of the players who agree, the reporter first."),
        verbose_name=_("confirmed by"),
    )
    status = models.CharField(
        max_length=10,
        choices=Status.choices,
        default=Status.PENDING,
        db_index=True,
        verbose_name=_("status"),
    )
    disputed_by = models.ForeignKey(
        Registration,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("disputed by"),
    )
    note = models.CharField(max_length=300, blank=True, verbose_name=_("note"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["table_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="pod_report_version_unique"),
            # At most one report a table waits on (pending or disputed) at a time.
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status__in=["pending", "disputed"]),
                name="one_open_pod_report_per_table",
            ),
        ]
        verbose_name = _("pod table report")
        verbose_name_plural = _("pod table reports")

    def __str__(self):
        return f"v{self.number} of pod table {self.table_id} ({self.status})"


class PodGame(models.Model):
    """A pod table played online (tournaments/pod_online.py): the one game session of the
    table, a seat per player in the table's seat order, and the table's time limit (the
    round's end), kept and enforced as a match's (tournaments/clocks.py)."""

    table = models.OneToOneField(
        PodTable, on_delete=models.CASCADE, related_name="online_game", verbose_name=_("table")
    )
    session = models.OneToOneField(
        "games.GameSession",
        on_delete=models.CASCADE,
        related_name="pod_game",
        verbose_name=_("session"),
    )
    deadline_at = models.DateTimeField(
        null=True, blank=True, db_index=True, verbose_name=_("time limit at")
    )
    deadline_remaining = models.DurationField(
        null=True, blank=True, verbose_name=_("time left while paused")
    )
    deadline_task_eta = models.DateTimeField(
        null=True, blank=True, verbose_name=_("queued clock task at")
    )
    clock_version = models.PositiveIntegerField(default=0, verbose_name=_("clock version"))
    time_called_at = models.DateTimeField(null=True, blank=True, verbose_name=_("time called at"))

    class Meta:
        ordering = ["table_id"]
        verbose_name = _("pod table game")
        verbose_name_plural = _("pod table games")

    def __str__(self):
        return f"{self.table}: session {self.session_id}"
