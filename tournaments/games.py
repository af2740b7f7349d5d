"""The games an event can be of, with each game's defaults, pure Python (no Django).

One table (``GAMES``) says, for every game the engine registry hosts
(games.engines.ENGINES), what an event of it needs and starts with: whether a
registration brings a dice set, the match format (game wins needed to take the match)
and the match and game time limits. The organiser may change the format and the limits;
docs/events.md ("Events per game") gives the reasons for each figure.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engines import ENGINES

DEFAULT_GAME = "irondie"


def gettext_noop(text: str) -> str:
    """Marks a label for the translation catalogue (makemessages knows the name); the
    model field translates it when it is shown. This module imports no Django."""
    return text


# Match formats: game wins needed -> the words people use.
FORMATS = {1: gettext_noop("Best of one"), 2: gettext_noop("Best of three")}


@dataclass(frozen=True)
class GameRules:
    label: str  # the engine package's LABEL, its one home
    needs_dice_set: bool  # registration asks for a dice set (9 playing + 3 additional)
    games_to_win: int  # the match format's default (a key of FORMATS)
    match_minutes: int
    game_minutes: int
    # A match played online (tournaments/online.py), the parts that differ by game:
    # the engine's system action when the match limit passes with a game in play.
    # IRONDIE's "match_time_over" ends it unfinished (it counts for nobody); 36d6 and
    # Dice Forge have no unfinished ending, so their own time limit ("sudden_death")
    # ends it scored as it stands and it counts (docs/online-play.md). Registered dice
    # sets and the swap window between games go with ``needs_dice_set``.
    time_called_action: str = "sudden_death"
    # Whether more than two at a table play each for themselves (Swiss pods). IRONDIE's
    # larger tables are two teams (the team game), so its events pair two at a time.
    free_for_all: bool = True

    def table_config(self, seats: int = 2) -> dict | None:
        """The engine config of an online game at a table of ``seats`` (a match: 2), or
        None when the config is built from the players' registered sets (IRONDIE)."""
        return None if self.needs_dice_set else {"seats": seats, "variants": []}

    @property
    def swap_window(self) -> bool:
        """Whether later games of an online match open with the swap window (IRONDIE's
        additional set); other games' later games start as soon as the previous ends."""
        return self.needs_dice_set

    def defaults(self) -> dict[str, int]:
        """The settings an event of this game starts with (the organiser may change them)."""
        return {
            "games_to_win": self.games_to_win,
            "match_minutes": self.match_minutes,
            "game_minutes": self.game_minutes,
        }


GAMES: dict[str, GameRules] = {
    "irondie": GameRules(
        label=ENGINES["irondie"].LABEL,
        needs_dice_set=True,
        games_to_win=2,
        match_minutes=45,
        game_minutes=20,
        time_called_action="match_time_over",
        free_for_all=False,
    ),
    "36d6": GameRules(
        label=ENGINES["36d6"].LABEL,
        needs_dice_set=False,
        games_to_win=1,
        match_minutes=35,
        game_minutes=35,
    ),
    "dice-forge": GameRules(
        label=ENGINES["dice-forge"].LABEL,
        needs_dice_set=False,
        games_to_win=1,
        match_minutes=45,
        game_minutes=45,
    ),
}

# The settings that take a game's default when an event is created (or its game changed)
# without them.
FORMAT_SETTINGS = ("games_to_win", "match_minutes", "game_minutes")


def game_choices() -> list[tuple[str, str]]:
    """Every hosted game (the engine registry's order) with its label."""
    return [(name, GAMES[name].label) for name in ENGINES]


# The hosted games as choices: the one enum of a "game" in the API schema
# (config/settings.py ENUM_NAME_OVERRIDES).
GAME_CHOICES = game_choices()


def rules_for(game: str) -> GameRules:
    """The table's row for ``game``; KeyError for a game no engine hosts."""
    return GAMES[game]


def with_game_defaults(settings: dict, game: str) -> dict:
    """``settings`` with every format setting left out, or given as None, set to the
    game's default."""
    defaults = rules_for(game).defaults()
    return {
        **settings,
        **{key: value for key, value in defaults.items() if settings.get(key) is None},
    }


# Swiss pods (docs/pairing.md "Swiss pods"): the table modes of tournaments/pairing/pods.py
# and the most seats each needs at one table.
POD_MODES = {"four_three": 4, "three": 3}
POD_MODE_LABELS = {
    "four_three": gettext_noop("Tables of 4 and 3"),
    "three": gettext_noop("Tables of 3"),
}


def most_seats(game: str) -> int:
    """The most players who each play for themselves at one table of the game (the
    engine's SEATS; 2 for a game whose larger tables are teams)."""
    return ENGINES[game].SEATS[1] if GAMES[game].free_for_all else 2


def pod_modes(game: str) -> list[str]:
    """The table modes an event of ``game`` may seat its pods in (none: two-player only)."""
    return [mode for mode, seats in POD_MODES.items() if most_seats(game) >= seats]
