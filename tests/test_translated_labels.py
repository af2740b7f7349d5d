"""The admin and the API schema are in the reader's language too: every model's name
and every field's label is a translation (gettext_lazy), and every description or help
text written in the API's serializers and views is marked for the catalogue."""

import ast
from pathlib import Path

import pytest
from django.apps import apps
from django.utils.functional import Promise

ROOT = Path(__file__).resolve().parent.parent
APPS = ("config", "games", "players", "tournaments")


def _models():
    return [m for name in APPS for m in apps.get_app_config(name).get_models()]


@pytest.mark.parametrize("model", _models(), ids=lambda m: m.__name__)
def test_model_names_and_field_labels_are_translated(model):
    meta = model._meta
    assert isinstance(meta.verbose_name, Promise), f"{model.__name__}.Meta.verbose_name"
    assert isinstance(meta.verbose_name_plural, Promise), model.__name__
    unmarked = [
        field.name
        for field in meta.get_fields(include_hidden=False)
        if field.concrete and not field.auto_created and not isinstance(field.verbose_name, Promise)
    ]
    assert not unmarked, f"{model.__name__}: labels not marked for translation: {unmarked}"


def _python_files():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


MARKERS = {"_", "gettext_lazy", "gettext_noop", "pgettext_lazy"}


def test_api_descriptions_and_help_texts_are_marked():
    """A literal ``help_text=``/``description=`` (serializer fields, schema parameters,
    admin columns) is wrapped in a translation call."""
    plain = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.keyword)
                and node.arg in ("help_text", "description")
                and isinstance(node.value, ast.Constant | ast.JoinedStr | ast.BinOp)
            ):
                plain.append(f"{path.relative_to(ROOT)}:{node.value.lineno}")
    assert not plain, f"help texts or descriptions not marked for translation: {plain}"
