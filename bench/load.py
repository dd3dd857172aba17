"""Load test: the app under gunicorn on loopback, many scorekeepers entering hands in their
own games while live scoreboards poll, for a fixed time; then every hand sent must be
in the database exactly once.

Not a test (the figures depend on the machine): run it by hand from the repository root,
after `pip install -e '.[test]'` (or '.[prod,postgres]'):

    .venv/bin/python bench/load.py                       # SQLite in a temporary folder
    .venv/bin/python bench/load.py --database-url postgres://USER:PASSWORD@127.0.0.1:5432/DB

With --database-url the script makes a scratch database next to DB (the role needs
CREATEDB), migrates it and drops it at the end. The server runs as in production: DEBUG
off, collected static files, secure cookies, every request marked as coming through the
TLS proxy (X-Forwarded-Proto: https, with BEHIND_HTTPS_PROXY=1). Only loopback traffic.

Each scorekeeper is a signed-in account with a club and a game of its own: it loads the
game page (for the CSRF token and the form's one-time token) and posts a hand, again and
again; now and then it sends the same form twice, as a double tap does. Each scoreboard
polls a game's live link with If-None-Match, as the page's htmx poll does. The client is
the standard library only (urllib, threads).
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "a long load-test password"
TABLE = ("Ann", "Bob", "Cy", "Dee")
REQUEST_TIMEOUT = 30


# ---- The server ----


def server_env(database_url: str, static_root: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url,
        "STATIC_ROOT": str(static_root),
        "BEHIND_HTTPS_PROXY": "1",
        "DJANGO_SETTINGS_MODULE": "pitchkeeper.settings",
    }
    for name in ("SECURE_SSL_REDIRECT", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(name, None)
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def gunicorn(env: dict[str, str], workers: int, port: int):
    command = [sys.executable, "-m", "gunicorn", "pitchkeeper.wsgi", "-w", str(workers)]
    command += ["-b", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", "60"]
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("gunicorn did not start") from None
                time.sleep(0.2)
        yield server
    finally:
        server.terminate()
        server.wait(timeout=30)


@contextmanager
def scratch_database(url: str | None, folder: Path):
    """A database URL for this run: a file in ``folder``, or a new PostgreSQL database
    next to the one ``url`` names, dropped at the end."""
    if url is None:
        yield f"sqlite:///{folder / 'load.sqlite3'}"
        return
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'pitchkeeper'}_load_{secrets.token_hex(4)}"
    admin = psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        from django.db import connections

        connections.close_all()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


# ---- Setting up the clubs (in this process, through the app's own services) ----


@dataclass
class Keeper:
    username: str
    game: int
    live: str


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def make_clubs(count: int, target: int) -> list[Keeper]:
    """A user, a club and a game of setback to ``target`` for each scorekeeper."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from pitchkeeper.clubs.players import roster
    from pitchkeeper.clubs.services import club_create
    from pitchkeeper.games.services import game_create
    from pitchkeeper.rules import resolve_rules

    hashed = make_password(PASSWORD)  # once: hashing is slow on purpose
    rules = resolve_rules({**resolve_rules("setback").to_dict(), "target": target})
    keepers = []
    for number in range(count):
        user = get_user_model().objects.create(username=f"keeper{number}", password=hashed)
        club = club_create(name=f"Load club {number}", owner=user)
        players = roster(list(TABLE), club=club)
        seated = [players[name] for name in TABLE]
        game = game_create(players=seated, first_dealer=seated[0], rules=rules).game
        keepers.append(Keeper(user.username, game.pk, game.share_token))
    return keepers


def recorded_tokens(game_ids: list[int]) -> dict[int, list[str | None]]:
    from pitchkeeper.games.models import Hand

    tokens: dict[int, list[str | None]] = defaultdict(list)
    for game_id, token in Hand.objects.filter(game_id__in=game_ids).values_list("game", "token"):
        tokens[game_id].append(token)
    return tokens


def database_version() -> str:
    from django.db import connection

    if connection.vendor == "sqlite":
        return f"SQLite {sqlite3.sqlite_version} (WAL)"
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        return f"PostgreSQL {cursor.fetchone()[0].split()[0]}"


# ---- The client: urllib, cookies kept by hand ----


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


OPENER = urllib.request.build_opener(NoRedirect)


