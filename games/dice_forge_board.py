"""How the play page draws a Dice Forge game (templates/games/boards/dice_forge.html):
each player's two dice with their six faces drawn as symbols, the reserves against their
maxima, the Sanctuary's pools with prices, the islands' heroic feat cards with costs, the
legal actions as buttons in plain words, and the log in words. Everything here reads the
engine's view for the viewer (games/selectors.py builds it); nothing reads the state.

A face is drawn as a die face with one symbol a resource (gold: a coin, sun: a sun,
moon: a crescent, glory: a star) and its amount; a face of "or" gains has a dashed
frame inside; the special faces a feat forges have their own drawings (the Helmet's ×3,
the Mirror of the Abyss's hand mirror, the Celestial Ship's ship). Every drawing carries its meaning in words (``aria-label``
and ``title``), so nothing is told by colour alone.
"""

from __future__ import annotations

import functools
import json
import math

from django.utils.html import escape
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from games.d36_board import SEAT_COLOURS
from games.engines import engine_for

# The Sanctuary, the special faces and the cards' numbers, as the engine has them.
_ENGINE = engine_for("dice-forge")
CONVERTING, FORGING_CARDS, POOLS = _ENGINE.CONVERTING, _ENGINE.FORGING_CARDS, _ENGINE.POOLS
MIRROR, SHIP, X3 = _ENGINE.MIRROR, _ENGINE.SHIP, _ENGINE.X3
SHIP_DISCOUNT, TRITON_GAINS = _ENGINE.SHIP_DISCOUNT, _ENGINE.TRITON_GAINS
BOAR_CARD, BOAR_FACES, BOAR_FORGE = _ENGINE.BOAR_CARD, _ENGINE.BOAR_FACES, _ENGINE.BOAR_FORGE
SHIELD_CARD, SHIELDS, SHIELD_GLORY = _ENGINE.SHIELD_CARD, _ENGINE.SHIELDS, _ENGINE.SHIELD_GLORY

