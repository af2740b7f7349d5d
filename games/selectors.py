"""Reads of online games. Everything about a game that leaves the server is built here
from the engine's ``view(state, viewer)`` (principle 5): the board, the legal actions of
the viewer, the log redacted by the view's own log, the clocks. The seed is added only
once the game is over (where the view itself shows it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.conf import settings
from django.db import connection
from django.db.models import DateTimeField, Func
from django.http import Http404
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext as _

from config.dbtime import db_now
from config.errors import in_words
from games import clocks, d36_board, dice_forge_board, hosts, services
from games.bots import shown_name
from games.engines import engine_for
from games.models import GameAction, GameSession
from players.demo import random_valid_set
from players.models import DiceSet

SEAT_LABELS = tuple("ABCDEFGH")

# How the play page puts a game other than IRONDIE into words (its actions and events).
PRESENTERS = {"36d6": d36_board, "dice-forge": dice_forge_board}


def session_queryset():
    """Sessions with what their hosts read of them (games/hosts.py)."""
    return GameSession.objects.select_related(*hosts.related())


def split_list_limit() -> int:
    """Up to how many splits an answer lists in ``legal_actions`` (``?legal=all``: all)."""
    return int(getattr(settings, "GAMES_SPLIT_LIST_LIMIT", 16))


def _with_server_time(queryset):
    """The database's clock read in the same query (config/dbtime.py: one clock)."""
    if connection.vendor != "postgresql":
        return queryset
    return queryset.annotate(
        server_now=Func(function="statement_timestamp", output_field=DateTimeField())
    )


def server_time(row) -> object:
    value = row.get("server_now") if isinstance(row, dict) else getattr(row, "server_now", None)
    return value or timezone.now()


def time_of_read(session: GameSession):
    """Now for an answer about ``session``: the database's time read with the row
    (``viewed_session``) or with its lock for a write (games/services/rows.py), so no
    extra query asks the clock; else asked."""
    return getattr(session, "server_now", None) or getattr(session, "locked_at", None) or db_now()


def poll(pk) -> dict:
    """What the play page asks every 700 ms: one indexed read of four small columns."""
    try:
        row = (
            _with_server_time(GameSession.objects.filter(pk=int(pk)))
            .values("id", "version", "status", "clock_version", *_server_now_field())
            .get()
        )
    except (GameSession.DoesNotExist, TypeError, ValueError):
        raise Http404(_("No such game.")) from None
    return {
        "id": row["id"],
        "version": row["version"],
        "status": row["status"],
        "clock_version": row["clock_version"],
        "server_time": server_time(row).isoformat(),
    }


def _server_now_field() -> tuple:
    return ("server_now",) if connection.vendor == "postgresql" else ()


def viewed_session(pk) -> GameSession:
    """A session to show, with its engine state at hand and the database's time read
    with it (``time_of_read``): the row without its snapshot and config, the state from the per-process
    cache (games/services/state.py) or, on a miss, the snapshot of exactly that version. Three
    queries at most with the token lookup; no snapshot read while the cache is warm."""
    try:
        pk = int(pk)
    except (TypeError, ValueError):
        raise Http404(_("No such game.")) from None
    lean = _with_server_time(
        GameSession.objects.select_related(*hosts.related()).defer("state", "config", "seed")
    )
    for _attempt in range(3):
        session = lean.filter(pk=pk).first()
        if session is None:
            raise Http404(_("No such game."))
        if not session.commitment or services.cached_state(session) is not None:
            return session
        data = (
            GameSession.objects.filter(pk=pk, version=session.version)
            .values_list("state", flat=True)
            .first()
        )
        if data:
            services.remember_state(session, engine_for(session.engine).State.from_dict(data))
            return session
        # The game moved on between the two reads: read the row again.
    return _with_server_time(GameSession.objects.select_related(*hosts.related())).get(pk=pk)


def players(session: GameSession, viewer) -> list[dict]:
    return [
        {
            "seat": seat,
            "name": shown_name(session.names[seat])
            or _("Player %(seat)s") % {"seat": _seat_label(seat)},
            "bot": session.seat_bot(seat) or None,
            "you": viewer == seat,
        }
        for seat in session.seats
    ]


def _seat_label(seat: int) -> str:
    return SEAT_LABELS[seat] if seat < len(SEAT_LABELS) else str(seat + 1)


