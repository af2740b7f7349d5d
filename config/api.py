"""API conventions shared by every app: the JSON error format."""

import logging

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

logger = logging.getLogger("irondie.api")

INTERNAL_ERROR = gettext_lazy(
    "Something went wrong on the server; nothing was changed. "
    "The error has been logged; please try again or tell the organisers."
)


def exception_handler(exc, context):
    """Every API error is ``{"detail": "<message>", "errors": {field: [messages]}}``;
    a version conflict is 409 and adds ``current_version``.

    ``detail`` is one sentence a person understands; ``errors`` carries the field
    messages of a validation failure (absent otherwise). Django ValidationErrors raised
    by services are reported the same way as serializer errors.
    """
    current_version = getattr(exc, "current_version", None)  # config.errors.VersionConflict
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
    if isinstance(exc, ObjectDoesNotExist):
        # A row read by id inside a service vanished (deleted by a concurrent request).
        exc = exceptions.NotFound(_("That no longer exists: it was changed or deleted meanwhile."))
    response = drf_exception_handler(exc, context)
    if response is None:
        return _internal_error(exc, context)
    if isinstance(exc, exceptions.ValidationError):
        errors = (
            response.data
            if isinstance(response.data, dict)
            else {"non_field_errors": response.data}
        )
        response.data = {"detail": _summary(errors), "errors": errors}
        if current_version is not None:
            # Someone else's version stands: 409 with the version to reload and name.
            response.status_code = 409
            response.data["detail"] = str(next(iter(errors.values()))[0])
            response.data["current_version"] = current_version
    elif isinstance(response.data, dict) and "detail" in response.data:
        response.data = {"detail": str(response.data["detail"])}
    return response


def _internal_error(exc, context) -> Response:
    """An exception nobody expected: logged with its traceback, answered as a 500 that
    shows no internals (no exception text, no SQL), and the transaction rolled back."""
    request = context.get("request")
    logger.error(
        "Unhandled exception in an API view",
        exc_info=(type(exc), exc, exc.__traceback__),
        extra={
            "method": getattr(request, "method", None),
            "path": getattr(request, "path", None),
            "view": type(context.get("view")).__name__,
        },
    )
    set_rollback()
    return Response({"detail": str(INTERNAL_ERROR)}, status=status.HTTP_500_INTERNAL_SERVER_ERROR)


def _summary(errors: dict) -> str:
    parts = []
    for field, messages in errors.items():
        first = messages
        while isinstance(first, list | dict) and first:  # nested: take the first message
            first = first[0] if isinstance(first, list) else next(iter(first.values()))
        parts.append(str(first) if field == "non_field_errors" else f"{field}: {first}")
    if not parts:
        return _("Invalid input.")
    return _("Invalid input. %(problems)s") % {"problems": " ".join(parts)}


class ObtainAuthTokenThrottled(ObtainAuthToken):
    """POST /api/auth/token/ under the login throttle (config/lockout.py).

    DRF wraps the request; django-axes marks the request it is given as locked out and
    its middleware answers for it, so authentication gets Django's own request.
    """

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "request": self.request._request}
