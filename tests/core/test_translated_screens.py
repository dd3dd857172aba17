"""Every screen in Russian and Norwegian speaks only Russian or Norwegian: no interface
string is left in English. Player names, the club's own names and the variants whose
names are kept as they are (docs/glossary.md) are the only English on a page."""

from __future__ import annotations

import re
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from pitchkeeper.clubs.models import Player
from pitchkeeper.clubs.services import invitation_create
from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.services import game_delete
from pitchkeeper.nights.services import night_close, round_start
from pitchkeeper.rules import HandRecord
from pitchkeeper.seasons.models import Season
from tests.conftest import finish

LANGUAGES = ("ru", "nb")
# What the users typed, the product's name and the language switch's own name for
# English: never translated.
USER_TEXT = ("Thursday table", "Pitchkeeper", "English", "owner", "Ann", "Bob", "Cy", "Dee")
# Words a language shares with English (docs/glossary.md): "pass" is the Norwegian
# table's own word, and so is "joker".
SAME_WORDS = {"ru": set(), "nb": {"pass", "Joker"}}
# Variants known by their English names at a Norwegian table too (docs/glossary.md).
KEPT_NAMES = {
    "ru": (),
    "nb": (
        "Auction Pitch",
        "Setback",
        "Razzle-Dazzle",
        "Roadhouse",
        "High five",
        "Bonanza",
        "Chicago pitch",
        "Smear",
        "All fours",
        "Campbell",
        "Wahoo",
        "Susqy River",
        "Contway",
        "Maryland",
        "Cell",
        "Kentucky",
        "Oklahoma",
        "Nebraska",
        "Connecticut",
        "New Yorker",
    ),
}
# English words no Russian or Norwegian interface string contains.
ENGLISH = re.compile(
    r"\b(the|and|you|your|with|new|save|add|players?|games?|hands?|points?|score|delete|"
    r"edit|back|sign|password|rating|pitcher|smudge|misdeal|bids?|dealer|deals|seasons?|"
    r"clubs?|home|history|undo|redo|name|wins|won|next|cancel|share|team|"
    r"ledger|settle|chips?|round|total|count|shows?|here|none|yes)\b",
    re.IGNORECASE,
)
PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[sd]")
VISIBLE_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")


class PageText(HTMLParser):
    """The words a user sees or hears: the text outside scripts and styles, and the
    attributes a browser shows or reads aloud."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._hidden += 1
        values = dict(attrs)
        for name in VISIBLE_ATTRIBUTES:
            if values.get(name):
                self.texts.append(values[name])
        if tag == "input" and values.get("type") in ("submit", "button", "reset"):
            self.texts.append(values.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.texts.append(data)


def msgid_patterns() -> list[re.Pattern[str]]:
    """Each English msgid as a pattern a page's text run would match in full."""
    with (Path(settings.BASE_DIR) / "locale/nb/LC_MESSAGES/django.po").open("rb") as po:
        messages = read_po(po, locale="nb")
    ids = set()
    for message in messages:
        for msgid in message.id if message.pluralizable else (message.id,):
            if re.search(r"[A-Za-z]{2}", PLACEHOLDER.sub("", msgid)):
                ids.add(" ".join(msgid.split()))
    return [re.compile(_pattern(msgid)) for msgid in ids]


def _pattern(msgid: str) -> str:
    # A number stands for digits only, so "%(bid)d for %(doubled)d" is not every
    # Norwegian sentence with "for" in it.
    parts = []
    for index, part in enumerate(re.split(r"(%(?:\(\w+\))?[sd])", msgid)):
        if index % 2 == 0:
            parts.append(re.escape(part))
        else:
            parts.append(r"-?\d+" if part.endswith("d") else ".+?")
    return "".join(parts)


PATTERNS = msgid_patterns()


def english(html: str, language: str) -> list[str]:
    """The runs of text on the page that are English interface strings."""
    parser = PageText()
    parser.feed(html)
    found = []
    for text in parser.texts:
        run = " ".join(text.split())
        rest = run
        for kept in (*USER_TEXT, *KEPT_NAMES[language]):
            rest = rest.replace(kept, " ")
        if not re.search(r"[^\W\d_]", rest) or run in SAME_WORDS[language]:
            continue
        if ENGLISH.search(rest) or any(pattern.fullmatch(run) for pattern in PATTERNS):
            found.append(run)
    return found


