"""The play page: a server-rendered board that polls a tiny JSON endpoint every 700 ms
and re-renders its fragment when the state version changes (docs/online-play.md says
why polling). Every write goes through the API (games/api.py) and so through
games/services/; every read through games/selectors.py and the engine's view."""

import json
import random

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import d36_board, dice_forge_board, hosts, selectors, services, visibility
from games.engines import ENGINES, engine_for
from games.models import GameSession
from players.demo import random_valid_set
from players.dice_svg import die_svg

ZONES = ("hand", "battle", "clash", "storage", "abyss")

# The board fragment of each game (IRONDIE's is games/_board.html) and what it draws.
BOARDS = {
    "36d6": ("games/boards/d36.html", d36_board.context),
    "dice-forge": ("games/boards/dice_forge.html", dice_forge_board.context),
}
SECTORS = ("attack", "defense", "life")
GAME_LABELS = {name: engine_for(name).LABEL for name in ENGINES}
# Seat counts the practice form offers (the engines take up to SEATS[1]).
SEAT_COUNTS = (2, 3, 4, 6)


def _session(request, pk) -> GameSession:
    session = selectors.viewed_session(pk)
    if not visibility.can_watch(request.user, session):
        raise Http404
    return session


# What the lists of /games/ read of a session: every seat's name is on the row itself
# (seats 0 and 1 in columns, the others in ``extra_seats``), so a list costs one query
# whatever its length and seat counts.
LISTED = ("engine", "kind", "status", "name_0", "name_1", "extra_seats", "created_at")


def games_home(request):
    """My games, games to watch, and a practice game against bots."""
    mine = []
    if request.user.is_authenticated:
        mine = list(
            GameSession.objects.filter(GameSession.seated(request.user))
            .only(*LISTED)
            .order_by("-created_at")[:20]
        )
    watch = list(
        GameSession.objects.filter(status=GameSession.Status.ACTIVE)
        .only(*LISTED)
        .order_by("-created_at")[:20]
    )
    for session in (*mine, *watch):
        session.game_label = GAME_LABELS.get(session.engine, session.engine)
    return render(
        request,
        "games/home.html",
        {"mine": mine, "watch": watch, "games": GAME_LABELS, "seat_counts": SEAT_COUNTS},
    )


@login_required
@require_POST
def practice(request):
    game = request.POST.get("game", "irondie")
    try:
        seats = request.POST.get("seats", "")
        if game == "irondie":
            session = services.create_practice_game(
                by=request.user,
                playing_dice=selectors.practice_dice(request.user),
                bot=request.POST.get("bot", "heuristic"),
                bot_dice=[d.to_dict() for d in random_valid_set(random.Random())],
                seats=int(seats) if seats.isdigit() else None,
            )
        else:
            session = services.create_practice_game(
                by=request.user,
                bot=request.POST.get("bot", "heuristic"),
                game=game,
                seats=int(seats) if seats.isdigit() else None,
            )
    except (ValidationError, PermissionDenied) as exc:
        messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
        return redirect("games:home")
    return redirect("games:play", pk=session.pk)


def _die(d: dict, *, size=44) -> dict:
    return {
        **d,
        "svg": die_svg(d["type"], d["colour"], d["rare"], d["value"], size),
        "label": _("%(type)s, %(colour)s")
        % {
            "type": selectors.type_word(d["type"]),
            "colour": selectors.colour_word(d["colour"]),
        }
        + (f" {d['value']}" if d["value"] is not None else ""),
    }


def _side(board, seat) -> dict:
    dice = [_die(d) for d in board["dice"] if d["owner"] == seat]
    zones = {zone: [d for d in dice if d["zone"] == zone] for zone in ZONES}
    battle = [
        {
            "sector": sector,
            "name": selectors.sector_word(sector),
            "dice": [d for d in zones["battle"] if d["class"] == sector],
        }
        for sector in SECTORS
    ]
    return {"seat": seat, "zones": zones, "battle": battle}


