"""Live pages: conditional polling of a page's live regions (docs/operations.md "Live pages").

A page people wait on (clocks, pairings, my match, the judges' queue, standings, bracket)
asks for itself again about once a second with ``X-Live: 1`` and the ETag it holds in
``If-None-Match``. The ETag stands for the tournament's change marker, the id of its
newest audit entry: every change a page shows (results, reports, confirmations, pairings,
publication, clocks paused, resumed, extended or called, rounds closed, the top cut) is
written with an audit entry in the same transaction (tournaments/audit.py). So when nothing
changed the answer is a 304 after one indexed query, before the page is rendered; when
something changed, the page is rendered by its own view, with its own visibility rules,
and the script swaps the page's ``[data-live]`` regions (templates/live.js.html).

The ETag is a keyed hash of the marker, the viewer, the address and the language: it
carries no content, and a viewer can only send back one the server gave them for that
page. The marker moves on any change of the event, hidden ones included (a draft pairing,
an unconfirmed report): a viewer learns at most that "something changed" (their page is
fetched again and is the same as before), never what.
"""

import hashlib
import hmac
from functools import wraps

from django.conf import settings
from django.http import HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

from tournaments.models import AuditEntry

HEADER = "X-Live"


def change_marker(tournament_id: int) -> int:
    """The id of the tournament's newest audit entry (0 before any): one query on the
    (tournament, id) index."""
    newest = (
        AuditEntry.objects.filter(tournament_id=tournament_id)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return newest or 0


def etag(request, marker: int) -> str:
    user_id = request.user.pk if request.user.is_authenticated else 0
    language = getattr(request, "LANGUAGE_CODE", "")
    text = f"{marker}|{user_id}|{request.get_full_path()}|{language}"
    digest = hmac.new(settings.SECRET_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()[:24]
    return f'"{digest}"'


def live_page(view):
    """Answer a live poll (``X-Live: 1``) of a tournament page with 304 while the
    tournament's change marker stands still; otherwise run the view and tag the answer.
    Other requests go to the view untouched. The view's first argument after the request
    is the tournament's pk."""

    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        if request.method != "GET" or request.headers.get(HEADER) != "1":
            return view(request, pk, *args, **kwargs)
        # Read the marker before rendering: the page is then at least as new as its tag.
        tag = etag(request, change_marker(pk))
        if tag in parse_etags(request.headers.get("If-None-Match", "")):
            response = HttpResponseNotModified()
            response["ETag"] = tag
        else:
            response = view(request, pk, *args, **kwargs)
            if response.status_code == 200:
                response["ETag"] = tag
        response["Cache-Control"] = "no-cache, private"
        patch_vary_headers(response, [HEADER])
        return response

    return wrapper