@dataclass
class Stats:
    """Latencies by kind of request, errors by what went wrong, and other counts."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter = field(default_factory=Counter)
    notes: Counter = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.times[kind].append(seconds)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors[what] += 1

    def note(self, what: str) -> None:
        with self.lock:
            self.notes[what] += 1


class Browser:
    """One phone: its own cookies, every request as through the HTTPS proxy. Cookies are
    kept by hand because they are Secure and this side of the proxy is plain HTTP."""

    def __init__(self, base: str, stats: Stats) -> None:
        self.base = base
        self.origin = "https://" + base.removeprefix("http://")
        self.stats = stats
        self.cookies: dict[str, str] = {}
        # The last request got no answer (a timeout, a refused connection).
        self.lost = False

    def request(
        self,
        kind: str,
        path: str,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        expect: tuple[int, ...] = (200,),
    ) -> tuple[int, dict[str, str], str] | None:
        """Status, headers and body; None (and an error counted) for anything else."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body)
        request.add_header("X-Forwarded-Proto", "https")
        if data is not None:
            request.add_header("Origin", self.origin)
            request.add_header("Referer", self.origin + path)
        if self.cookies:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        start = time.perf_counter()
        self.lost = False
        try:
            try:
                response = OPENER.open(request, timeout=REQUEST_TIMEOUT)
            except urllib.error.HTTPError as answer:
                response = answer
            with response:
                text = response.read().decode()
                status, answer_headers = response.status, response.headers
        except (OSError, ValueError) as error:
            self.stats.error(f"{kind}: {type(error).__name__}")
            self.lost = True
            return None
        self.stats.add(kind, time.perf_counter() - start)
        for value in answer_headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(value).items():
                self.cookies[name] = morsel.value
        if status not in expect:
            self.stats.error(f"{kind}: HTTP {status}")
            return None
        return status, dict(answer_headers), text

    def sign_in(self, username: str) -> None:
        page = self.request("sign in page", "/accounts/login/")
        assert page is not None, "the sign-in page did not load"
        form = hidden_fields(page[2], "/accounts/login/")
        form |= {"username": username, "password": PASSWORD}
        signed = self.request("sign in", "/accounts/login/", form, expect=(302,))
        assert signed is not None and "sessionid" in self.cookies, f"{username} cannot sign in"