RESOURCES = ("gold", "sun", "moon", "glory")
RESOURCE_WORDS = {
    "gold": gettext_noop("gold"),
    "sun": gettext_noop("sun shards"),
    "moon": gettext_noop("moon shards"),
    "glory": gettext_noop("glory"),
}
CARD_WORDS = {
    "blacksmiths_hammer": gettext_noop("The Blacksmith's Hammer"),
    "blacksmiths_chest": gettext_noop("The Blacksmith's Chest"),
    "silver_hind": gettext_noop("The Silver Hind"),
    "satyrs": gettext_noop("The Satyrs"),
    "ferryman": gettext_noop("The Ferryman"),
    "helmet_of_invisibility": gettext_noop("The Helmet of Invisibility"),
    "cancer": gettext_noop("The Cancer"),
    "elder": gettext_noop("The Elder"),
    "wild_spirits": gettext_noop("The Wild Spirits"),
    "guardians_owl": gettext_noop("The Guardian's Owl"),
    "minotaur": gettext_noop("The Minotaur"),
    "gorgon": gettext_noop("The Gorgon"),
    "mirror_of_the_abyss": gettext_noop("The Mirror of the Abyss"),
    "sphinx": gettext_noop("The Sphinx"),
    "hydra": gettext_noop("The Hydra"),
    # The alternate cards (config "variants").
    "great_bear": gettext_noop("The Great Bear"),
    "sentinel": gettext_noop("The Sentinel"),
    "cyclops": gettext_noop("The Cyclops"),
    "celestial_ship": gettext_noop("The Celestial Ship"),
    "cerberus": gettext_noop("Cerberus"),
    "triton": gettext_noop("Triton"),
    "typhon": gettext_noop("Typhon"),
    "tenacious_boar": gettext_noop("The Tenacious Boar"),
    "guardians_shield": gettext_noop("The Guardian's Shield"),
}
_GLORY_ONLY = gettext_noop("no other effect: its glory only")
CARD_EFFECTS = {
    "blacksmiths_hammer": gettext_noop("gold may go on its track: 10 glory at 15, 15 more at 30"),
    "blacksmiths_chest": gettext_noop("raises the reserve maxima (gold +4, sun +3, moon +3)"),
    "silver_hind": gettext_noop("each turn: roll one of your dice"),
    "satyrs": gettext_noop("at once: the others roll both dice and you take two of their faces"),
    "ferryman": _GLORY_ONLY,
    "helmet_of_invisibility": gettext_noop(
        "at once: forge the ×3 face, which triples the other die's face"
    ),
    "cancer": gettext_noop("at once: two divine blessings"),
    "elder": gettext_noop("each turn: 3 gold for 4 glory"),
    "wild_spirits": gettext_noop("at once: 3 gold and 3 moon shards"),
    "guardians_owl": gettext_noop("each turn: 1 gold, sun or moon shard"),
    "minotaur": gettext_noop("at once: the others roll both dice and lose what they roll"),
    "gorgon": _GLORY_ONLY,
    "mirror_of_the_abyss": gettext_noop(
        "at once: forge the mirror face, which copies a face another player shows"
    ),
    "sphinx": gettext_noop("at once: roll one die of your choice four times"),
    "hydra": _GLORY_ONLY,
    "great_bear": gettext_noop("3 glory each time you oust a hero or are ousted"),
    "sentinel": gettext_noop(
        "at once: two divine blessings; each sun or moon shard they give may become 2 glory"
    ),
    "cyclops": gettext_noop(
        "at once: roll one die of your choice four times; each gold it gives may become 1 glory"
    ),
    "celestial_ship": gettext_noop(
        "at once: forge the ship face, which buys a Sanctuary face 2 gold cheaper"
    ),
    "cerberus": gettext_noop(
        "a token: once, in step 2 of your turn, the faces your dice show take effect again"
    ),
    "triton": gettext_noop("a token: once, in your turn, 6 gold, 2 sun shards or 2 moon shards"),
    "typhon": gettext_noop("at once: 1 glory for each face your forges have removed"),
    "tenacious_boar": gettext_noop(
        "at once: another player forges your boar face for good; each time it takes effect"
        " they get 1 sun or moon shard and you 1 sun shard, 1 moon shard or 3 glory"
    ),
    "guardians_shield": gettext_noop(
        "at once: forge a shield face of your choice: its resource, or 5 glory when the"
        " other die's face shows the same resource"
    ),
}
# The faces a heroic feat forges (never sold in the Sanctuary), in words and drawn.
SPECIAL_FACE_WORDS = {
    X3: gettext_noop("×3 (triples the other die's face)"),
    MIRROR: gettext_noop("mirror (copies a face another player shows)"),
    SHIP: gettext_noop("celestial ship (buys a Sanctuary face 2 gold cheaper)"),
}
# F29: the Guardian's Shield's faces: their resource's name in words.
SHIELD_NAMES = {
    "shield_gold": gettext_noop("gold shield"),
    "shield_sun": gettext_noop("sun shield"),
    "shield_moon": gettext_noop("moon shield"),
    "shield_glory": gettext_noop("glory shield"),
}
# Their short names, where the face's meaning is told beside them (a feat forging it).
SPECIAL_FACE_NAMES = {
    X3: gettext_noop("×3"),
    MIRROR: gettext_noop("mirror"),
    SHIP: gettext_noop("celestial ship"),
}
TOKEN_WORDS = {"triton": gettext_noop("Triton tokens"), "cerberus": gettext_noop("Cerberus tokens")}
ISLAND_WORDS = {
    "moon_1": gettext_noop("Moon island 1"),
    "moon_2": gettext_noop("Moon island 2"),
    "moon_3": gettext_noop("Moon island 3"),
    "sun_1": gettext_noop("Sun island 1"),
    "sun_2": gettext_noop("Sun island 2"),
    "sun_3": gettext_noop("Sun island 3"),
    "centre": gettext_noop("The centre island"),
}
DIE_WORDS = {"light": gettext_noop("Light die"), "dark": gettext_noop("Dark die")}
# The symbol of each resource: colour and drawing (the words say it too).
SYMBOL_COLOURS = {"gold": "#b8860b", "sun": "#e65100", "moon": "#1565c0", "glory": "#6a1b9a"}


def parse_face(face: str) -> tuple[str, list[tuple[str, int]]]:
    """A face id as the engine names it: "gold3" (3 gold), "gold2+moon1" (both),
    "gold1/sun1/moon1" (the roller chooses one); "x3", "mirror" and "ship" are the
    special faces a heroic feat forges. Returns ("all"/"choice", [(resource, amount),
    ...]) or ("special", [])."""
    if face in SPECIAL_FACE_WORDS:
        return "special", []
    if face in SHIELDS:  # its own resource (5 glory beside a match is told in words)
        resource, amount = SHIELDS[face]
        return "shield", [(RESOURCES[resource], amount)]
    if face in BOAR_FACES:  # one sun or moon shard for its bearer
        return "choice", [(RESOURCES[r], amount) for r, amount in BOAR_FACES[face][1]]
    mode = "choice" if "/" in face else "all"
    gains = []
    for part in face.replace("/", "+").split("+"):
        name = part.rstrip("0123456789")
        gains.append((name, int(part[len(name) :] or 0)))
    return mode, gains


def amount_words(resource: str, amount: int) -> str:
    return _amount_words(resource, amount, get_language())


# A page draws each face (and says each amount) hundreds of times, always alike in one
# language: the words and drawings are kept per language (a few hundred faces in all).
@functools.lru_cache(maxsize=4096)
def _amount_words(resource: str, amount: int, _language: str | None) -> str:
    return _("%(amount)s %(resource)s") % {
        "amount": amount,
        "resource": _(RESOURCE_WORDS[resource]),
    }


