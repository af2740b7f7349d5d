"""Every message has its Russian translation, and nothing a person reads is left unmarked.

- The committed catalogue (locale/ru/LC_MESSAGES/django.po) has a Russian msgstr for
  every msgid, every plural form filled, nothing fuzzy, and the same placeholders.
- Message extraction run afresh into a copy of the project finds no msgid that the
  committed catalogue lacks: a new string marked for translation fails here until it is
  translated (docs/translation.md says how to update the catalogue).
- The main templates hold no person-facing text outside {% translate %} and
  {% blocktranslate %} (text between tags and the title, aria-label, placeholder and alt
  attributes).
- The install step's compiler (pure Python, no msgfmt) writes a catalogue gettext reads.
"""

import gettext
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from config.translations import compile_catalogues

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
# The options docs/translation.md gives for updating the catalogue.
MAKEMESSAGES = [
    "makemessages",
    "-l",
    "ru",
    "--no-obsolete",
    "--no-location",
    "--ignore=.venv",
    "--ignore=tests",
    "--ignore=bench",
    "--ignore=var",
    "--ignore=staticfiles",
]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{\{\s*(\w+)\s*\}\}")


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def test_every_message_has_a_russian_translation():
    catalogue = polib.pofile(str(CATALOGUE))
    untranslated = [e.msgid for e in catalogue.untranslated_entries()]
    fuzzy = [e.msgid for e in catalogue.fuzzy_entries()]
    assert not untranslated, f"{len(untranslated)} messages have no translation: {untranslated}"
    assert not fuzzy, f"fuzzy translations (check them, then remove the flag): {fuzzy}"
    assert "nplurals=4" in catalogue.metadata["Plural-Forms"]
    wrong = []
    for entry in catalogue.translated_entries():
        if entry.msgid_plural:
            assert sorted(entry.msgstr_plural) == [0, 1, 2, 3], entry.msgid
            texts = list(entry.msgstr_plural.values())
            wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural)
        else:
            texts = [entry.msgstr]
            wanted = placeholders(entry.msgid)
        wrong += [(entry.msgid, text) for text in texts if placeholders(text) != wanted]
        if "python-format" in entry.flags:
            literal = entry.msgid.count("%%")
            wrong += [(entry.msgid, text) for text in texts if text.count("%%") != literal]
    assert not wrong, f"placeholders differ from the English: {wrong}"


def test_message_extraction_finds_nothing_the_catalogue_lacks(tmp_path):
    if not shutil.which("xgettext"):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI needs GNU gettext (xgettext) to check the catalogue is complete.")
        pytest.skip("no xgettext on this machine (GNU gettext)")
    copy = tmp_path / "project"
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, tracked):
        relative = Path(name.decode())
        if (
            relative.parts[0] in ("tests", "bench", "locale", "docs")
            or not (ROOT / relative).exists()
        ):
            continue
        (copy / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, copy / relative)
    (copy / "locale").mkdir()
    env = {**os.environ, "VAR_DIR": str(tmp_path / "var")}
    subprocess.run(
        [sys.executable, "manage.py", *MAKEMESSAGES],
        cwd=copy,
        env=env,
        check=True,
        capture_output=True,
    )
    fresh = polib.pofile(str(copy / "locale" / "ru" / "LC_MESSAGES" / "django.po"))
    committed = {(e.msgctxt, e.msgid) for e in polib.pofile(str(CATALOGUE))}
    missing = sorted(e.msgid for e in fresh if (e.msgctxt, e.msgid) not in committed)
    assert not missing, (
        f"{len(missing)} marked strings are not in locale/ru/LC_MESSAGES/django.po "
        f"(run makemessages as docs/translation.md says, then translate): {missing}"
    )


# Text left as it is in a template: the game's name, abbreviations and symbols.
TEMPLATE_KEPT = {"IRONDIE", "CSV", "OMW", "GWP", "OGW"}
BLOCK_TRANSLATE = re.compile(r"{%\s*blocktranslate.*?endblocktranslate\s*%}", re.S)
COMMENT = re.compile(r"{#.*?#}|{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", re.S)
CODE = re.compile(r"<(script|style)\b[^>]*>.*?</\1>", re.S)
TAG = re.compile(r"{%.*?%}|{{.*?}}|&#?\w+;", re.S)  # template tags, variables, entities
TEXT = re.compile(r">([^<]*)<")
ATTRIBUTE = re.compile(r'\b(title|aria-label|placeholder|alt)="([^"]*)"')
WORD = re.compile(r"[A-Za-z]{2,}")


def unmarked_text(source: str) -> list[str]:
    """Person-facing text of a template that no translate tag covers."""
    for pattern in (BLOCK_TRANSLATE, COMMENT, CODE, TAG):
        source = pattern.sub(" ", source)
    found = [m.group(1).strip() for m in TEXT.finditer(source)]
    found += [m.group(2).strip() for m in ATTRIBUTE.finditer(source)]
    return [text for text in found if any(w not in TEMPLATE_KEPT for w in WORD.findall(text))]


def test_templates_leave_no_person_facing_text_unmarked():
    left = {}
    for path in sorted((ROOT / "templates").rglob("*.html")):
        if "drf_spectacular" in path.parts:
            continue  # the API docs' page: its text is the documentation tool's
        found = unmarked_text(path.read_text())
        if found:
            left[str(path.relative_to(ROOT))] = found
    assert not left, f"text outside {{% translate %}}: {left}"


def test_the_scan_finds_unmarked_text():
    assert unmarked_text("<p>Hello {{ name }}</p>") == ["Hello"]
    assert unmarked_text('<button aria-label="Close">×</button>') == ["Close"]
    assert unmarked_text("<p>{% translate 'Hello' %} IRONDIE</p>") == []
    assert unmarked_text("<p>{% blocktranslate %}Hi {{ n }}{% endblocktranslate %}</p>") == []


def test_the_install_step_compiles_the_catalogue_without_msgfmt(tmp_path):
    folder = tmp_path / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(CATALOGUE, folder / "django.po")
    assert compile_catalogues([tmp_path]) == [folder / "django.mo"]
    assert compile_catalogues([tmp_path]) == []  # up to date: nothing rewritten
    with open(folder / "django.mo", "rb") as mo:
        russian = gettext.GNUTranslations(mo)
    assert russian.gettext("Standings") == "Турнирная таблица"
    assert russian.ngettext("%(counter)s player", "%(counter)s players", 5) == (
        "%(counter)s игроков"
    )
