"""Bad input everywhere (hypothesis): random and malformed hands, auctions, names, ids and
JSON thrown at the views, the import service and the import command. Whatever comes in,
the answer is a 4xx (or a redirect or a page on success), never a 500, and a 4xx saves
nothing at all; names with HTML in them are shown escaped.

The forms are read from the pages themselves (every input, option and button), so the
fuzzing follows the templates: a field added to a form is fuzzed too.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from pitchkeeper.clubs.names import name_key
from pitchkeeper.clubs.players import roster
from pitchkeeper.games.hands import change_restore, hand_delete, hand_edit, hand_record
from pitchkeeper.games.models import Game
from pitchkeeper.games.services import game_create, games_import
from pitchkeeper.rules import HandRecord, RuleError, load_json, resolve_rules
from pitchkeeper.rules.record import hidden_character
from pitchkeeper.seasons.models import LedgerPlan

from .conftest import example_record

pytestmark = pytest.mark.django_db

# Modest counts, so that the file runs in well under a minute; every run draws new ones.
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# Each example of these loads a game screen or two first.
FUZZ_FORMS = settings(FUZZ, max_examples=40)
SCRIPT = "<script>alert(1)</script>"
TEAM_SCRIPT = "<script>alert(2)</script>"
HTMX = {"HTTP_HX_REQUEST": "true"}

# Text that has broken web apps before: empty, blank, huge, NUL bytes, HTML, numbers out
# of every range, Unicode of all kinds.
NASTY = [
    "",
    " ",
    "\t\n",
    "0",
    "-1",
    "1.5",
    "1e400",
    "NaN",
    "inf",
    "99999999999999999999999999",
    "-99999999999999999999999999",
    "１２",
    "pass",
    "nobody",
    "null",
    "[]",
    "{}",
    SCRIPT,
    '"><img src=x onerror=alert(1)>',
    "\x00",
    "a\x00b",
    "\ud7ff\ue000",
    "\u202eevil",
    "Zoë",
    "名前",
    "🂡🂮",
    "x" * 5000,
]
junk = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=60),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)
names = st.one_of(st.sampled_from(NASTY), st.text(max_size=80))


# ---- Reading forms from pages ----


class FormReader(HTMLParser):
    """Every field of the forms posting to ``action``, with the values the page offers."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action = action
        self.inside = False
        self.select: str | None = None
        self.fields: dict[str, list[str]] = {}

    def offer(self, name: str | None, value: str | None) -> None:
        if name:
            self.fields.setdefault(name, [])
            if value is not None and value not in self.fields[name]:
                self.fields[name].append(value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag == "form":
            self.inside = (attr.get("action") or "").split("#")[0] == self.action
        elif not self.inside:
            return
        elif tag in ("input", "button", "textarea"):
            self.offer(attr.get("name"), attr.get("value", ""))
        elif tag == "select":
            self.select = attr.get("name")
            self.offer(self.select, None)
        elif tag == "option" and self.select:
            self.offer(self.select, attr.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def form_fields(html: str, action: str) -> dict[str, list[str]]:
    reader = FormReader(action)
    reader.feed(html)
    return reader.fields


def fuzzed_post(data: Any, fields: dict[str, list[str]]) -> dict[str, Any]:
    """A POST for a form: each field left out, given a value the page offers (one or
    several), or junk; sometimes an unknown field too."""
    post: dict[str, Any] = {}
    for name, offered in fields.items():
        how = data.draw(st.sampled_from(["offered", "offered", "several", "junk", "left out"]))
        if how == "offered" and offered:
            post[name] = data.draw(st.sampled_from(offered))
        elif how == "several" and offered:
            post[name] = data.draw(st.lists(st.sampled_from(offered), max_size=4))
        elif how == "junk":
            post[name] = data.draw(junk)
    if data.draw(st.booleans()):
        post[data.draw(st.text(min_size=1, max_size=20))] = data.draw(junk)
    return post


# ---- What a refused request must leave as it was ----


def snapshot() -> tuple[Any, ...]:
    """Every row of the app's tables and the accounts (not sessions or sign-in logs, nor
    the plans of payments a view of the ledger keeps: a cache in the database, written
    by any view of it, a refused one's included)."""
    models = [
        *(
            model
            for model in apps.get_app_config("pitchkeeper").get_models()
            if model is not LedgerPlan
        ),
        get_user_model(),
    ]
    return tuple(
        tuple(tuple(sorted(row.items())) for row in model.objects.order_by("pk").values())
        for model in models
    )


def answered(response: Any, before: tuple[Any, ...], what: str) -> int:
    """The status; a 5xx fails, and a 4xx must have saved nothing."""
    status = response.status_code
    event(f"answered {status}")  # pytest --hypothesis-show-statistics shows the spread
    assert status < 500, f"{what}: {status}"
    if status >= 400:
        assert snapshot() == before, f"{what}: a {status} answer saved something"
    return status


# ---- Games to throw hands at ----

TABLE = ("Ann", "Bob", "Cy", "Dee")
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
# Bids as buttons, bids as a number field with counted points, word bids, teams with
# the all-tricks box, and no bidding at all.
PRESETS = ["setback", "pitch-with-bidding", "ten-point", "partnership", "blind-all-fours"]


def new_game(club, preset: str) -> Game:
    rules = resolve_rules(preset)
    players = roster(list(TABLE), club=club)
    table = [players[name] for name in TABLE]
    teams = {t: [players[n] for n in m] for t, m in TEAMS.items()} if rules.partnership else {}
    return game_create(players=table, first_dealer=table[0], rules=rules, teams=teams).game


@pytest.fixture
def games(club):
    """One fresh game per preset, made again when a fuzzed hand ended it."""
    made: dict[str, Game] = {}

    def game(preset: str, *, hands: int = 0) -> Game:
        current = made.get(preset)
        if current is None or Game.objects.get(pk=current.pk).finished_at is not None:
            current = made[preset] = new_game(club, preset)
        for _hand in range(hands - current.hands.count()):
            hand_record(game=current, record=HandRecord(misdeal=True))
        return current

    return game


# ---- Hands, edits and auctions ----


@FUZZ_FORMS
@given(data=st.data())
def test_random_hands_never_break_the_game_screen(client, games, data):
    game = games(data.draw(st.sampled_from(PRESETS)))
    url = f"/games/{game.pk}/hands/"
    fields = form_fields(client.get(f"/games/{game.pk}/").content.decode(), url)
    assert "action" in fields
    post = fuzzed_post(data, fields)
    htmx = data.draw(st.booleans())
    before = snapshot()

    response = client.post(url, post, **(HTMX if htmx else {}))

    status = answered(response, before, f"hand {post!r}")
    assert status in (200, 302, 400, 409)
    if status == 302:
        assert response["Location"] == f"/games/{game.pk}/"


@FUZZ_FORMS
@given(data=st.data())
def test_random_auctions_only_ever_redraw_the_auction(client, games, data):
    game = games(data.draw(st.sampled_from(["setback", "ten-point", "pitch-with-bidding"])))
    fields = form_fields(
        client.get(f"/games/{game.pk}/").content.decode(), f"/games/{game.pk}/hands/"
    )
    post = fuzzed_post(data, {k: v for k, v in fields.items() if k.startswith("auction_")})
    before = snapshot()

    response = client.post(f"/games/{game.pk}/auction/", post, **HTMX)

    assert answered(response, before, f"auction {post!r}") == 200
    assert snapshot() == before


@FUZZ_FORMS
@given(data=st.data())
def test_random_edits_of_a_hand_change_it_or_nothing(client, games, data):
    game = games(data.draw(st.sampled_from(PRESETS)), hands=2)
    number = data.draw(st.sampled_from([1, 2]))
    url = f"/games/{game.pk}/hands/{number}/"
    page = client.get(url)
    assert page.status_code == 200
    post = fuzzed_post(data, form_fields(page.content.decode(), url))
    before = snapshot()

    response = client.post(url, post, **(HTMX if data.draw(st.booleans()) else {}))

    assert answered(response, before, f"edit {post!r}") in (200, 302, 400, 409)


@FUZZ_FORMS
@given(data=st.data())
def test_random_new_games_start_one_game_or_nothing(client, club, data):
    # Each example starts from the same club: a game made by an earlier one would seat
    # the next new-game form from it (more fields, so other draws), which Hypothesis
    # rightly calls flaky when it replays an example.
    with transaction.atomic():
        _random_new_game(client, club, data)
        transaction.set_rollback(True)


def _random_new_game(client, club, data) -> None:
    roster(list(TABLE), club=club)
    fields = form_fields(client.get("/games/new/").content.decode(), "/games/new/")
    assert "preset" in fields and "players" in fields
    post = fuzzed_post(data, fields)
    if data.draw(st.booleans()):
        # Past the "check the settings of this preset" step, to reach the game itself.
        post["settings_for"] = post.get("preset", "")
    before = snapshot()
    games_before = Game.objects.count()

    response = client.post("/games/new/", post, **(HTMX if data.draw(st.booleans()) else {}))

    status = answered(response, before, f"new game {post!r}")
    if status == 302:
        assert Game.objects.count() == games_before + 1


# ---- Names ----


@FUZZ
@given(name=names, htmx=st.booleans())
@example(name=SCRIPT, htmx=False)
@example(name="a\x00b", htmx=False)
@example(name="x" * 100_000, htmx=True)
def test_any_player_name_is_added_or_refused(client, name, htmx):
    before = snapshot()

    response = client.post("/players/", {"name": name}, **(HTMX if htmx else {}))

    status = answered(response, before, f"player {name!r}")
    assert status in ((200, 400) if htmx else (302, 400))
    page = client.get("/players/").content.decode()
    assert SCRIPT not in page


@FUZZ
@given(name=names, action=st.sampled_from(["rename", "retire", "unretire", "fly", ""]))
@example(name=SCRIPT, action="rename")
@example(name="a\x00b", action="rename")
def test_any_rename_is_made_or_refused(client, club, name, action):
    player = roster(["Ann"], club=club)["Ann"]
    before = snapshot()

    response = client.post(f"/players/{player.pk}/", {"name": name, "action": action})

    assert answered(response, before, f"rename {name!r}") in (302, 400)
    assert SCRIPT not in client.get("/players/").content.decode()


@FUZZ
@given(name=names)
@example(name=SCRIPT)
@example(name="\x00")
@example(name="x" * 61)
def test_any_club_name_makes_a_club_or_is_refused(client, name):
    before = snapshot()

    response = client.post("/clubs/", {"name": name})

    assert answered(response, before, f"club {name!r}") in (302, 400)
    assert SCRIPT not in client.get("/clubs/").content.decode()


def test_names_with_html_are_shown_escaped_on_every_page(client, club, anonymous_client):
    """A player, a team and a club called <script>...: every page that shows them shows
    the text, never the tag."""
    players = roster([SCRIPT, "Bob", "Cy", "Dee"], club=club)
    evil, bob, cy, dee = players.values()
    rules = resolve_rules("partnership")
    teams = {TEAM_SCRIPT: [evil, cy], "Them": [bob, dee]}
    state = game_create(players=[evil, bob, cy, dee], first_dealer=evil, rules=rules, teams=teams)
    game = state.game
    hand_record(
        game=game,
        record=HandRecord(
            pitcher=SCRIPT,
            bid=2,
            points={"high": TEAM_SCRIPT, "low": "Them", "jack": None, "game": TEAM_SCRIPT},
        ),
    )
    pages = {
        "home": client.get("/"),
        "players": client.get("/players/"),
        "game": client.get(f"/games/{game.pk}/"),
        "edit": client.get(f"/games/{game.pk}/hands/1/"),
        "new game": client.get("/games/new/"),
        "club": client.get(f"/clubs/{club.pk}/"),
        "live": anonymous_client.get(f"/live/{game.share_token}/"),
    }
    # A club of that name too, which becomes the current one.
    assert client.post("/clubs/", {"name": SCRIPT}).status_code == 302
    pages |= {"clubs": client.get("/clubs/"), "home of the new club": client.get("/")}
    for page, response in pages.items():
        assert response.status_code == 200, page
        html = response.content.decode()
        assert SCRIPT not in html and TEAM_SCRIPT not in html, page
    escaped = ("&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;script&gt;alert(2)&lt;/script&gt;")
    assert escaped[0] in pages["players"].content.decode()
    assert escaped[0] in pages["clubs"].content.decode()
    assert escaped[0] in pages["edit"].content.decode()
    assert escaped[1] in pages["game"].content.decode()
    assert escaped[1] in pages["live"].content.decode()


# ---- Ids and tokens in URLs ----

GAME_URLS = [
    ("get", "/games/{id}/"),
    ("post", "/games/{id}/hands/"),
    ("get", "/games/{id}/hands/{n}/"),
    ("post", "/games/{id}/hands/{n}/"),
    ("post", "/games/{id}/hands/{n}/delete/"),
    ("post", "/games/{id}/auction/"),
    ("post", "/games/{id}/undo/"),
    ("post", "/games/{id}/redo/"),
    ("post", "/games/{id}/rematch/"),
    ("post", "/games/{id}/share/"),
    ("post", "/players/{id}/"),
    ("get", "/clubs/{id}/"),
    ("post", "/clubs/{id}/"),
    ("post", "/clubs/{id}/switch/"),
]
ids = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80),
    st.sampled_from([0, -1, 2**31, 2**63 - 1, 2**63, 2**64, 10**40]),
)


