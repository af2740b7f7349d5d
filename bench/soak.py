"""Soak: the whole service as `make run` starts it, under a 64-player event played over HTTP.

Run (embedded defaults: SQLite and the filesystem broker in a fresh temporary VAR_DIR):
    .venv/bin/python bench/soak.py [--minutes 30] [--json]
On PostgreSQL and Redis instead (the database is emptied first with --reset):
    .venv/bin/python bench/soak.py --database-url postgres://postgres@127.0.0.1:5432/irondie_soak \
        --broker-url redis://127.0.0.1:6379/3 --reset

It starts ``manage.py serve`` (gunicorn, Celery worker, Celery beat) on a free port with
short clocks (``GAMES_DECISION_SECONDS`` 6, swap window 10 s, the tournament's match
limit 3 minutes and game limit 1, or 2 and 1 for runs under 15 minutes) so deadlines
fire all the time; ``--minute-seconds`` shortens the clocks' minute as well
(``CLOCK_MINUTE_SECONDS``: the suite's short soak plays a one-minute match in 30 s). Accounts (an organiser in the site group ``organiser``, three judges,
64 players, each with an API token) are made by one ``manage.py shell`` step, the
admin's job; everything else goes through the API as people do it: players create
their profile and dice set, the organiser creates the tournament (naming the head and
floor judges), opens registration and registers the 64, players check in, the organiser
pairs, publishes and a judge starts each round; Swiss rounds then the top cut; when an
event is over and time remains the next one starts.

In each round about a third of the matches are played online by bot programs through
the games API (docs/online-play.md; some seats sleep through decisions or never press
ready, so decision defaults and the start window fire), the rest on paper: players mark
their games started, and a result is entered by a judge, reported by a player and
confirmed (or rejected: the judges resolve the dispute) by the opponent, or left until
time is called and entered by a judge from the queue. Judges watch the queue and the
round clock and extend a match now and then; players look at their match; the public
reads pairings and standings. New rounds start while time is left; the last one is
played out, then the service is stopped (Ctrl-C, as a person would) and the database is
checked:

- missed deadlines: a match whose time was not called, a game whose sudden death did not
  come, a decision that got no default, a waiting game that did not start, within
  ``CLOCK_SWEEP_SECONDS`` + ``--tolerance`` after its deadline (or after the service was
  up, for anything due before);
- duplicated deadlines: two time-called or sudden-death audit entries for one match or
  game, two match-time or sudden-death actions in one game, a default applied before its
  decision's deadline (the mark of a deadline acted on twice);
- restarts of web, worker and beat (new process ids under ``serve``), and of gunicorn's
  and Celery's own worker processes; whether ``serve`` itself went down;
- 5xx answers and failed requests, and the latency of every request (p95).

It prints a summary (or, with ``--json``, one JSON object) and exits 1 unless there were
no restarts, no 5xx, no failed requests, no missed and no duplicated deadlines.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 64
JUDGES = 3
PASSWORDLESS_NOTE = "accounts use API tokens only"

# --- the service ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _proc_children(pid: int) -> list[int]:
    """Direct children of ``pid`` (Linux /proc)."""
    try:
        tasks = Path(f"/proc/{pid}/task").iterdir()
        found = []
        for task in tasks:
            with contextlib.suppress(OSError):
                found += [int(c) for c in (task / "children").read_text().split()]
        return found
    except OSError:
        return []


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _role(cmdline: str) -> str:
    if "gunicorn" in cmdline:
        return "web"
    if "celery" in cmdline and " beat" in cmdline:
        return "beat"
    if "celery" in cmdline and " worker" in cmdline:
        return "worker"
    return "other"


class Service:
    """``manage.py serve`` in its own session, its children watched through /proc."""

    def __init__(self, env: dict, port: int, log_path: Path, demo: bool):
        self.env, self.port, self.log_path, self.demo = env, port, log_path, demo
        self.process = None
        self.seen = defaultdict(set)  # role -> pids of serve's children
        self.grandchildren = defaultdict(set)  # role -> pids of their worker processes
        self.all_pids = {}  # pid -> its command line (checked again before a kill)
        self.ready_at = None  # wall-clock time the service answered /healthz
        self.exited = None

    def start(self) -> None:
        args = [sys.executable, "manage.py", "serve", "--port", str(self.port)]
        if not self.demo:
            args.append("--no-demo")
        self.log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            args,
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def watch(self) -> None:
        """Note serve's children (web, worker, beat) and theirs; called every second."""
        if self.process is None:
            return
        if self.exited is None and self.process.poll() is not None:
            self.exited = self.process.returncode
        for pid in _proc_children(self.process.pid):
            command = _cmdline(pid)
            role = _role(command)
            self.seen[role].add(pid)
            self.all_pids[pid] = command
            for child in _proc_children(pid):
                self.grandchildren[role].add(child)
                self.all_pids[child] = _cmdline(child)

    def wait_healthy(self, timeout: float) -> None:
        import urllib.request

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.watch()
            if self.exited is not None:
                raise SystemExit(f"serve exited with code {self.exited} before answering")
            try:
                url = f"http://127.0.0.1:{self.port}/healthz"
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        self.ready_at = datetime.datetime.now(datetime.UTC)
                        return
            except OSError:
                pass
            time.sleep(0.5)
        raise SystemExit(f"the service did not answer /healthz within {timeout:.0f} s")

    def restarts(self) -> dict:
        return {role: max(0, len(self.seen[role]) - 1) for role in ("web", "worker", "beat")}

    def stop(self) -> None:
        """Ctrl-C as a person would; then make sure nothing of ours is left running."""
        if self.process is None:
            return
        self.watch()
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        # serve starts its children in sessions of their own: end any that outlived it.
        for sig in (signal.SIGTERM, signal.SIGKILL):
            alive = [
                pid
                for pid, command in self.all_pids.items()
                if _alive(pid) and _cmdline(pid) == command
            ]
            for pid in alive:
                try:
                    os.killpg(pid, sig)
                except (ProcessLookupError, PermissionError):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, sig)
            deadline = time.monotonic() + 10
            while alive and time.monotonic() < deadline:
                alive = [pid for pid in alive if _alive(pid)]
                time.sleep(0.2)
        self.log.close()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