def is_seat(viewer) -> bool:
    """A viewer that is a seat (not "judge" or "spectator")."""
    return isinstance(viewer, int) and not isinstance(viewer, bool)


def game_state(session: GameSession, viewer, now, *, state=None, all_legal=False) -> dict:
    """The whole game as ``viewer`` (0, 1, "judge", "spectator") may see it.

    ``legal_count`` is how many legal actions the viewer has (0: nothing to decide).
    ``legal_actions`` lists them, except during a battle split of more than
    ``split_list_limit()`` choices (any subset of the hand is legal: 2**n of them), where
    it is null and ``split`` describes the choice; ``all_legal`` lists them anyway.
    """
    engine = engine_for(session.engine)
    state = state if state is not None else services.state_of(session)
    board = engine.view(state, viewer) if state is not None else None
    split = _split_choice(board, viewer) if board else None
    legal, count = [], 0
    if is_seat(viewer) and state is not None and session.status == GameSession.Status.ACTIVE:
        if split is not None:
            count = split["count"]
            listed = all_legal or count <= split_list_limit()
            legal = engine.legal_actions(state, viewer) if listed else None
        else:
            legal = engine.legal_actions(state, viewer)
            count = len(legal)
    host = hosts.host_of(session)
    described = host.describe(session)
    next_game = host.next_session_id(session) if session.is_over else None
    return {
        "id": session.pk,
        "engine": session.engine,
        "engine_version": session.engine_version,
        "kind": session.kind,
        "status": session.status,
        "version": session.version,
        "viewer": viewer,
        "seat": viewer if is_seat(viewer) else None,
        "players": players(session, viewer),
        "match": described["match"],
        "game_number": described["game_number"],
        "team_names": described.get("teams"),
        "next_game": next_game,
        "ready": session.ready,
        "commitment": session.commitment or None,
        "split": split,
        "legal_count": count,
        "legal_actions": legal,
        "decision_since": (session.decision_since or [0] * session.seat_count)[viewer]
        if is_seat(viewer)
        else None,
        "end_cause": session.end_cause or None,
        "clock": clocks.clock_dict(session, now),
        "view": board,
    }


def _split_choice(board, viewer):
    """During a split every subset of the hand is legal: the hand, for clients that
    build the choice themselves instead of picking from the list."""
    decision = board["decision"]
    if not is_seat(viewer) or not decision or decision.get("kind") != "split":
        return None
    if viewer not in decision.get("players", []):
        return None
    hand = [d["id"] for d in board["dice"] if d["owner"] == viewer and d["zone"] == "hand"]
    return {
        "kind": "split",
        "hand": hand,
        "choose": "any subset of hand",
        "count": 1 << len(hand),
        "action": '{"kind": "split", "throw": [ids of the hand, ascending]}',
    }


class SplitChoices(Sequence):
    """Every legal split of ``hand`` in the order of the engine's ``legal_actions``
    (the i-th throws the hand dice whose bit is set in i), without building the 2**n
    actions: what a client that picks from a list uses when an answer describes a split
    instead of listing it (``legal_choices``)."""

    def __init__(self, hand):
        self.hand = sorted(hand)

    def __len__(self):
        return 1 << len(self.hand)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return {"kind": "split", "throw": [d for i, d in enumerate(self.hand) if index >> i & 1]}

    def __contains__(self, action):
        if not isinstance(action, dict) or set(action) != {"kind", "throw"}:
            return False
        throw = action["throw"]
        return (
            action["kind"] == "split"
            and isinstance(throw, list)
            and throw == sorted(set(throw))
            and set(throw) <= set(self.hand)
        )


def legal_choices(answer: dict) -> Sequence:
    """The legal actions of a game answer (``GET /api/games/{id}/``) as a sequence to
    pick from: the listed ``legal_actions``, or every split of ``split.hand``."""
    if answer.get("legal_actions") is not None:
        return answer["legal_actions"]
    if answer.get("split") and answer.get("legal_count"):
        return SplitChoices(answer["split"]["hand"])
    return []


