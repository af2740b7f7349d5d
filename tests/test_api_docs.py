"""The API docs (Swagger UI at /api/docs/, ReDoc at /api/redoc/) work without internet:
their scripts and styles are pinned copies served by the site (drf-spectacular-sidecar),
and nothing on the pages points outside it."""

import re
import urllib.request
from urllib.parse import urljoin, urlsplit

import pytest

DOCS_PAGES = ("/api/docs/", "/api/redoc/")
# Every attribute or CSS value that makes a browser fetch something.
REFERENCE = re.compile(r"""(?:src|href|spec-url)\s*=\s*["']([^"']+)["']|url\(\s*["']?([^"')]+)""")


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


@pytest.mark.parametrize("path", DOCS_PAGES)
def test_docs_pages_let_the_browser_fetch_only_from_the_site(client, path):
    policy = client.get(path)["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    for name in ("script-src", "style-src", "img-src", "font-src", "connect-src", "worker-src"):
        sources = directives[name].split()
        assert all(s in {"'self'", "'unsafe-inline'", "data:", "blob:"} for s in sources), name


def _references(html: str) -> list[str]:
    return [a or b for a, b in REFERENCE.findall(html)]


@pytest.mark.django_db
@pytest.mark.parametrize("path", DOCS_PAGES)
def test_docs_pages_load_only_local_assets_and_the_site_serves_them(live_server, path):
    status, _, body = _get(live_server.url + path)
    assert status == 200
    html = body.decode()
    # No absolute address at all: not a CDN, not a font service, not the online validator.
    assert not re.search(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", html, re.IGNORECASE), html
    references = _references(html)
    scripts = [r for r in references if r.endswith(".js")]
    assert scripts, "the page loads no script"
    assert all(r.startswith("/static/drf_spectacular_sidecar/") for r in scripts), scripts
    for reference in references:
        address = urljoin(live_server.url + path, reference)
        assert urlsplit(address).netloc == urlsplit(live_server.url).netloc, reference
        status, content_type, content = _get(address)
        assert status == 200 and content, reference
        if reference.endswith(".js"):
            assert "javascript" in content_type, (reference, content_type)
        elif reference.endswith(".css"):
            assert "text/css" in content_type, (reference, content_type)
        elif reference == "/api/schema/":
            assert b"openapi:" in content


def _offline(page, live_server) -> list[str]:
    """Abort every request that leaves the test server, and remember it."""
    local = urlsplit(live_server.url).netloc
    blocked: list[str] = []

    def route(request_route):
        if urlsplit(request_route.request.url).netloc == local:
            request_route.continue_()
        else:
            blocked.append(request_route.request.url)
            request_route.abort()

    page.route("**/*", route)
    return blocked


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_swagger_ui_renders_the_operations_with_the_outside_network_blocked(live_server, page):
    blocked = _offline(page, live_server)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".opblock", timeout=30000)
    operations = page.locator(".opblock .opblock-summary-path").all_inner_texts()
    paths = {text.replace("\u200b", "").strip() for text in operations}
    assert {"/api/tournaments/", "/api/tournaments/{id}/standings/", "/api/games/"} <= paths
    assert (
        page.locator(".swagger-ui .info .title").inner_text().startswith("IRONDIE tournaments API")
    )
    # Opening an operation shows its parameters and responses.
    page.locator(".opblock-summary-path", has_text="/api/tournaments/{id}/standings/").first.click()
    page.wait_for_selector(".opblock.is-open .responses-wrapper")
    assert blocked == []


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_redoc_renders_the_operations_with_the_outside_network_blocked(live_server, page):
    blocked = _offline(page, live_server)
    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector("[data-section-id^='tag/']", timeout=30000)
    assert page.get_by_text("/api/tournaments/{id}/standings/").count() >= 1
    assert blocked == []
