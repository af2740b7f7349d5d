"""The API's parsers: JSON with a nesting limit and no NUL characters; strict multipart.

Python's json module recurses once per level, so a body of 100,000 ``[`` raises
RecursionError (a 500) before any view runs. No request of this API nests more than a
few levels (a game action is the deepest), so anything past ``MAX_DEPTH`` is refused
with a 400 before parsing. PostgreSQL cannot store the NUL character (text or jsonb),
so a string holding one is refused here too, whichever field it was meant for.
"""

import functools
import json
import re

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

MAX_DEPTH = 32

# A JSON string (with its escapes) or one bracket: strings are skipped as a whole, so a
# bracket inside one does not count.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)

NUL_MESSAGE = "Text may not contain the NUL character (\\u0000)."


def nesting_depth_exceeds(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether arrays and objects in ``text`` nest deeper than ``limit``."""
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return True
        elif token in "]}":
            depth -= 1
    return False


def contains_nul(value) -> bool:
    """Whether any string (or object key) in parsed JSON holds a NUL character."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(contains_nul(k) or contains_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(contains_nul(v) for v in value)
    return False


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding) if stream is not None else ""
        except UnicodeDecodeError:
            raise ParseError(
                _("The request body is not valid %(encoding)s text.") % {"encoding": encoding}
            ) from None
        if nesting_depth_exceeds(text):
            raise ParseError(
                _("JSON nested more than %(MAX_DEPTH)s levels deep is not accepted.")
                % {"MAX_DEPTH": MAX_DEPTH}
            )
        try:
            data = json.loads(text, parse_constant=_reject_constant)
        except ValueError as exc:
            raise ParseError(_("JSON parse error - %(exc)s") % {"exc": exc}) from None
        if contains_nul(data):
            raise ParseError(NUL_MESSAGE)
        return data


def _reject_constant(name):
    # NaN and Infinity are not JSON, and PostgreSQL's jsonb refuses them.
    raise ValueError(f"{name} is not a valid JSON value")


@functools.cache
def list_field_names() -> frozenset[str]:
    """The names under which some API serializer takes a list: the only form fields that
    may be given more than once (a form sends a list as the same name repeated)."""
    names = set()
    pending = [serializers.Serializer]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        try:
            fields = cls().fields
        except Exception:
            fields = getattr(cls, "_declared_fields", {})
        for name, field in fields.items():
            if isinstance(
                field,
                serializers.ListField
                | serializers.ListSerializer
                | serializers.ManyRelatedField
                | serializers.MultipleChoiceField,
            ):
                names.add(name)
    return frozenset(names)


def refuse_repeated_fields(data) -> None:
    """A form field given twice where one value is expected is ambiguous (Django keeps the
    last): refuse it rather than guess."""
    lists = getattr(data, "lists", None)
    if lists is None:
        return
    for name, values in lists():
        if len(values) > 1 and name not in list_field_names():
            raise ParseError(
                _("The field “%(name)s” is given %(value1)s times; give it once.")
                % {"name": name, "value1": len(values)}
            )


class SingleValueFormParser(FormParser):
    """URL-encoded forms in which only list fields may repeat."""

    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        refuse_repeated_fields(data)
        return data


class StrictMultiPartParser(MultiPartParser):
    """Multipart form data in which every part is a named field.

    Django's parser silently skips a part without a ``Content-Disposition`` name, so a
    malformed body read as an empty form, and a write whose fields are all optional
    went ahead with its defaults. A body longer than the empty form (the closing
    delimiter alone) that yields no field at all is refused instead. Only list fields may
    repeat (``refuse_repeated_fields``).
    """

    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        refuse_repeated_fields(parsed.data)
        if not parsed.data and not parsed.files:
            request = (parser_context or {}).get("request")
            meta = getattr(request, "META", {})
            boundary = (media_type or "").partition("boundary=")[2].strip('"')
            try:
                length = int(meta.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > len(boundary) + 8:  # "--" boundary "--" CRLF, plus slack
                raise ParseError(
                    _(
                        "The multipart body has no named field "
                        '(each part needs Content-Disposition: form-data; name="...").'
                    )
                )
        return parsed
