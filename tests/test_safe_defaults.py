"""Safe by default: DEBUG off, a per-install secret key, plain error pages, and the
zero-setup run still serving static files on 127.0.0.1 over plain http."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent
SERVICE_URLS = {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "CELERY_RESULT_BACKEND"}
SECURITY_VARIABLES = {
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # the browser tests set it in this process
    "DEBUG",
    "SECRET_KEY",
    "HTTPS",
    "SECURE_COOKIES",
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "ALLOWED_HOSTS",
}


def zero_setup_env(var_dir: Path, **overrides) -> dict:
    """The environment of `make run` on a fresh clone: nothing configured."""
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_URLS | SECURITY_VARIABLES}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(var_dir), **overrides)
    return env


def run_python(code: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRINT_SETTINGS = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
    "s.SECURE_HSTS_SECONDS); print(s.SECRET_KEY)"
)


def test_zero_setup_run_has_debug_off_and_plain_http_cookies(tmp_path):
    out = run_python(PRINT_SETTINGS, zero_setup_env(tmp_path))
    assert out.returncode == 0, out.stderr
    flags, _key = out.stdout.splitlines()
    # Secure cookies would never come back over http://127.0.0.1: nobody could log in.
    assert flags.split() == ["False", "False", "False", "False", "0"]


def test_debug_only_when_asked_for(tmp_path):
    out = run_python(PRINT_SETTINGS, zero_setup_env(tmp_path, DEBUG="true"))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "True"


def test_secret_key_is_generated_private_and_kept_across_restarts(tmp_path):
    first = run_python(PRINT_SETTINGS, zero_setup_env(tmp_path))
    assert first.returncode == 0, first.stderr
    key = first.stdout.splitlines()[1]
    key_file = tmp_path / "secret_key"
    assert key_file.read_text().strip() == key
    assert len(key) >= 50 and "insecure" not in key
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    again = run_python(PRINT_SETTINGS, zero_setup_env(tmp_path))
    assert again.stdout.splitlines()[1] == key
    # Another install gets another key.
    other = run_python(PRINT_SETTINGS, zero_setup_env(tmp_path / "other"))
    assert other.stdout.splitlines()[1] != key
    assert not list(tmp_path.glob(".secret_key.*")), "temporary key files are cleaned up"


def test_processes_started_together_agree_on_the_secret_key(tmp_path):
    env = zero_setup_env(tmp_path)
    code = (
        "import sys, time; from pathlib import Path; from config.secret_key import "
        "load_or_create_secret_key as load; "
        # all start at the same instant, as web, worker and beat under `serve`
        "time.sleep(max(0, float(sys.argv[1]) - time.time())); "
        "print(load(Path(sys.argv[2])))"
    )
    import time

    start_at = str(time.time() + 2)
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", code, start_at, str(tmp_path)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    keys = set()
    for process in processes:
        stdout, stderr = process.communicate(timeout=60)
        assert process.returncode == 0, stderr
        keys.add(stdout.strip())
    assert len(keys) == 1
    assert (tmp_path / "secret_key").read_text().strip() in keys


def test_secret_key_from_the_environment_wins_and_writes_no_file(tmp_path):
    out = run_python(PRINT_SETTINGS, zero_setup_env(tmp_path, SECRET_KEY="k" * 60))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1] == "k" * 60
    assert not (tmp_path / "secret_key").exists()


def test_truncated_secret_key_file_stops_start_up_with_a_message(tmp_path):
    (tmp_path / "secret_key").write_text("short\n")
    out = run_python(PRINT_SETTINGS, zero_setup_env(tmp_path))
    assert out.returncode != 0
    assert "secret key file" in out.stderr and "fewer than 50" in out.stderr


ZERO_SETUP_PAGES = """
import json
import django
django.setup()
from django.core.management import call_command
from django.conf import settings
call_command("collectstatic", interactive=False, verbosity=0)
import players.views
def boom(*args, **kwargs):
    local_secret = "local-variable-value"
    raise RuntimeError("exploded")
players.views.die_svg = boom
from django.test import Client
client = Client(raise_request_exception=False)
result = {}
for host in ("127.0.0.1:8000", "localhost:8000"):
    response = client.get("/static/site.css", HTTP_HOST=host)
    result["static " + host] = [response.status_code, response.get("Content-Type", "")]