@FUZZ
@given(call=st.sampled_from(GAME_URLS), pk=ids, number=ids)
def test_random_ids_in_urls_are_not_found(client, games, call, pk, number):
    games("setback", hands=1)  # something to find at small ids
    method, pattern = call
    url = pattern.format(id=pk, n=number)
    before = snapshot()

    response = getattr(client, method)(url, {"name": "x", "action": "rename"})

    status = answered(response, before, f"{method} {url}")
    if not 1 <= pk <= 10**9 or ("{n}" in pattern and not 1 <= number <= 10**9):
        # Negative numbers do not even match the URL patterns; huge ones match nothing.
        assert status == 404, (url, status)


@FUZZ
@given(token=st.one_of(st.sampled_from(NASTY), st.text(min_size=1, max_size=80)))
@example(token="\x00")
@example(token="a" * 43)
def test_random_tokens_in_urls_are_not_found(client, anonymous_client, token):
    quoted = quote(token, safe="")
    before = snapshot()
    for response in (
        anonymous_client.get(f"/live/{quoted}/"),
        anonymous_client.get(f"/live/{quoted}/", **HTMX),
        client.get(f"/invitations/{quoted}/"),
        client.post(f"/invitations/{quoted}/"),
    ):
        assert answered(response, before, f"token {token!r}") == 404


