"""Online games: a session per game and its append-only action log.

The action log is the truth (principle 4): a session's snapshot is a cache of
``State.to_dict()`` that ``games.services.replayed_state`` rebuilds from the config, the
seed and the log. The seed stays on the server until the game is over; everything
shown to anyone passes through the engine's ``view`` (games/selectors.py).
The rules these rows obey live in games/services/ and games/clocks.py.
"""

from django.conf import settings
from django.db import connection, models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.bots import shown_name
from games.engines import ENGINES

# Seats beyond the two columns that a game of the most seats fills (extra_seats).
MOST_EXTRA_SEATS = max(engine.SEATS[1] for engine in ENGINES.values()) - 2


class GameSession(models.Model):
    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("Tournament game")
        POD_TABLE = "pod_table", _("Pod table game")
        PRACTICE = "practice", _("Practice against a bot")
        DEMO = "demo", _("Bot against bot (demo)")

    class Status(models.TextChoices):
        # What a waiting game waits for depends on the game: ``status_label``.
        WAITING = "waiting", _("Waiting to start")
        ACTIVE = "active", _("In play")
        PAUSED = "paused", _("Paused by a judge")
        FINISHED = "finished", _("Finished")
        # A match decided by time or concession, or a pod table placed by a judge: either way
        # the result came from elsewhere, so the words must fit both.
        CANCELLED = "cancelled", _("Stopped (the result was settled without this game)")

    class Bot(models.TextChoices):
        HEURISTIC = "heuristic", _("Heuristic bot")
        RANDOM = "random", _("Random bot")

    engine = models.CharField(max_length=20, default="irondie", verbose_name=_("engine"))
    engine_version = models.CharField(max_length=20, default="1", verbose_name=_("engine version"))
    kind = models.CharField(
        max_length=12, choices=Kind.choices, db_index=True, verbose_name=_("kind")
    )
    status = models.CharField(
        max_length=10,
        choices=Status.choices,
        default=Status.WAITING,
        db_index=True,
        verbose_name=_("status"),
    )
    # Seats 0 and 1: a user or a bot. What a session belongs to (a tournament game's
    # match) is its host's business (games/hosts.py), kept in the host's own tables.
    user_0 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user 0"),
    )
    user_1 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user 1"),
    )
    bot_0 = models.CharField(
        max_length=10, blank=True, choices=Bot.choices, verbose_name=_("bot 0")
    )
    bot_1 = models.CharField(
        max_length=10, blank=True, choices=Bot.choices, verbose_name=_("bot 1")
    )
    name_0 = models.CharField(max_length=80, blank=True, verbose_name=_("name 0"))
    name_1 = models.CharField(max_length=80, blank=True, verbose_name=_("name 1"))
    # Seats 2 and up of games for more than two (36d6: up to 8): one object a seat,
    # {"user": id or null, "bot": kind or "", "name": "..."}. Seats 0 and 1 stay in the
    # columns above, so two-seat games (IRONDIE) are stored as they always were.
    extra_seats = models.JSONField(default=list, blank=True, verbose_name=_("extra seats"))
    config = models.JSONField(
        null=True,
        blank=True,
        help_text=_("The engine config (both sets)."),
        verbose_name=_("config"),
    )
    seed = models.CharField(
        max_length=128,
        blank=True,
        help_text=_("Secret until the game is over; never output."),
        verbose_name=_("seed"),
    )
    commitment = models.CharField(max_length=64, blank=True, verbose_name=_("commitment"))
    state = models.JSONField(
        null=True, blank=True, help_text=_("Cache of State.to_dict()."), verbose_name=_("state")
    )
    version = models.PositiveIntegerField(
        default=0,
        help_text=_("Actions applied so far (the state version)."),
        verbose_name=_("version"),
    )
    decision_since = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Per seat: the state version at which its pending decision began."),
        verbose_name=_("decision since"),
    )
    result = models.JSONField(null=True, blank=True, verbose_name=_("result"))
    end_cause = models.CharField(max_length=20, blank=True, verbose_name=_("end cause"))
    # Clocks (games/clocks.py). The per-decision limit in seconds; each seat's deadline
    # (or, while paused, the seconds it had left); the earliest of them in an indexed
    # column for the sweeper. While waiting, the deadline is the end of the swap window.
    decision_seconds = models.PositiveIntegerField(default=60, verbose_name=_("decision seconds"))
    seat_deadlines = models.JSONField(default=list, blank=True, verbose_name=_("seat deadlines"))
    paused_remaining = models.JSONField(null=True, blank=True, verbose_name=_("paused remaining"))
    deadline_at = models.DateTimeField(
        null=True, blank=True, db_index=True, verbose_name=_("deadline at")
    )
    game_deadline_at = models.DateTimeField(
        null=True,
        blank=True,
        db_index=True,
        help_text=_("Practice and demo games: sudden death from the next turn after this."),
        verbose_name=_("game deadline at"),
    )
    clock_version = models.PositiveIntegerField(default=0, verbose_name=_("clock version"))
    # When the one queued eta task of this session fires (None: no task queued). A later
    # deadline publishes nothing: that task re-queues itself for the current deadline.
    clock_task_eta = models.DateTimeField(null=True, blank=True, verbose_name=_("clock task eta"))
    # The same for the game limit (config/deadlines.py).
    game_deadline_task_eta = models.DateTimeField(
        null=True, blank=True, verbose_name=_("game deadline task eta")
    )
    ready = models.JSONField(
        default=list, blank=True, help_text=_("Seats ready to start."), verbose_name=_("ready")
    )
    bot_delay = models.FloatField(
        default=0,
        help_text=_("Seconds a bot waits before moving (demo games, for watchers)."),
        verbose_name=_("bot delay"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("game session")
        verbose_name_plural = _("game sessions")

    def __str__(self):
        return f"{self.engine} session {self.pk} ({self.kind}, {self.status})"

    @property
    def seat_count(self) -> int:
        return 2 + len(self.extra_seats or ())

    @property
    def seats(self) -> range:
        return range(self.seat_count)

    def seat_bot(self, seat: int) -> str:
        if seat == 0:
            return self.bot_0
        if seat == 1:
            return self.bot_1
        return (self.extra_seats[seat - 2].get("bot") or "") if seat < self.seat_count else ""

    def seat_of(self, user) -> int | None:
        if user is None or not user.is_authenticated:
            return None
        if self.user_0_id == user.id:
            return 0
        if self.user_1_id == user.id:
            return 1
        for seat, extra in enumerate(self.extra_seats or (), start=2):
            if extra.get("user") == user.id:
                return seat
        return None

    @property
    def names(self) -> list[str]:
        return [self.name_0, self.name_1] + [e.get("name", "") for e in self.extra_seats or ()]

    @property
    def placings(self) -> list[int] | None:
        """Each seat's placing once finished (1 first, ties shared), from the result."""
        return (self.result or {}).get("placings")

    @classmethod
    def seated(cls, user) -> models.Q:
        """Sessions in which ``user`` has a seat (any seat: the columns or extra_seats)."""
        if connection.features.supports_json_field_contains:
            extra = models.Q(extra_seats__contains=[{"user": user.pk}])
        else:  # SQLite (the zero-setup run): each extra seat's key in turn
            extra = models.Q()
            for index in range(MOST_EXTRA_SEATS):
                extra |= models.Q(**{f"extra_seats__{index}__user": user.pk})
        return models.Q(user_0=user) | models.Q(user_1=user) | extra

    @property
    def shown_names(self) -> list[str]:
        """Every seat's name as the reader sees it (bots in the reader's language)."""
        return [shown_name(name) for name in self.names]

    @property
    def shown_name_0(self) -> str:
        return shown_name(self.name_0)

    @property
    def shown_name_1(self) -> str:
        return shown_name(self.name_1)

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    @property
    def status_label(self) -> str:
        """The status in this game's words where it has its own (the engine's
        ``WORDS["statuses"]``: only IRONDIE waits for a swap window), else the general."""
        engine = ENGINES.get(self.engine)
        text = engine.WORDS.get("statuses", {}).get(self.status) if engine else None
        return gettext(text) if text else self.get_status_display()


class GameAction(models.Model):
    """One entry of a game's log, in order: never edited or deleted.

    ``index`` is the entry's position in the engine log; ``version`` the state version
    after it. ``actor`` is "0", "1" or "system"; ``cause`` says why it happened.
    """

    class Cause(models.TextChoices):
        PLAYER = "player", _("Played")
        BOT = "bot", _("Bot")
        CLOCK = "clock", _("Decision clock ran out: the default action")
        CONCEDE = "concede", _("Conceded")
        RULING = "ruling", _("Judge's ruling")
        SUDDEN_DEATH = "sudden_death", _("Game time limit: sudden death")
        MATCH_TIME = "match_time", _("Match time limit")

    session = models.ForeignKey(
        GameSession, on_delete=models.CASCADE, related_name="actions", verbose_name=_("session")
    )
    index = models.PositiveIntegerField(verbose_name=_("index"))
    version = models.PositiveIntegerField(verbose_name=_("version"))
    actor = models.CharField(max_length=6, verbose_name=_("actor"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user"),
    )
    cause = models.CharField(max_length=12, choices=Cause.choices, verbose_name=_("cause"))
    action = models.JSONField(verbose_name=_("action"))
    events = models.JSONField(default=list, verbose_name=_("events"))
    note = models.CharField(max_length=300, blank=True, verbose_name=_("note"))
    created_at = models.DateTimeField(
        help_text=_("Server time (the database clock)."), verbose_name=_("created at")
    )

    class Meta:
        ordering = ["session_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["session", "index"], name="game_action_index_unique"),
        ]
        verbose_name = _("game action")
        verbose_name_plural = _("game actions")

    def __str__(self):
        return f"session {self.session_id} #{self.index}: {self.actor} {self.action.get('kind')}"

    @property
    def engine_actor(self):
        return "system" if self.actor == "system" else int(self.actor)