def game_log(session: GameSession, viewer, *, state=None) -> list[dict]:
    """The log so far as ``viewer`` may see it: an entry the engine's view leaves out of
    its log (another player's secret choice before both have chosen) is listed without
    its content."""
    state = state if state is not None else services.state_of(session)
    rows = list(session.actions.order_by("index"))
    view = engine_for(session.engine).view
    visible = view(state, viewer)["log"] if state is not None else []
    entries, j = [], 0
    for row in rows:
        shown = j < len(visible) and visible[j] == [row.engine_actor, row.action]
        if shown:
            j += 1
        entries.append(
            {
                "index": row.index,
                "version": row.version,
                "actor": row.engine_actor,
                "cause": row.cause,
                "hidden": not shown,
                "action": row.action if shown else None,
                "events": row.events,
                "note": row.note,
                "at": row.created_at.isoformat(),
            }
        )
    return entries


def game_record(session: GameSession) -> dict:
    """A finished game in full: config, commitment, seed, log, rolls and result (the
    spectator view of a finished game shows the seed)."""
    state = services.state_of(session)
    board = engine_for(session.engine).view(state, "spectator")
    return {
        "id": session.pk,
        "engine": session.engine,
        "engine_version": session.engine_version,
        "config": board["config"],
        "commitment": board["commitment"],
        "seed": board["seed"],
        "log": board["log"],
        "rolls": board["rolls"],
        # The stored result: the engine's, with every seat's placing (rows.Write.save).
        "result": session.result or board["result"],
        "actions": game_log(session, "spectator", state=state),
    }


def verification(session: GameSession) -> dict:
    engine = engine_for(session.engine)
    record = engine.view(services.state_of(session), "spectator")
    outcome = engine.verify(record)
    return {
        "id": session.pk,
        "commitment": record["commitment"],
        "seed": record["seed"],
        **outcome,
        "problems": [in_words(problem) for problem in outcome["problems"]],  # reader's language
    }


# --- words for the play page -----------------------------------------------------------


def type_word(code: str) -> str:
    """A die type in the reader's language. The engine marks each type's name for
    translation under the code's own spelling ("power_booster": "Power Booster"), so the
    page reaches it without importing the engine (games/engines/irondie/words.py)."""
    return gettext(code.replace("_", " ").title())


def colour_word(code: str) -> str:
    """A die colour in the reader's language ("red"; marked the same way)."""
    return gettext(code)


def sector_word(code: str) -> str:
    """A sector of the battle zone in the reader's language ("attack": "Attack")."""
    return gettext(code.capitalize())


def die_name(board, die_id) -> str:
    """A die in words: "Shooter (red, A)", its type, colour and whose it is."""
    if die_id is None:
        return _("nothing")
    d = board["dice"][die_id]
    return _("%(type)s (%(colour)s, %(seat)s)") % {
        "type": type_word(d["type"]),
        "colour": colour_word(d["colour"]),
        "seat": SEAT_LABELS[d["owner"]],
    }


def _dice_list(board, dice) -> str:
    return ", ".join(die_name(board, d) for d in dice)


def _amounts(board, amounts) -> str:
    return ", ".join(
        _("%(points)s on %(die)s") % {"points": p, "die": die_name(board, d)} for d, p in amounts
    )


def describe_action(board, action: dict, *, engine=None, bonus_die=None) -> str:
    """An action in words. A colour bonus says what it does to each target ("Black
    bonus: +3 to ..., -1 to ...") when the engine and the die that earned it are known."""
    kind = action.get("kind")
    if kind == "split":
        thrown = action["throw"]
        if not thrown:
            return _("Throw nothing")
        return _("Throw %(dice)s") % {"dice": _dice_list(board, thrown)}
    if kind == "bonus" and engine is not None and bonus_die is not None:
        return describe_bonus(board, engine, bonus_die, action["targets"])
    if kind == "bonus":
        parts = [die_name(board, t) for t in action["targets"] if t is not None]
        if not parts:
            return _("Bonus to nobody")
        return _("Bonus to %(dice)s") % {"dice": _(" and ").join(parts)}
    if kind == "throw":
        return _("Throw %(die)s at %(targets)s") % {
            "die": die_name(board, action["die"]),
            "targets": _dice_list(board, action["targets"]),
        }
    if kind == "decline":
        return _("Decline to attack")
    if kind == "pass":
        return _("Pass")
    if kind == "damage" and "die" in action:
        # The team game: the captain shares out the team's damage die by die.
        return _("Damage: %(points)s to %(die)s") % {
            "points": action["points"],
            "die": die_name(board, action["die"]),
        }
    if kind == "damage":
        return _("Damage: %(amounts)s") % {"amounts": _amounts(board, action["amounts"])}
    if kind == "return":
        if action["die"] is None:
            return _("Return nothing")
        return _("Return %(die)s to hand") % {"die": die_name(board, action["die"])}
    return kind or "?"


