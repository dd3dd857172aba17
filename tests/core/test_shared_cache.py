"""The cache in Redis (CACHE_URL), as several machines share it: a game's replay kept by
one process is found by another, which has no memory of its own to find it in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.urls import reverse

from pitchkeeper.games.models import Game
from tests.conftest import entry_basis
from tests.games.test_views_game import hand_post

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

# Another worker: a process of its own with the same settings, asked for every key the
# first one left in Redis; it prints each entry's totals.
READ_ELSEWHERE = """
import json, pickle, sys, django
django.setup()
from django.core.cache import cache
found = {}
for key in sys.argv[1:]:
    kept = pickle.loads(cache.get(key))
    found[key] = [len(kept.records), kept.result.scores]
print(json.dumps(found))
"""


@pytest.fixture
def game(make_game) -> Game:
    return make_game().game


def test_a_replay_kept_by_one_process_is_found_by_another(settings, client, game, redis_url):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
        }
    }
    saved = client.post(
        reverse("hand_add", args=[game.pk]), {**entry_basis(game.pk), **hand_post()}
    )
    assert saved.status_code == 302, saved.content.decode()
    assert client.get(reverse("game", args=[game.pk])).status_code == 200

    # Django's Redis keys are ":<version>:<key>" when no prefix is set.
    keys = [k.decode().split(":", 2)[2] for k in redis.Redis.from_url(redis_url).keys("*")]
    done = subprocess.run(
        [sys.executable, "-c", READ_ELSEWHERE, *keys],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "pitchkeeper.settings",
            "CACHE_URL": redis_url,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert done.returncode == 0, done.stderr
    # The game as it opened and after its hand, with the totals the engine gave each.
    assert sorted(json.loads(done.stdout).values()) == [
        [0, {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0}],
        [1, {"Ann": 0, "Bob": 2, "Cy": 1, "Dee": 0}],
    ]
