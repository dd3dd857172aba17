"""Translations: the catalogs are complete and compiled, and the pages speak the table's
own words in Russian (seed 000) and Norwegian Bokmål (seed 001).

The .mo files are not in the repository; setup compiles them with
``.venv/bin/pybabel -q compile -d locale -D django``. Without them Django quietly falls
back to English, so these tests fail loudly instead.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

from pitchkeeper.games.board import win_reason
from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game
from pitchkeeper.rules import HandRecord

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = ("ru", "nb")
COMPILE = "run `.venv/bin/pybabel -q compile -d locale -D django`"
# Python-format placeholders: %(name)s, %(count)d, %s, and the %% escape.
PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[#0 +-]*\d*(?:\.\d+)?[sdifr%]")


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


def catalog(language: str):
    with po_path(language).open("rb") as po:
        return read_po(po, locale=language)


@pytest.fixture(autouse=True)
def _back_to_english():
    """The locale middleware leaves the request's language active in the thread."""
    yield
    translation.deactivate()


# ---- The catalogs ----


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogs_are_compiled(language):
    po = po_path(language)
    mo = po.with_suffix(".mo")
    assert po.is_file()
    assert mo.is_file(), f"{mo} is missing: {COMPILE}"
    assert mo.stat().st_mtime >= po.stat().st_mtime, f"{mo} is older than its .po: {COMPILE}"


@pytest.mark.parametrize(("language", "plurals"), [("ru", 3), ("nb", 2)])
def test_every_message_is_translated_and_none_is_fuzzy(language, plurals):
    messages = catalog(language)
    assert not messages.fuzzy, "the catalog's header is marked fuzzy"
    assert messages.num_plurals == plurals
    entries = [message for message in messages if message.id]
    assert len(entries) > 100
    for message in entries:
        assert "fuzzy" not in message.flags, message.id
        if message.pluralizable:
            assert len(message.string) == plurals, message.id
            assert all(form.strip() for form in message.string), message.id
        else:
            assert message.string.strip(), message.id


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders(language):
    for message in catalog(language):
        if not message.id:
            continue
        ids = message.id if message.pluralizable else (message.id,)
        strings = message.string if message.pluralizable else (message.string,)
        # Every plural form (Russian's "21 игрок" too) names the same things.
        expected = sorted(set(PLACEHOLDER.findall(ids[-1])))
        assert sorted(set(PLACEHOLDER.findall(ids[0]))) == expected, message.id
        for string in strings:
            assert sorted(set(PLACEHOLDER.findall(string))) == expected, (message.id, string)


# ---- The words ----

# The points as the seeds name them, and a few more table words.
WORDS = {
    "ru": {
        ("point", "High"): "Старший",
        ("point", "Low"): "Младший",
        ("point", "Jack"): "Валет",
        ("point", "Game"): "Гейм",
        (None, "in the hole"): "в дыре",
        (None, "set back"): "отсадка",
        (None, "smudge"): "смадж",
        (None, "Revoke (renonce)"): "Ренонс",
        (None, "Pitcher"): "Питчер",
        (None, "pass"): "пас",
        # Seed 000's "Неправильная сдача"; "Пересдача" is the all-pass setting, a redeal.
        (None, "Misdeal"): "Неправильная сдача",
        (None, "misdeal"): "неправильная сдача",
        (None, "Redeal"): "Пересдача",
        (None, "Blind All Fours"): "Олл-форс вслепую",
        # Seed 004's word for a partnership game.
        (None, "Partnership"): "Партнёрская игра",
        ("presets", "Partnership"): "Партнёрская игра",
        # A bid made is "выполнена" everywhere, as in seed 000.
        (None, "Made at %(bid)s"): "Заявка %(bid)s выполнена",
        (None, "Bids made"): "Выполненные заявки",
        (None, "made"): "выполнена",
        ("badge", "winner"): "победитель",
        ("season", "Name"): "Название",
        (None, "Edit"): "Изменить",
        (None, "just now"): "только что",
    },
    "nb": {
        ("point", "High"): "Høy",
        ("point", "Low"): "Lav",
        ("point", "Jack"): "Knekt",
        # Not "Spill", which reads as a game ("Spill: Marit").
        ("point", "Game"): "Stikkpoeng",
        (None, "in the hole"): "i minus",
        (None, "set back"): "bet",
        (None, "Revoke (renonce)"): "Renons",
        (None, "Pitcher"): "Spillefører",
        (None, "smudge"): "slem",
        (None, "Rating"): "Styrke",
        (None, "Bid"): "Bud",
        (None, "pass"): "pass",
        (None, "Misdeal"): "Feilgiv",
        (None, "All time"): "Totalt",
        (None, "Edit"): "Endre",
        (None, "Change"): "Endre",
        # The pitcher fell short of the bid, not "bid too little".
        (None, "short, excused by the revoke"): "kom til kort, unnskyldt av renons",
        (None, "made"): "klart",
        (None, "just now"): "akkurat nå",
    },
}

