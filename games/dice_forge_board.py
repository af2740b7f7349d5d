"""How the play page draws a Dice Forge game (templates/games/boards/dice_forge.html):
each player's two dice with their six faces drawn as symbols, the reserves against their
maxima, the Sanctuary's pools with prices, the islands' heroic feat cards with costs, the
legal actions as buttons in plain words, and the log in words. Everything here reads the
engine's view for the viewer (games/selectors.py builds it); nothing reads the state.

A face is drawn as a die face with one symbol a resource (gold: a coin, sun: a sun,
moon: a crescent, glory: a star) and its amount; a face of "or" gains has a dashed
frame inside. Every drawing carries its meaning in words (``aria-label``
and ``title``), so nothing is told by colour alone.
"""

from __future__ import annotations

import json
import math

from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.d36_board import SEAT_COLOURS

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
    "ferryman": gettext_noop("The Ferryman"),
    "elder": gettext_noop("The Elder"),
    "wild_spirits": gettext_noop("The Wild Spirits"),
    "guardians_owl": gettext_noop("The Guardian's Owl"),
    "gorgon": gettext_noop("The Gorgon"),
    "hydra": gettext_noop("The Hydra"),
}
CARD_EFFECTS = {
    "blacksmiths_hammer": gettext_noop("gold may go on its track: 10 glory at 15, 15 more at 30"),
    "blacksmiths_chest": gettext_noop("raises the reserve maxima (gold +4, sun +3, moon +3)"),
    "silver_hind": gettext_noop("each turn: roll one of your dice"),
    "elder": gettext_noop("each turn: 3 gold for 4 glory"),
    "wild_spirits": gettext_noop("at once: 3 gold and 3 moon shards"),
    "guardians_owl": gettext_noop("each turn: 1 gold, sun or moon shard"),
}
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
    "gold1/sun1/moon1" (the roller chooses one). Returns ("all"/"choice", [(resource,
    amount), ...])."""
    mode = "choice" if "/" in face else "all"
    gains = []
    for part in face.replace("/", "+").split("+"):
        name = part.rstrip("0123456789")
        gains.append((name, int(part[len(name) :] or 0)))
    return mode, gains


def amount_words(resource: str, amount: int) -> str:
    return _("%(amount)s %(resource)s") % {
        "amount": amount,
        "resource": _(RESOURCE_WORDS[resource]),
    }


def face_words(face: str) -> str:
    """ "3 gold", "2 gold and 1 moon shards", "1 gold or 1 sun shards or 1 moon shards"."""
    mode, gains = parse_face(face)
    joiner = _(" or ") if mode == "choice" else _(" and ")
    return joiner.join(amount_words(resource, amount) for resource, amount in gains)


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
    mode, gains = parse_face(face)
    words = escape(face_words(face))
    parts = []
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


def describe_action(board, action: dict) -> str:
    """A legal (or logged) action in words."""
    kind = action.get("kind")
    if kind == "choose":
        return _("take the %(resource)s") % {"resource": _(RESOURCE_WORDS[action["resource"]])}
    if kind == "hammer":
        return _("put %(gold)s gold on the hammer, the rest in the reserve") % {
            "gold": action["gold"]
        }
    if kind == "reinforce":
        card = action["card"]
        if card == "silver_hind":
            die = DIE_WORDS[("light", "dark")[action["die"]]]
            return _("%(card)s: roll your %(die)s") % {"card": card_name(card), "die": _(die)}
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
        die = DIE_WORDS[("light", "dark")[action["die"]]]
        return _("forge %(face)s onto your %(die)s, face %(slot)s") % {
            "face": face_words(action["face"]),
            "die": _(die),
            "slot": action["slot"] + 1,
        }
    if kind == "feat":
        return _("perform a heroic feat: %(card)s") % {"card": card_name(action["card"])}
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
        return _("%(name)s forges %(face)s in place of %(removed)s.") % {
            "name": who(event.get("seat")),
            "face": face_words(event["face"]),
            "removed": face_words(event["removed"]),
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


def _forge_groups(board, forges: list[dict], seat) -> list[dict]:
    """The forge actions grouped by the face bought: one group a (pool, face), each with
    a button a place (die and face) it can go."""
    groups: dict = {}
    dice = board["players"][seat]["dice"] if isinstance(seat, int) else None
    for action in forges:
        key = (action["pool"], action["face"])
        group = groups.setdefault(
            key,
            {
                "pool": action["pool"] + 1,
                "price": board["sanctuary"][action["pool"]]["price"],
                "face": action["face"],
                "words": face_words(action["face"]),
                "svg": face_svg(action["face"], size=32),
                "places": [],
            },
        )
        replaced = dice[action["die"]]["faces"][action["slot"]] if dice else ""
        group["places"].append(
            {
                "json": json.dumps(action),
                "text": _("%(die)s, face %(slot)s (now %(face)s)")
                % {
                    "die": _(DIE_WORDS[("light", "dark")[action["die"]]]),
                    "slot": action["slot"] + 1,
                    "face": face_words(replaced) if replaced else "?",
                },
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
                "waiting": [
                    _("%(gold)s gold to split with the hammer") % {"gold": face[len("hammer:") :]}
                    if face.startswith("hammer:")
                    else face_words(face)
                    for face in pending.get(seat, [])
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
    forges = [a for a in legal if a.get("kind") == "forge"]
    choices = [
        {"json": json.dumps(a), "text": describe_action(board, a)}
        for a in legal
        if a.get("kind") != "forge"
    ]
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
        "forge_groups": _forge_groups(board, forges, seat_viewer),
        "standings": standings,
        "to_act_names": ", ".join(names[s] for s in board["to_act"]),
    }
