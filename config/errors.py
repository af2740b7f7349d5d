"""Errors the services raise that mean more than "invalid input"."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext


class VersionConflict(ValidationError):
    """A write that would replace a version the caller did not name (or no longer the
    current one). The API answers 409 with ``current_version``; pages show the message
    like any other validation error."""

    def __init__(self, message: str, *, current_version: int):
        super().__init__(message, code="version_conflict")
        self.current_version = current_version


def in_words(problem) -> str:
    """A rules engine's refusal or message (games/engines/errors.py: ``IllegalAction``,
    ``ConfigError``, a dice set's ``Message``) in the active language: the engine keeps
    its English template, parameters and rule, marked for the catalogue, and this fills
    the template from the reader's catalogue. Anything else is shown as it is."""
    text = getattr(problem, "text", None)
    return text(gettext) if callable(text) else str(problem)
