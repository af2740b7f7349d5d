"""Strict parsing of numbers in query strings and raw form fields, one rule everywhere.

``str.isdigit()`` and ``int()`` accept more than a person means by a number ("²",
Arabic-Indic digits, "1_000", " 7 ") and ``int()`` has no upper bound, so a query
parameter handed to the database could overflow a column and answer 500. Here a number
is 1 to 18 ASCII digits, within the bounds the caller gives.
"""

import re

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

_DIGITS = re.compile(r"[0-9]{1,18}", re.ASCII)

# PostgreSQL's integer (the primary keys and counters here): larger ids cannot exist.
MAX_ID = 2**31 - 1


def strict_int(text, *, min_value: int = 0, max_value: int = MAX_ID) -> int | None:
    """The whole number ``text`` spells in ASCII digits within the bounds, else None."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if min_value <= value <= max_value else None


def int_param(
    params, name: str, *, min_value: int = 0, max_value: int = MAX_ID, default=None
) -> int | None:
    """An optional whole-number parameter of a request (``request.query_params``,
    ``request.GET`` or ``request.POST``); a value that is not one is a 400 naming it."""
    text = params.get(name)
    if text is None or text == "":
        return default
    value = strict_int(text, min_value=min_value, max_value=max_value)
    if value is None:
        raise ValidationError(
            {
                name: [
                    _("Give a whole number from %(min_value)s to %(max_value)s (digits 0-9 only).")
                    % {"min_value": min_value, "max_value": max_value}
                ]
            }
        )
    return value