missing = client.get("/no-such-page/", HTTP_HOST="127.0.0.1:8000")
result["404"] = [missing.status_code, missing.content.decode()]
error = client.get("/dice/preview.svg?type=x&colour=y", HTTP_HOST="127.0.0.1:8000")
result["500"] = [error.status_code, error.content.decode()]
result["broker"] = settings.CELERY_BROKER_URL
result["var"] = str(settings.VAR_DIR)
print(json.dumps(result))
"""


def test_zero_setup_serves_static_files_and_plain_error_pages(tmp_path):
    import json

    out = run_python(ZERO_SETUP_PAGES, zero_setup_env(tmp_path))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    for host in ("127.0.0.1:8000", "localhost:8000"):
        status, content_type = result["static " + host]
        assert status == 200 and content_type.startswith("text/css")
    status, body = result["404"]
    assert status == 404 and "Page not found" in body
    assert "URLconf" not in body and "api/schema" not in body and "admin/" not in body
    status, body = result["500"]
    assert status == 500 and "Something went wrong" in body
    for leak in ("Traceback", "local-variable-value", "exploded", result["var"], "SECRET_KEY"):
        assert leak not in body


@pytest.mark.django_db
def test_not_found_page_in_the_site_style():
    response = Client().get("/no-such-page/")
    body = response.content.decode()
    assert response.status_code == 404
    assert "Page not found" in body and "site.css" in body and "Tournaments" in body


@pytest.mark.django_db
def test_forbidden_and_bad_request_pages(make_user, settings):
    client = Client()
    client.force_login(make_user("plain"))
    forbidden = client.get("/players/")  # organisers only
    assert forbidden.status_code == 403
    assert "Not allowed" in forbidden.content.decode()
    bad = Client().get("/", HTTP_HOST="evil.example")  # not in ALLOWED_HOSTS
    assert bad.status_code == 400
    assert "Bad request" in bad.content.decode()
    csrf = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "x"})
    assert csrf.status_code == 403 and "Form expired" in csrf.content.decode()


@pytest.mark.django_db
def test_server_error_page_hides_everything(monkeypatch, settings):
    settings.DEBUG = False
    monkeypatch.setattr(
        "players.views.die_svg",
        lambda *a: (_ for _ in ()).throw(RuntimeError(settings.CELERY_BROKER_URL)),
    )
    response = Client(raise_request_exception=False).get("/dice/preview.svg?type=a&colour=b")
    body = response.content.decode()
    assert response.status_code == 500 and "Something went wrong" in body
    assert settings.CELERY_BROKER_URL not in body and "Traceback" not in body


# The example production environment of docs/operations.md.
PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "p" * 20 + "r0duct10n-k3y-0f-f1fty-plus-ch4rs-2bQx9Lm",
    "ALLOWED_HOSTS": "irondie.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://irondie.example.org",
    "HTTPS": "true",
    "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
    "DATABASE_URL": "postgres://irondie@db.internal.example:5432/irondie",
    "CELERY_BROKER_URL": "redis://redis.internal.example:6379/0",
    "REDIS_URL": "redis://redis.internal.example:6379/1",
}


def test_check_deploy_is_clean_for_the_production_configuration(tmp_path):
    env = zero_setup_env(tmp_path, **PRODUCTION_ENV)
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_zero_setup_defaults_still_boot_and_pass_the_plain_check(tmp_path):
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=zero_setup_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_production_settings_from_the_environment(tmp_path):
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD, "
        "*s.SECURE_PROXY_SSL_HEADER)"
    )
    out = run_python(code, zero_setup_env(tmp_path, **PRODUCTION_ENV))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [
        "False",
        "True",
        "True",
        "True",
        "31536000",
        "True",
        "True",
        "HTTP_X_FORWARDED_PROTO",
        "https",
    ]
    bad = run_python(code, zero_setup_env(tmp_path, SECURE_PROXY_SSL_HEADER="X Forwarded: yes"))
    assert bad.returncode != 0 and "Setting SECURE_PROXY_SSL_HEADER is malformed" in bad.stderr


@pytest.mark.django_db
def test_behind_a_tls_proxy_http_redirects_and_https_is_served(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 31536000
    plain = Client().get("/tournaments/")
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    secure = Client().get("/tournaments/", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"].startswith("max-age=31536000")
    # Health probes come from inside over plain http and are not redirected.
    assert Client().get("/healthz").status_code in {200, 503}
