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
from django.core.cache import cache
from django.db.models import Q
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

from tournaments.models import AuditEntry

HEADER = "X-Live"
# What a page shows, as the audit entries that can change it:
ALL = "a"  # everything of the event (pairings with scores, queue, clocks, standings, bracket)
EVENT = "e"  # the event and its rounds, not one match's play (the big screen)
# "m<id>": the event and one match (the player's own match page).
MATCH_TYPES = ("Match", "SetSwap")  # entries about one match's play
CACHE_SECONDS = 60


def match_scope(match) -> str:
    return f"m{match.pk}" if match is not None else EVENT


def change_marker(tournament_id: int, scope: str) -> int:
    """How many audit entries of the tournament the scope sees: one index-only count on
    (tournament, object type, object id). Entries are never deleted, so the count moves
    with every entry that commits, in whatever order their transactions end; -1 for a
    scope this does not know."""
    entries = AuditEntry.objects.filter(tournament_id=tournament_id)
    if scope == EVENT:
        entries = entries.exclude(object_type__in=MATCH_TYPES)
    elif scope.startswith("m") and scope[1:].isdigit() and len(scope) < 20:
        entries = entries.filter(
            ~Q(object_type__in=MATCH_TYPES) | Q(object_type="Match", object_id=int(scope[1:]))
        )
    elif scope != ALL:
        return -1
    return entries.count()


def etag(request, scope: str, marker: int) -> str:
    """The viewer is their session cookie (none: anonymous), so a 304 reads neither the
    session nor the user: one query. A tag is only ever made from a page the view answered
    to that session; a 304 gives them nothing they did not have."""
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    language = getattr(request, "LANGUAGE_CODE", "")
    text = f"{scope}|{marker}|{session}|{request.get_full_path()}|{language}"
    digest = hmac.new(settings.SECRET_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()
    return f'"{scope}.{digest[:24]}"'


def _scope_asked(request) -> str | None:
    """The scope named by the tag the poll sends back (it is checked by the digest)."""
    tags = parse_etags(request.headers.get("If-None-Match", ""))
    if len(tags) != 1 or "." not in tags[0]:
        return None
    return tags[0].strip('"').split(".", 1)[0]


def _shared_key(request, scope, marker) -> str | None:
    """Anonymous viewers with no cookie at all see the same page: one render of it for all
    of them at one marker (the projectors and the public pairings, standings, bracket)."""
    if request.COOKIES:
        return None
    path = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:32]
    return f"live:{path}:{scope}:{marker}:{getattr(request, 'LANGUAGE_CODE', '')}"


def live_page(scope: str = ALL):
    """Answer a live poll (``X-Live: 1``) of a tournament page with 304 while the
    tournament's change marker for what the page shows stands still; otherwise run the
    view and tag the answer. Other requests go to the view untouched. The view's first
    argument after the request is the tournament's pk. With ``scope=None`` the view says
    its scope in ``request.live_scope`` (my match: its match); the poll's tag names it.
    It goes above ``login_required``: a 304 needs a tag the view gave this session."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, pk, *args, **kwargs):
            if request.method != "GET" or request.headers.get(HEADER) != "1":
                return view(request, pk, *args, **kwargs)
            # The marker is read before the page is rendered: the page is then at least
            # as new as its tag.
            before = scope or _scope_asked(request)
            marker = change_marker(pk, before) if before else None
            if marker is not None and marker >= 0:
                tag = etag(request, before, marker)
                if tag in parse_etags(request.headers.get("If-None-Match", "")):
                    response = HttpResponseNotModified()
                    response["ETag"] = tag
                    return _live_headers(response)
            key = _shared_key(request, before, marker) if scope and marker is not None else None
            shared = cache.get(key) if key else None
            if shared is not None:
                response = HttpResponse(shared[0], content_type=shared[1])
            else:
                response = view(request, pk, *args, **kwargs)
                if (
                    key
                    and response.status_code == 200
                    and not response.cookies
                    and b"csrfmiddlewaretoken" not in response.content
                ):
                    cache.set(key, (response.content, response["Content-Type"]), CACHE_SECONDS)
            if response.status_code == 200:
                after = scope or getattr(request, "live_scope", ALL)
                # A page whose scope changed (a new match) gets a tag no poll matches:
                # the next poll renders it again, with the marker read first.
                response["ETag"] = etag(request, after, marker if after == before else -1)
            return _live_headers(response)

        return wrapper

    return decorate


def _live_headers(response):
    response["Cache-Control"] = "no-cache, private"
    patch_vary_headers(response, [HEADER])
    return response