# Words that are not the table's: another term for a game word than the glossary's, in
# any entry of the catalog (the entries where they are right are named).
NOT_TABLE_WORDS = {
    "ru": {
        # A redeal after all passed; a misdeal is "неправильная сдача".
        r"[Пп]ересдач": {
            "Redeal",
            "Bids 1–4, to 11; a made 4 wins at once unless in the hole; all pass: redeal.",
        },
        r"[Пп]арн(ая|ый|ой|ую)": set(),  # partnership: "партнёрская"
        r"раздач": set(),  # a hand: "сдача"
        r"[Сс]тавк[аиуе]\b": {"Pot ante, in chips"},  # a bid: "заявка"
        r"[Зз]аявк\w* \S* ?сыгран|[Сс]ыгранн\w* заявк|[Сс]маджи сыгран": set(),  # made: "выполнена"
    },
    "nb": {
        r"\b[Ss]pill(et|ene|ets)?\b": set(),  # a game: "parti"; the Game point: "Stikkpoeng"
        r"\bhånd": set(),  # a hand: "runde"
        r"(?<!på )\b[Oo]mgang": set(),  # a hand: "runde" ("på omgang" is "in turn")
        r"[Hh]ele tiden": set(),  # all time: "Totalt"
        r"\bBytt": set(),  # edit, change: "Endre"
        r"\bfor lite\b": set(),  # short of the bid: "kom til kort"
    },
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_words(language):
    with translation.override(language):
        for (context, msgid), word in WORDS[language].items():
            text = pgettext(context, msgid) if context else gettext(msgid)
            assert text == word


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_term_for_each_game_word(language):
    found = []
    for message in catalog(language):
        if not message.id:
            continue
        msgid = message.id[0] if message.pluralizable else message.id
        strings = message.string if message.pluralizable else (message.string,)
        for pattern, allowed in NOT_TABLE_WORDS[language].items():
            if msgid not in allowed and any(re.search(pattern, text) for text in strings):
                found.append((pattern, msgid))
    assert not found


def test_the_game_point_is_not_the_game():
    with translation.override("ru"):
        assert pgettext("point", "Game") == "Гейм"
        assert gettext("Game %(number)s") % {"number": 3} == "Партия 3"
    with translation.override("nb"):
        assert pgettext("point", "Game") == "Stikkpoeng"
        assert gettext("Game %(number)s") % {"number": 3} == "Parti 3"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("ru", ["1 игрок", "2 игрока", "5 игроков", "11 игроков", "21 игрок", "24 игрока"]),
        (
            "nb",
            ["1 spiller", "2 spillere", "5 spillere", "11 spillere", "21 spillere", "24 spillere"],
        ),
    ],
)
def test_plural_forms(language, expected):
    with translation.override(language):
        got = [
            ngettext("%(counter)s player", "%(counter)s players", n) % {"counter": n}
            for n in (1, 2, 5, 11, 21, 24)
        ]
    assert got == expected


# ---- The pages ----


@pytest.fixture
def game(make_game) -> Game:
    """Ann dealt; Bob bid 2, revoked and was set back into the hole; Cy took Game."""
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
    return game


