"""The per-install secret key kept in VAR_DIR when SECRET_KEY is not set.

Web server, worker and beat start together and must agree on the key: the first one
writes a complete key to a private temporary file and hard-links it into place, which
fails if another process got there first; everyone then reads the file that won. A
reader therefore never sees a half-written key, and a restart reuses it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

FILE_NAME = "secret_key"
MIN_LENGTH = 50


def load_or_create_secret_key(var_dir: Path) -> str:
    path = var_dir / FILE_NAME
    if not path.exists():
        _create_atomically(path)
    key = path.read_text(encoding="utf-8").strip()
    if len(key) < MIN_LENGTH:
        raise ImproperlyConfigured(
            f"The secret key file {path} holds fewer than {MIN_LENGTH} characters; "
            "delete it to generate a new one, or set SECRET_KEY."
        )
    return key


def _create_atomically(path: Path) -> None:
    key = secrets.token_urlsafe(64)  # 86 URL-safe characters, ~512 bits
    temporary = path.with_name(f".{FILE_NAME}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(key + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        # Fails if another process already placed its key: theirs is the one to use.
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
