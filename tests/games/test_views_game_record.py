"""The game screen carries what the phone's engine needs (static/js/engine.js): the
game's record, swapped with the table after every save, the scoreboard's hooks for the
totals, and the engine's script named for app.js to fetch once the screen is idle."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from pitchkeeper.games.replay import game_state
from pitchkeeper.rules import game_to_data, parse_game, resolve_rules
from pitchkeeper.rules.projection import project
from tests.conftest import entry_basis
from tests.games.test_views_game import HTMX, hand_post

pytestmark = pytest.mark.django_db


def page_record(html: str) -> dict:
    found = re.search(r'<script id="game-record" type="application/json">(.*?)</script>', html)
    assert found, "no game record on the page"
    return json.loads(found[1])


def test_the_full_page_and_the_fragment_carry_the_record(client, make_game):
    game = make_game().game
    client.post(reverse("hand_add", args=[game.pk]), {**entry_basis(game.pk), **hand_post()})
    state = game_state(game=game)
    expected = game_to_data(state.record, state.result)
    del expected["result"]
    expected["rules"] = "setback"
    for headers in ({}, HTMX):
        html = client.get(reverse("game", args=[game.pk]), **headers).content.decode()
        record = page_record(html)
        assert record == expected
        assert parse_game(record).replay() == state.result


def test_the_answer_to_a_save_carries_the_new_record(client, make_game):
    game = make_game().game
    answer = client.post(
        reverse("hand_add", args=[game.pk]), {**entry_basis(game.pk), **hand_post()}, **HTMX
    )
    assert answer.status_code == 200
    record = page_record(answer.content.decode())
    assert len(record["hands"]) == 1
    assert project(record, [])["scores"] == game_state(game=game).result.scores


def test_changed_rules_go_whole(client, make_game):
    rules = resolve_rules("setback").to_dict() | {"target": 11}
    game = make_game(rules).game
    record = page_record(client.get(reverse("game", args=[game.pk])).content.decode())
    assert record["rules"]["target"] == 11
    assert resolve_rules(record["rules"]) == resolve_rules(rules)


def test_the_scoreboard_has_a_hook_for_each_sides_total(client, make_game):
    game = make_game().game
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert re.findall(r'<li data-side="([^"]+)"', html) == ["Ann", "Bob", "Cy", "Dee"]
    assert html.count("data-total") == 4
    assert "data-instant-pending hidden" in html
    assert 'data-wins="{winner} wins"' in html
    worker = reverse("engine_worker")
    # Named, not loaded: app.js fetches it once the screen is idle.
    assert (
        f'<meta name="pitch-engine" content="/static/js/engine.js" data-worker="{worker}">' in html
    )
    assert not [src for src in re.findall(r'<script src="([^"]+)"', html) if "engine" in src]
