"""Checking a finished game of any engine: the seed matches its commitment, it re-derives
every recorded roll, and replaying the action log uses exactly those rolls and gives the
recorded result. Each engine's ``verify`` passes its own pieces (engines/<game>/verify.py).
"""

from __future__ import annotations

from collections.abc import Callable

from .errors import Message, gettext_noop
from .seeded import commitment


def verify_record(
    record: dict,
    seed: str | None,
    *,
    derive_rolls: Callable[[str, str, int], list[int]],
    new_game: Callable,
    apply: Callable,
    result: Callable,
    illegal: type[Exception],
) -> dict:
    """``record`` needs "config", "commitment", "log" and "rolls"; the seed comes from
    ``seed`` or the record's "seed"; ``derive_rolls(seed, game_id, count)`` is the engine's
    roll stream. Returns {"ok", "problems", "rolls_checked", "result"}: ``problems`` lists
    every mismatch in plain words (empty when all is well), each a ``Message`` the online
    layer shows in the reader's language."""
    problems: list[str] = []
    seed = seed if seed is not None else record.get("seed")
    if not seed:
        return {
            "ok": False,
            "problems": [Message(gettext_noop("The seed is not revealed yet."))],
            "rolls_checked": 0,
            "result": None,
        }
    if commitment(seed) != record.get("commitment"):
        problems.append(Message(gettext_noop("The seed does not match the published commitment.")))
    config = record["config"]
    recorded = list(record.get("rolls", []))
    derived = derive_rolls(seed, config.get("game_id", ""), len(recorded))
    for index, (got, expected) in enumerate(zip(recorded, derived, strict=True)):
        if got != expected:
            problems.append(
                Message(
                    gettext_noop("Roll %(index)s was %(got)s; the seed gives %(expected)s."),
                    index=index,
                    got=got,
                    expected=expected,
                )
            )
    state = new_game(config, seed)
    for index, (actor, action) in enumerate(record.get("log", [])):
        try:
            state, _events = apply(state, actor, action)
        except illegal as exc:
            problems.append(
                Message(
                    gettext_noop("Log entry %(index)s is not legal on replay: %(refusal)s"),
                    index=index,
                    refusal=exc,
                )
            )
            break
    if state.rolls != recorded:
        template = (
            gettext_noop(
                "Replaying the log uses %(used)s rolls; the record lists %(listed)s with"
                " different values."
            )
            if len(state.rolls) == len(recorded)
            else gettext_noop("Replaying the log uses %(used)s rolls; the record lists %(listed)s.")
        )
        problems.append(Message(template, used=len(state.rolls), listed=len(recorded)))
    replayed = result(state)
    if "result" in record and record["result"] != replayed:
        problems.append(
            Message(
                gettext_noop("The recorded result %(result)s differs from the replay's."),
                result=record["result"],
            )
        )
    return {
        "ok": not problems,
        "problems": problems,
        "rolls_checked": len(recorded),
        "result": replayed,
    }