def face_words(face: str) -> str:
    """ "3 gold", "2 gold and 1 moon shards", "1 gold or 1 sun shards or 1 moon shards",
    "×3 (triples the other die's face)"."""
    return _face_words(face, get_language())


@functools.lru_cache(maxsize=4096)
def _face_words(face: str, _language: str | None) -> str:
    mode, gains = parse_face(face)
    if mode == "special":
        return _(SPECIAL_FACE_WORDS[face])
    if mode == "shield":
        resource, amount = gains[0]
        return _("%(shield)s: %(gain)s, or %(glory)s glory beside a face showing %(resource)s") % {
            "shield": _(SHIELD_NAMES[face]),
            "gain": amount_words(resource, amount),
            "glory": SHIELD_GLORY,
            "resource": _(RESOURCE_WORDS[resource]),
        }
    joiner = _(" or ") if mode == "choice" else _(" and ")
    said = joiner.join(amount_words(resource, amount) for resource, amount in gains)
    if face in BOAR_FACES:
        return _("boar face of seat %(seat)s: %(gain)s") % {
            "seat": int(face[len("boar") :]) + 1,
            "gain": said,
        }
    return said


def _special_svg(face: str) -> str:
    """The special faces' drawings: a bold "×3", a hand mirror, a sailing ship."""
    if face == X3:
        return (
            '<circle cx="20" cy="20" r="13" fill="#ffebee" stroke="#b71c1c" stroke-width="1.5"/>'
            '<text x="20" y="25.5" text-anchor="middle" font-size="15" font-weight="700" '
            'fill="#b71c1c">×3</text>'
        )
    if face == MIRROR:
        return (
            '<rect x="18" y="26" width="4" height="10" rx="1.5" fill="#6d4c41"/>'
            '<ellipse cx="20" cy="16" rx="9.5" ry="12" fill="#90a4ae" stroke="#37474f" '
            'stroke-width="1.8"/><ellipse cx="20" cy="16" rx="7" ry="9.5" fill="#eceff1"/>'
            '<line x1="15" y1="12" x2="19" y2="8" stroke="#90a4ae" stroke-width="1.5"/>'
            '<line x1="15" y1="17" x2="22" y2="10" stroke="#90a4ae" stroke-width="1.5"/>'
        )
    return (  # the Celestial Ship: a hull, a mast and a sail
        '<path d="M7 25 L33 25 L28 32 L12 32 Z" fill="#8d6e63" stroke="#4e342e" '
        'stroke-width="1.2"/><line x1="20" y1="7" x2="20" y2="25" stroke="#4e342e" '
        'stroke-width="1.5"/><path d="M21 8 L31 22 L21 22 Z" fill="#bbdefb" stroke="#1565c0"/>'
        '<path d="M19 10 L11 22 L19 22 Z" fill="#e3f2fd" stroke="#1565c0"/>'
    )


def _symbol(resource: str, x: float, y: float, r: float) -> str:
    colour = SYMBOL_COLOURS[resource]
    if resource == "gold":
        return (
            f'<circle cx="{x}" cy="{y}" r="{r}" fill="#ffd54f" stroke="{colour}" '
            f'stroke-width="1.5"/>'
        )
    if resource == "sun":
        rays = "".join(
            f'<line x1="{x}" y1="{y - r * 1.35}" x2="{x}" y2="{y - r * 0.95}" stroke="{colour}" '
            f'stroke-width="1.4" transform="rotate({angle} {x} {y})"/>'
            for angle in range(0, 360, 45)
        )
        return f'{rays}<circle cx="{x}" cy="{y}" r="{r * 0.8}" fill="#ffb74d" stroke="{colour}"/>'
    if resource == "moon":  # a crescent: a disc with a disc of the face's colour over it
        return (
            f'<circle cx="{x}" cy="{y}" r="{r}" fill="#64b5f6" stroke="{colour}" '
            f'stroke-width="1.2"/><circle cx="{x + r * 0.45:.1f}" cy="{y - r * 0.2:.1f}" '
            f'r="{r * 0.8:.1f}" fill="#fffdf7"/>'
        )
    points = []  # glory: a five-pointed star
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = math.pi / 2 + k * math.pi / 5
        points.append(f"{x + radius * math.cos(angle):.1f},{y - radius * math.sin(angle):.1f}")
    return f'<polygon points="{" ".join(points)}" fill="#ce93d8" stroke="{colour}"/>'


def face_svg(face: str, *, size: int = 40, up: bool = False) -> str:
    """One die face: each gain as its symbol with the amount beside it, "/" between the
    gains of an "or" face; ``up`` frames the face that shows."""
    return _face_svg(face, size, up, get_language())


