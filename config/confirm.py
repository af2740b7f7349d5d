"""The confirmation step of destructive and irreversible page actions.

A button that destroys or cannot be undone posts as before; without ``confirmed=yes``
the view answers with a confirmation page instead of acting: what the action will do,
a [Confirm] button that posts the same fields again with ``confirmed=yes``, and a
[Cancel] link. It works without JavaScript and nothing changes until the second post.
The API is not behind this step (its clients are explicit).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpResponse
from django.shortcuts import render

CONFIRM_FIELD = "confirmed"
CONFIRM_VALUE = "yes"
_NOT_CARRIED = {"csrfmiddlewaretoken", CONFIRM_FIELD}


def is_confirmed(request) -> bool:
    return request.POST.get(CONFIRM_FIELD) == CONFIRM_VALUE


def ask(
    request,
    *,
    title: str,
    consequences: Iterable[str],
    button: str,
    cancel_url: str,
) -> HttpResponse:
    """The confirmation page for the action ``request`` posted: the same fields again,
    to the same address, with the confirmation added."""
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in _NOT_CARRIED
        for value in values
    ]
    return render(
        request,
        "confirm.html",
        {
            "title": title,
            "consequences": list(consequences),
            "button": button,
            "cancel_url": cancel_url,
            "action": request.get_full_path(),
            "fields": fields,
            "confirm_field": CONFIRM_FIELD,
            "confirm_value": CONFIRM_VALUE,
        },
    )
