"""The reader's language: the switcher in every page's navigation posts to
``set_language`` (Django's view, which sets the language cookie), and a signed-in player's
choice is also saved on their profile (``Player.language``) so it follows them to another
browser: at log-in the saved language is applied and the cookie set (docs/translation.md)."""

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.middleware.csrf import CsrfViewMiddleware
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from players.models import Player

LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


@csrf_exempt
@require_POST
def set_language(request):
    """Django's ``set_language`` (cookie, redirect to ``next``), plus the saved preference
    of a signed-in player. An unknown language changes nothing.

    Only a signed-in reader's request is checked for CSRF (it writes their profile): an
    anonymous page carries no token, so the live pages can share one render between
    anonymous viewers (tournaments/live.py); forging an anonymous visitor's switch would
    only change the language of their pages."""
    if request.user.is_authenticated:
        refused = CsrfViewMiddleware(lambda _request: None).process_view(request, None, (), {})
        if refused is not None:
            return refused
    response = django_set_language(request)
    code = request.POST.get("language", "")
    if code in LANGUAGE_CODES and request.user.is_authenticated:
        Player.objects.filter(user=request.user).exclude(language=code).update(language=code)
    return response


@receiver(user_logged_in, dispatch_uid="players.language.apply_saved_language")
def apply_saved_language(sender, request, user, **kwargs):
    """At log-in, the player's saved language becomes this browser's: the response sets
    the cookie (``LanguagePreferenceMiddleware``)."""
    if request is None:
        return
    code = Player.objects.filter(user=user).values_list("language", flat=True).first()
    if code in LANGUAGE_CODES:
        request.saved_language = code
        translation.activate(code)


class LanguagePreferenceMiddleware:
    """Sets the language cookie when a log-in applied a saved language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        code = getattr(request, "saved_language", None)
        if code:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                code,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