PAGED = ["/", "/games/deleted/", "/games/{game}/history/", "/seasons/players/{player}/"]


@FUZZ
@given(page=junk, url=st.sampled_from(PAGED))
@example(page=str(2**63), url="/")
@example(page="9" * 23, url="/seasons/players/{player}/")
@example(page="9" * 5000, url="/games/{game}/history/")
def test_any_page_number_of_every_list(client, games, page, url):
    game = games("setback", hands=1)
    url = url.format(game=game.pk, player=game.first_dealer_id)

    response = client.get(url, {"page": page})
    fragment = client.get(url, {"page": page}, **HTMX)

    assert response.status_code == 200 and fragment.status_code == 200, url


# ---- JSON to import ----

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=False),
        st.sampled_from(NASTY),
        st.text(max_size=20),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.text(max_size=10), children, max_size=5),
    ),
    max_leaves=20,
)


def paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON document (dict keys and list indexes), the root first."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, (*prefix, index))
    return found


def replaced(document: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(document))
    parent = copy
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return copy


@st.composite
def malformed_records(draw: Callable[..., Any]) -> Any:
    """A valid game record with one part (perhaps the whole) replaced by random JSON,
    or one key added; or random JSON altogether."""
    record = example_record()
    how = draw(st.sampled_from(["replace", "replace", "add", "random"]))
    if how == "random":
        return draw(json_values)
    path = draw(st.sampled_from(paths(record)))
    if how == "add":
        target = replaced(record, (), record)
        place = target
        for step in path:
            place = place[step]
        if isinstance(place, dict):
            place[draw(st.text(max_size=8))] = draw(json_values)
        elif isinstance(place, list):
            place.append(draw(json_values))
        return target
    return replaced(record, path, draw(json_values))


