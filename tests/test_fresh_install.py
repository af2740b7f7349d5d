"""A fresh clone installs from requirements.txt alone and runs on the embedded defaults.

The test copies the project's files (what git tracks, nothing ignored such as var/ or
.venv/) into a temporary folder, builds a new virtual environment there with
`pip install -r requirements.txt` (the machine's configured index), and then, with no
DATABASE_URL, broker, Redis or any other setting in the environment:

- checks that every module the service imports is installed, and imports every module;
- runs every system check (`manage.py check --database default`: the database's too),
  which stops on an error;
- starts `manage.py serve` (the README's `make run`), which migrates a new SQLite
  database, on a free port until /healthz says ok, loads a page (also in Russian: the start-up compiled the catalogue), its stylesheet, an API list and the API docs' assets;
- stops it as Ctrl-C does and requires exit status 0 and every child process gone.

It holds whatever DEBUG defaults to: static files come from whitenoise, not Django's
debug server, and 127.0.0.1 is what the default ALLOWED_HOSTS must accept.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICE_PACKAGES = ("config", "players", "tournaments", "games")
# What a new login shell would have: the system, locale, and pip's own configuration
# (the index the machine uses); nothing the service reads.
PASSED_THROUGH = re.compile(
    r"(PATH|HOME|USER|LOGNAME|SHELL|TMPDIR|TERM|LANG|LC_\w+|SSL_CERT_\w+|REQUESTS_CA_BUNDLE"
    r"|PIP_\w+|(?i:https?_proxy|no_proxy|all_proxy))"
)

# Run by the new environment's Python in the copied project.
CHECK_IMPORTS = r"""
import ast, importlib, importlib.util, json, os, pathlib, sys

packages = sys.argv[1:]
root = pathlib.Path.cwd()
modules = [p for package in packages for p in sorted((root / package).rglob("*.py"))]
missing = {}
for path in modules:
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top in packages or top in sys.stdlib_module_names or top == "__future__":
                continue
            if importlib.util.find_spec(top) is None:
                missing.setdefault(top, []).append(str(path.relative_to(root)))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django

django.setup()
from django.conf import settings
from django.utils.module_loading import import_string

failed = {}
for dotted in settings.MIDDLEWARE:
    try:
        import_string(dotted)
    except ImportError as exc:
        failed[dotted] = repr(exc)
for path in modules:
    name = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
    try:
        importlib.import_module(name)
    except ImportError as exc:
        failed[name] = repr(exc)
# Chosen at run time by a URL or a command line: the PostgreSQL driver and the Redis
# client (DATABASE_URL, CELERY_BROKER_URL, REDIS_URL) and the web server (serve).
for name in ("psycopg", "redis", "gunicorn"):
    try:
        importlib.import_module(name)
    except ImportError as exc:
        failed[name] = repr(exc)
print(json.dumps({"missing": missing, "failed": failed}))
"""


def _copy_project(target: Path) -> None:
    """The files a clone would have: tracked and new files, not ignored ones."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=False,
    )
    if listed.returncode != 0:
        ignore = shutil.ignore_patterns(".git", ".venv", "var", "__pycache__", "*.pyc")
        shutil.copytree(ROOT, target, ignore=ignore)
        return
    for name in listed.stdout.decode().split("\0"):
        source = ROOT / name
        if name and source.is_file():  # a tracked file deleted in the work tree is skipped
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _fresh_environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if PASSED_THROUGH.fullmatch(k)}
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _run(command, *, cwd, env, timeout) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, (
        f"{' '.join(map(str, command))} failed ({done.returncode}):\n"
        f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str, *, timeout: float = 10, headers=None) -> tuple[int, str, bytes]:
    try:
        request = urllib.request.Request(url, headers=headers or {})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def _process_table() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent pid, state, start time) from /proc."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name may contain spaces and parentheses: split after the last ")".
        fields = stat[stat.rindex(")") + 2 :].split()
        table[int(entry.name)] = (int(fields[1]), fields[0], fields[19])
    return table


def _descendants(pid: int) -> dict[int, str]:
    """Every process below pid, with its start time (to tell a reused pid apart)."""
    table = _process_table()
    found: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, _, started) in table.items():
            if ppid == parent and child not in found:
                found[child] = started
                frontier.append(child)
    return found