def board_context(session, user) -> dict:
    now = selectors.time_of_read(session)
    viewer = visibility.viewer_for(session, user)
    data = selectors.game_state(session, viewer, now)
    board = data["view"]
    names = [p["name"] for p in data["players"]]
    match_clock = data["clock"].get("match")
    context = {
        "session": session,
        "game": data,
        "viewer": viewer,
        "board": board,
        "names": names,
        "board_template": BOARDS.get(session.engine, ("games/_board.html",))[0],
        # The match clock counts down only while the match is being played: not once
        # its result is confirmed (tournaments/clocks.py "finished").
        "match_clock": match_clock
        if match_clock and match_clock.get("state") in ("running", "paused", "time_called")
        else None,
    }
    if board is None:
        if session.engine == "irondie" and session.seat_count > 2:
            # A team game waiting to start (a tournament's team match): seat s plays for
            # team s % 2, as the engine seats them once it starts.
            context["team_names"] = data["team_names"] or [" & ".join(names[s::2]) for s in (0, 1)]
        return context
    engine = engine_for(session.engine)
    decision = board.get("decision") or {}
    result = board.get("result") or {}
    context.update(
        phase_text=selectors.game_words(engine, "phases", board.get("phase")),
        decision_text=selectors.game_words(engine, "decisions", decision.get("kind")),
        end_reason_text=selectors.game_words(engine, "end_reasons", result.get("reason")),
    )
    if session.engine in BOARDS:
        context["drawn"] = BOARDS[session.engine][1](board, data, names)
        context["log_lines"] = selectors.log_in_words(
            session, viewer, board, team_names=data["team_names"]
        )
        return context
    bottom = viewer if selectors.is_seat(viewer) else 0
    teams = board.get("teams")
    if teams:
        # The team game: the other team's boards on top, the viewer's team below with
        # the viewer's own board last (nearest the decision panel).
        mine = teams[bottom]
        order = [s for s in range(len(teams)) if teams[s] != mine]
        order += [s for s in range(len(teams)) if teams[s] == mine and s != bottom] + [bottom]
        context["sides"] = [_side(board, seat) for seat in order]
        # A team event's match names its teams (teams face teams); a practice game's
        # teams are named by their players.
        context["team_names"] = data["team_names"] or [
            selectors.team_name(board, names, t) for t in (0, 1)
        ]
        if result.get("winning_team") is not None:
            context["winning_team_name"] = context["team_names"][result["winning_team"]]
    else:
        context["sides"] = [_side(board, 1 - bottom), _side(board, bottom)]
    for index, side in enumerate(context["sides"]):
        side["name"] = names[side["seat"]]
        side["position"] = "top" if index == 0 else "bottom"
        side["team"] = None
        if teams:
            side["position"] = "bottom" if side["seat"] in order[len(teams) // 2 :] else "top"
            side["team"] = teams[side["seat"]]
            # The board's team by its name in a team event (else "team 1", "team 2").
            side["team_name"] = (data["team_names"] or [None, None])[side["team"]]
            side["captain"] = side["seat"] in board["captains"]
        side["deadline"] = data["clock"]["seat_deadlines"][side["seat"]]
        side["remaining"] = data["clock"]["seat_remaining_seconds"][side["seat"]]
        side["committed"] = board["committed"][side["seat"]]
    choices = []
    split = None
    if data["legal_count"]:
        if data["split"]:
            split = [_die(board["dice"][d]) for d in data["split"]["hand"]]
        else:
            choices = [
                {
                    "json": json.dumps(a),
                    "text": selectors.describe_action(
                        board, a, engine=engine, bonus_die=decision.get("die")
                    ),
                }
                for a in data["legal_actions"]
            ]
    context.update(
        {
            "choices": choices,
            "split": split,
            "pending": [
                selectors.describe_action(board, a)
                for a in (
                    [
                        {"kind": board["phase"], **_pending(board["phase"], v)}
                        for v in board["pending"].values()
                    ]
                )
            ],
            "log_lines": selectors.log_in_words(
                session, viewer, board, team_names=data["team_names"]
            ),
        }
    )
    return context


def _pending(phase, choice):
    """The viewer's own pending secret choice in the shape of an action, to show it."""
    if phase == "split":
        return {"throw": list(choice)}
    if phase == "damage":
        return {"amounts": [list(p) for p in choice]}
    return {"die": choice[0] if isinstance(choice, list | tuple) and choice else choice}


def play(request, pk):
    session = _session(request, pk)
    context = board_context(session, request.user)
    # The way back into what hosts the game (a match's player to "My match", a pod
    # table's to "My table", anyone else to the round): games/hosts.py ``way_back``.
    context["way_back"] = hosts.host_of(session).way_back(session, request.user, context["viewer"])
    return render(request, "games/play.html", context)


def board(request, pk):
    session = _session(request, pk)
    context = board_context(session, request.user)
    return render(request, context["board_template"], context)