@FUZZ
@given(games_data=st.lists(malformed_records(), min_size=1, max_size=3))
def test_random_json_imports_every_game_or_none(club, games_data):
    before = snapshot()
    try:
        saved = games_import(club=club, games=games_data)
    except RuleError as error:
        assert str(error)
        assert snapshot() == before
    else:
        assert len(saved) == len(games_data)


@FUZZ
@given(
    content=st.one_of(
        malformed_records().map(json.dumps),
        st.text(max_size=200),
        st.binary(max_size=100).map(lambda b: b.decode("latin-1")),
    )
)
@example(content="")
@example(content="[")
@example(content='{"format": "pitchkeeper.game/1", "players": ["a\\u0000b", "Bob", "Cy"]}')
def test_the_import_command_imports_or_says_what_is_wrong(club, tmp_path_factory, content):
    path = tmp_path_factory.mktemp("import") / "games.json"
    path.write_text(content, encoding="utf-8", errors="surrogatepass")
    before = snapshot()
    try:
        call_command("import_games", str(path), "--club", str(club.pk), stdout=io.StringIO())
    except CommandError as error:
        assert str(error)
        assert snapshot() == before


# ---- Dates, amounts and chips ----

days = st.one_of(
    st.dates().map(str),
    st.sampled_from(["9999-12-31", "0001-01-01", "2999-12-31", "1900-01-01", "3000-01-01"]),
    junk,
)


