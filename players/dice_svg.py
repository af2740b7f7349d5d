"""Drawing a die as SVG: its colour, its class symbol (triangles, dots or a numeral)
showing a value, and a mark when it is rare. Used by the dice-set editor and the
play page so a die looks the same everywhere."""

from html import escape

from games.engines.irondie.dice import Colour, DieClass, DieType

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
ABBREVIATION = {
    DieType.CRUSHER: "CR",
    DieType.ASSAULT: "AS",
    DieType.SHOOTER: "SH",
    DieType.ANNULATOR: "AN",
    DieType.BARRIER: "BA",
    DieType.POWER_BOOSTER: "PB",
    DieType.ABSORBER: "AB",
    DieType.FORTRESS: "FO",
    DieType.REGENERATOR: "RE",
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
    if die_class is DieClass.LIFE:
        parts.append(
            f'<text x="50" y="66" font-size="48" font-weight="700" text-anchor="middle" '
            f'font-family="sans-serif" fill="{ink}">{value}</text>'
        )
    else:
        for col, row in PIPS.get(value, []):
            cx, cy = 28 + col * 22, 30 + row * 20
            if die_class is DieClass.ATTACK:
                parts.append(_triangle(cx, cy, 15, ink))
            else:
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="7" fill="{ink}"/>')
    parts.append(
        f'<text x="50" y="93" font-size="13" text-anchor="middle" font-family="sans-serif" '
        f'fill="{ink}" opacity="0.85">{ABBREVIATION[die_type]}</text>'
    )
    if rare:
        parts.append(
            '<circle cx="86" cy="14" r="9" fill="#d4a017"/>'
            '<text x="86" y="19" font-size="13" text-anchor="middle" font-family="sans-serif" '
            'font-weight="700" fill="#212121">R</text>'
        )
    label = f"{'rare ' if rare else ''}{colour.value} {die_type.label} ({die_class.value}), showing {value}"
    return (
        f'<svg class="die" role="img" aria-label="{escape(label)}" viewBox="0 0 100 100" '
        f'width="{size}" height="{size}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(label)}</title>{''.join(parts)}</svg>"
    )
