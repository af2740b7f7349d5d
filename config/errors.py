"""Errors the services raise that mean more than "invalid input"."""

from django.core.exceptions import ValidationError


class VersionConflict(ValidationError):
    """A write that would replace a version the caller did not name (or no longer the
    current one). The API answers 409 with ``current_version``; pages show the message
    like any other validation error."""

    def __init__(self, message: str, *, current_version: int):
        super().__init__(message, code="version_conflict")
        self.current_version = current_version