PAGE_WORDS = {
    "ru": [
        '<html lang="ru">',
        "</span>Старший</span></label>",
        "</span>Младший</span></label>",
        "</span>Валет</span></label>",
        "</span>Гейм</span></label>",
        "Старший: Ann · Младший: Cy · Валет: не сдан · Гейм: Cy",
        "в дыре",
        "✗ отсадка",
        "Ренонс",
        "4 смадж",
        "Питчер",
        "Питчер и заявка",
        "не сдан",
        "поровну",
        "<title>Партия ",
        "Сдача 2, сдаёт Bob",
        "Записать сдачу",
    ],
    "nb": [
        '<html lang="nb">',
        "</span>Høy</span></label>",
        "</span>Lav</span></label>",
        "</span>Knekt</span></label>",
        "</span>Stikkpoeng</span></label>",
        "Høy: Ann · Lav: Cy · Knekt: ikke gitt · Stikkpoeng: Cy",
        "i minus",
        "✗ bet",
        "Renons",
        "4 slem",
        "Spillefører",
        "Spillefører og bud",
        "ikke gitt",
        "likt",
        "<title>Parti ",
        "Runde 2: Bob gir",
        "Lagre runden",
    ],
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_game_screen_from_the_browser_language(client, game, language):
    response = client.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    html = response.content.decode()
    for word in PAGE_WORDS[language]:
        assert word in html, word
    assert "in the hole" not in html
    assert "Save hand" not in html


@pytest.mark.django_db
def test_a_regional_browser_language_picks_the_catalog(client, game):
    html = client.get(
        reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="nb-NO,nb;q=0.9,en;q=0.5"
    ).content.decode()

    assert '<html lang="nb">' in html and "i minus" in html


@pytest.mark.django_db
def test_live_scoreboard_in_russian(client, game):
    html = client.get(
        reverse("live", args=[game.share_token]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()

    assert "Счёт онлайн" in html
    assert "в дыре" in html
    assert "✗ отсадка" in html
    assert "Ренонс: Bob" in html
    assert 'aria-label="-2 очка"' in html  # Bob, in the hole


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ru", ["Игроки", "3 игрока", "Добавить", "В архив"]),
        ("nb", ["Spillere", "3 spillere", "Legg til", "Arkiver"]),
    ],
)
def test_players_list(client, make_game, language, words):
    make_game("setback", ("Ann", "Bob", "Cy"))

    html = client.get(reverse("players"), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    for word in words:
        assert word in html, word


@pytest.mark.django_db
def test_the_language_switch_overrides_the_browser(client, game):
    url = reverse("game", args=[game.pk])
    client.post(reverse("set_language"), {"language": "nb", "next": url})

    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()

    assert '<html lang="nb">' in html and "Knekt" in html and "Валет" not in html


@pytest.mark.django_db
def test_game_over_reason_and_settlement_in_russian(client, make_game):
    game = make_game("setback", ("Ann", "Bob", "Cy")).game
    for _ in range(2):
        hand_record(
            game=game,
            record=HandRecord(
                pitcher="Ann",
                bid=3,
                points={"high": "Ann", "low": "Ann", "jack": "Ann", "game": "Ann"},
            ),
        )

    html = client.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()

    assert "Ann побеждает: заявка выполнена, счёт дошёл до 7" in html
    assert "Расчёт" in html
    # Losers at zero pay 2 chips each: the "few" form, "2 фишки".
    assert "Bob платит Ann 2 фишки" in html and "Cy платит Ann 2 фишки" in html


def test_norwegian_says_bud_for_a_bid_and_never_melding():
    """One term for each game word: a bid is "bud" (to bid "by"), as in seed 001, not
    "melding" as well."""
    strings = [
        string
        for message in catalog("nb")
        if message.id
        for string in (message.string if message.pluralizable else (message.string,))
    ]
    assert not [s for s in strings if re.search(r"\bmeld", s, re.IGNORECASE)]
    # A bid made is "klart" on the game screen and in the statistics alike.
    assert not [s for s in strings if "tatt hjem" in s]
    with translation.override("nb"):
        assert gettext("Bids made") == "Klarte bud"


def _hand(pitcher: str, bid: int, high: str, low: str, jack: str, game: str) -> HandRecord:
    points = {"high": high, "low": low, "jack": jack, "game": game}
    return HandRecord(pitcher=pitcher, bid=bid, points=points)


# Bob is set back three times while Ann and Cy reach 6; then Ann reaches 7 on Jack and
# Cy on Game in the same hand: Jack is counted first.
COUNT_ORDER = [_hand("Bob", 2, "Ann", "Cy", "Ann", "Cy")] * 3 + [
    _hand("Bob", 2, "Bob", "Bob", "Ann", "Cy")
]
SMUDGE = [_hand("Bob", 4, "Bob", "Bob", "Bob", "Bob")]


@pytest.mark.parametrize(
    ("hands", "language", "line"),
    [
        (COUNT_ORDER, "en", "Ann reached 7 on Jack before Cy on Game"),
        (
            COUNT_ORDER,
            "ru",
            "Ann первым набрал 7: очко «Валет» засчитывается раньше, чем «Гейм» у Cy",
        ),
        (COUNT_ORDER, "nb", "Ann nådde 7 på «Knekt» før Cy på «Stikkpoeng»"),
        (SMUDGE, "ru", "Bob выигрывает смаджем: взял все очки на заявке 4, не будучи в дыре"),
    ],
)
def test_the_win_line_reads_as_a_sentence(make_game, hands, language, line):
    """In the case and tense Russian needs (not "доходит до 7 на «Валет»"), the smudge as
    a sentence, and the Game point not called a game in Norwegian."""
    game = make_game("setback", ("Ann", "Bob", "Cy")).game
    for hand in hands:
        state = hand_record(game=game, record=hand)

    with translation.override(language):
        assert win_reason(state) == line
