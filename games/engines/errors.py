"""The engines' errors, shared by every game (pure Python, no Django).

An engine refuses a config with ``ConfigError`` and an action with ``IllegalAction``
(which names the rulebook passage too). Each carries its English message as a template
with named parameters, ``IllegalAction(rule, "Die %(die)s is not in your hand.", die=3)``,
rather than as finished text: ``str()`` gives the English, and the online layer puts the
same template through the reader's catalogue (``text(gettext)``). Templates and rule
names are marked with the local ``gettext_noop`` so message extraction finds them; a
parameter is a number or a piece of code (an id, a key, an action as JSON), never words.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping


def gettext_noop(text: str) -> str:
    """Marks ``text`` for translation; the online layer translates it."""
    return text


def _same(text: str) -> str:
    return text


def _fill(template: str, params: Mapping[str, object]) -> str:
    return template % params if params else template


def _translated(params: Mapping[str, object], translate: Callable[[str], str]) -> dict:
    """The parameters, with any that is itself a message (``Message``, ``Sentences``,
    an error) put through ``translate`` as well."""
    return {
        key: value.text(translate) if _is_message(value) else value for key, value in params.items()
    }


def _is_message(value) -> bool:
    return callable(getattr(value, "text", None)) and callable(getattr(value, "templates", None))


def _nested(params: Mapping[str, object]) -> tuple[str, ...]:
    return tuple(
        template
        for value in params.values()
        if _is_message(value)
        for template in value.templates()
    )


class Message(str):
    """A message that is not an error (a problem of a dice set, say): the English text
    itself, which also remembers its template and parameters for ``text(translate)``."""

    template: str
    params: dict

    def __new__(cls, template: str, /, **params: object) -> Message:
        message = super().__new__(cls, _fill(template, params))
        message.template = template
        message.params = params
        return message

    def text(self, translate: Callable[[str], str] = _same) -> str:
        return _fill(translate(self.template), _translated(self.params, translate))

    def templates(self) -> tuple[str, ...]:
        return (self.template, *_nested(self.params))

    def __reduce__(self):
        return functools.partial(type(self), self.template, **self.params), ()


class Sentences(str):
    """Several messages as one text, separated by spaces."""

    parts: tuple

    def __new__(cls, parts) -> Sentences:
        parts = tuple(parts)
        sentences = super().__new__(cls, " ".join(parts))
        sentences.parts = parts
        return sentences

    def text(self, translate: Callable[[str], str] = _same) -> str:
        return " ".join(p.text(translate) if _is_message(p) else p for p in self.parts)

    def templates(self) -> tuple[str, ...]:
        return tuple(t for p in self.parts if _is_message(p) for t in p.templates())

    def __reduce__(self):
        return type(self), (self.parts,)


class ConfigError(ValueError):
    """A game config that cannot start a game (bad sets, bad options)."""

    def __init__(self, template: str, /, **params: object):
        self.template = template
        self.params = params
        super().__init__(self.text())

    @property
    def message(self) -> str:
        """The English message."""
        return _fill(self.template, self.params)

    def text(self, translate: Callable[[str], str] = _same) -> str:
        """The message in the language of ``translate`` (a gettext), English without."""
        return _fill(translate(self.template), _translated(self.params, translate))

    def templates(self) -> tuple[str, ...]:
        """Every catalogue entry the message is made of."""
        return (self.template, *_nested(self.params))

    def __reduce__(self):
        return functools.partial(type(self), self.template, **self.params), ()


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``rule`` names the rulebook passage. The
    message never contains information hidden from the actor. ``form`` joins the message
    and the rule (an engine may set its own)."""

    form = gettext_noop("%(message)s (%(rule)s)")

    def __init__(self, rule: str, template: str, /, **params: object):
        self.rule = rule
        self.template = template
        self.params = params
        super().__init__(self.text())

    @property
    def message(self) -> str:
        """The English message, without the rule."""
        return _fill(self.template, self.params)

    def text(self, translate: Callable[[str], str] = _same) -> str:
        """Message and rule in the language of ``translate`` (a gettext), English without."""
        return translate(self.form) % {
            "message": _fill(translate(self.template), _translated(self.params, translate)),
            "rule": translate(self.rule),
        }

    def templates(self) -> tuple[str, ...]:
        """Every catalogue entry the message is made of."""
        return (self.form, self.template, self.rule, *_nested(self.params))

    def __reduce__(self):
        return functools.partial(type(self), self.rule, self.template, **self.params), ()


def check_config(config, allowed: set[str], seats_range: tuple[int, int]) -> tuple[str, int]:
    """The checks every seat-counted engine makes of a config: an object with only the
    ``allowed`` keys, a string ``game_id`` and a whole number of ``seats`` in range (2 when
    absent). Returns (game_id, seats); raises ConfigError."""
    if not isinstance(config, dict):
        raise ConfigError(gettext_noop("The config must be an object."))
    unknown = set(config) - allowed
    if unknown:
        raise ConfigError(gettext_noop("Unknown config keys: %(keys)s."), keys=sorted(unknown))
    game_id = config.get("game_id", "")
    if not isinstance(game_id, str):
        raise ConfigError(gettext_noop("'game_id' must be a string."))
    seats = config.get("seats", 2)
    fewest, most = seats_range
    if not isinstance(seats, int) or isinstance(seats, bool) or not fewest <= seats <= most:
        raise ConfigError(
            gettext_noop("'seats' must be a whole number from %(fewest)s to %(most)s."),
            fewest=fewest,
            most=most,
        )
    return game_id, seats
