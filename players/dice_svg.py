"""Drawing a die as SVG: its colour, its type's own symbol, its class symbol (triangles,
dots or a numeral) showing a value, and a mark when it is rare. Used by the dice-set
editor and the play page so a die looks the same everywhere."""

from html import escape

from django.utils.translation import gettext as _

from games.engines.irondie.dice import Colour, DieClass, DieType
from games.engines.irondie.words import CLASS_WORDS, COLOUR_NAMES, TYPE_NAMES

FILL = {
    Colour.RED: "#c62828",
    Colour.BLUE: "#1565c0",
    Colour.YELLOW: "#f9c80e",
    Colour.PURPLE: "#6a1b9a",
    Colour.GREEN: "#2e7d32",
    Colour.ORANGE: "#ef6c00",
    Colour.BLACK: "#212121",
    Colour.WHITE: "#fafafa",
}
INK = {colour: "#ffffff" for colour in Colour} | {Colour.YELLOW: "#212121", Colour.WHITE: "#212121"}
# Each type's own symbol, drawn in the band at the top of the face in a 32 x 32 box, so
# that dice of one class (the three attack types, say) are told apart without their
# colour or a tooltip (docs/accessibility.md lists them). Each is a distinct silhouette.
SYMBOL = {
    # ATTACK: a hammer, a sword, a crosshair.
    DieType.CRUSHER: '<rect x="3" y="1" width="26" height="13" rx="2"/><rect x="13" y="13" width="6" height="19" rx="2"/>',
    DieType.ASSAULT: '<polygon points="16,0 22,7 22,20 10,20 10,7"/><rect x="4" y="20" width="24" height="5" rx="1"/><rect x="12.5" y="25" width="7" height="7" rx="1"/>',
    DieType.SHOOTER: '<circle cx="16" cy="16" r="11" fill="none" stroke-width="4"/><path d="M16 0V32M0 16H32" stroke-width="4"/>',
    # DEFENSE: a cancel sign, a shield, a lightning bolt.
    DieType.ANNULATOR: '<circle cx="16" cy="16" r="13.5" fill="none" stroke-width="4.5"/><path d="M6.5 25.5L25.5 6.5" stroke-width="4.5"/>',
    DieType.BARRIER: '<path d="M16 0L30 5V15C30 23 24 29 16 32C8 29 2 23 2 15V5Z"/>',
    DieType.POWER_BOOSTER: '<polygon points="20,0 4,18 14,18 11,32 28,12 18,12 23,0"/>',
    # LIFE: a drop, a tower, a heart.
    DieType.ABSORBER: '<path d="M16 0C16 0 5 13 5 20.5A11 11 0 0 0 27 20.5C27 13 16 0 16 0Z"/>',
    DieType.FORTRESS: '<path d="M3 32V2H9V8H13V2H19V8H23V2H29V32H20V23H12V32Z"/>',
    DieType.REGENERATOR: '<path d="M16 30C5 22 1 16 1 10A7.5 7.5 0 0 1 16 7A7.5 7.5 0 0 1 31 10C31 16 27 22 16 30Z"/>',
}
# Pip positions on a 3x3 grid, as on ordinary dice.
PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)],
}


def _triangle(cx: float, cy: float, size: float, ink: str) -> str:
    h = size * 0.87
    points = f"{cx:.1f},{cy - h / 2:.1f} {cx - size / 2:.1f},{cy + h / 2:.1f} {cx + size / 2:.1f},{cy + h / 2:.1f}"
    return f'<polygon points="{points}" fill="{ink}"/>'


def _ink_attributes(ink: str) -> str:
    return f'fill="{ink}" stroke="{ink}" stroke-width="0"'


def symbol_svg(die_type, size: int = 24) -> str:
    """A type's symbol alone, in the text colour, for the key next to its name (so it
    is hidden from screen readers, which read the name)."""
    return (
        f'<svg class="die-symbol" aria-hidden="true" focusable="false" viewBox="0 0 32 32" '
        f'width="{size}" height="{size}" xmlns="http://www.w3.org/2000/svg">'
        f"<g {_ink_attributes('currentColor')}>{SYMBOL[DieType(die_type)]}</g></svg>"
    )


def die_svg(die_type, colour, rare: bool = False, value: int | None = None, size: int = 56) -> str:
    """One die as an inline SVG element; ``value`` None shows the 6 face."""
    die_type, colour = DieType(die_type), Colour(colour)
    value = 6 if value is None else max(0, min(6, int(value)))
    fill, ink = FILL[colour], INK[colour]
    die_class = die_type.die_class
    parts = [
        f'<rect x="3" y="3" width="94" height="94" rx="16" fill="{fill}" '
        f'stroke="{"#d4a017" if rare else "#555"}" stroke-width="{6 if rare else 2}"/>'
    ]
    # The type's symbol in the top band; the value below it.
    parts.append(
        f'<g transform="translate(31 4) scale(1.19)" {_ink_attributes(ink)}>{SYMBOL[die_type]}</g>'
    )
    if die_class is DieClass.LIFE:
        parts.append(
            f'<text x="50" y="89" font-size="46" font-weight="700" text-anchor="middle" '
            f'font-family="sans-serif" fill="{ink}">{value}</text>'
        )
    else:
        for col, row in PIPS.get(value, []):
            cx, cy = 30 + col * 20, 53 + row * 16
            if die_class is DieClass.ATTACK:
                parts.append(_triangle(cx, cy, 13, ink))
            else:
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="6" fill="{ink}"/>')
    if rare:
        parts.append(
            '<circle cx="86" cy="14" r="9" fill="#d4a017"/>'
            '<text x="86" y="19" font-size="13" text-anchor="middle" font-family="sans-serif" '
            'font-weight="700" fill="#212121">R</text>'
        )
    words = {
        "colour": _(COLOUR_NAMES[colour.value]),
        "type": _(TYPE_NAMES[die_type.value]),
        "class": _(CLASS_WORDS[die_class.value]),
        "value": value,
    }
    if rare:
        label = _("rare %(colour)s %(type)s (%(class)s), showing %(value)s") % words
    else:
        label = _("%(colour)s %(type)s (%(class)s), showing %(value)s") % words
    return (
        f'<svg class="die" role="img" aria-label="{escape(label)}" viewBox="0 0 100 100" '
        f'width="{size}" height="{size}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(label)}</title>{''.join(parts)}</svg>"
    )
