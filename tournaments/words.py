"""Plain words for what the tournament pages show people: result histories, a match's
score from the reader's side, the audit log as sentences. The one place that turns the
stored codes ("a"/"b" sides, game outcomes, audit actions and their before/after data)
into sentences; every string is marked for translation. Pages reach it through the
``tournament_words`` template tags or their views."""

from __future__ import annotations

import re
from fractions import Fraction

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from players.models import Player
from players.people import person_label
from tournaments.match_rules import format_score
from tournaments.models import (
    Match,
    Penalty,
    Registration,
    ResultSubmission,
    Round,
    SetSwap,
    Tournament,
)
from tournaments.standings import (
    POINTS_PER_GAME_WIN,
    POINTS_PER_MATCH_DRAW,
    POINTS_PER_MATCH_WIN,
    format_percentage,
)

# --- matches and results --------------------------------------------------------------


def side_name(match: Match, side: str) -> str:
    """The display name of side "a" or "b" of a match (selected with its players)."""
    registration = match.player_a if side == "a" else match.player_b
    if registration is None:
        return _("the bye")
    return registration.entry_name


def games_in_words(match: Match, games) -> str:
    """Each game and who won it: "game 1: Alice; game 2: drawn; game 3: Bob"."""
    parts = []
    for number, outcome in enumerate(games or [], start=1):
        who = side_name(match, outcome) if outcome in ("a", "b") else _("drawn")
        parts.append(_("game %(n)s: %(who)s") % {"n": number, "who": who})
    return "; ".join(parts)


def submission_in_words(submission: ResultSubmission, match: Match) -> str:
    """One version of a match's result as a sentence: the games and who won each, or the
    intentional draw, the concession and the match losses."""
    if submission.intentional_draw:
        parts = [_("Intentional draw.")]
    elif submission.games:
        parts = [_("Games won: %(games)s.") % {"games": games_in_words(match, submission.games)}]
    else:
        parts = [_("No games played.")]
    if submission.conceded_by in ("a", "b"):
        parts.append(
            _("%(name)s conceded the match.") % {"name": side_name(match, submission.conceded_by)}
        )
    for side in ("a", "b"):
        if getattr(submission, f"match_loss_{side}"):
            parts.append(
                _("%(name)s loses the match (penalty).") % {"name": side_name(match, side)}
            )
    return " ".join(parts)


def result_in_words(match: Match, games_a: int, games_b: int, games_drawn: int, winner) -> str:
    """A confirmed result in neutral words: "Alice won 2-1" or "drawn 1-1"."""
    if winner == match.player_a_id and winner is not None:
        return _("%(name)s won %(score)s") % {
            "name": side_name(match, "a"),
            "score": format_score(games_a, games_b, games_drawn),
        }
    if winner == match.player_b_id and winner is not None:
        return _("%(name)s won %(score)s") % {
            "name": side_name(match, "b"),
            "score": format_score(games_b, games_a, games_drawn),
        }
    return _("drawn %(score)s") % {"score": format_score(games_a, games_b, games_drawn)}


def score_for_reader(match: Match, registration_id: int) -> str:
    """A confirmed match from one player's side, their games first: "You won 2-0 against
    Bob", "You lost 1-2 against Bob", "Drawn 1-1 with Bob"; empty until confirmed."""
    if match.status != Match.Status.CONFIRMED:
        return ""
    side = match.side_of(registration_id)
    if side is None:
        return ""
    if match.is_bye:
        if match.games_a == 2:
            return _("You won 2-0: a bye.")
        return _("You won %(score)s: a bye.") % {"score": format_score(match.games_a, 0)}
    other = "b" if side == "a" else "a"
    mine, theirs = (match.games_a, match.games_b) if side == "a" else (match.games_b, match.games_a)
    values = {
        "score": format_score(mine, theirs, match.games_drawn),
        "name": side_name(match, other),
    }
    if match.winner_id == registration_id:
        return _("You won %(score)s against %(name)s.") % values
    if match.winner_id is not None:
        return _("You lost %(score)s against %(name)s.") % values
    return _("Drawn %(score)s with %(name)s.") % values