SETUP_CODE = r"""
import json
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from rest_framework.authtoken.models import Token
User = get_user_model()
prefix = {prefix!r}
def account(name, groups=()):
    user = User(username=prefix + name)
    user.set_unusable_password()  # {note}
    user.save()
    for group in groups:
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    return {{"id": user.pk, "username": user.username, "token": Token.objects.create(user=user).key}}
out = {{
    "organiser": account("organiser", ["organiser"]),
    "judges": [account(f"judge{{i}}") for i in range({judges})],
    "players": [account(f"player{{i}}") for i in range({players})],
}}
print("ACCOUNTS " + json.dumps(out))
"""


def make_accounts(env: dict, prefix: str) -> dict:
    """The admin's part: accounts, roles and tokens (one ``manage.py shell`` step)."""
    code = SETUP_CODE.format(prefix=prefix, judges=JUDGES, players=PLAYERS, note=PASSWORDLESS_NOTE)
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    for line in done.stdout.splitlines():
        if line.startswith("ACCOUNTS "):
            return json.loads(line[len("ACCOUNTS ") :])
    raise SystemExit(f"account setup failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")


def compress_limits(env: dict, tournament_id: int, limits: dict) -> None:
    """Set a tournament's time limits below the API's bounds (the soak's time lapse)."""
    code = (
        "from tournaments.models import Tournament; "
        f"Tournament.objects.filter(pk={int(tournament_id)}).update(**{limits!r})"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )


# --- HTTP -----------------------------------------------------------------------------


class Http:
    """A small HTTP/1.1 client on asyncio (one connection a request), timing each request
    from the connection to the last byte of the answer and counting what came back."""

    def __init__(self, port: int, concurrency: int):
        self.port = port
        self.gate = asyncio.Semaphore(concurrency)
        self.latency = []  # (route, seconds)
        self.status = Counter()
        self.by_route = defaultdict(Counter)
        self.failures = []
        self.server_errors = []

    @staticmethod
    def route(path: str) -> str:
        return re.sub(r"/\d+", "/{id}", path.split("?")[0])

    async def request(self, method: str, path: str, token: str | None = None, body=None):
        payload = json.dumps(body).encode() if body is not None else b""
        auth = f"Authorization: Token {token}\r\n" if token else ""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Accept: application/json\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
            "Connection: close\r\n\r\n"
        ).encode()
        route = f"{method} {self.route(path)}"
        async with self.gate:
            started = time.perf_counter()
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", self.port), 30
                )
                try:
                    writer.write(head + payload)
                    await writer.drain()
                    raw = await asyncio.wait_for(reader.read(-1), 120)
                finally:
                    writer.close()
                status, data = self._parse(raw)
            except (TimeoutError, OSError, ValueError, IndexError) as exc:
                self.failures.append(f"{route}: {type(exc).__name__} {exc}")
                self.status["failed"] += 1
                return None, None
            elapsed = time.perf_counter() - started
        self.latency.append((route, elapsed))
        self.status[status] += 1
        self.by_route[route][status] += 1
        if status >= 500:
            self.server_errors.append(f"{route} -> {status}: {data!r:.300}")
        return status, data

    @staticmethod
    def _parse(raw: bytes):
        head, _, body = raw.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
            body = _unchunk(body)
        if headers.get(b"content-type", b"").startswith(b"application/json") and body:
            return status, json.loads(body)
        return status, body.decode(errors="replace")


def _unchunk(body: bytes) -> bytes:
    out = b""
    while body:
        size_line, _, rest = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += rest[:size]
        body = rest[size + 2 :]
    return out


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


# --- the event ------------------------------------------------------------------------

SWISS_RESULTS = [["a", "a"], ["b", "b"], ["a", "b", "a"], ["b", "a", "b"], ["a", "b", "b"]]
AFTER_TIME_SWISS = [["a"], ["b"], ["a", "b"], [], ["a", "a"], ["b", "a"]]
DECISIVE = [["a", "a"], ["b", "b"], ["a", "b", "a"], ["b", "a", "a"]]


