"""A tournament's standings conventions: read from its settings, or filled from a preset.

The conventions themselves and the presets live in the pure core
(tournaments.standings.StandingsConventions, PRESETS); this module only maps them to
and from the Tournament fields, so the selectors and the services agree.
"""

from __future__ import annotations

from fractions import Fraction

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Tournament
from tournaments.standings import MTR_FLOOR, PRESETS, StandingsConventions

# How the percentages are counted and shown (a preset sets them with the floor).
PERCENTAGE_CONVENTION_FIELDS = (
    "game_draw_points",
    "floor_own_game_win",
    "no_opponents_value",
    "no_games_game_win",
    "bye_counting",
    "standings_decimals",
)
CONVENTION_FIELDS = ("percentage_floor", *PERCENTAGE_CONVENTION_FIELDS, "swiss_phases")

# What the event form calls each preset (the API takes the names themselves).
PRESET_LABELS = {
    "mtr": gettext_lazy("Tournament rules as written (floor 0.33, 4 decimals)"),
    "melee-2024": gettext_lazy("Melee.gg, 2024 (drawn games give no game point, 6 decimals)"),
    "melee-2025": gettext_lazy("Melee.gg, 2025 (own GW% not floored, 8 decimals)"),
}


def _optional_fraction(text: str) -> Fraction | None:
    return Fraction(text) if text else None


def conventions_of(tournament: Tournament) -> StandingsConventions:
    """The conventions the tournament's settings choose (validated on write)."""
    floor = MTR_FLOOR if tournament.percentage_floor == Tournament.Floor.MTR else Fraction(1, 3)
    return StandingsConventions(
        floor=floor,
        game_draw_points=tournament.game_draw_points,
        floor_own_game_win=tournament.floor_own_game_win,
        no_opponents_value=_optional_fraction(tournament.no_opponents_value),
        no_games_game_win=_optional_fraction(tournament.no_games_game_win),
        bye_counting=tournament.bye_counting,
        decimals=tournament.standings_decimals,
    )


def _text(value: Fraction | None) -> str:
    return "" if value is None else str(value)


def preset_settings(name: str) -> dict:
    """The Tournament field values of a named preset; unknown names are a
    ValidationError naming the presets."""
    try:
        conventions = PRESETS[name]
    except (KeyError, TypeError):
        known = ", ".join(PRESETS)
        raise ValidationError(
            {
                "standings_preset": [
                    _("Unknown standings preset “%(name)s”; choose one of %(known)s.")
                    % {"name": name, "known": known}
                ]
            }
        ) from None
    floor = Tournament.Floor.MTR if conventions.floor == MTR_FLOOR else Tournament.Floor.THIRD
    return {
        "percentage_floor": floor,
        "game_draw_points": conventions.game_draw_points,
        "floor_own_game_win": conventions.floor_own_game_win,
        "no_opponents_value": _text(conventions.no_opponents_value),
        "no_games_game_win": _text(conventions.no_games_game_win),
        "bye_counting": str(conventions.bye_counting),
        "standings_decimals": conventions.decimals,
    }


def with_preset(settings: dict) -> dict:
    """``settings`` with a ``standings_preset`` expanded into the convention fields;
    fields given explicitly next to the preset win over it."""
    if "standings_preset" not in settings:
        return settings
    settings = dict(settings)
    name = settings.pop("standings_preset")
    return {**preset_settings(name), **settings}