# --- the audit log ----------------------------------------------------------------------

SETTING_NAMES = {
    "name": gettext_lazy("name"),
    "date": gettext_lazy("date"),
    "venue": gettext_lazy("venue"),
    "swiss_rounds": gettext_lazy("Swiss rounds"),
    "top_cut_size": gettext_lazy("top cut"),
    "match_minutes": gettext_lazy("minutes a match"),
    "game_minutes": gettext_lazy("minutes a game"),
    "late_entry": gettext_lazy("late entry"),
    "head_judge": gettext_lazy("head judge"),
    "floor_judges": gettext_lazy("floor judges"),
    "publish_pairings": gettext_lazy("pairings public"),
    "publish_standings": gettext_lazy("standings public"),
    "publish_results": gettext_lazy("results public"),
    "percentage_floor": gettext_lazy("percentage floor"),
    "tiebreakers": gettext_lazy("tiebreakers"),
}


def plain_value(value) -> str:
    """A stored value as people read it: yes/no, lists joined, nothing as a dash; never
    a Python or JSON literal."""
    if value is None or value == "" or value == []:
        return "—"
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    if isinstance(value, list | tuple):
        return ", ".join(plain_value(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{_humanise(k)}: {plain_value(v)}" for k, v in value.items())
    return str(value)


def _humanise(key: str) -> str:
    return str(SETTING_NAMES.get(key) or key.replace("_", " "))


class _Objects:
    """The objects a page of audit entries names, each kind loaded in one query."""

    def __init__(self, entries, viewer):
        self.viewer = viewer
        ids: dict[str, set] = {
            "Registration": set(),
            "Match": set(),
            "Round": set(),
            "SetSwap": set(),
        }
        users, players = set(), set()
        for e in entries:
            if e.object_type in ids and e.object_id is not None:
                ids[e.object_type].add(e.object_id)
            if e.action == "tournament.co_organisers":
                for data in (e.before, e.after):
                    users.update((data or {}).get("co_organisers") or [])
            if e.action == "pairing.edited":
                players.update((e.after or {}).get("players") or [])
        self.registrations = Registration.objects.select_related("player", "team").in_bulk(
            ids["Registration"]
        )
        self.matches = Match.objects.select_related(
            "round", "player_a__player", "player_a__team", "player_b__player", "player_b__team"
        ).in_bulk(ids["Match"])
        self.rounds = Round.objects.in_bulk(ids["Round"])
        self.swaps = SetSwap.objects.select_related(
            "registration__player",
            "match__round",
            "match__player_a__player",
            "match__player_a__team",
            "match__player_b__player",
            "match__player_b__team",
        ).in_bulk(ids["SetSwap"])
        self.users = get_user_model().objects.select_related("player").in_bulk(users)
        self.players = Player.objects.in_bulk(players)

    def player(self, registration_id) -> str:
        registration = self.registrations.get(registration_id)
        return registration.entry_name if registration else _("a player")

    def match(self, match_id) -> str:
        match = self.matches.get(match_id)
        if match is None:
            return _("a match")
        return match_label(match)

    def round(self, round_id) -> str:
        round_ = self.rounds.get(round_id)
        return str(round_.number) if round_ else "?"

    def user(self, user_id) -> str:
        """A member of the event's team: by public name, else by login name as the
        console's team list shows them to the event's staff (who alone read the log)."""
        user = self.users.get(user_id)
        if user is None:
            return _("someone")
        return person_label(user, self.viewer) or user.get_username()


def match_label(match: Match) -> str:
    if match.is_bye:
        return _("round %(r)s, the bye of %(a)s") % {
            "r": match.round.number,
            "a": side_name(match, "a"),
        }
    values = {
        "r": match.round.number,
        "t": match.table or "—",
        "a": side_name(match, "a"),
        "b": side_name(match, "b"),
    }
    return _("round %(r)s, table %(t)s (%(a)s v %(b)s)") % values


def _status_label(code) -> str:
    try:
        return str(Tournament.Status(code).label)
    except ValueError:
        return str(code)


def _penalty_label(code) -> str:
    try:
        return str(Penalty.Kind(code).label).lower()
    except ValueError:
        return str(code).replace("_", " ")


def audit_sentence(entry, objects: _Objects) -> str:
    """What one audit entry records, as a sentence (the actor is shown beside it)."""
    action, oid = entry.action, entry.object_id
    before, after = entry.before or {}, entry.after or {}
    if action == "tournament.created":
        return _("Created the tournament “%(name)s”.") % {"name": after.get("name", "")}
    if action == "tournament.updated":
        changed = ", ".join(_humanise(k) for k in after) or _("nothing")
        return _("Changed the settings: %(fields)s.") % {"fields": changed}
    if action == "tournament.status":
        if after.get("status") == Tournament.Status.SWISS and "players" in after:
            return _("Started the Swiss rounds: %(p)s players, %(n)s rounds.") % {
                "p": after.get("players"),
                "n": after.get("swiss_rounds"),
            }
        return _("Changed the status from “%(old)s” to “%(new)s”.") % {
            "old": _status_label(before.get("status")),
            "new": _status_label(after.get("status")),
        }
    if action == "tournament.co_organisers":
        old = set(before.get("co_organisers") or [])
        new = set(after.get("co_organisers") or [])
        added, removed = sorted(new - old), sorted(old - new)
        if added:
            return _("Made %(name)s a co-organiser.") % {"name": objects.user(added[0])}
        if removed and entry.actor_id == removed[0]:
            return _("Stepped down as a co-organiser.")
        if removed:
            return _("Removed %(name)s as a co-organiser.") % {"name": objects.user(removed[0])}
        return _("Changed the co-organisers.")
    if action == "tournament.finished":
        return _("Finished the tournament.")
    if action == "top_cut.started":
        return _("Started the top cut with %(n)s players.") % {"n": after.get("size")}
    if action.startswith("registration."):
        return _registration_sentence(action, oid, after, objects)
    if action.startswith("round.") or action == "pairing.edited":
        return _round_sentence(action, oid, after, objects)
    if action == "pod.games_opened":
        return _("Opened the online games of round %(n)s (tables: %(tables)s).") % {
            "n": after.get("round"),
            "tables": ", ".join(str(t) for t in after.get("tables") or []) or "—",
        }
    if entry.object_type == "PodTable" and action.split(".", 1)[0] in ("clock", "game"):
        return _pod_table_sentence(action, before, after)
    if action == "pod.placings":
        where = {"t": after.get("table"), "n": after.get("round")}
        if after.get("source") == "players":
            return (
                _("Confirmed the placings of table %(t)s in round %(n)s, the last at the table.")
                % where
            )
        if after.get("game_session"):
            return _("The online game of table %(t)s in round %(n)s placed its players.") % where
        if entry.before:
            return _("Corrected the placings of table %(t)s in round %(n)s.") % where
        return _("Entered the placings of table %(t)s in round %(n)s.") % where
    if action in ("pod.reported", "pod.confirmed", "pod.disputed"):
        where = {"t": after.get("table"), "n": after.get("round")}
        if action == "pod.reported":
            return _("Reported the placings of table %(t)s in round %(n)s.") % where
        if action == "pod.confirmed":
            return _("Confirmed the placings of table %(t)s in round %(n)s.") % where
        return _("Disputed the placings of table %(t)s in round %(n)s.") % where
    if action.startswith("result."):
        return _result_sentence(action, oid, after, objects)
    if action.startswith("clock."):
        return _clock_sentence(action, oid, before, after, objects)
    if action.startswith("game."):
        return _game_sentence(action, oid, after, objects)
    if action == "swap.recorded":
        swap = objects.swaps.get(oid)
        if swap is None:
            return _("Recorded a swap of dice.")
        return _("Recorded a swap of %(n)s dice for %(player)s before game %(g)s.") % {
            "n": len(after.get("out") or []),
            "player": swap.registration.player.display_name,
            "g": after.get("before_game"),
        }
    if action.startswith("penalty."):
        text = _("Gave %(player)s a penalty: %(kind)s.") % {
            "player": objects.player(oid),
            "kind": _penalty_label(action.split(".", 1)[1]),
        }
        if after.get("match"):
            text += " " + _("In %(match)s.") % {"match": objects.match(after["match"])}
        return text
    return _("%(what)s.") % {"what": action.replace(".", ": ").replace("_", " ").capitalize()}


def _registration_sentence(action, oid, after, objects) -> str:
    name = {"player": objects.player(oid)}
    if action == "registration.created":
        text = _("Registered %(player)s with the set “%(set)s”.") % {
            "player": after.get("player") or name["player"],
            "set": after.get("set", ""),
        }
        if after.get("late_entry_round"):
            text += " " + _("Late entry from round %(n)s.") % {"n": after["late_entry_round"]}
        return text
    if action == "registration.checked_in":
        return _("Checked %(player)s in.") % name
    if action == "registration.checked_out":
        return _("Undid the check-in of %(player)s.") % name
    if action == "registration.dropped":
        if after.get("after_round"):
            return _("Dropped %(player)s after round %(n)s.") % {**name, "n": after["after_round"]}
        return _("Dropped %(player)s before the first round.") % name
    if action == "registration.reinstated":
        return _("Reinstated %(player)s.") % name
    return _("Changed the registration of %(player)s.") % name


def _round_sentence(action, oid, after, objects) -> str:
    n = {"n": after.get("number") or objects.round(oid)}
    if action == "round.paired":
        if after.get("stage") == Round.Stage.TOP_CUT:
            return _("Paired round %(n)s, %(name)s of the top cut, as a draft.") % {
                **n,
                "name": after.get("name", ""),
            }
        cost = after.get("cost") or {}
        if cost.get("method") == "best_found":
            return _("Paired round %(n)s as a draft, %(proof)s.") % {
                **n,
                "proof": pod_proof_in_words(cost),
            }
        return _("Paired round %(n)s as a draft.") % n
    if action == "round.unpaired":
        return _("Threw away the draft pairings of round %(n)s.") % n
    if action == "round.published":
        return _("Published the pairings of round %(n)s.") % n
    if action == "round.started":
        return _("Started round %(n)s.") % n
    if action == "round.closed":
        return _("Closed round %(n)s.") % n
    if action == "pairing.edited":
        names = [
            objects.players[p].display_name if p in objects.players else _("a player")
            for p in after.get("players") or []
        ]
        if len(names) == 2:
            return _("Swapped %(a)s and %(b)s in the draft of round %(n)s.") % {
                **n,
                "a": names[0],
                "b": names[1],
            }
        return _("Changed the draft pairings of round %(n)s by hand.") % n
    return _("Changed round %(n)s.") % n


def _result_sentence(action, oid, after, objects) -> str:
    match = objects.matches.get(oid)
    values = {"match": objects.match(oid)}
    if match is not None and "games_a" in after:
        values["result"] = result_in_words(
            match,
            after.get("games_a", 0),
            after.get("games_b", 0),
            after.get("games_drawn", 0),
            after.get("winner"),
        )
    elif match is not None and "games" in after:
        values["result"] = (
            _("intentional draw")
            if after.get("intentional_draw")
            else games_in_words(match, after.get("games")) or _("no games")
        )
    elif match is not None and "reported" in after:
        values["result"] = games_in_words(match, after["reported"].get("games")) or _("no games")
    else:
        values["result"] = "—"
    if action == "result.reported":
        return _("Reported the result of %(match)s: %(result)s.") % values
    if action == "result.confirmed":
        return _("Confirmed the result of %(match)s: %(result)s.") % values
    if action == "result.corrected":
        return _("Corrected the result of %(match)s: %(result)s.") % values
    if action == "result.disputed":
        return _("Reported a different result for %(match)s (%(result)s): disputed.") % values
    if action == "result.rejected":
        return _("Said the reported result of %(match)s is wrong: disputed.") % values
    return _("Changed the result of %(match)s.") % values


def _pod_table_sentence(action, before, after) -> str:
    """A pod table's clock (tournaments/clocks.py) and its online game
    (tournaments/pod_online.py)."""
    values = {"t": after.get("table", "?")}
    if action == "clock.extended":
        extra = (after.get("extension_minutes") or 0) - (before.get("extension_minutes") or 0)
        return _("Gave table %(t)s %(m)s more minutes.") % {**values, "m": f"{extra:g}"}
    if action == "clock.time_called":
        return _("Time was called at table %(t)s.") % values
    if action == "game.paused":
        return _("Paused the online game of table %(t)s.") % values
    if action == "game.resumed":
        return _("Resumed the online game of table %(t)s.") % values
    if action == "game.placings_awarded":
        return _("Ended the online game of table %(t)s with the judge's placings.") % values
    if action == "game.awarded":
        return _("Awarded the online game of table %(t)s to seat %(seat)s.") % {
            **values,
            "seat": (after.get("winner_seat") or 0) + 1,
        }
    return _("The online game of table %(t)s: %(what)s.") % {
        **values,
        "what": action.split(".", 1)[1].replace("_", " "),
    }


def _clock_sentence(action, oid, before, after, objects) -> str:
    if action in ("clock.round_paused", "clock.round_resumed"):
        values = {"n": objects.round(oid), "k": len(after.get("matches") or [])}
        if action == "clock.round_paused":
            return _("Paused the clocks of round %(n)s (%(k)s matches).") % values
        return _("Resumed the clocks of round %(n)s (%(k)s matches).") % values
    values = {"match": objects.match(oid)}
    if action == "clock.extended":
        extra = (after.get("extension_minutes") or 0) - (before.get("extension_minutes") or 0)
        return _("Gave %(match)s %(m)s more minutes.") % {**values, "m": f"{extra:g}"}
    if action == "clock.paused":
        return _("Paused the clock of %(match)s.") % values
    if action == "clock.resumed":
        return _("Resumed the clock of %(match)s.") % values
    if action == "clock.time_called":
        return _("Time was called in %(match)s.") % values
    if action == "clock.sudden_death":
        return _("Game %(g)s of %(match)s passed its time limit: sudden death.") % {
            **values,
            "g": after.get("game"),
        }
    return _("Changed the clock of %(match)s.") % values


def _game_sentence(action, oid, after, objects) -> str:
    match = objects.matches.get(oid)
    values = {"match": objects.match(oid), "g": after.get("game", "?")}
    if action == "game.ready" and match is not None and after.get("side") in ("a", "b"):
        return _("%(player)s is ready for game %(g)s of %(match)s.") % {
            **values,
            "player": side_name(match, after["side"]),
        }
    if action == "game.started":
        return _("Game %(g)s of %(match)s started.") % values
    if action == "game.paused":
        return _("Paused game %(g)s of %(match)s.") % values
    if action == "game.resumed":
        return _("Resumed game %(g)s of %(match)s.") % values
    if action == "game.awarded" and match is not None and after.get("winner_seat") in (0, 1):
        return _("Awarded game %(g)s of %(match)s to %(player)s.") % {
            **values,
            "player": side_name(match, "ab"[after["winner_seat"]]),
        }
    return _("Game %(g)s of %(match)s: %(what)s.") % {
        **values,
        "what": action.split(".", 1)[1].replace("_", " "),
    }


def audit_details(entry) -> list[str]:
    """The changed settings of a tournament.updated entry, "field: old → new"."""
    if entry.action != "tournament.updated":
        return []
    before, after = entry.before or {}, entry.after or {}
    return [
        f"{_humanise(key)}: {plain_value(before.get(key))} → {plain_value(value)}"
        for key, value in after.items()
    ]


def audit_rows(entries, viewer) -> list[dict]:
    """A page of audit entries as rows of words: a fixed number of queries for any page."""
    entries = list(entries)
    objects = _Objects(entries, viewer)
    return [
        {
            "entry": e,
            "sentence": audit_sentence(e, objects),
            "details": audit_details(e),
        }
        for e in entries
    ]


AUDIT_GROUPS = (
    ("", gettext_lazy("Everything")),
    ("result.", gettext_lazy("Results")),
    ("round.", gettext_lazy("Rounds")),
    ("pairing.", gettext_lazy("Pairings changed by hand")),
    ("registration.", gettext_lazy("Registrations")),
    ("clock.", gettext_lazy("Clocks")),
    ("game.", gettext_lazy("Games")),
    ("swap.", gettext_lazy("Swaps")),
    ("penalty.", gettext_lazy("Penalties")),
    ("tournament.", gettext_lazy("The event")),
    ("top_cut.", gettext_lazy("Top cut")),
)


def audit_groups(current: str) -> list[tuple[str, str]]:
    """The filter's choices; a prefix typed into the address is kept as one more."""
    groups = [(prefix, str(label)) for prefix, label in AUDIT_GROUPS]
    if current and current not in dict(groups):
        groups.append((current, current))
    return groups


def game_outcome_in_words(outcome: str, match: Match) -> str:
    if outcome in ("a", "b"):
        return _("%(name)s won") % {"name": side_name(match, outcome)}
    return _("Drawn")


# --- why a pairing is what it is -------------------------------------------------------

# The pairer (pure Python, tournaments/pairing/) stores each reason as a code, figures and
# an English sentence. A page shows the sentence in the reader's language: each known
# sentence, read back with its figures, is written again from a translated pattern.
_REASON_PATTERNS = [
    (
        re.compile(r"same point group \((?P<points>-?\d+) points\)"),
        gettext_noop("same point group (%(points)s points)"),
    ),
    (
        re.compile(r"paired down from (?P<high>-?\d+) to (?P<low>-?\d+) points"),
        gettext_noop("paired down from %(high)s to %(low)s points"),
    ),
    (re.compile(r"rematch impossible to avoid"), gettext_noop("rematch impossible to avoid")),
    (
        re.compile(r"repeat bye: no player with fewer byes could sit out without an extra rematch"),
        gettext_noop(
            "repeat bye: no player with fewer byes could sit out without an extra rematch"
        ),
    ),
    (
        re.compile(
            r"bye: the (?P<n>\d+) player\(s\) on fewer points with no more byes could not "
            r"sit out without an extra rematch"
        ),
        gettext_noop(
            "bye: the players on fewer points with no more byes (%(n)s) could not sit out "
            "without an extra rematch"
        ),
    ),
    (
        re.compile(
            r"bye: the (?P<n>\d+) lower-ranked player\(s\) on (?P<points>-?\d+) points with no "
            r"more byes could not sit out without a rematch or a bigger pair-down"
        ),
        gettext_noop(
            "bye: the lower-ranked players on %(points)s points with no more byes (%(n)s) "
            "could not sit out without a rematch or a bigger pair-down"
        ),
    ),
    (
        re.compile(r"bye: lowest-ranked player without a bye"),
        gettext_noop("bye: lowest-ranked player without a bye"),
    ),
    (
        re.compile(
            r"repeat bye: every active player has had (?P<n>\d+) or more; "
            r"lowest-ranked among those with the fewest"
        ),
        gettext_noop(
            "repeat bye: every active player has had %(n)s or more; lowest-ranked among "
            "those with the fewest"
        ),
    ),
    (
        re.compile(r"repeat bye: every active player has had (?P<n>\d+) or more"),
        gettext_noop("repeat bye: every active player has had %(n)s or more"),
    ),
    (
        re.compile(r"seed (?P<n>\d+) of (?P<m>\d+), the lowest rating, has the bye"),
        gettext_noop("seed %(n)s of %(m)s, the lowest rating, has the bye"),
    ),
    (
        re.compile(r"paired by rating: seed (?P<a>\d+) v seed (?P<b>\d+)"),
        gettext_noop("paired by rating: seed %(a)s v seed %(b)s"),
    ),
]


def reason_in_words(text: str) -> str:
    """A stored pairing reason in the reader's language; an unknown one as stored."""
    for pattern, words in _REASON_PATTERNS:
        found = pattern.fullmatch(text or "")
        if found:
            return _(words) % found.groupdict()
    return text


# Notes the server writes itself (a reason in the audit log, a result version's note).
SYSTEM_NOTES = {"bye": gettext_noop("bye")}


def note_in_words(note: str) -> str:
    """A stored note or reason: the server's own in the reader's language, a person's as
    they wrote it."""
    return _(SYSTEM_NOTES[note]) if note in SYSTEM_NOTES else note


# --- a standings row's arithmetic ------------------------------------------------------

# The other tiebreak systems' names (tournaments/tiebreakers.py, pure Python, keeps them
# in English), by code.
TIEBREAK_LABELS = {
    "buchholz": gettext_noop("Buchholz"),
    "median_buchholz": gettext_noop("Median Buchholz"),
    "cut1_buchholz": gettext_noop("Buchholz cut 1"),
    "sonneborn_berger": gettext_noop("Sonneborn-Berger"),
    "head_to_head": gettext_noop("Head-to-head"),
    "cumulative_score": gettext_noop("Cumulative score"),
    "opponents_opponents_match_win": gettext_noop("OOMW"),
    "random": gettext_noop("Random draw"),
}


# How a pod seating was shown optimal (tournaments/pairing/pods.py PodResult.method).
POD_PROOF_LABELS = {
    "best_found": gettext_noop("not proved optimal"),
    "by_hand": gettext_noop("changed by hand"),
    "lower_bound": gettext_noop("optimal: it meets the lower bound"),
    "window": gettext_noop("optimal: proved by windows"),
    "exact": gettext_noop("optimal: exhaustive search"),
    "programme": gettext_noop("optimal: proved by an integer programme over every table"),
    "by_rating": gettext_noop("round 1 by rating: the rating order dealt to the tables in a snake"),
}


def pod_proof_label(method: str) -> str:
    """How a pod seating was proved optimal, in the reader's language (the code if new)."""
    return _(POD_PROOF_LABELS[method]) if method in POD_PROOF_LABELS else method


def pod_cost_in_words(cost: dict) -> str:
    """A stored pod cost (Round.pairing_cost or its bound): its four parts, in order."""
    return _(
        "%(repeats)s repeat meetings, short-table excess %(excess)s, score spread "
        "%(spread)s, short-table rank offset %(offset)s"
    ) % {
        "repeats": cost.get("repeats", 0),
        "excess": cost.get("short_excess", 0),
        "spread": cost.get("spread", 0),
        "offset": cost.get("short_rank_offset", 0),
    }


def pod_proof_in_words(pairing_cost: dict) -> str:
    """How a pod round's seating stands against the optimum: its proof; for a seating no
    tier proved, its cost beside the least any seating could cost; for one changed by
    hand, its cost beside the cost as paired."""
    method = (pairing_cost or {}).get("method", "")
    if method == "by_hand" and "paired" in pairing_cost:
        return _(
            "changed by hand: this seating costs %(cost)s; as paired it cost %(paired)s (%(proof)s)"
        ) % {
            "cost": pod_cost_in_words(pairing_cost),
            "paired": pod_cost_in_words(pairing_cost["paired"]),
            "proof": pod_proof_label(pairing_cost["paired"].get("method", "")),
        }
    if method == "best_found" and "bound" in pairing_cost:
        return _(
            "not proved optimal: this seating costs %(cost)s; no seating can cost less "
            "than %(bound)s"
        ) % {
            "cost": pod_cost_in_words(pairing_cost),
            "bound": pod_cost_in_words(pairing_cost["bound"]),
        }
    return pod_proof_label(method)


def tiebreak_label(name: str) -> str:
    """A tiebreak system's name in the reader's language (the code if unknown)."""
    return _(TIEBREAK_LABELS[name]) if name in TIEBREAK_LABELS else name


def _fraction(value) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else str(value)


def _percentage_line(label: str, arithmetic, places: int) -> str:
    pct = format_percentage
    if arithmetic.unfloored is None:
        return _("%(label)s: nothing played, so %(value)s") % {
            "label": label,
            "value": pct(arithmetic.value, places),
        }
    text = _("%(label)s = %(earned)s / %(possible)s = %(value)s") % {
        "label": label,
        "earned": arithmetic.earned,
        "possible": arithmetic.possible,
        "value": pct(arithmetic.unfloored, places),
    }
    if arithmetic.floored:
        text += _(", raised to the floor %(floor)s") % {"floor": pct(arithmetic.floor, places)}
    return text


def explanation_lines(explanation, places: int = 2) -> list[str]:
    """A standings row's arithmetic as short sentences in the reader's language, one per
    figure (the words of ``RowExplanation.lines`` in tournaments/standings.py)."""
    row = explanation.row
    pct = format_percentage
    out = [
        _(
            "Record %(record)s (%(byes)s bye(s)): match points %(wins)s x %(win)s + "
            "%(draws)s x %(draw)s = %(points)s"
        )
        % {
            "record": row.record,
            "byes": row.byes,
            "wins": row.wins,
            "win": POINTS_PER_MATCH_WIN,
            "draws": row.draws,
            "draw": POINTS_PER_MATCH_DRAW,
            "points": row.match_points,
        },
        _percentage_line(_("Match-win %"), explanation.match_win, places),
        _(
            "Games %(won)s-%(lost)s-%(drawn)s: game points %(won)s x %(win)s + "
            "%(drawn)s x %(draw)s = %(points)s"
        )
        % {
            "won": row.games_won,
            "lost": row.games_lost,
            "drawn": row.games_drawn,
            "win": POINTS_PER_GAME_WIN,
            "draw": explanation.game_draw_points,
            "points": row.game_points,
        },
        _percentage_line(_("Game-win %"), explanation.game_win, places),
    ]
    for name, value in row.tiebreak_values.items():
        out.append(f"{tiebreak_label(name)}: {_fraction(value)}")
    count = len(explanation.opponents)
    if count == 0:
        out.append(
            _("No opponents: OMW and OGW are %(value)s")
            % {"value": pct(explanation.opponents_match_win, places)}
        )
        return out
    floored = _(" (floored)")
    for line in explanation.opponents:
        out.append(
            _("Round %(round)s v %(name)s: MWP %(mwp)s%(mark_m)s, GWP %(gwp)s%(mark_g)s")
            % {
                "round": line.round_number,
                "name": line.opponent_name,
                "mwp": pct(line.match_win, places),
                "mark_m": floored if line.match_win_floored else "",
                "gwp": pct(line.game_win, places),
                "mark_g": floored if line.game_win_floored else "",
            }
        )
    out.append(
        f"OMW = {_fraction(explanation.opponents_match_win_sum)} / {count} = "
        f"{pct(explanation.opponents_match_win, places)}"
    )
    out.append(
        f"OGW = {_fraction(explanation.opponents_game_win_sum)} / {count} = "
        f"{pct(explanation.opponents_game_win, places)}"
    )
    return out
