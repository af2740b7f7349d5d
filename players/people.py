"""How a person is named to whoever is looking: login names stay private.

A login name is shown only to its owner and to site staff (superusers): roles belong to
one event (tournaments/permissions.py), so being an organiser or judge somewhere shows
no more of anyone than a signed-in user sees. Everyone else sees the public name: the display name of the person's
player profile, else the full name from their account, else nothing. Querysets that
list people select ``<user>__player`` so this costs no extra query.
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


def public_name(user) -> str | None:
    if user is None:
        return None
    try:
        player = user.player
    except ObjectDoesNotExist:
        player = None
    if player is not None and player.display_name:
        return player.display_name
    return user.get_full_name() or None


def may_see_username(viewer, user) -> bool:
    if viewer is None or user is None or not viewer.is_authenticated:
        return False
    return viewer.pk == user.pk or viewer.is_superuser


def person_label(user, viewer) -> str | None:
    """The login name for its owner and site staff, the public name for everyone else."""
    if user is None:
        return None
    return user.get_username() if may_see_username(viewer, user) else public_name(user)


def _viewer(serializer_field):
    request = serializer_field.context.get("request")
    return getattr(request, "user", None)


@extend_schema_field({"type": "string", "nullable": True})
class PersonField(serializers.Field):
    """A user, named by person_label for the request's user (public name without one)."""

    def __init__(self, **kwargs):
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, user) -> str | None:
        return person_label(user, _viewer(self))


@extend_schema_field({"type": "string", "nullable": True})
class PrivateUsernameField(serializers.Field):
    """A login name for its owner and staff; null for everyone else."""

    def __init__(self, **kwargs):
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, user) -> str | None:
        return user.get_username() if may_see_username(_viewer(self), user) else None
