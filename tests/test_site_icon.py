"""Browsers ask every site for an icon: pages name one and /favicon.ico leads to it
(a walk through the pages in Chromium found the request answered 404)."""

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders


@pytest.mark.django_db
def test_pages_name_the_icon_and_favicon_ico_leads_to_it(client):
    page = client.get("/").content.decode()
    link = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    assert link, "the page names no icon"
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == link.group(1)
    icon = finders.find("favicon.svg")
    assert icon and Path(icon).read_text().startswith("<svg")
