"""The interactive API docs, kept to the site's own assets.

Swagger UI and ReDoc come from drf-spectacular-sidecar (pinned copies in our static files,
settings.SPECTACULAR_SETTINGS). The pages also carry a Content-Security-Policy that lets
the browser fetch only from this site: ReDoc's sidebar otherwise loads its vendor's logo
from a CDN, and any future outside reference would fail loudly in the browser test
instead of making the docs depend on, or report to, another host.
"""

from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

DOCS_CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        # drf-spectacular inlines the Swagger UI start-up script; ReDoc runs its search in
        # a worker made from a blob.
        "script-src 'self' 'unsafe-inline' blob:",
        "worker-src 'self' blob:",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'self'",
    ]
)


class _SameSiteOnly:
    @extend_schema(exclude=True)  # as on the parent views: the docs page is not an API operation
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = DOCS_CONTENT_SECURITY_POLICY
        return response


class SwaggerView(_SameSiteOnly, SpectacularSwaggerView):
    pass


class RedocView(_SameSiteOnly, SpectacularRedocView):
    pass
