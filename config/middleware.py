"""Refuse the NUL character in the address and query string of every request.

PostgreSQL cannot store or compare text holding NUL (0x00): a search such as
``?search=%00`` failed inside the database driver (a 500). Form fields (Django's and
DRF's CharField) and the API's JSON parser refuse NUL in bodies with a field error;
this covers what no form sees: the path and the query parameters.
"""

from django.http import HttpResponse, JsonResponse

MESSAGE = "The address may not contain the NUL character (%00)."


class RejectNulCharactersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in values)
            for key, values in request.GET.lists()
        ):
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": MESSAGE}, status=400)
            return HttpResponse(MESSAGE, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