def describe_bonus(board, engine, die, targets) -> str:
    """ "Black bonus: +3 to red shooter (A), -1 to yellow regenerator (A)": every part of
    the bonus with its amount, from the engine's table (games/engines/irondie/words.py)."""
    colour = board["dice"][die]["colour"]
    parts = []
    for amount, target in zip(engine.bonus_amounts(colour), targets, strict=False):
        values = {"amount": f"{amount:+d}", "die": die_name(board, target)}
        if target is None:
            parts.append(gettext("%(amount)s to no die (none can take it)") % values)
        else:
            parts.append(gettext("%(amount)s to %(die)s") % values)
    return gettext("%(colour)s bonus: %(parts)s") % {
        "colour": capfirst(colour_word(colour)),
        "parts": ", ".join(parts),
    }


def game_words(engine, kind: str, code) -> str:
    """A phase, decision or end reason of the game in words (the engine's ``WORDS``),
    translated; an unknown code is shown with spaces rather than underscores."""
    if code is None:
        return ""
    text = engine.WORDS.get(kind, {}).get(code)
    return gettext(text) if text else str(code).replace("_", " ")


# Steps of the game that are only named.
STEP_NAMES = {
    "clash_started": gettext_noop("The clash begins."),
    "clash_over": gettext_noop("The clash is over."),
    "duel_over": gettext_noop("The duel is over."),
    "battle_phase_over": gettext_noop("The battle phase is over."),
    "clash_skipped": gettext_noop("No clash this turn."),
}

# Why a player has the advantage (the advantage event's "basis").
ADVANTAGE_BASES = {
    "reserve": gettext_noop("more dice in reserve"),
    "life_points": gettext_noop("more life points"),
    "roll_off": gettext_noop("roll-off"),
}


def team_name(board, names, team, team_names=None) -> str:
    """A team of the IRONDIE team game: its name in a team event (``team_names``, from
    the host), else its players' names ("Ann & Bot 2")."""
    if team_names and team in (0, 1):
        return team_names[team]
    teams = board.get("teams") or []
    return " & ".join(names[s] for s, t in enumerate(teams) if t == team)


def describe_event(board, event: dict, names, team_names=None) -> str | None:
    t = event.get("type")
    who = names[event["player"]] if isinstance(event.get("player"), int) else None
    die = event.get("die")
    if t == "turn_started":
        return _("Turn %(turn)s begins.") % {"turn": event.get("turn")}
    if t in ("split_committed", "damage_committed", "return_committed"):
        return _("%(who)s has chosen.") % {"who": who} if who else _("A player has chosen.")
    if t == "battle_throw":
        rolls = [
            _("%(die)s rolls %(value)s") % {"die": die_name(board, d), "value": r}
            for d, r in event.get("dice", [])
        ]
        if not rolls:
            return _("Battle throw: no dice.")
        return _("Battle throw: %(dice)s.") % {"dice": ", ".join(rolls)}
    if t == "advantage":
        basis = event.get("basis", "")
        return _("%(who)s has the advantage (%(basis)s).") % {
            "who": who
            if who is not None
            else team_name(board, names, event.get("team"), team_names),
            "basis": _(ADVANTAGE_BASES[basis])
            if basis in ADVANTAGE_BASES
            else basis.replace("_", " "),
        }
    if t == "throw":
        return _("%(die)s thrown, rolls %(value)s.") % {
            "die": die_name(board, die),
            "value": event.get("value"),
        }
    if t == "compare":
        values = {"die": die_name(board, die), "target": die_name(board, event.get("target"))}
        if event.get("won"):
            return _("%(die)s beats %(target)s.") % values
        return _("%(die)s does not beat %(target)s.") % values
    if t == "value":
        return _("%(die)s is now %(value)s.") % {
            "die": die_name(board, die),
            "value": event.get("value"),
        }
    if t == "bonus":
        return _("%(who)s gets the colour bonus of %(die)s.") % {
            "who": who,
            "die": die_name(board, die),
        }
    if t == "damage":
        a, b = event.get("damage", [0, 0])
        teams = board.get("teams")
        return _("Damage: %(first)s takes %(a)s, %(second)s takes %(b)s.") % {
            "first": team_name(board, names, 0, team_names) if teams else names[0],
            "a": a,
            "second": team_name(board, names, 1, team_names) if teams else names[1],
            "b": b,
        }
    if t == "duel_started":
        attacker = event["attacker"]
        if board.get("teams"):
            return _("%(who)s attack: a duel begins.") % {
                "who": team_name(board, names, attacker, team_names)
            }
        return _("%(who)s attacks: a duel begins.") % {"who": names[attacker]}
    if t == "roll_off":
        return _("Roll-off: %(rolls)s.") % {"rolls": event.get("rolls")}
    if t == "pass":
        return _("%(who)s passes.") % {"who": who}
    if t == "attack_declined":
        return _("%(who)s declines to attack.") % {"who": who}
    if t == "to_abyss":
        return _("%(die)s goes to the abyss.") % {"die": die_name(board, die)}
    if t == "damage_taken":
        amounts = event.get("amounts", [])
        if who is None and "team" in event:
            who = team_name(board, names, event["team"], team_names)
        if not amounts:
            return _("%(who)s takes no damage.") % {"who": who}
        return _("%(who)s takes %(amounts)s.") % {"who": who, "amounts": _amounts(board, amounts)}
    if t == "sudden_death_called":
        return _("Sudden death from turn %(turn)s.") % {"turn": event.get("from_turn")}
    if t == "game_over":
        if "winning_team" in event:
            team = event["winning_team"]
            if team is None:
                return _("Game over: no winner.")
            return _("Game over: %(who)s win.") % {"who": team_name(board, names, team, team_names)}
        winner = event.get("winner")
        if winner in (0, 1):
            return _("Game over: %(who)s wins.") % {"who": names[winner]}
        return _("Game over: no winner.")
    if t in STEP_NAMES:
        return _(STEP_NAMES[t])
    return None


