"""How the play page draws a 36d6 game (templates/games/boards/d36.html): the board
with each die's face, the piles of captured dice per seat, the legal actions grouped by
die, and the log in plain words. Everything here reads the engine's view for the viewer
(games/selectors.py builds it); nothing reads the state itself.

Squares are named as on a chess board: columns a-f (a-g on the 7x7 Zombie board) from
the left, rows 1-6 (1-7) from the top, so ``[2, 3]`` is "d3".
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

COLUMNS = "abcdefg"
# Pip positions on a 3x3 grid (0..8, row-major) for each face.
PIPS = {
    1: (4,),
    2: (2, 6),
    3: (2, 4, 6),
    4: (0, 2, 6, 8),
    5: (0, 2, 4, 6, 8),
    6: (0, 2, 3, 5, 6, 8),
}
# One colour a seat, for the dice in its pile (and its name on the page).
SEAT_COLOURS = (
    "#1565c0",
    "#c62828",
    "#2e7d32",
    "#6a1b9a",
    "#ef6c00",
    "#00838f",
    "#5d4037",
    "#ad1457",
)
ELEMENT_COLOURS = {"fire": "#ffe0d6", "water": "#dbeafe", "earth": "#efe6d6", "air": "#f3f6f9"}


def square_name(square) -> str:
    row, column = square
    return f"{COLUMNS[column]}{row + 1}"


def die_svg(face: int, *, colour: str = "#333", size: int = 40) -> str:
    """A die showing ``face`` as pips, in the ``colour`` of its owner (grey on the board)."""
    cells = []
    for pip in PIPS.get(face, ()):
        x, y = 10 + (pip % 3) * 10, 10 + (pip // 3) * 10
        cells.append(f'<circle cx="{x}" cy="{y}" r="3" fill="{colour}"/>')
    return (
        f'<svg viewBox="0 0 40 40" width="{size}" height="{size}" role="img" '
        f'aria-label="{face}"><rect x="2" y="2" width="36" height="36" rx="6" fill="#fff" '
        f'stroke="{colour}" stroke-width="2.5"/>{"".join(cells)}</svg>'
    )


def _die_words(board, die) -> str:
    if die == "zombie":
        return _("a zombie")
    d = board["dice"][die]
    return _("the %(face)s") % {"face": d["face"]}


def describe_action(board, action: dict) -> str:
    """A legal action (or a logged one) in words, e.g. "the 4 on b3 attacks the 5 on b4"."""
    kind = action.get("kind")
    if kind == "move":
        die = board["dice"][action["die"]]
        to = action["to"]
        row, column = to
        target = board["board"][row][column] if 0 <= row < board["size"] else None
        zombies = (board.get("zombies") or [[0] * board["size"]] * board["size"])[row][column]
        here = (
            _("the %(face)s on %(square)s")
            % {"face": die["face"], "square": square_name(die["square"])}
            if die["square"]
            else _("the %(face)s") % {"face": die["face"]}
        )
        if target is not None and target != action["die"]:
            return _("%(die)s attacks the %(face)s on %(square)s") % {
                "die": here,
                "face": board["dice"][target]["face"],
                "square": square_name(to),
            }
        if zombies:
            return _("%(die)s attacks the zombies on %(square)s") % {
                "die": here,
                "square": square_name(to),
            }
        return _("%(die)s moves to %(square)s") % {"die": here, "square": square_name(to)}
    if kind == "zombie":
        return _("zombies on %(start)s move to %(end)s") % {
            "start": square_name(action["from"]),
            "end": square_name(action["to"]),
        }
    if kind == "bite":
        return _("zombies bite on %(square)s") % {"square": square_name(action["at"])}
    if kind == "end_turn":
        return _("end the turn (no extra go)")
    if kind == "sudden_death":
        return _("the time limit: the piles are counted")
    if kind == "forfeit":
        return _("seat %(seat)s forfeits") % {"seat": action.get("player", 0) + 1}
    return str(kind or "?")


def describe_logged(board, action: dict) -> str:
    """An action of the log in words: the board has moved on since, so only what the
    action itself says (its events tell the rest)."""
    if action.get("kind") == "move":
        return _("plays a die to %(square)s") % {"square": square_name(action["to"])}
    return describe_action(board, action)


def describe_event(board, event: dict, names) -> str | None:
    t = event.get("type")

    def who(seat):
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    if t == "move":
        return _("A die moves from %(start)s to %(end)s.") % {
            "start": square_name(event["from"]),
            "end": square_name(event["to"]),
        }
    if t == "attack":
        rolls, totals = event.get("rolls") or [], event.get("totals") or []
        outcome = {
            "win": _("the attacker wins"),
            "lose": _("the attacker loses"),
            "standoff": _("standoff"),
            "both": _("both dice go"),
        }.get(event.get("outcome"), event.get("outcome"))
        said = _("Attack on %(square)s: rolls %(rolls)s") % {
            "square": square_name(event["to"]),
            "rolls": "-".join(map(str, rolls)),
        }
        if totals and totals != rolls:
            said += " " + _("(totals %(totals)s)") % {"totals": "-".join(map(str, totals))}
        return f"{said}, {outcome}."
    if t == "captured":
        return _("%(name)s captures a %(face)s.") % {
            "name": who(event.get("seat")),
            "face": event.get("face"),
        }
    if t == "face":
        return _("The winner turns from %(start)s to %(end)s.") % {
            "start": event.get("from"),
            "end": event.get("to"),
        }
    if t == "discarded":
        count = len(event.get("dice") or [])
        if not count:
            return None
        return _("A die is discarded.") if count == 1 else _("Both are discarded.")
    if t == "zombie_moved":
        return _("Zombies move from %(start)s to %(end)s.") % {
            "start": square_name(event["from"]),
            "end": square_name(event["to"]),
        }
    if t == "zombie_removed":
        return _("A zombie on %(square)s is gone.") % {"square": square_name(event["at"])}
    if t == "zombies":
        return _("%(count)s zombies on %(square)s.") % {
            "count": event.get("count"),
            "square": square_name(event["at"]),
        }
    if t == "extra_go":
        return _("%(name)s rolled a natural 6: an extra go with another die.") % {
            "name": who(event.get("seat"))
        }
    if t == "extra_go_lapsed":
        return _("The extra go lapses: no other die can move.")
    if t == "extra_go_declined":
        return _("%(name)s gives up the extra go.") % {"name": who(event.get("seat"))}
    if t == "turn":
        return _("Turn %(turn)s: %(name)s to play.") % {
            "turn": event.get("turn"),
            "name": who(event.get("seat")),
        }
    if t == "forfeit":
        return _("%(names)s out (forfeit).") % {
            "names": ", ".join(who(s) for s in event.get("seats", []))
        }
    if t == "game_over":
        placings = event.get("placings") or []
        order = sorted(range(len(placings)), key=lambda s: placings[s])
        return _("Game over: %(placings)s.") % {
            "placings": ", ".join(f"{placings[s]}. {who(s)}" for s in order)
        }
    return None


def context(board: dict, data: dict, names: list[str]) -> dict:
    """What templates/games/boards/d36.html draws, from the viewer's view and answer."""
    size = board["size"]
    strongholds = {tuple(sq) for sq in board["tiles"]["strongholds"]}
    elements = board["tiles"]["elements"]
    zombies = board.get("zombies")
    forbidden = {
        piece.get("die")
        for piece in (board["forbidden"] or {}).values()
        if piece and "die" in piece
    }
    choices_by_die: dict = {}
    other_choices = []
    for action in data["legal_actions"] or []:
        choice = {"json": json.dumps(action), "text": describe_action(board, action)}
        if action.get("kind") == "move":
            choices_by_die.setdefault(action["die"], []).append(
                {**choice, "to": square_name(action["to"])}
            )
        else:
            other_choices.append(choice)
    rows = []
    for r in range(size):
        cells = []
        for c in range(size):
            die = board["board"][r][c]
            d = board["dice"][die] if die is not None else None
            cells.append(
                {
                    "name": square_name((r, c)),
                    "die": d,
                    "svg": die_svg(d["face"]) if d else "",
                    "stronghold": (r, c) in strongholds,
                    "background": ELEMENT_COLOURS.get(elements[r][c], "")
                    if elements and r < len(elements) and c < len(elements[r])
                    else "",
                    "zombies": zombies[r][c] if zombies else 0,
                    "movable": die in choices_by_die,
                    "barred": die in forbidden,
                }
            )
        rows.append({"label": r + 1, "cells": cells})
    piles = []
    for seat in range(board["seats"]):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        dice = [d for d in board["dice"] if d["zone"] == "pile" and d["owner"] == seat]
        piles.append(
            {
                "seat": seat,
                "name": names[seat],
                "colour": colour,
                "team": board["teams"][seat],
                "score": board["scores"][seat],
                "out": board["out"][seat],
                "to_act": seat in board["to_act"],
                "deadline": data["clock"]["seat_deadlines"][seat],
                "remaining": data["clock"]["seat_remaining_seconds"][seat],
                "dice": [{**d, "svg": die_svg(d["face"], colour=colour, size=26)} for d in dice],
            }
        )
    movable = [
        {
            "die": board["dice"][die],
            "square": square_name(board["dice"][die]["square"]),
            "svg": die_svg(board["dice"][die]["face"], size=26),
            "choices": choices,
        }
        for die, choices in sorted(choices_by_die.items())
    ]
    placings = (board.get("result") or {}).get("placings") or []
    standings = [
        {"seat": s, "placing": placings[s], "name": names[s], "score": board["scores"][s]}
        for s in sorted(range(len(placings)), key=lambda s: (placings[s], s))
    ]
    return {
        "standings": standings,
        "columns": [COLUMNS[c] for c in range(size)],
        "rows": rows,
        "piles": piles,
        "movable": movable,
        "other_choices": other_choices,
        "discarded": sum(1 for d in board["dice"] if d["zone"] == "discard"),
        "team_game": board["team_scores"] is not None,
        "to_act_names": ", ".join(names[s] for s in board["to_act"]),
        # A seat out of the game (conceded, or its player left the event) has nothing
        # left to concede.
        "viewer_out": any(p["out"] for p in piles if p["seat"] == data.get("seat")),
    }