class Event:
    """Drives tournaments over HTTP with an organiser, judges, players and bots."""

    def __init__(self, http: Http, accounts: dict, args, stop_at: float, rng, env: dict):
        self.http, self.args, self.stop_at, self.rng, self.env = http, args, stop_at, rng, env
        self.organiser = accounts["organiser"]
        self.judges = accounts["judges"]
        self.players = accounts["players"]
        self.by_registration = {}  # registration id -> player account
        self.tournament_ids = []
        self.counts = Counter()
        self.anomalies = []
        self.match_minutes, self.game_minutes = args.match_minutes, args.game_minutes
        self.minute = args.minute_seconds  # the clocks' minute (CLOCK_MINUTE_SECONDS)

    async def call(self, method, path, who=None, body=None, ok=(200, 201)):
        token = who["token"] if who else None
        status, data = await self.http.request(method, path, token, body)
        if status is None or status not in ok:
            return None
        return data

    async def must(self, method, path, who, body=None):
        status, data = await self.http.request(method, path, who["token"], body)
        if status not in (200, 201):
            raise RuntimeError(f"{method} {path} as {who['username']}: {status} {data!r:.400}")
        return data

    async def gather_limited(self, coroutines, limit=4):
        gate = asyncio.Semaphore(limit)

        async def run(coroutine):
            async with gate:
                return await coroutine

        return await asyncio.gather(*(run(c) for c in coroutines))

    # setup -----------------------------------------------------------------------------

    async def create_profiles(self):
        from players.demo import random_valid_set

        async def profile(i, player):
            rng = random.Random(f"set-{i}")
            me = await self.must(
                "POST", "/api/players/", player, {"display_name": f"Soak Player {i + 1}"}
            )
            player["player_id"] = me["id"]
            dice = [d.to_dict() for d in random_valid_set(rng)]
            extra = [d.to_dict() for d in random_valid_set(rng)][:3]
            created = await self.must(
                "POST",
                "/api/dice-sets/",
                player,
                {"name": "Main", "playing_dice": dice, "additional_dice": extra},
            )
            player["dice_set"] = created["id"]

        await self.gather_limited(profile(i, p) for i, p in enumerate(self.players))

    async def run_tournament(self, number: int) -> bool:
        """One event; False when the time ran out before it finished."""
        org = self.organiser
        settings = {
            "name": f"Soak Open {number}",
            "date": datetime.date.today().isoformat(),
            "top_cut_size": 8,
            "head_judge": self.judges[0]["id"],
            "floor_judge_ids": [j["id"] for j in self.judges[1:]],
        }
        limits = {"match_minutes": self.match_minutes, "game_minutes": self.game_minutes}
        status, tournament = await self.http.request(
            "POST", "/api/tournaments/", org["token"], {**settings, **limits}
        )
        if status == 400 and any(k in str(tournament) for k in limits):
            # Limits this short are below what the API accepts: the event is created with
            # the defaults and the admin compresses its time (a shell step, like accounts).
            tournament = await self.must("POST", "/api/tournaments/", org, settings)
            await asyncio.to_thread(compress_limits, self.env, tournament["id"], limits)
            self.counts["limits_set_by_shell"] += 1
        elif status != 201:
            raise RuntimeError(f"POST /api/tournaments/: {status} {tournament!r:.400}")
        tid = tournament["id"]
        self.tournament_ids.append(tid)
        self.counts["tournaments"] += 1
        await self.must("POST", f"/api/tournaments/{tid}/status/", org, {"status": "registration"})

        async def register(player):
            reg = await self.must(
                "POST",
                f"/api/tournaments/{tid}/registrations/",
                org,
                {"player": player["player_id"], "dice_set": player["dice_set"]},
            )
            self.by_registration[reg["id"]] = player
            player.setdefault("registrations", {})[tid] = reg["id"]

        await self.gather_limited(register(p) for p in self.players)
        await self.must("POST", f"/api/tournaments/{tid}/status/", org, {"status": "check_in"})
        await self.gather_limited(
            self.must(
                "POST",
                f"/api/registrations/{p['registrations'][tid]}/check-in/",
                p,
                {"checked_in": True},
            )
            for p in self.players
        )
        while True:
            info = await self.must("GET", f"/api/tournaments/{tid}/", org)
            if info["status"] == "finished":
                return True
            played = self.counts["rounds"] > 0
            if played and time.monotonic() + self.match_minutes * self.minute > self.stop_at:
                return False
            round_ = await self.next_round(tid, info)
            if round_ is None:
                return True
            await self.play_round(tid, round_)

    async def next_round(self, tid, info):
        """The organiser pairs the next Swiss round or the next top-cut round (or finds the
        draft the service made), publishes it, and a judge starts it."""
        org = self.organiser
        rounds = (await self.must("GET", f"/api/tournaments/{tid}/rounds/", org))["results"]
        draft = next((r for r in rounds if r["status"] == "draft"), None)
        if draft is None:
            swiss_done = sum(r["stage"] == "swiss" for r in rounds) >= (info["swiss_rounds"] or 99)
            if not swiss_done:
                draft = await self.must("POST", f"/api/tournaments/{tid}/pair/", org, {})
            elif info["status"] == "swiss":
                answer = await self.must("POST", f"/api/tournaments/{tid}/top-cut/", org)
                if "matches" not in answer:
                    return None  # finished (no top cut)
                draft = answer
            else:
                await self.call("POST", f"/api/tournaments/{tid}/finish/", org)
                return None
        await self.must("POST", f"/api/rounds/{draft['id']}/publish/", org)
        round_ = await self.must("POST", f"/api/rounds/{draft['id']}/start/", self.judges[0])
        self.counts["rounds"] += 1
        return round_

    # a round ---------------------------------------------------------------------------

    async def play_round(self, tid, round_):
        rid = round_["id"]
        top_cut = round_["stage"] == "top_cut"
        started = time.monotonic()
        deadline = started + self.match_minutes * self.minute
        matches = [m for m in round_["matches"] if not m["is_bye"]]
        self.counts["matches"] += len(matches)
        modes = self._modes(len(matches))
        owned = {}  # match id -> mode
        tasks = []
        for match, mode in zip(matches, modes, strict=True):
            owned[match["id"]] = mode
            self.counts[f"mode_{mode}"] += 1
            if mode == "online":
                tasks.append(self.online_match(match, deadline))
            else:
                tasks.append(self.paper_match(match, mode, deadline, top_cut))
        done = asyncio.Event()
        watchers = [
            self.judge_queue(tid, owned, top_cut, done),
            self.floor_judge(rid, owned, done),
            self.spectator(tid, rid, done),
        ]
        watch = [asyncio.ensure_future(w) for w in watchers]
        await asyncio.gather(*tasks)
        # Every match has a result or is waiting for the judges: wait for the round.
        limit = deadline + 180 + 60 * len(matches) / 8
        while time.monotonic() < limit:
            current = await self.call("GET", f"/api/rounds/{rid}/", self.organiser)
            if current and all(m["status"] == "confirmed" for m in current["matches"]):
                break
            await asyncio.sleep(2)
        else:
            self.anomalies.append(f"round {rid}: not complete {limit - started:.0f} s after start")
            await self.settle_by_judge(rid, top_cut)
        done.set()
        await asyncio.gather(*watch)
        closed = await self.call("POST", f"/api/rounds/{rid}/close/", self.organiser)
        if closed is None:
            await asyncio.sleep(3)
            await self.must("POST", f"/api/rounds/{rid}/close/", self.organiser)

    def _modes(self, n):
        online = round(n * self.args.online_share)
        rest = n - online
        judge = rest * 3 // 10
        report = rest * 4 // 10
        modes = ["online"] * online + ["judge"] * judge + ["report"] * report
        modes += ["time"] * (n - len(modes))
        self.rng.shuffle(modes)
        return modes

    async def settle_by_judge(self, rid, top_cut):
        current = await self.call("GET", f"/api/rounds/{rid}/", self.judges[0])
        for m in (current or {}).get("matches", []):
            if m["status"] != "confirmed":
                await self.judge_result(m["id"], top_cut, after_time=True)

    async def judge_result(self, match_id, top_cut, *, after_time, judge=None):
        """A judge enters a result over the version they read; if the match changed
        meanwhile (409: time called, a report), they read it again and decide again."""
        judge = judge or self.rng.choice(self.judges)
        choices = DECISIVE if top_cut else AFTER_TIME_SWISS if after_time else SWISS_RESULTS
        for _attempt in range(4):
            match = await self.call("GET", f"/api/matches/{match_id}/", judge)
            if match is None or match["status"] == "confirmed":
                return
            body = {
                "games": self.rng.choice(choices),
                "note": "entered by the soak's judge",
                "expected_version": match["version"],
            }
            status, _ = await self.http.request(
                "POST", f"/api/matches/{match_id}/report/", judge["token"], body
            )
            if status == 201:
                self.counts["judge_entries"] += 1
                return
            self.counts["judge_entries_refused"] += 1
            await asyncio.sleep(1)

    async def paper_match(self, match, mode, deadline, top_cut):
        """Players at a table: they mark their games started; the result comes from a
        judge, a player's report and the opponent's confirmation, or after time."""
        a = self.by_registration[match["player_a"]["registration"]]
        b = self.by_registration[match["player_b"]["registration"]]
        mid = match["id"]
        round_seconds = deadline - time.monotonic()
        game_seconds = self.game_minutes * self.minute
        await asyncio.sleep(self.rng.uniform(1, 8))
        number = 1
        until = deadline - self.rng.uniform(10, 25) if mode != "time" else deadline + 5
        if mode != "time":
            until = time.monotonic() + self.rng.uniform(0.3, 0.9) * (until - time.monotonic())
        while True:
            for who in (a, b) if self.rng.random() < 0.5 else (b, a):
                await self.call("POST", f"/api/matches/{mid}/start-game/", who, {"number": number})
                await asyncio.sleep(self.rng.uniform(0.2, 1.5))
            # A game on paper lasts about the game limit: sometimes more (sudden death).
            pause = self.rng.uniform(0.5, 1.4) * min(game_seconds, round_seconds / 2)
            if time.monotonic() + pause >= until or number >= 3:
                break
            await asyncio.sleep(pause)
            await self.call("GET", f"/api/tournaments/{self.tournament_ids[-1]}/my-match/", a)
            number += 1
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        if mode == "judge":
            await self.judge_result(mid, top_cut, after_time=False)
        elif mode == "report":
            reporter, opponent = (a, b) if self.rng.random() < 0.5 else (b, a)
            games = self.rng.choice(DECISIVE if top_cut else SWISS_RESULTS)
            status, _ = await self.http.request(
                "POST", f"/api/matches/{mid}/report/", reporter["token"], {"games": games}
            )
            if status != 201:
                self.counts["reports_refused"] += 1
                return
            self.counts["reports"] += 1
            await asyncio.sleep(self.rng.uniform(1, 6))
            await self.call(
                "GET", f"/api/tournaments/{self.tournament_ids[-1]}/my-match/", opponent
            )
            if self.rng.random() < 0.2:
                status, _ = await self.http.request(
                    "POST", f"/api/matches/{mid}/reject/", opponent["token"], {"note": "not so"}
                )
                self.counts["disputes" if status == 200 else "rejects_refused"] += 1
            else:
                status, _ = await self.http.request(
                    "POST", f"/api/matches/{mid}/confirm/", opponent["token"], {}
                )
                self.counts["confirmations" if status == 200 else "confirms_refused"] += 1
        # "time": nothing; the judges enter it from the queue once time is called.

    async def judge_queue(self, tid, owned, top_cut, done):
        """The head judge works the queue: disputes, and paper matches after time."""
        judge = self.judges[0]
        handled = set()
        while not done.is_set():
            queue = await self.call("GET", f"/api/tournaments/{tid}/queue/", judge)
            for m in (queue or {}).get("results", []):
                mode = owned.get(m["id"])
                if m["id"] in handled or m["status"] == "confirmed":
                    continue
                clock = m.get("clock") or {}
                time_called = clock.get("state") == "time_called"
                waited = 0.0
                if time_called:
                    called = datetime.datetime.fromisoformat(clock["time_called_at"])
                    server = datetime.datetime.fromisoformat(clock["server_time"])
                    waited = (server - called).total_seconds()
                paper_after_time = time_called and (
                    mode in ("time", "judge") or (mode == "report" and waited > 20)
                )
                if m["status"] == "disputed" or paper_after_time:
                    handled.add(m["id"])
                    await asyncio.sleep(self.rng.uniform(0.5, 3))
                    await self.judge_result(m["id"], top_cut, after_time=time_called, judge=judge)
                elif time_called and mode == "online" and waited > 30:
                    handled.add(m["id"])
                    self.anomalies.append(
                        f"match {m['id']}: online, time called, no result after 30 s"
                    )
                    await self.judge_result(m["id"], top_cut, after_time=True, judge=judge)
            await _sleep_or(done, 3)

    async def floor_judge(self, rid, owned, done):
        """A floor judge watches the round clock and gives one paper match extra time.

        In runs with a match limit of 2 minutes or more it is a match left until time is
        called, so time is called at the extended deadline. With the one-minute limit of
        the suite's short soak (tests/test_soak.py) that alone would double the round
        (the extension is a whole minute, and the round waits for it), so there it is a
        match whose judge enters the result before the deadline: the extension and the
        re-queued deadline task still run under load, and must not call time."""
        judge = self.judges[1]
        extend_mode = "time" if self.match_minutes >= 2 else "judge"
        extended = False
        while not done.is_set():
            clock = await self.call("GET", f"/api/rounds/{rid}/clock/", judge)
            if clock and not extended:
                running = [
                    c
                    for c in clock.get("matches", [])
                    if c.get("state") == "running"
                    and owned.get(c.get("match")) == extend_mode
                    and (c.get("remaining_seconds") or 0) > 20
                ]
                if running:
                    target = self.rng.choice(running)
                    answer = await self.call(
                        "POST",
                        f"/api/matches/{target['match']}/clock/extend/",
                        judge,
                        {"minutes": 1, "reason": "judge call at the table"},
                    )
                    extended = True
                    self.counts["extensions"] += answer is not None
            await _sleep_or(done, 5)

    async def spectator(self, tid, rid, done):
        while not done.is_set():
            path = self.rng.choice(
                [
                    f"/api/tournaments/{tid}/standings/",
                    f"/api/tournaments/{tid}/rounds/",
                    f"/api/rounds/{rid}/clock/",
                    f"/api/tournaments/{tid}/registrations/",
                ]
            )
            await self.call("GET", path)
            await _sleep_or(done, 4)

    # online ----------------------------------------------------------------------------

    async def online_match(self, match, deadline):
        a = self.by_registration[match["player_a"]["registration"]]
        b = self.by_registration[match["player_b"]["registration"]]
        await asyncio.sleep(self.rng.uniform(1, 10))
        game = await self.call("POST", "/api/games/", a, {"match": match["id"]}, ok=(200, 201))
        if game is None:
            game = await self.call("POST", "/api/games/", b, {"match": match["id"]}, ok=(200, 201))
        if game is None:
            self.anomalies.append(f"match {match['id']}: could not be opened online")
            return
        self.counts["online_opened"] += 1
        stop = deadline + 300
        await asyncio.gather(
            self.bot(a, 0, game["id"], match["id"], stop),
            self.bot(b, 1, game["id"], match["id"], stop),
        )

    async def bot(self, player, seat, game_id, match_id, stop):
        """One player's program: read, think, act; poll while the opponent decides. A
        sleepy player now and then lets the decision clock run out (the second seat's first
        decision of the run always), or never presses ready (the start window closes)."""
        from games.engines.irondie.bots import HeuristicBot, RandomBot
        from games.selectors import legal_choices

        rng = random.Random(f"{game_id}-{seat}-{player['username']}")
        sleepy = rng.random() < 0.35
        engine_bot = HeuristicBot(seed=rng.random()) if seat == 0 else RandomBot(seed=rng.random())
        think = self.args.think
        path = f"/api/games/{game_id}/"
        state = await self.call("GET", path, player)
        while time.monotonic() < stop:
            if state is None:
                await asyncio.sleep(1)
                state = await self.call("GET", path, player)
                continue
            if state["status"] in ("finished", "cancelled"):
                if state.get("next_game") is None:
                    return
                game_id = state["next_game"]
                path = f"/api/games/{game_id}/"
                self.counts["online_games"] += seat == 0
                state = await self.call("GET", path, player)
                continue
            if state["status"] == "waiting" and seat not in (state.get("ready") or []):
                await asyncio.sleep(think * rng.uniform(0.5, 2))
                if sleepy and rng.random() < 0.5:
                    await asyncio.sleep(self.args.window + 3)  # let the window close
                    state = await self.call("GET", path, player)
                    continue
                if rng.random() < 0.2:  # a swap for the coming game (may be refused)
                    await self.call(
                        "POST",
                        f"/api/matches/{match_id}/swaps/",
                        player,
                        {"swap_out": [rng.randrange(9)], "swap_in": [0]},
                        ok=(201,),
                    )
                answer = await self.call("POST", f"{path}ready/", player, {}, ok=(200,))
                state = answer or await self.call("GET", path, player)
                continue
            legal = legal_choices(state) if state["status"] == "active" else []
            if legal:
                # The run's first decision of a second seat is always slept through, so that
                # even a short run (the suite's) sees the decision clock default once.
                first = seat == 1 and not self.counts["decisions_slept"]
                if first or (sleepy and rng.random() < 0.1):
                    self.counts["decisions_slept"] += 1
                    await asyncio.sleep(self.args.decision + rng.uniform(1, 3))
                    state = await self.call("GET", path, player)
                    continue
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                if isinstance(engine_bot, HeuristicBot):
                    action = engine_bot.decide(state["view"], legal, seat)
                else:
                    action = engine_bot.rng.choice(legal)
                status, answer = await self.http.request(
                    "POST",
                    f"{path}actions/",
                    player["token"],
                    {"action": action, "expected_version": state["version"]},
                )
                self.counts["actions"] += status == 200
                self.counts["actions_refused"] += status in (400, 409)
                state = answer if status == 200 else await self.call("GET", path, player)
                continue
            await asyncio.sleep(rng.uniform(0.8, 1.2))
            news = await self.call("GET", f"{path}poll/")
            if news is None or (
                news.get("version") != state["version"] or news.get("status") != state["status"]
            ):
                state = await self.call("GET", path, player)
        self.anomalies.append(f"game {game_id}: seat {seat} still playing when its time was up")