@functools.lru_cache(maxsize=4096)
def _face_svg(face: str, size: int, up: bool, _language: str | None) -> str:
    mode, gains = parse_face(face)
    words = escape(face_words(face))
    parts = [_special_svg(face)] if mode == "special" else []
    if mode == "shield":  # a shield's outline behind its resource
        parts.append(
            '<path d="M20 4 L34 9 L32 24 Q28 32 20 36 Q12 32 8 24 L6 9 Z" fill="#eceff1" '
            'stroke="#455a64" stroke-width="1.5"/>'
        )
    if face in BOAR_FACES:  # the owner's colour as a band at the top, and a tusk
        colour = SEAT_COLOURS[int(face[len("boar") :]) % len(SEAT_COLOURS)]
        parts.append(
            f'<rect x="3" y="3" width="34" height="5" rx="2" fill="{colour}"/>'
            '<path d="M30 33 Q36 30 34 24" fill="none" stroke="#6d4c41" stroke-width="2"/>'
        )
    count = len(gains)
    # Lay the gains out in a row (one or two) or a 2x2 grid (three or four).
    cols = 1 if count == 1 else 2
    rows = 1 if count <= 2 else 2
    cell_w, cell_h = 36 / cols, 36 / rows
    r = min(cell_w, cell_h) * 0.24
    for i, (resource, amount) in enumerate(gains):
        cx = 2 + cell_w * (i % cols) + cell_w * 0.36
        cy = 2 + cell_h * (i // cols) + cell_h / 2
        parts.append(_symbol(resource, round(cx, 1), round(cy, 1), round(r, 1)))
        parts.append(
            f'<text x="{cx + r + 1.2:.1f}" y="{cy + r * 0.7:.1f}" font-size="{r * 2:.1f}" '
            f'font-weight="700" fill="#222">{amount}</text>'
        )
    if mode == "choice":  # one of the gains: a dashed frame inside the face
        parts.insert(
            0,
            '<rect x="4.5" y="4.5" width="31" height="31" rx="4" fill="none" stroke="#888" '
            'stroke-dasharray="3 2"/>',
        )
    stroke = "#1565c0" if up else "#555"
    width = 3.5 if up else 1.5
    return (
        f'<svg viewBox="0 0 40 40" width="{size}" height="{size}" role="img" '
        f'aria-label="{words}"><title>{words}</title><rect x="1.5" y="1.5" width="37" '
        f'height="37" rx="6" fill="#fffdf7" stroke="{stroke}" stroke-width="{width}"/>'
        f"{''.join(parts)}</svg>"
    )


def symbol_svg(resource: str, *, size: int = 22) -> str:
    """A resource's symbol alone, beside its name in words (so hidden from screen
    readers, which read the words)."""
    return (
        f'<svg viewBox="0 0 20 20" width="{size}" height="{size}" aria-hidden="true">'
        f"{_symbol(resource, 10, 10, 6.5)}</svg>"
    )


def _cost_words(cost: dict) -> str:
    paid = [amount_words(r, n) for r, n in cost.items() if n]
    return _(" and ").join(paid) if paid else _("nothing")


def card_name(card: str) -> str:
    return _(CARD_WORDS.get(card, card))


def die_words(die: int) -> str:
    return _(DIE_WORDS[("light", "dark")[die]])


# A pending decision as the view lists it ("pending": [seat, code]; the codes are those of
# docs/rules-dice-forge.md F12, F14, F15, F17, F18, F24-F26).


def _unflagged(code: str) -> tuple[str | None, str]:
    """ "sentinel@gold1/sun1/moon1" -> ("sentinel", "gold1/sun1/moon1")."""
    if "@" in code:
        card, code = code.split("@", 1)
        return card, code
    return None, code


def _scaled(code: str) -> tuple[int, str]:
    """A choice face's code: (factor, face); "-3*gold1/sun1/moon1" is (-3, ...)."""
    if "*" in code:
        factor, face = code.split("*", 1)
        return int(factor), face
    if code.startswith("-"):
        return -1, code[1:]
    return 1, code


def pending_code(board: dict, seat) -> str | None:
    """The decision ``seat`` answers now: its first pending code (the engine's order)."""
    return next((code for who, code in board.get("pending") or () if who == seat), None)


def _factor_words(factor: int) -> str:
    if factor < 0:
        return _(" (to lose)") if factor == -1 else _(" (to lose, tripled)")
    return _(" (tripled)") if factor > 1 else ""


def pending_words(code: str) -> str:
    """What a player is still to decide, in words."""
    if code.startswith("hammer:"):
        return _("%(gold)s gold to split with the hammer") % {"gold": code[len("hammer:") :]}
    if code == SHIP:
        return _("a face to buy with the Celestial Ship, 2 gold cheaper")
    if code.startswith(BOAR_FORGE):
        return _("where the boar face of seat %(seat)s goes") % {
            "seat": int(code[len(BOAR_FORGE) :]) + 1
        }
    card, code = _unflagged(code)
    if code.startswith("convert:"):
        _prefix, card, resource, amount = code.split(":")
        resource = RESOURCES[int(resource)]
        return _("how much of %(gain)s becomes glory (%(card)s)") % {
            "gain": amount_words(resource, int(amount)),
            "card": card_name(card),
        }
    if code.startswith("mirror:"):
        _prefix, factor, faces = code.split(":", 2)
        return _("which face the mirror copies%(factor)s: %(faces)s") % {
            "factor": _factor_words(int(factor)),
            "faces": "; ".join(face_words(f) for f in faces.split("|")),
        }
    if code.startswith("satyrs:"):
        faces = code[len("satyrs:") :].split("|")
        return _("which two faces the Satyrs take: %(faces)s") % {
            "faces": "; ".join(face_words(f) for f in faces)
        }
    factor, face = _scaled(code)
    return face_words(face) + _factor_words(factor)


def _placed(board, seat, die: int, slot: int) -> str:
    """ "Light die, face 3 (now 1 gold)": where a face is forged and what it replaces."""
    players = board.get("players") or []
    replaced = None
    if isinstance(seat, int) and 0 <= seat < len(players):
        replaced = players[seat]["dice"][die]["faces"][slot]
    values = {"die": die_words(die), "slot": slot + 1}
    if replaced is None:
        return _("%(die)s, face %(slot)s") % values
    return _("%(die)s, face %(slot)s (now %(face)s)") % {**values, "face": face_words(replaced)}


def describe_action(board, action: dict, code: str | None = None, seat=None) -> str:
    """A legal (or logged) action in words. ``code`` is the pending decision it answers
    and ``seat`` the player's seat, when known (the buttons): they add what is taken."""
    kind = action.get("kind")
    if kind == "choose":
        resource = action["resource"]
        factor, face = _scaled(_unflagged(code)[1]) if code else (1, "")
        amounts = dict(parse_face(face)[1]) if face else {}
        if resource in amounts:
            values = {"gain": amount_words(resource, amounts[resource] * abs(factor))}
            if factor < 0:
                return _("lose %(gain)s") % values
            return _("take %(gain)s") % values
        return _("take the %(resource)s") % {"resource": _(RESOURCE_WORDS[resource])}
    if kind == "hammer":
        return _("put %(gold)s gold on the hammer, the rest in the reserve") % {
            "gold": action["gold"]
        }
    if kind == "reinforce":
        card = action["card"]
        if card == "silver_hind":
            return _("%(card)s: roll your %(die)s") % {
                "card": card_name(card),
                "die": die_words(action["die"]),
            }
        if card == "elder":
            return _("%(card)s: pay 3 gold for 4 glory") % {"card": card_name(card)}
        if card == "guardians_owl":
            return _("%(card)s: take 1 %(resource)s") % {
                "card": card_name(card),
                "resource": _(RESOURCE_WORDS[action["resource"]]),
            }
        return card_name(card)
    if kind == "done":
        return _("go on to your action")
    if kind == "forge":
        return _("forge %(face)s onto your %(die)s, face %(slot)s") % {
            "face": face_words(action["face"]),
            "die": die_words(action["die"]),
            "slot": action["slot"] + 1,
        }
    if kind == "boar":
        return _("forge the boar face onto your %(place)s") % {
            "place": _placed(board, seat, action["die"], action["slot"])
        }
    if kind == "feat":
        card = action["card"]
        said = _("perform a heroic feat: %(card)s") % {"card": card_name(card)}
        if "bearer" in action:
            return _("%(feat)s, its face to be borne by seat %(seat)s") % {
                "feat": said,
                "seat": action["bearer"] + 1,
            }
        if "face" in action and "slot" in action:
            return _("%(feat)s, forging the %(face)s onto your %(place)s") % {
                "feat": said,
                "face": _(SHIELD_NAMES[action["face"]]),
                "place": _placed(board, seat, action["die"], action["slot"]),
            }
        if "slot" in action:
            return _("%(feat)s, forging its %(face)s face onto your %(place)s") % {
                "feat": said,
                "face": _(SPECIAL_FACE_NAMES[FORGING_CARDS[card]]),
                "place": _placed(board, seat, action["die"], action["slot"]),
            }
        if "die" in action:
            return _("%(feat)s, rolling your %(die)s") % {
                "feat": said,
                "die": die_words(action["die"]),
            }
        return said
    if kind == "mirror":
        factor = int(_unflagged(code)[1].split(":", 2)[1]) if code else 1
        return _("the mirror copies %(face)s%(factor)s") % {
            "face": face_words(action["face"]),
            "factor": _factor_words(factor),
        }
    if kind == "satyrs":
        first, second = action["take"]
        faces = code[len("satyrs:") :].split("|") if code and code.startswith("satyrs:") else []
        if max(first, second) < len(faces):
            return _("take %(first)s and %(second)s (rolled faces %(i)s and %(j)s)") % {
                "first": face_words(faces[first]),
                "second": face_words(faces[second]),
                "i": first + 1,
                "j": second + 1,
            }
        return _("take the rolled faces %(i)s and %(j)s") % {"i": first + 1, "j": second + 1}
    if kind == "convert":
        count = action["count"]
        code = _unflagged(code)[1] if code else ""
        if code.startswith("convert:"):
            _prefix, card, resource, amount = code.split(":")
            resource = RESOURCES[int(resource)]
            rest = int(amount) - count
            return _("%(converted)s become %(glory)s glory, %(rest)s to the reserve") % {
                "converted": amount_words(resource, count),
                "glory": count * CONVERTING[card][1],
                "rest": amount_words(resource, rest),
            }
        return _("turn %(count)s of the gain into glory") % {"count": count}
    if kind == "ship":
        if "pool" not in action:
            return _("the Celestial Ship: buy no face")
        price = max(POOLS[action["pool"]][0] - SHIP_DISCOUNT, 0)
        return _(
            "the Celestial Ship: forge %(face)s (pool %(pool)s, %(price)s gold) onto your %(place)s"
        ) % {
            "face": face_words(action["face"]),
            "pool": action["pool"] + 1,
            "price": price,
            "place": _placed(board, seat, action["die"], action["slot"]),
        }
    if kind == "triton":
        return _("spend a Triton token for %(gain)s") % {
            "gain": amount_words(action["resource"], TRITON_GAINS[action["resource"]])
        }
    if kind == "cerberus":
        players = board.get("players") or []
        if isinstance(seat, int) and 0 <= seat < len(players):
            showing = [die["faces"][die["up"]] for die in players[seat]["dice"]]
            return _("spend a Cerberus token: %(faces)s take effect again") % {
                "faces": _(" and ").join(face_words(f) for f in showing)
            }
        return _("spend a Cerberus token: the faces showing take effect again")
    if kind == "pass":
        return _("pass (no action this turn)")
    if kind == "end_forge":
        return _("stop forging")
    if kind == "extra":
        return _("spend 2 sun shards for another action")
    if kind == "end_turn":
        return _("end your turn")
    if kind == "sudden_death":
        return _("the time limit: glory is counted as it stands")
    if kind == "forfeit":
        return _("seat %(seat)s concedes") % {"seat": action.get("player", 0) + 1}
    return str(kind or "?")


def describe_logged(board, action: dict) -> str:
    return describe_action(board, action)


def describe_event(board, event: dict, names) -> str | None:
    t = event.get("type")

    def who(seat):
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    if t == "turn":
        return _("Round %(round)s, turn %(turn)s: %(name)s to play.") % {
            "round": event.get("round"),
            "turn": event.get("turn"),
            "name": who(event.get("seat")),
        }
    if t == "roll":
        die = DIE_WORDS[("light", "dark")[event["die"]]]
        return _("%(name)s rolls the %(die)s: %(face)s.") % {
            "name": who(event.get("seat")),
            "die": _(die),
            "face": face_words(event["face"]),
        }
    if t == "gain":
        return _("%(name)s gains %(gain)s.") % {
            "name": who(event.get("seat")),
            "gain": amount_words(event["resource"], event["amount"]),
        }
    if t == "forge":
        values = {
            "name": who(event.get("seat")),
            "face": face_words(event["face"]),
            "removed": face_words(event["removed"]),
        }
        if event.get("card"):
            return _("%(name)s forges %(face)s in place of %(removed)s (%(card)s).") % {
                **values,
                "card": card_name(event["card"]),
            }
        return _("%(name)s forges %(face)s in place of %(removed)s.") % values
    if t == "loss":
        return _("%(name)s loses %(loss)s.") % {
            "name": who(event.get("seat")),
            "loss": amount_words(event["resource"], event["amount"]),
        }
    if t == "mirror":
        if event.get("face") is None:
            return _("%(name)s's mirror finds no face to copy.") % {"name": who(event.get("seat"))}
        return _("%(name)s's mirror copies %(face)s.") % {
            "name": who(event.get("seat")),
            "face": face_words(event["face"]),
        }
    if t == "satyrs":
        return _("%(name)s takes %(faces)s with the Satyrs.") % {
            "name": who(event.get("seat")),
            "faces": _(" and ").join(face_words(f) for f in event.get("faces", [])),
        }
    if t == "convert":
        return _("%(name)s turns %(converted)s into %(glory)s glory (%(card)s).") % {
            "name": who(event.get("seat")),
            "converted": amount_words(event["resource"], event["count"]),
            "glory": event.get("glory"),
            "card": card_name(event.get("card", "")),
        }
    if t == "great_bear":
        return _("%(name)s gains %(glory)s glory with the Great Bear.") % {
            "name": who(event.get("seat")),
            "glory": event.get("glory"),
        }
    if t == "typhon":
        return _("%(name)s gains %(glory)s glory with Typhon, one per face removed.") % {
            "name": who(event.get("seat")),
            "glory": event.get("glory"),
        }
    if t == "cerberus":
        return _("%(name)s spends a Cerberus token: %(faces)s take effect again.") % {
            "name": who(event.get("seat")),
            "faces": _(" and ").join(face_words(f) for f in event.get("faces", [])),
        }
    if t == "triton":
        resource = event.get("resource")
        return _("%(name)s spends a Triton token for %(gain)s.") % {
            "name": who(event.get("seat")),
            "gain": amount_words(resource, TRITON_GAINS[resource]),
        }
    if t == "ship":  # a Celestial Ship forge declined (a forge is a "forge" event)
        return _("%(name)s buys no face with the Celestial Ship.") % {
            "name": who(event.get("seat"))
        }
    if t == "boar":
        return _("%(bearer)s's boar face takes effect: %(name)s gains too.") % {
            "bearer": who(event.get("bearer")),
            "name": who(event.get("seat")),
        }
    if t == "shield":
        said = _("%(name)s's %(shield)s matches the other face: 5 glory.")
        if not event.get("matched"):
            said = _("%(name)s's %(shield)s gives its own resource.")
        return said % {
            "name": who(event.get("seat")),
            "shield": _(SHIELD_NAMES[event["face"]]),
        }
    if t == "feat":
        return _("%(name)s performs %(card)s.") % {
            "name": who(event.get("seat")),
            "card": card_name(event["card"]),
        }
    if t == "ousted":
        return _("%(name)s is ousted and gets a divine blessing.") % {
            "name": who(event.get("seat"))
        }
    if t == "reinforce":
        return _("%(name)s calls on %(card)s.") % {
            "name": who(event.get("seat")),
            "card": card_name(event["card"]),
        }
    if t == "hammer":
        return _("%(name)s puts %(gold)s gold on the hammer (%(glory)s glory).") % {
            "name": who(event.get("seat")),
            "gold": event.get("gold"),
            "glory": event.get("glory"),
        }
    if t == "extra_action":
        return _("%(name)s takes another action.") % {"name": who(event.get("seat"))}
    if t == "forfeit":
        return _("%(names)s conceded.") % {
            "names": ", ".join(who(s) for s in event.get("seats", []))
        }
    if t == "game_over":
        placings = event.get("placings") or []
        order = sorted(range(len(placings)), key=lambda s: placings[s])
        return _("Game over: %(placings)s.") % {
            "placings": ", ".join(f"{placings[s]}. {who(s)}" for s in order)
        }
    return None


def _grouped(action: dict) -> bool:
    """Actions that place a face (a forge, a Celestial Ship forge, a feat forging its
    face): one button a place, grouped by what is forged."""
    kind = action.get("kind")
    return kind == "forge" or (kind in ("ship", "feat", "boar") and "slot" in action)


def _place_groups(board, actions: list[dict], seat) -> list[dict]:
    """The placing actions grouped by the face forged: one group a (kind, pool, face) or
    a feat's card, each with a button a place (die and face) it can go."""
    groups: dict = {}
    dice = board["players"][seat]["dice"] if isinstance(seat, int) else None
    for action in actions:
        kind = action["kind"]
        if kind == "feat":
            card = action["card"]
            face = action.get("face") or FORGING_CARDS[card]
            key = (kind, card, face)
        elif kind == "boar":
            key = (kind,)
            face = pending_code(board, seat) or ""
            face = "boar" + face[len(BOAR_FORGE) :]
        else:
            key = (kind, action["pool"], action["face"])
            face = action["face"]
        group = groups.get(key)
        if group is None:
            values = {"words": face_words(face)}
            if kind == "boar":
                title = (
                    _("Forge the %(words)s onto one of your dice: choose where it goes") % values
                )
            elif kind == "feat":
                info = next((f for f in board["feats"] if f["card"] == action["card"]), {})
                title = _(
                    "Perform %(card)s (cost %(cost)s, %(glory)s glory) and forge its %(words)s "
                    "face: choose where it goes"
                ) % {
                    "card": card_name(action["card"]),
                    "cost": _cost_words(info.get("cost", {})),
                    "glory": info.get("glory"),
                    "words": _(SHIELD_NAMES.get(face) or SPECIAL_FACE_NAMES[face]),
                }
            else:
                price = POOLS[action["pool"]][0]
                values.update(pool=action["pool"] + 1, price=price)
                if kind == "ship":
                    values["price"] = max(price - SHIP_DISCOUNT, 0)
                    title = _(
                        "The Celestial Ship: forge %(words)s (pool %(pool)s, %(price)s gold): "
                        "choose where it goes"
                    )
                else:
                    title = _(
                        "Forge %(words)s (pool %(pool)s, %(price)s gold): choose where it goes"
                    )
                title = title % values
            group = groups[key] = {
                "kind": kind,
                "pool": action["pool"] + 1 if "pool" in action else None,
                "face": face,
                "card": action.get("card"),
                "title": title,
                "svg": face_svg(face, size=32),
                "places": [],
            }
        replaced = dice[action["die"]]["faces"][action["slot"]] if dice else ""
        group["places"].append(
            {
                "json": json.dumps(action),
                "text": _placed(board, seat, action["die"], action["slot"]),
                "svg": face_svg(replaced, size=22) if replaced else "",
            }
        )
    return list(groups.values())


def context(board: dict, data: dict, names: list[str]) -> dict:
    """What templates/games/boards/dice_forge.html draws, from the viewer's view."""
    seat_viewer = data.get("seat")
    pending = {}
    for who, face in board["pending"]:
        pending.setdefault(who, []).append(face)
    out = {
        action.get("player")
        for actor, action in board["log"]
        if actor == "system" and action.get("kind") == "forfeit"
    }
    players = []
    for p in board["players"]:
        seat = p["seat"]
        maximum = p["maximum"]
        players.append(
            {
                "seat": seat,
                "name": names[seat],
                "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                "to_act": seat in board["to_act"],
                "out": seat in out,
                "active": seat == board["active"] and not board["over"],
                "deadline": data["clock"]["seat_deadlines"][seat],
                "remaining": data["clock"]["seat_remaining_seconds"][seat],
                "dice": [
                    {
                        "name": _(DIE_WORDS[die["name"]]),
                        "up": die["up"],
                        "up_words": face_words(die["faces"][die["up"]]),
                        "faces": [
                            {
                                "slot": slot + 1,
                                "face": face,
                                "words": face_words(face),
                                "up": slot == die["up"],
                                "svg": face_svg(face, up=slot == die["up"]),
                            }
                            for slot, face in enumerate(die["faces"])
                        ],
                    }
                    for die in p["dice"]
                ],
                "reserves": [
                    {
                        "resource": resource,
                        "words": _(RESOURCE_WORDS[resource]),
                        "amount": p[resource],
                        "maximum": maximum[i] if i < 3 else None,
                        "svg": symbol_svg(resource),
                    }
                    for i, resource in enumerate(RESOURCES)
                ],
                "cards": [card_name(card) for card in p["cards"]],
                "hammer": p["hammer"] if p["hammers"] else None,
                "pawn": _(ISLAND_WORDS[p["pawn"]]) if p["pawn"] else _("the starting portal"),
                "waiting": [pending_words(code) for code in pending.get(seat, [])],
                "tokens": [
                    _("%(tokens)s: %(count)s") % {"tokens": _(TOKEN_WORDS[card]), "count": count}
                    for card, count in (p.get("tokens") or {}).items()
                    if count and card in TOKEN_WORDS
                ],
            }
        )
    sanctuary = [
        {
            "pool": pool["pool"] + 1,
            "price": pool["price"],
            "bought": pool["pool"] in board["bought"],
            "faces": [{"words": face_words(f), "svg": face_svg(f, size=30)} for f in pool["faces"]],
        }
        for pool in board["sanctuary"]
    ]
    islands: dict = {}
    for feat in board["feats"]:
        islands.setdefault(feat["island"], []).append(
            {
                "card": feat["card"],
                "name": card_name(feat["card"]),
                "cost": _cost_words(feat["cost"]),
                "cost_svgs": [face_svg(f"{r}{n}", size=24) for r, n in feat["cost"].items() if n],
                "glory": feat["glory"],
                "left": feat["left"],
                "effect": _(CARD_EFFECTS[feat["card"]]) if feat["card"] in CARD_EFFECTS else "",
            }
        )
    islands_list = [
        {
            "island": island,
            "name": _(ISLAND_WORDS[island]),
            "cards": cards,
            "here": [names[p["seat"]] for p in board["players"] if p["pawn"] == island],
        }
        for island, cards in islands.items()
    ]
    legal = data["legal_actions"] or []
    code = pending_code(board, seat_viewer)
    feats = {f["card"]: f for f in board["feats"]}
    choices = []
    for a in legal:
        if _grouped(a):
            continue
        text = describe_action(board, a, code, seat_viewer)
        if a["kind"] == "feat" and "bearer" in a and 0 <= a["bearer"] < len(names):
            text = _("perform a heroic feat: %(card)s, its face to be borne by %(name)s") % {
                "card": card_name(a["card"]),
                "name": names[a["bearer"]],
            }
        if a["kind"] == "feat" and a["card"] in feats:  # what it costs and gives
            text = _("%(feat)s (cost %(cost)s, %(glory)s glory)") % {
                "feat": text,
                "cost": _cost_words(feats[a["card"]]["cost"]),
                "glory": feats[a["card"]]["glory"],
            }
        choices.append({"json": json.dumps(a), "text": text})
    placings = (board.get("result") or {}).get("placings") or []
    standings = [
        {"seat": s, "placing": placings[s], "name": names[s], "glory": board["scores"][s]}
        for s in sorted(range(len(placings)), key=lambda s: (placings[s], s))
    ]
    return {
        "players": players,
        "sanctuary": sanctuary,
        "islands": islands_list,
        "choices": choices,
        "forge_groups": _place_groups(board, [a for a in legal if _grouped(a)], seat_viewer),
        "standings": standings,
        "to_act_names": ", ".join(names[s] for s in board["to_act"]),
        # A seat out of the game (conceded, or its player left the event) has nothing
        # left to concede.
        "viewer_out": seat_viewer in out,
    }