def log_in_words(
    session: GameSession, viewer, board, *, limit: int = 30, team_names=None
) -> list[str]:
    """The log in words; ``team_names`` (a team event's, from the host) name the teams
    where the team is the subject."""
    names = [p["name"] for p in players(session, viewer)]
    engine = engine_for(session.engine)
    lines = []
    for entry in game_log(session, viewer):
        actor = entry["actor"]
        who = names[actor] if is_seat(actor) else _("Server")
        bonus_die = next(
            (e.get("die") for e in entry["events"] or () if e.get("type") == "bonus"), None
        )
        presenter = PRESENTERS.get(session.engine)
        if entry["hidden"] or entry["action"] is None:
            said = None
        elif presenter is not None:
            said = presenter.describe_logged(board, entry["action"])
        else:
            said = describe_action(board, entry["action"], engine=engine, bonus_die=bonus_die)
        if entry["hidden"]:
            lines.append(_("%(who)s made a secret choice.") % {"who": who})
        elif entry["cause"] in (GameAction.Cause.PLAYER, GameAction.Cause.BOT):
            lines.append(_("%(who)s: %(action)s.") % {"who": who, "action": said})
        elif entry["cause"] == GameAction.Cause.CLOCK:
            lines.append(
                _("%(who)s ran out of time: %(action)s.")
                % {"who": who, "action": said[:1].lower() + said[1:]}
            )
        else:
            cause = entry["cause"]
            known = cause in GameAction.Cause.values
            label = GameAction.Cause(cause).label if known else cause.replace("_", " ").capitalize()
            lines.append(_("%(cause)s: %(note)s.") % {"cause": label, "note": entry["note"]})
        for event in entry["events"]:
            text = (
                presenter.describe_event(board, event, names)
                if presenter is not None
                else describe_event(board, event, names, team_names)
            )
            if text and event.get("type") not in ("split_committed",):
                lines.append("  " + text)
    return lines[-limit:]


def practice_dice(user, dice_set_id: int | None = None) -> list[dict] | None:
    """The dice a user plays a practice game with: the set they chose, else their first
    set, else a random valid set. None when ``dice_set_id`` is not one of their sets."""
    sets = DiceSet.objects.filter(player__user=user) if user.is_authenticated else None
    if dice_set_id is not None:
        chosen = sets.filter(pk=dice_set_id).first() if sets is not None else None
        return list(chosen.playing_dice) if chosen is not None else None
    first = sets.order_by("id").first() if sets is not None else None
    if first is not None:
        return list(first.playing_dice)
    return [d.to_dict() for d in random_valid_set(random.Random())]