async def _sleep_or(event: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(event.wait(), seconds)


async def drive(service: Service, accounts: dict, args, stop_at: float) -> Event:
    http = Http(service.port, args.concurrency)
    event = Event(http, accounts, args, stop_at, random.Random(args.seed), service.env)

    async def watch():
        while True:
            service.watch()
            if service.exited is not None:
                raise RuntimeError(f"serve exited with code {service.exited}")
            await asyncio.sleep(1)

    async def play():
        await event.create_profiles()
        number = 1
        while number == 1 or time.monotonic() + args.match_minutes * args.minute_seconds <= stop_at:
            finished = await event.run_tournament(number)
            if not finished:
                break
            number += 1

    watcher = asyncio.ensure_future(watch())
    player = asyncio.ensure_future(play())
    done, _ = await asyncio.wait({watcher, player}, return_when=asyncio.FIRST_COMPLETED)
    watcher.cancel()
    if player not in done:
        player.cancel()
        event.anomalies.append(f"stopped early: {watcher.exception()}")
    elif player.exception() is not None:
        event.anomalies.append(f"stopped early: {player.exception()!r:.500}")
    event.http_ = http
    return event


# --- checking the deadlines -----------------------------------------------------------


def _dt(value):
    return datetime.datetime.fromisoformat(value) if isinstance(value, str) else value


def check_deadlines(tournament_ids, ready_at, checked_at, allowance: float, window: float) -> dict:
    """Every deadline of the soak's tournaments, from the database: was it acted on in
    time, and once? ``allowance``: sweep interval + tolerance, in seconds."""
    from games.engines.irondie import apply, new_game, to_act
    from games.models import GameAction, GameSession
    from tournaments.clocks import clock_minutes
    from tournaments.models import AuditEntry, Match, ResultSubmission

    slack = datetime.timedelta(seconds=allowance)
    report = {
        kind: {"due": 0, "acted": 0, "missed": 0, "duplicated": 0, "late": []}
        for kind in ("time_called", "sudden_death", "decision", "start_window")
    }
    examples = []

    def due_from(deadline):
        return max(deadline, ready_at)

    matches = list(
        Match.objects.filter(round__tournament__in=tournament_ids, player_b__isnull=False)
        .exclude(deadline_at__isnull=True)
        .select_related("round__tournament")
    )
    ids = [m.pk for m in matches]
    audits = defaultdict(list)
    for entry in AuditEntry.objects.filter(
        object_type="Match",
        object_id__in=ids,
        action__in=("clock.time_called", "clock.sudden_death", "game.started"),
    ).order_by("created_at", "id"):
        audits[entry.object_id].append(entry)
    confirmed = {}
    for match_id, when in ResultSubmission.objects.filter(
        match_id__in=ids, confirmed_at__isnull=False
    ).values_list("match_id", "confirmed_at"):
        confirmed[match_id] = min(when, confirmed.get(match_id, when))

    for match in matches:
        entries = audits[match.pk]
        called = [e for e in entries if e.action == "clock.time_called"]
        first_result = confirmed.get(match.pk)
        # the match limit: time is called unless the result came first
        r = report["time_called"]
        deadline = match.deadline_at
        limit = due_from(deadline) + slack
        if len(called) > 1:
            r["duplicated"] += len(called) - 1
            examples.append(f"match {match.pk}: time called {len(called)} times")
        if called:
            r["due"] += 1
            r["acted"] += 1
            at = _dt(called[0].after["called_at"])
            r["late"].append((at - due_from(_dt(called[0].after["deadline_at"]))).total_seconds())
            if at > limit:
                r["missed"] += 1
                examples.append(
                    f"match {match.pk}: time called {(at - deadline).total_seconds():.1f} s after the deadline"
                )
        elif limit < checked_at and (first_result is None or first_result > limit):
            r["due"] += 1
            r["missed"] += 1
            examples.append(
                f"match {match.pk}: deadline {deadline.isoformat()} passed, time never called"
            )
        time_called_at = _dt(called[0].after["called_at"]) if called else None

        # the game limits: sudden death unless the game or the match ended first
        r = report["sudden_death"]
        starts = [e for e in entries if e.action == "game.started"]
        minutes = clock_minutes(match.round.tournament.game_minutes)
        sudden = defaultdict(list)
        for e in entries:
            if e.action == "clock.sudden_death":
                sudden[e.after.get("game")].append(e)
        for game, found in sudden.items():
            if len(found) > 1:
                r["duplicated"] += len(found) - 1
                examples.append(f"match {match.pk} game {game}: sudden death {len(found)} times")
        for i, start in enumerate(starts):
            game = start.after.get("game")
            begun = start.created_at
            if time_called_at is not None and begun >= time_called_at:
                continue  # a top-cut decider after time: sudden death from its first turn
            ends = [t for t in (first_result, time_called_at) if t is not None]
            if i + 1 < len(starts):
                ends.append(starts[i + 1].created_at)
            end = min(ends) if ends else checked_at
            found = sudden.get(game, [])
            game_deadline = _dt(found[0].after["deadline_at"]) if found else begun + minutes
            limit = due_from(game_deadline) + slack
            if found:
                r["due"] += 1
                r["acted"] += 1
                at = _dt(found[0].after["called_at"])
                r["late"].append((at - due_from(game_deadline)).total_seconds())
                if at > limit:
                    r["missed"] += 1
                    examples.append(
                        f"match {match.pk} game {game}: sudden death {(at - game_deadline).total_seconds():.1f} s late"
                    )
            elif limit < min(end, checked_at):
                r["due"] += 1
                r["missed"] += 1
                examples.append(f"match {match.pk} game {game}: game limit passed, no sudden death")

    # online games: the decision clocks and the start window
    sessions = GameSession.objects.filter(match_game__match__in=ids).order_by("pk")
    actions = defaultdict(list)
    for a in GameAction.objects.filter(session__in=sessions).order_by("session_id", "index"):
        actions[a.session_id].append(a)
    for session in sessions:
        w = report["start_window"]
        window_end = session.created_at + datetime.timedelta(seconds=window)
        by_players = sorted(session.ready or []) == [0, 1]
        if session.started_at is not None and not by_players:
            w["due"] += 1
            w["acted"] += 1
            w["late"].append((session.started_at - due_from(window_end)).total_seconds())
            if session.started_at > due_from(window_end) + slack:
                w["missed"] += 1
                examples.append(
                    f"session {session.pk}: started {(session.started_at - window_end).total_seconds():.1f} s after its window"
                )
        elif (
            session.status == GameSession.Status.WAITING
            and due_from(window_end) + slack < checked_at
        ):
            w["due"] += 1
            w["missed"] += 1
            examples.append(f"session {session.pk}: still waiting after its window")
        if not session.commitment:
            continue
        d = report["decision"]
        rows = actions[session.pk]
        kinds = Counter(a.cause for a in rows)
        for cause in ("match_time",):
            if kinds[cause] > 1:
                d["duplicated"] += kinds[cause] - 1
                examples.append(f"session {session.pk}: {kinds[cause]} {cause} actions")
        state = new_game(session.config, session.seed)
        limit = datetime.timedelta(seconds=session.decision_seconds)
        since = {seat: session.started_at for seat in to_act(state)}
        for a in rows:
            actor = a.engine_actor
            before = to_act(state)
            if actor != "system" and actor in since:
                waited = a.created_at - since[actor]
                if a.cause == GameAction.Cause.CLOCK:
                    d["due"] += 1
                    d["acted"] += 1
                    d["late"].append(
                        (a.created_at - due_from(since[actor] + limit)).total_seconds()
                    )
                    if waited < limit - datetime.timedelta(seconds=0.5):
                        d["duplicated"] += 1
                        examples.append(
                            f"session {session.pk} #{a.index}: default after {waited.total_seconds():.1f} s, before the deadline"
                        )
                    elif a.created_at > due_from(since[actor] + limit) + slack:
                        d["missed"] += 1
                        examples.append(
                            f"session {session.pk} #{a.index}: default {waited.total_seconds():.1f} s after the decision began"
                        )
                elif waited > limit and a.created_at > due_from(since[actor] + limit) + slack:
                    d["due"] += 1
                    d["missed"] += 1
                    examples.append(
                        f"session {session.pk} #{a.index}: seat {actor} decided {waited.total_seconds():.1f} s after it began, no default"
                    )
            state, _ = apply(state, actor, a.action)
            for seat in to_act(state):
                if seat == actor or seat not in before:
                    since[seat] = a.created_at
            for seat in list(since):
                if seat not in to_act(state):
                    del since[seat]
        if session.status == GameSession.Status.ACTIVE and not state.over:
            for seat, began in since.items():
                if due_from(began + limit) + slack < checked_at:
                    d["due"] += 1
                    d["missed"] += 1
                    examples.append(
                        f"session {session.pk}: seat {seat} waiting since {began.isoformat()}, no default"
                    )

    for r in report.values():
        late = r.pop("late")
        r["late_p95_s"] = round(percentile(late, 95), 3) if late else None
        r["late_max_s"] = round(max(late), 3) if late else None
    return {"by_kind": report, "examples": examples[:30]}


def session_figures(tournament_ids) -> dict:
    from games.models import GameAction, GameSession

    sessions = GameSession.objects.filter(match_game__match__round__tournament__in=tournament_ids)
    causes = Counter(
        GameAction.objects.filter(session__in=sessions).values_list("cause", flat=True)
    )
    return {
        "online_games": sessions.count(),
        "online_games_finished": sessions.filter(status="finished").count(),
        "actions_by_cause": dict(causes),
    }


# --- the run --------------------------------------------------------------------------


def service_env(args, var_dir: str) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "CELERY_RESULT_BACKEND"}
    }
    env.update(
        VAR_DIR=var_dir,
        PYTHONUNBUFFERED="1",
        GAMES_DECISION_SECONDS=str(args.decision),
        GAMES_SWAP_WINDOW_SECONDS=str(args.window),
        CLOCK_SWEEP_SECONDS=str(args.sweep),
        CLOCK_MINUTE_SECONDS=str(args.minute_seconds),
    )
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    if args.broker_url:
        env["CELERY_BROKER_URL"] = args.broker_url
        env["REDIS_URL"] = args.redis_url or args.broker_url
    return env