@FUZZ
@given(start=days, end=st.one_of(st.just(""), days), chip_value=junk, htmx=st.booleans())
@example(start="2024-01-01", end="9999-12-31", chip_value="", htmx=False)
@example(start="2024-01-01", end="", chip_value="-1", htmx=False)
def test_any_season_is_added_or_refused_and_every_page_still_answers(
    client, games, start, end, chip_value, htmx
):
    games("setback", hands=1)
    post = {"new-name": "S", "new-start": start, "new-end": end, "new-chip_value": chip_value}
    before = snapshot()

    response = client.post("/seasons/manage/", post, **(HTMX if htmx else {}))

    assert answered(response, before, f"season {post!r}") in (302, 400)
    for url in ("/seasons/", "/seasons/ledger/", "/seasons/export/hands.csv"):
        page = client.get(url)
        assert page.status_code == 200, url
        if page.streaming:
            assert b"".join(page.streaming_content)


@FUZZ
@given(chips=st.one_of(junk, st.integers(min_value=2**31 - 3, max_value=2**64).map(str)))
@example(chips=str(2**31))
@example(chips=str(2**63))
def test_any_payment_is_recorded_or_refused(client, club, chips):
    ann, bob = roster(["Ann", "Bob"], club=club).values()
    before = snapshot()

    response = client.post("/seasons/ledger/", {"payer": ann.pk, "payee": bob.pk, "chips": chips})

    assert answered(response, before, f"chips {chips!r}") in (302, 400)
    assert client.get("/seasons/ledger/").status_code == 200


# ---- Names in any Unicode ----

unicode_names = st.one_of(
    names,
    st.text(alphabet=st.characters(categories=["Cf", "Cc", "Zs", "Lu", "Ll"]), max_size=8),
    st.sampled_from(["Ａｎｎ", "ＡＮＮ", "Ann\u200b", "\u200b", "\u3164", "ａnn", "ANN"]),
)


@FUZZ
@given(new=st.lists(unicode_names, min_size=1, max_size=4))
def test_no_two_players_ever_look_alike(client, club, new):
    roster(["Ann"], club=club)
    for name in new:
        before = snapshot()
        answered(client.post("/players/", {"name": name}), before, f"player {name!r}")

    stored = list(club.players.values_list("name", flat=True))
    assert len({name_key(name) for name in stored}) == len(stored), stored
    assert all(hidden_character(name) is None for name in stored if name != "Ann"), stored


# ---- Files nested, repeated, huge ----

