"""An engine's refusal (games/engines/errors.py) in the reader's language.

The engines are pure Python and raise ``IllegalAction``/``ConfigError`` with an English
template, its parameters and (for an action) the rulebook passage, all marked for
translation; this puts them through the active language's catalogue, so a Russian
player's refused move reads in Russian wherever it is shown (the API's 400, the play
page, a practice game's start)."""

from __future__ import annotations

from django.utils.translation import gettext


def in_words(exc: Exception) -> str:
    """The refusal in the active language; any other error as it is."""
    text = getattr(exc, "text", None)
    return text(gettext) if callable(text) else str(exc)
