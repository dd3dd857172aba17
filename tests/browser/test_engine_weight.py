"""What the game screen fetches after its load event, followed for 30 s: the phone's
engine (its worker, Brython's runtime, the rules bundle) comes to a scorekeeper's phone
once, each file once, within its own budget, and never to a member who only views the
game. The two phones are followed over the same 30 s, as two phones at one table are.
Bytes are counted as production sends them (static files as brotli, the bundle as the
view compresses it), as tests/test_page_weight.py counts the first load.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from pitchkeeper.clubs.models import Membership, Role
from pitchkeeper.core.brython import bundle, bundle_brotli
from tests.browser.test_engine import START_MS
from tests.conftest import PASSWORD, phone_at
from tests.test_page_weight import static_file, transferred

pytestmark = pytest.mark.browser

FOLLOWED_MS = 30_000
# The engine's bytes on a scorekeeper's first visit, compressed: 358,091 bytes today (349.7
# KB); Brython's runtime alone is 224 KB of it (docs/offline.md).
ENGINE_BUDGET = 350 * 1024


def following(page: Any, url: str) -> list[str]:
    """Opens ``url``; the list then fills with the path of every request the page and
    its workers send to the network (not answered by the service worker), for as long
    as the test goes on."""
    sent: list[str] = []

    def finished(request: Any) -> None:
        answer = request.response()
        if answer is not None and not answer.from_service_worker:
            sent.append(urlsplit(request.url).path)

    page.context.on("requestfinished", finished)
    page.goto(url)
    return sent


def engine_bytes(path: str) -> int:
    """What production sends for one of the engine's files."""
    if path == reverse("engine_bundle", args=[bundle()[1]]):
        return len(bundle_brotli())
    if path == reverse("engine_worker"):
        worker = Client().get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        return len(worker.content)
    name, data = static_file(path)
    return transferred(data, name)


def is_engine(path: str) -> bool:
    return path.startswith(("/engine/", "/static/engine/"))


def test_a_scorer_fetches_the_engine_once_within_its_budget_and_a_viewer_none(
    phone, live_server, club, make_game
):
    game = make_game("setback", ("Ann", "Bob", "Cy", "Dee")).game
    path = reverse("game", args=[game.pk])
    viewer = get_user_model().objects.create_user("viewer", password=PASSWORD)
    Membership.objects.create(club=club, user=viewer, role=Role.VIEWER)
    with phone_at(phone.browser, live_server.url, viewer, club) as viewers:
        scorer_page = phone.new_page()
        by_scorer = following(scorer_page, path)
        by_viewer = following(viewers.new_page(), path)
        # Both followed for 30 s after the later of the two loads.
        scorer_page.wait_for_timeout(FOLLOWED_MS)

    engine = sorted(path for path in set(by_scorer) if is_engine(path))
    assert engine == sorted(
        [
            reverse("engine_worker"),
            reverse("engine_bundle", args=[bundle()[1]]),
            "/static/engine/brython.js",
        ]
    ), by_scorer
    # Each of the engine's files once. (The service worker's install fetches the app's
    # shell again, which production's hashed, long-cached names answer from the
    # browser's cache.)
    assert not [path for path in engine if by_scorer.count(path) > 1], "\n".join(by_scorer)
    weights = {path: engine_bytes(path) for path in engine}
    print(f"the engine, first visit: {sum(weights.values())} bytes, {weights}")  # -s
    assert sum(weights.values()) <= ENGINE_BUDGET, weights
    # What was fetched is what the engine needed: it starts.
    scorer_page.wait_for_function("() => PitchEngine.startup !== null", timeout=START_MS)

    # The viewer's page came, and nothing of the engine with it.
    assert path in by_viewer
    assert not [path for path in by_viewer if is_engine(path) or path.endswith("engine.js")], (
        by_viewer
    )