def setup_django(env: dict) -> None:
    """This process reads the same database as the service, with the same settings."""
    os.environ.update(env)
    for key in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "CELERY_RESULT_BACKEND"):
        if key not in env:
            os.environ.pop(key, None)
    os.environ.update(DJANGO_SETTINGS_MODULE="config.settings", LOG_LEVEL="WARNING")
    import django

    django.setup()


def reset_backends(args) -> None:
    """--reset: an empty database and broker database to start from."""
    if args.database_url:
        import psycopg

        url = args.database_url
        name = url.rsplit("/", 1)[1].split("?")[0]
        server = url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    if args.broker_url and args.broker_url.startswith("redis"):
        import redis

        redis.Redis.from_url(args.broker_url).flushdb()


def summarise(service, event, http, deadlines, figures, args, elapsed, log_path) -> dict:
    log_text = log_path.read_text(errors="replace") if log_path.exists() else ""
    everything = [s for _, s in http.latency]
    kinds = defaultdict(list)
    for route, seconds in http.latency:
        kind = (
            "game poll"
            if route.endswith("/poll/")
            else "game action"
            if route.startswith("POST /api/games/")
            else "other write"
            if not route.startswith("GET")
            else "read"
        )
        kinds[kind].append(seconds)
    client_errors = {
        route: {str(k): v for k, v in counts.items() if isinstance(k, int) and 400 <= k < 500}
        for route, counts in http.by_route.items()
    }
    by_kind = deadlines["by_kind"]
    restarts = service.restarts()
    result = {
        "minutes": args.minutes,
        "elapsed_minutes": round(elapsed / 60, 1),
        "database": "postgresql" if args.database_url else "sqlite (embedded)",
        "broker": "redis" if args.broker_url else "filesystem (embedded)",
        "settings": {
            "decision_seconds": args.decision,
            "swap_window_seconds": args.window,
            "sweep_seconds": args.sweep,
            "match_minutes": args.match_minutes,
            "game_minutes": args.game_minutes,
            "minute_seconds": args.minute_seconds,
            "tolerance_seconds": args.tolerance,
        },
        "restarts": restarts,
        "restarts_total": sum(restarts.values()),
        "serve_exited": service.exited,
        "web_worker_processes": len(service.grandchildren["web"]),
        "celery_pool_processes": len(service.grandchildren["worker"]),
        "requests": len(everything),
        "http_5xx": sum(v for k, v in http.status.items() if isinstance(k, int) and k >= 500),
        "http_failed": http.status["failed"],
        "http_4xx": sum(v for k, v in http.status.items() if isinstance(k, int) and 400 <= k < 500),
        "latency_ms": {
            "p50": _ms(percentile(everything, 50)),
            "p95": _ms(percentile(everything, 95)),
            "p99": _ms(percentile(everything, 99)),
            "max": _ms(max(everything) if everything else None),
            **{f"p95 {k}": _ms(percentile(v, 95)) for k, v in sorted(kinds.items())},
        },
        "missed": sum(k["missed"] for k in by_kind.values()),
        "duplicated": sum(k["duplicated"] for k in by_kind.values()),
        "deadlines": by_kind,
        "deadline_examples": deadlines["examples"],
        "event": {**dict(sorted(event.counts.items())), **figures},
        "anomalies": event.anomalies[:30],
        "server_errors": http.server_errors[:20],
        "failures": http.failures[:20],
        "client_errors_by_route": {k: v for k, v in sorted(client_errors.items()) if v},
        "log_tracebacks": log_text.count("Traceback"),
        "log_errors": [
            line[:300]
            for line in log_text.splitlines()
            if re.search(r"exited with code|JSONDecodeError|database is locked|CRITICAL", line)
        ][:15],
    }
    result["ok"] = (
        result["restarts_total"] == 0
        and result["serve_exited"] is None
        and result["http_5xx"] == 0
        and result["http_failed"] == 0
        and result["missed"] == 0
        and result["duplicated"] == 0
        and not any(a.startswith("stopped early") for a in event.anomalies)
        and event.counts["rounds"] > 0
    )
    return result


