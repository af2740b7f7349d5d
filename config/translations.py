"""Compiles the committed translation catalogues (``locale/*/LC_MESSAGES/*.po``) into the
``.mo`` files Django reads, in pure Python (polib), so an install needs no GNU gettext.
The ``.mo`` files are build output: ignored by git, rebuilt when a ``.po`` is newer."""

from __future__ import annotations

from pathlib import Path

import polib


def catalogues(locale_dirs) -> list[Path]:
    """Every ``.po`` file under the given locale directories."""
    found: list[Path] = []
    for directory in locale_dirs:
        found.extend(sorted(Path(directory).glob("*/LC_MESSAGES/*.po")))
    return found


def compile_catalogues(locale_dirs, force: bool = False) -> list[Path]:
    """Writes a ``.mo`` beside each ``.po`` that is missing or older than its ``.po``;
    returns the ``.mo`` files written. Fuzzy entries are left out, as msgfmt does."""
    written = []
    for po_path in catalogues(locale_dirs):
        mo_path = po_path.with_suffix(".mo")
        if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        catalogue = polib.pofile(str(po_path))
        tmp = mo_path.with_suffix(".mo.tmp")
        catalogue.save_as_mofile(str(tmp))
        tmp.replace(mo_path)
        written.append(mo_path)
    return written