hostile_json = st.one_of(
    st.integers(min_value=1, max_value=200_000).map(lambda n: "[" * n + "]" * n),
    st.integers(min_value=1, max_value=100_000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.integers(min_value=1, max_value=6000).map(lambda n: "[" + "9" * n + "]"),
    st.lists(st.sampled_from(["bid", "points", "format", "hands"]), min_size=2, max_size=4).map(
        lambda keys: "{" + ", ".join(f'"{key}": 1' for key in keys) + "}"
    ),
    malformed_records().map(lambda record: json.dumps(record).replace('{"', '{"hands": 1, "', 1)),
)


@FUZZ
@given(content=hostile_json, command=st.sampled_from(["import_games", "import_club"]))
@example(content="[" * 100_000, command="import_games")
@example(content="[" + "9" * 5000 + "]", command="import_club")
def test_hostile_files_are_refused_in_one_line(club, tmp_path_factory, content, command):
    path = tmp_path_factory.mktemp("import") / "games.json"
    path.write_text(content, encoding="utf-8")
    where = ["--club", str(club.pk)] if command == "import_games" else []
    before = snapshot()
    try:
        call_command(command, str(path), *where, stdout=io.StringIO(), stderr=io.StringIO())
    except CommandError as error:
        assert str(error) and "\n" not in str(error)
        assert snapshot() == before


@FUZZ
@given(keys=st.lists(st.sampled_from(["high", "low", "jack", "game"]), min_size=2, max_size=6))
def test_a_key_given_twice_is_refused_naming_it(keys):
    points = ", ".join(f'"{key}": "Ann"' for key in keys)
    text = '[{"hands": [{"points": {' + points + "}}]}]"
    try:
        load_json(text)
    except RuleError as error:
        assert len(set(keys)) < len(keys)
        assert str(error).startswith("game 1, hand 1, points: ")
        assert str(error).endswith(" is given twice")
    else:
        assert len(set(keys)) == len(keys)


# ---- A page's save after any change from another phone (issue 19, item 1) ----

# The fields a page's save states its basis with (and its one-time token).
BASIS_FIELDS = ("token", "revision", "expected", "entry_dealer")
PLAYED = HandRecord(
    pitcher="Bob", bid=2, points={"high": "Bob", "low": "Bob", "jack": None, "game": None}
)


@FUZZ_FORMS
@given(data=st.data())
def test_a_page_saved_after_another_phones_change_records_nothing(client, club, data):
    """Whatever another phone did to the hands after a page was shown (added, changed,
    deleted, undone or restored one), the page's save is a conflict that stores nothing:
    never a hand recorded for a deal other than the one it was entered for."""
    # A new game for each example, rolled back after it: the draws depend on its hands.
    with transaction.atomic():
        _save_after_a_change(client, new_game(club, "setback"), data)
        transaction.set_rollback(True)


def _save_after_a_change(client, game: Game, data: Any) -> None:
    count = data.draw(st.integers(1, 4))
    for _hand in range(count):
        hand_record(game=game, record=HandRecord(misdeal=True))
    url = f"/games/{game.pk}/hands/"
    fields = form_fields(client.get(f"/games/{game.pk}/").content.decode(), url)
    post = {name: offered[0] for name, offered in fields.items() if name in BASIS_FIELDS}
    post["action"] = data.draw(st.sampled_from(["misdeal", "passed"]))
    number = data.draw(st.integers(1, count))
    change = data.draw(st.sampled_from(["add", "edit", "delete", "undo", "restore"]))
    if change == "add":
        hand_record(game=game, record=HandRecord(misdeal=True))
    elif change == "edit":
        hand_edit(game=game, number=number, record=PLAYED)
    elif change in ("delete", "restore"):
        hand_delete(game=game, number=number)
        if change == "restore":
            change_restore(game=game, change=game.changes.order_by("pk").last())
    else:
        hand_delete(game=game, number=count, undo=True)
    event(f"another phone: {change}")
    before = snapshot()

    response = client.post(url, post, **(HTMX if data.draw(st.booleans()) else {}))

    assert answered(response, before, f"{change} then {post!r}") == 409