def _ms(seconds):
    return None if seconds is None else round(seconds * 1000, 1)


def print_summary(r: dict) -> None:
    print(
        f"soak: {r['elapsed_minutes']} min on {r['database']} + {r['broker']}; "
        f"{'OK' if r['ok'] else 'FAILED'}"
    )
    print(
        f"restarts: web {r['restarts']['web']}, worker {r['restarts']['worker']}, beat "
        f"{r['restarts']['beat']}; serve exited: {r['serve_exited']}"
    )
    print(
        f"requests: {r['requests']}; 5xx: {r['http_5xx']}; failed: {r['http_failed']}; "
        f"4xx: {r['http_4xx']}"
    )
    lat = r["latency_ms"]
    print(
        f"latency: p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms, max {lat['max']} ms"
    )
    print(f"deadlines: missed {r['missed']}, duplicated {r['duplicated']}")
    for kind, d in r["deadlines"].items():
        print(
            f"  {kind}: due {d['due']}, acted {d['acted']}, missed {d['missed']}, duplicated "
            f"{d['duplicated']}, late p95 {d['late_p95_s']} s, max {d['late_max_s']} s"
        )
    print(f"event: {json.dumps(r['event'])}")
    for key in ("deadline_examples", "anomalies", "server_errors", "failures", "log_errors"):
        if r[key]:
            print(f"{key}:")
            for line in r[key][:10]:
                print(f"  {line}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--database-url", help="PostgreSQL instead of SQLite")
    parser.add_argument("--broker-url", help="Redis instead of the filesystem broker")
    parser.add_argument("--redis-url", help="the cache (default: the broker URL)")
    parser.add_argument(
        "--reset", action="store_true", help="drop and create the database, flush the broker db"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--demo", action="store_true", help="load the demo data as `make run` does")
    parser.add_argument("--var-dir", help="VAR_DIR to use (default: a new temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary VAR_DIR")
    parser.add_argument("--match-minutes", type=int)
    parser.add_argument("--game-minutes", type=int, default=1)
    parser.add_argument(
        "--minute-seconds",
        type=int,
        default=60,
        help="CLOCK_MINUTE_SECONDS: how long a minute of the event's clocks lasts (time lapse)",
    )
    parser.add_argument("--decision", type=int, default=6, help="GAMES_DECISION_SECONDS")
    parser.add_argument("--window", type=int, default=10, help="GAMES_SWAP_WINDOW_SECONDS")
    parser.add_argument("--sweep", type=int, default=2, help="CLOCK_SWEEP_SECONDS")
    parser.add_argument("--tolerance", type=float, default=3.0, help="seconds beyond the sweep")
    parser.add_argument("--think", type=float, default=1.5, help="bots' mean seconds a decision")
    parser.add_argument("--online-share", type=float, default=0.35)
    parser.add_argument("--concurrency", type=int, default=6, help="requests in flight at most")
    parser.add_argument("--seed", default="soak")
    args = parser.parse_args(argv)
    if args.match_minutes is None:
        args.match_minutes = 3 if args.minutes >= 15 else 2
    if args.reset:
        reset_backends(args)

    var_dir = args.var_dir or tempfile.mkdtemp(prefix="irondie-soak-")
    env = service_env(args, var_dir)
    log_path = Path(var_dir) / "serve.log"
    service = Service(env, free_port(), log_path, args.demo)

    def on_signal(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    started = time.monotonic()
    try:
        service.start()
        service.wait_healthy(timeout=180)
        accounts = make_accounts(env, prefix=f"soak{int(time.time()) % 100000}-")
        setup_django(env)  # the bots use the engine's helpers; the check reads the database
        # The minutes are the event's: they start once the service is up and staffed.
        stop_at = time.monotonic() + args.minutes * 60
        event = asyncio.run(drive(service, accounts, args, stop_at))
        # Anything due by now gets its sweep interval and tolerance before the check.
        time.sleep(args.sweep + args.tolerance)
        service.watch()
        checked_at = datetime.datetime.now(datetime.UTC)
    finally:
        service.stop()
    elapsed = time.monotonic() - started
    deadlines = check_deadlines(
        event.tournament_ids,
        service.ready_at,
        checked_at,
        args.sweep + args.tolerance,
        args.window,
    )
    figures = session_figures(event.tournament_ids)
    result = summarise(service, event, event.http_, deadlines, figures, args, elapsed, log_path)
    result["var_dir"] = var_dir if args.keep or args.var_dir else None
    if not args.keep and not args.var_dir:
        shutil.rmtree(var_dir, ignore_errors=True)
    if args.json:
        print(json.dumps(result))
    else:
        print_summary(result)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
