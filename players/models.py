import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.engines.irondie.dice import Die


def new_player_number() -> str:
    """A ten-digit player id, like a DCI number; collisions are checked by the service."""
    return str(secrets.randbelow(9 * 10**9) + 10**9)


class Player(models.Model):
    display_name = models.CharField(_("display name"), max_length=80)
    player_number = models.CharField(
        _("player id"),
        max_length=20,
        unique=True,
        default=new_player_number,
        help_text=_("A unique id like a DCI number, printed on pairings and match slips."),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    country = models.CharField(
        _("country"), max_length=2, blank=True, help_text=_("ISO 3166 code, e.g. IT")
    )
    club = models.CharField(_("club"), max_length=80, blank=True)
    language = models.CharField(
        _("language"),
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("The language of the pages, set by the language switcher."),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )

    class Meta:
        ordering = ["display_name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self):
        return f"{self.display_name} ({self.player_number})"


class DiceSet(models.Model):
    """A player's named IRONDIE set: 9 playing dice plus up to 3 additional dice.

    Dice are stored as lists of ``{"type", "colour", "rare"}`` (the catalogue's
    Die.to_dict); players/services.py validates every write. A set entered in a
    tournament is frozen: the tournament keeps its own snapshot and the set can no
    longer change.
    """

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="dice_sets", verbose_name=_("player")
    )
    name = models.CharField(_("name"), max_length=80)
    playing_dice = models.JSONField(_("playing dice"))
    additional_dice = models.JSONField(_("additional dice"), default=list, blank=True)
    frozen_at = models.DateTimeField(_("frozen at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        ordering = ["player_id", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "name"], name="dice_set_name_unique_per_player"
            ),
        ]
        verbose_name = _("dice set")
        verbose_name_plural = _("dice sets")

    def __str__(self):
        return f"{self.name} ({self.player.display_name})"

    @property
    def is_frozen(self) -> bool:
        return self.frozen_at is not None

    def playing(self) -> list[Die]:
        return [Die.from_dict(d) for d in self.playing_dice]

    def additional(self) -> list[Die]:
        return [Die.from_dict(d) for d in self.additional_dice]


class Rating(models.Model):
    """A player's current rating in one game across events (docs/ratings.md): one row per
    player per game. Tournaments writes it (tournaments/services/ratings.py) from the
    history it keeps of every rated match and table; players knows nothing of matches
    nor of the games hosted (``game`` is the engine's name, checked by tournaments).
    No row: never rated in that game (the start values)."""

    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("player"),
    )
    game = models.CharField(
        max_length=20,
        verbose_name=_("game"),
        help_text=_("The game this rating is for: every game has its own."),
    )
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))
    matches = models.PositiveIntegerField(
        default=0,
        help_text=_("Rated matches and pod tables played in this game."),
        verbose_name=_("matches"),
    )
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["player_id", "game"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "game"], name="one_rating_per_player_and_game"
            )
        ]

    def __str__(self):
        return f"{self.player_id} {self.game}: {self.mu - 3 * self.sigma:.2f}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma
