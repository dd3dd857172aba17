"""The engine's refusals in the player's language: every code the engine raises has
words, translated into Russian and Norwegian with the bids, points and presets it names,
and a refusal met at the table is shown in the language of the screen, not in English."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

import pitchkeeper.rules
from pitchkeeper.clubs.models import Player
from pitchkeeper.games.models import Hand, hand_data_problem
from pitchkeeper.games.views.table import redo_key
from pitchkeeper.games.words import refusal_text
from pitchkeeper.rules import PRESETS, HandRecord, RuleError
from pitchkeeper.rules.bids import bid_words
from pitchkeeper.rules.errors import REFUSALS
from tests.conftest import entry_basis
from tests.games.test_views_game import HTMX, hand_post
from tests.games.test_views_setup import setup_post
from tests.games.test_views_variants import post_for

LANGUAGES = ("ru", "nb")
RULES = PRESETS["nine-five"]  # a moon bid ("smudge") with a label of its own
PLACEHOLDER = re.compile(r"%\((\w+)\)([sdr])")
# A sample value for each parameter, by name; a number for the rest.
SAMPLES = {
    "bid": "smudge",
    "high_bid": 3,
    "point": "High",
    "preset": "setback",
    "bids": bid_words(RULES),
    "moons": ("smudge",),
    "error": RuleError("not_a_player", {"name": "Zed"}),
    "unknown": ("trumps",),
    "known": ("high", "low"),
    "teams": ("Us", "Them"),
    "typed": "'9'",
    "what": RuleError("each_player", {}),
    "shape": RuleError("shape_moon", {}),
    "meaning": RuleError("null_max_bid", {}),
    "allowed": ("redeal", "dealer_forced"),
    "setting": "min_bid",
    "key": "k1",
    "format": "pitchkeeper.game/1",
}
NAMES = {"s": "Dee", "r": "Dee", "d": 3}
# The English words of a template that are the same words in Norwegian, or what
# a file holds (JSON, true, partnership), written so in any language.
SHARED = {"pass", "null", "over", "side", "type", "json", "true", "false", "partnership"}
# What a translation keeps as the file writes it: quoted, or a setting's name.
VERBATIM = re.compile(r'"[^"]*"|«[^»]*»|\w*_\w*')


def sample(code: str) -> RuleError:
    found = PLACEHOLDER.findall(REFUSALS[code])
    return RuleError(code, {name: SAMPLES.get(name, NAMES[kind]) for name, kind in found})


def english_words(text: str) -> set[str]:
    words = VERBATIM.sub("", PLACEHOLDER.sub("", text)).lower()
    return set(re.findall(r"[a-z]{4,}", words)) - SHARED


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_every_refusal_is_worded_in_the_language(code, language):
    error = sample(code)

    with translation.override(language):
        text = refusal_text(error, RULES)

    assert "%(" not in text and "%" not in text.replace(error.message, ""), text
    assert text != error.message
    assert not english_words(text) & english_words(REFUSALS[code]), text
    assert "High" not in text and "smudge" not in text and "Zed' is not" not in text
    if language == "ru":
        assert re.search("[а-я]", text), text


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("ru", "сдача 6: «Старший»: 'Zed' не играет за этим столом"),
        ("nb", "runde 6: «Høy»: 'Zed' spiller ikke ved dette bordet"),
    ],
)
def test_the_hand_and_the_inner_refusal_are_translated_too(language, expected):
    inner = RuleError("not_a_player", {"name": "Zed"})
    error = RuleError("point_refused", {"point": "High", "error": inner}).at_hand(6)

    with translation.override(language):
        assert refusal_text(error, numbered=True) == expected
    assert str(error) == "hand 6: High: 'Zed' is not a player at this table"


def test_words_already_in_the_language_are_shown_as_they_are():
    with translation.override("ru"):
        assert refusal_text(RuleError("уже по-русски", hand=2)) == "уже по-русски"


def texts(node: ast.expr) -> set[str]:
    """The texts an expression can give: a text, either of a choice, the parts of a sum."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return texts(node.body) | texts(node.orelse)
    if isinstance(node, ast.BinOp):
        return texts(node.left) | texts(node.right)
    return set()


def raised_codes() -> set[str]:
    """The codes written in the engine's source where a RuleError is made with its
    parameters, or a code is chosen ("code = ...") for one."""
    codes = set()
    for path in Path(pitchkeeper.rules.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RuleError":
                if len(node.args) > 1:
                    codes |= texts(node.args[0])
            elif isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "code":
                codes |= texts(node.value)
    return codes


def test_every_code_the_engine_raises_has_words():
    codes = raised_codes()

    assert len(codes) > 40
    # bid_words puts its code together from parts.
    assert codes - {"_doubled", "_moons"} <= set(REFUSALS)


# ---- Refusals met at the table, through the game screen ----


def post(client, game, data, language, htmx):
    headers = {"HTTP_ACCEPT_LANGUAGE": language, **(HTMX if htmx else {})}
    return client.post(
        reverse("hand_add", args=[game.pk]), {**entry_basis(game.pk), **data}, **headers
    )


def shown(response, status: int = 400) -> str:
    assert response.status_code == status
    return response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True], ids=["full page", "htmx fragment"])
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ru", "Cy заявил 2, но Bob уже заявил 3; каждая заявка должна быть выше предыдущей"),
        ("nb", "Cy bød 2, men Bob hadde allerede bydd 3; hvert bud må være høyere enn det forrige"),
    ],
)
def test_a_bid_too_low_is_refused_in_the_language(client, make_game, htmx, language, words):
    game = make_game().game
    auction = {"auction_0": "3", "auction_1": "2", "auction_2": "pass", "auction_3": "pass"}

    html = shown(post(client, game, hand_post(pitcher="", bid="", **auction), language, htmx))

    assert words in html
    assert "each bid must be higher" not in html
    assert not Hand.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True], ids=["full page", "htmx fragment"])
def test_a_dealer_who_must_bid_is_told_in_russian(client, make_game, htmx):
    game = make_game("auction-pitch").game

    html = shown(post(client, game, {"action": "passed"}, "ru", htmx))

    assert "все остальные спасовали, поэтому сдающий, Ann, должен заявить не меньше 2" in html
    assert "must bid at least" not in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [("ru", "«Джокеры»: взято 3, а всего их 2"), ("nb", "«Jokere»: 3 tatt, men det finnes bare 2")],
)
def test_points_counted_past_the_deck_are_refused_in_the_language(
    client, make_game, language, words
):
    state = make_game("six-point-joker", ("Ann", "Bob", "Cy"))
    jokers = {"Bob": 2, "Cy": 1}
    points = {"high": "Bob", "low": "Bob", "jack": "Cy", "jokers": jokers, "game": "Cy"}
    data = post_for(state, HandRecord(pitcher="Cy", bid=3, points=points))

    html = shown(post(client, state.game, data, language, False))

    assert words in html
    assert "there are only" not in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ru", "в игру «Отсадка» играют от 2 до 7 игроков, а не 8"),
        ("nb", "Setback spilles av 2 til 7 spillere, ikke 8"),
    ],
)
def test_a_table_the_rules_refuse_is_told_in_the_language(club, client, language, words):
    seated = [Player.objects.create(club=club, name=name) for name in "ABCDEFG"]
    data = setup_post(seated, new_player="Hal")

    html = shown(client.post(reverse("game_new"), data, HTTP_ACCEPT_LANGUAGE=language))

    assert words in html
    assert "is played by" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True], ids=["full page", "htmx fragment"])
def test_a_kept_hand_that_does_not_read_is_told_in_russian(client, make_game, htmx):
    """A hand kept for redo, as an earlier version of the app may have written it."""
    game = make_game().game
    session = client.session
    session[redo_key(game)] = [{"misdeal": "yes"}]
    session.save()
    headers = {"HTTP_ACCEPT_LANGUAGE": "ru", **(HTMX if htmx else {})}

    response = client.post(
        reverse("redo", args=[game.pk]), entry_basis(game.pk), follow=not htmx, **headers
    )

    html = shown(response, 409 if htmx else 200)
    assert "«misdeal» — это true или false" in html
    assert "must be true or false" not in html


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"misdeal": "yes"}, "«misdeal» — это true или false"),
        (
            {"pitcher": "Ann", "bid": 2, "points": {"high": 3}},
            "«points»: «high» — это имя, null или целое число для каждой стороны",
        ),
    ],
)
def test_a_change_whose_hand_does_not_read_is_told_in_russian(data, words):
    """What the history's check of a stored hand (HandChange.clean) says, as a backup
    restored or the admin meets it."""
    with translation.override("ru"):
        assert hand_data_problem(data) == words