def _still_running(processes: dict[int, str]) -> list[int]:
    table = _process_table()
    return [
        pid
        for pid, started in processes.items()
        if pid in table and table[pid][2] == started and table[pid][1] != "Z"
    ]


@pytest.mark.slow
def test_a_fresh_install_from_requirements_txt_runs_on_the_embedded_defaults(tmp_path):
    project, venv = tmp_path / "irondie", tmp_path / "venv"
    _copy_project(project)
    env = _fresh_environment()
    _run([sys.executable, "-m", "venv", venv], cwd=tmp_path, env=env, timeout=300)
    python = venv / "bin" / "python"
    # --no-compile: pip would byte-compile every module of every package (half of the
    # install's time); Python compiles those the service imports when it imports them.
    _run(
        [python, "-m", "pip", "install", "--disable-pip-version-check", "-q", "--no-compile"]
        + ["-r", "requirements.txt"],
        cwd=project,
        env=env,
        timeout=1200,
    )

    imports = _run(
        [python, "-c", CHECK_IMPORTS, *SERVICE_PACKAGES], cwd=project, env=env, timeout=300
    )
    report = json.loads(imports.stdout.strip().splitlines()[-1])
    assert report["missing"] == {}, f"imported but not in requirements.txt: {report['missing']}"
    assert report["failed"] == {}, f"cannot be imported: {report['failed']}"

    # Every system check, the database's too, exits 1 on an error. The migrations are
    # serve's to run, as on a new clone's `make run`.
    _run([python, "manage.py", "check", "--database", "default"], cwd=project, env=env, timeout=600)

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = tmp_path / "serve.log"
    with log_path.open("w") as log:
        serve = subprocess.Popen(
            [str(python), "manage.py", "serve", "--port", str(port)],
            cwd=project,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group, as a terminal's foreground job
        )
    children: dict[int, str] = {}
    try:
        health = None
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and serve.poll() is None:
            try:
                health = _get(f"{base}/healthz", timeout=5)
            except OSError:
                health = None
            # "ok" once the worker and beat have recorded their first heartbeats too
            if health and health[0] == 200 and json.loads(health[2])["status"] == "ok":
                break
            time.sleep(1)
        log_text = log_path.read_text()
        assert health and health[0] == 200, f"/healthz never answered 200: {health}\n{log_text}"
        assert json.loads(health[2])["status"] == "ok", f"{health}\n{log_text}"
        assert (project / "var" / "db.sqlite3").is_file()  # the embedded default database

        status, _, page = _get(f"{base}/tournaments/")
        assert status == 200 and b"IRONDIE" in page
        # The start-up compiled the committed Russian catalogue (no GNU gettext needed).
        status, _, russian = _get(f"{base}/tournaments/", headers={"Accept-Language": "ru"})
        assert status == 200 and "Турниры".encode() in russian, "no Russian after install"
        stylesheet = re.search(rb'<link rel="stylesheet" href="([^"]+)"', page)
        assert stylesheet, "the page links no stylesheet"
        status, content_type, _ = _get(base + stylesheet.group(1).decode())
        assert status == 200 and content_type.startswith("text/css")

        status, content_type, body = _get(f"{base}/api/tournaments/")
        assert status == 200 and content_type.startswith("application/json")
        assert json.loads(body)["count"] >= 1  # the demo tournament

        status, _, docs = _get(f"{base}/api/docs/")
        assert status == 200
        for asset in re.findall(rb'src="(/static/[^"]+)"', docs):
            assert _get(base + asset.decode())[0] == 200, asset

        children = _descendants(serve.pid)
        assert children, "serve started no process"
    finally:
        if serve.poll() is None:
            children = children or _descendants(serve.pid)
            os.killpg(serve.pid, signal.SIGINT)  # what Ctrl-C sends
        try:
            serve.wait(timeout=90)
        except subprocess.TimeoutExpired:
            serve.kill()
            serve.wait()
        stopped = time.monotonic() + 30
        while _still_running(children) and time.monotonic() < stopped:
            time.sleep(0.5)
        left = _still_running(children)
        for pid in left:  # clean up after a failure; only our own processes
            os.kill(pid, signal.SIGKILL)
    log_text = log_path.read_text()
    assert serve.returncode == 0, f"serve exited with {serve.returncode}:\n{log_text[-4000:]}"
    assert left == [], f"still running after serve stopped: {left}"
    with socket.socket() as sock:
        assert sock.connect_ex(("127.0.0.1", port)) != 0, "the port is still open"
