"""Every model is registered in the admin and its list page renders."""

import pytest
from django.apps import apps
from django.contrib import admin

PROJECT_APPS = {"players", "tournaments", "games"}


def test_every_model_is_registered():
    missing = [
        m.__name__
        for m in apps.get_models()
        if m._meta.app_label in PROJECT_APPS and not admin.site.is_registered(m)
    ]
    assert missing == []


@pytest.mark.django_db
def test_every_changelist_renders(admin_client):
    for model in apps.get_models():
        if model._meta.app_label in PROJECT_APPS:
            url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
            assert admin_client.get(url).status_code == 200, url
            assert admin_client.get(url, {"q": "x"}).status_code == 200, url