class HiddenFields(HTMLParser):
    """The hidden inputs of the forms posting to ``action``."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action = action
        self.inside = False
        self.fields: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag == "form":
            self.inside = attr.get("action") == self.action
        elif self.inside and tag == "input" and attr.get("type") == "hidden" and attr.get("name"):
            self.fields[attr["name"]] = attr.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def hidden_fields(html: str, action: str) -> dict[str, str]:
    reader = HiddenFields(action)
    reader.feed(html)
    return reader.fields


# ---- The load ----


@dataclass
class Sent:
    """What one scorekeeper's game got: the tokens of the hands the server said it
    saved (a double tap's second answer is not another hand)."""

    saved: list[str] = field(default_factory=list)
    refused: int = 0
    double_taps: int = 0


def neutral_hand(number: int) -> dict[str, str]:
    """A hand that keeps the game going: the pitcher (a different one each hand) bids 2
    and takes only High, so is set back; Low, Jack and Game go to the other three."""
    pitcher = TABLE[number % len(TABLE)]
    others = [name for name in TABLE if name != pitcher]
    return {
        "action": "save",
        "pitcher": pitcher,
        "bid": "2",
        "point_high": pitcher,
        "point_low": others[0],
        "point_jack": others[1],
        "point_game": others[2],
    }


def scorekeeper(
    browser: Browser, keeper: Keeper, sent: Sent, until: float, double_tap: float, seed: int
) -> None:
    import random

    chance = random.Random(seed)
    page_path = f"/games/{keeper.game}/"
    post_path = f"/games/{keeper.game}/hands/"
    while time.monotonic() < until:
        page = browser.request("GET game page", page_path)
        if page is None:
            continue
        form = hidden_fields(page[2], post_path)
        if "csrfmiddlewaretoken" not in form:
            browser.stats.error("game page without the hand form")
            return
        number = int(form.get("expected") or len(sent.saved) + 1)
        data = {**form, **neutral_hand(number)}
        taps = 2 if chance.random() < double_tap else 1
        for tap in range(taps):
            answer = browser.request("POST hand", post_path, data, expect=(302,))
            for _retry in range(2):
                if answer is not None or not browser.lost:
                    break
                # No answer at all: the phone sends the same form again, which its
                # one-time token makes safe.
                answer = browser.request("POST hand", post_path, data, expect=(302,))
            if answer is None:
                sent.refused += 1
            elif tap == 0:
                sent.saved.append(form.get("token", ""))
            else:
                sent.double_taps += 1


def scoreboard(browser: Browser, token: str, until: float, pause: float) -> None:
    etag = None
    path = f"/live/{token}/"
    while time.monotonic() < until:
        headers = {"HX-Request": "true"}
        if etag:
            headers["If-None-Match"] = etag
        answer = browser.request("GET live (poll)", path, headers=headers, expect=(200, 304))
        if answer is not None and answer[0] == 200:
            etag = answer[1].get("ETag")
        elif answer is not None:
            browser.stats.note("not modified")
        if pause:
            time.sleep(pause)


def percentile(times: list[float], share: float) -> float:
    if len(times) == 1:
        return times[0]
    return statistics.quantiles(times, n=100, method="inclusive")[round(share * 100) - 1]


def report(stats: Stats, seconds: float) -> int:
    kinds = ["GET game page", "POST hand", "GET live (poll)"]
    everything = [t for kind in kinds for t in stats.times.get(kind, [])]
    print()
    print("| request          | count | per s | p50 ms | p95 ms | p99 ms | errors |")
    print("| ---------------- | ----: | ----: | -----: | -----: | -----: | -----: |")
    for kind, times in [*((k, stats.times.get(k, [])) for k in kinds), ("all", everything)]:
        errors = sum(
            n for what, n in stats.errors.items() if kind == "all" or what.startswith(kind)
        )
        if not times:
            print(f"| {kind:<16} | {0:>5} |     - |      - |      - |      - | {errors:>6} |")
            continue
        p50, p95, p99 = (percentile(times, share) * 1000 for share in (0.5, 0.95, 0.99))
        print(
            f"| {kind:<16} | {len(times):>5} | {len(times) / seconds:>5.0f} | {p50:>6.1f} "
            f"| {p95:>6.1f} | {p99:>6.1f} | {errors:>6} |"
        )
    not_modified = stats.notes["not modified"]
    for what, count in sorted(stats.errors.items()):
        print(f"  error: {what} x{count}")
    polls = len(stats.times.get("GET live (poll)", []))
    print(f"\nlive polls answered 304 Not Modified: {not_modified} of {polls}")
    return sum(stats.errors.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", help="a PostgreSQL server to run against")
    parser.add_argument("--seconds", type=float, default=20, help="how long the load runs")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--scorekeepers", type=int, default=12, help="phones entering hands")
    parser.add_argument("--scoreboards", type=int, default=12, help="live scoreboards polling")
    parser.add_argument(
        "--poll", type=float, default=0.5, help="seconds between a scoreboard's polls"
    )
    parser.add_argument("--double-tap", type=float, default=0.05, help="share of hands sent twice")
    options = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="pitchkeeper-load-"))
    try:
        with scratch_database(options.database_url, folder) as database_url:
            env = server_env(database_url, folder / "static")
            print("Migrating and collecting static files...", flush=True)
            manage(env, "migrate", "--verbosity", "0")
            manage(env, "collectstatic", "--noinput", "--verbosity", "0")
            django_setup(env)
            keepers = make_clubs(options.scorekeepers, target=999)
            version = database_version()
            from django.db import connections

            connections.close_all()
            port = free_port()
            with gunicorn(env, options.workers, port):
                return run(options, keepers, f"http://127.0.0.1:{port}", version)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(options: argparse.Namespace, keepers: list[Keeper], base: str, version: str) -> int:
    stats = Stats()
    browsers = [Browser(base, stats) for _keeper in keepers]
    for browser, keeper in zip(browsers, keepers, strict=True):
        browser.sign_in(keeper.username)
    stats.times.clear()  # signing in is not part of the load
    sent = [Sent() for _keeper in keepers]
    start = time.monotonic()
    until = start + options.seconds
    threads = [
        threading.Thread(
            target=scorekeeper,
            args=(browser, keeper, record, until, options.double_tap, number),
        )
        for number, (browser, keeper, record) in enumerate(
            zip(browsers, keepers, sent, strict=True)
        )
    ]
    threads += [
        threading.Thread(
            target=scoreboard,
            args=(Browser(base, stats), keepers[n % len(keepers)].live, until, options.poll),
        )
        for n in range(options.scoreboards)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start

    print(
        f"\n{version}, gunicorn with {options.workers} workers; {options.scorekeepers} "
        f"scorekeepers and {options.scoreboards} scoreboards (a poll every {options.poll} s) "
        f"for {elapsed:.1f} s; Python {platform.python_version()}, {os.cpu_count()} CPUs"
    )
    errors = report(stats, elapsed)

    # Every hand the server said it saved is there, once; nothing else is.
    recorded = recorded_tokens([keeper.game for keeper in keepers])
    wrong = []
    for keeper, record in zip(keepers, sent, strict=True):
        tokens = recorded.get(keeper.game, [])
        if sorted(tokens, key=str) != sorted(record.saved, key=str):
            wrong.append(f"game {keeper.game}: {len(record.saved)} saved, {len(tokens)} stored")
        if len(set(tokens)) != len(tokens):
            wrong.append(f"game {keeper.game}: a hand stored twice")
    hands = sum(len(record.saved) for record in sent)
    taps = sum(record.double_taps for record in sent)
    print(
        f"\nhands saved: {hands} ({hands / elapsed:.1f}/s), double taps answered as saved: "
        f"{taps}, refused: {sum(record.refused for record in sent)}; "
        f"in the database: {sum(len(t) for t in recorded.values())}"
    )
    if wrong:
        print("NOT exactly once:\n  " + "\n  ".join(wrong))
        return 1
    print("every hand sent was recorded exactly once")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