@pytest.fixture
def screens(client, club, make_game, make_night, user):
    """Every screen's address, with a game under way, a game over, a deleted game, a
    season, an invitation, a night proposed, one under way and one closed to show."""
    game = make_game().game
    hand_record(
        game=game,
        record=HandRecord(
            pitcher="Bob",
            bid=2,
            points={"high": "Ann", "low": "Cy", "jack": None, "game": "Cy"},
            revoked=("Bob",),
        ),
    )
    # Enough hands for the game screen to link to the earlier ones.
    for _ in range(5):
        hand_record(game=game, record=HandRecord(misdeal=True))
    over = make_game("setback", ("Ann", "Bob", "Cy")).game
    for _ in range(2):
        hand_record(
            game=over,
            record=HandRecord(
                pitcher="Ann",
                bid=3,
                points={"high": "Ann", "low": "Ann", "jack": "Ann", "game": "Ann"},
            ),
        )
    gone = make_game("setback", ("Ann", "Bob", "Cy")).game
    game_delete(game=gone)
    Season.objects.create(club=club, name="2026", start=date(2026, 1, 1))
    invitation = invitation_create(club=club, role="viewer", by=user)
    ann = Player.objects.get(club=club, name="Ann")
    four = ("Ann", "Bob", "Cy", "Dee")
    proposed = make_night("partnership", four, rounds=None)
    table = proposed.night_rounds.get().tables.get()
    playing = make_night("setback", four)
    round_start(night_round=playing.night_rounds.get())
    closed = make_night("setback", four, rounds=1)
    finish(round_start(night_round=closed.night_rounds.get()).tables.get().game)
    night_close(night=closed, by=user)
    signed_in = [
        reverse("home"),
        reverse("players"),
        reverse("game_new"),
        reverse("game", args=[game.pk]),
        reverse("game", args=[over.pk]),
        reverse("hand_edit", args=[game.pk, 1]),
        reverse("game_history", args=[game.pk]),
        reverse("game_hands", args=[game.pk]),
        reverse("live", args=[game.share_token]),
        reverse("games_deleted"),
        reverse("clubs"),
        reverse("club", args=[club.pk]),
        reverse("invitation", args=[invitation.token]),
        reverse("seasons"),
        reverse("leaderboard"),
        reverse("player_stats", args=[ann.pk]),
        reverse("ledger") + "?season=all",
        reverse("password_change"),
        reverse("password_change_done"),
        reverse("nights"),
        reverse("night_new"),
        *(reverse("night", args=[night.pk]) for night in (proposed, playing, closed)),
        reverse("night_table", args=[table.token]),
        reverse("night_close", args=[playing.pk]),
        reverse("night_board", args=[playing.pk]),
    ]
    anonymous = [
        reverse("login"),
        reverse("signup"),
        reverse("password_reset"),
        reverse("password_reset_done"),
        reverse("password_reset_complete"),
        reverse(
            "password_reset_confirm",
            args=[urlsafe_base64_encode(force_bytes(user.pk)), "bad-token"],
        ),
        reverse("invitation", args=[invitation.token]),
        reverse("night_board_shared", args=[closed.share_token]),
    ]
    return signed_in, anonymous


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_is_in_the_users_language(client, anonymous_client, screens, language):
    signed_in, anonymous = screens
    found = {}
    for browser, urls in ((client, signed_in), (anonymous_client, anonymous)):
        for url in urls:
            response = browser.get(url, HTTP_ACCEPT_LANGUAGE=language, follow=True)
            assert response.status_code == 200, url
            if words := english(response.content.decode(), language):
                found[url] = words
    assert not found, "\n".join(f"{url}: {words}" for url, words in found.items())


@pytest.mark.django_db
def test_english_is_found_on_an_english_screen(client, screens):
    """The check can fail: the same screens in English are full of findings."""
    html = client.get(reverse("game_new"), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert len(english(html, "nb")) > 10


def test_a_page_with_only_names_and_kept_variant_names_passes():
    html = '<p title="Ann">Bob</p><option>Razzle-Dazzle</option><button>Lagre</button>'

    assert english(html, "nb") == []
    assert english(html, "ru") == ["Razzle-Dazzle"]


def test_an_untranslated_msgid_with_a_placeholder_is_found():
    assert english("<span>4 smudge</span>", "nb") == ["4 smudge"]
    assert english('<input type="submit" value="Save hand">', "ru") == ["Save hand"]
    assert english('<a aria-label="Rating">⭐</a>', "nb") == ["Rating"]
