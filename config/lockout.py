"""Login throttling (django-axes): who is locked out, and what they are told.

One rule for the three doors (/accounts/login/, /admin/login/, /api/auth/token/): after
LOGIN_FAILURE_LIMIT wrong passwords for one username from one address, that username
is locked from that address for LOGIN_LOCKOUT_MINUTES, correct password or not. Not
per address alone: a venue's players share one address, and a few typos must not lock
the whole room out. Not per username alone: anyone could then lock the organiser out
during an event.
"""

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def lockout_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def lockout_message() -> str:
    minutes = lockout_minutes()
    return ngettext(
        "Too many failed logins: this account is locked from your address for %(minutes)d "
        "minute. Try again later.",
        "Too many failed logins: this account is locked from your address for %(minutes)d "
        "minutes. Try again later.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(request, original_response=None, credentials=None):
    """The page (or, for the API, the JSON body) a locked-out login attempt gets: 429."""
    retry_after = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": lockout_message()}, status=429)
    else:
        response = render(
            request,
            "registration/locked_out.html",
            {"message": lockout_message(), "title": _("Login locked")},
            status=429,
        )
    response["Retry-After"] = retry_after
    return response


def client_ip(request) -> str | None:
    """The client's address: REMOTE_ADDR, or behind TRUSTED_PROXY_COUNT proxies the entry
    they appended to X-Forwarded-For (entries further left are the client's own word)."""
    count = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if count and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-count] if len(hops) >= count else hops[0]
    return request.META.get("REMOTE_ADDR")
