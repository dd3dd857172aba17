"""The ledger's plans of payments kept where every worker finds them, and its chip value
read from a row per month."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from pitchkeeper.clubs.models import Player
from pitchkeeper.rules.payments import Plan, settle_up
from pitchkeeper.seasons.ledger import PAGE_STEPS
from pitchkeeper.seasons.models import LedgerPlan, Payment

pytestmark = pytest.mark.django_db

LEDGER = reverse("ledger") + "?season=all"
PLAN = "The fewest payments that settle everything: 2 payments."


def searched(client) -> tuple[str, int]:
    """The ledger page, and how often it searched for its plan."""
    with mock.patch("pitchkeeper.seasons.ledger.settle_up", side_effect=settle_up) as search:
        html = client.get(LEDGER).content.decode()
    return html, search.call_count


def without_tokens(html: str) -> str:
    return re.sub(r'(csrfmiddlewaretoken" value="|CSRFToken": ")[^"]*"', "", html)


def test_another_worker_reads_the_plan_instead_of_searching(client, season_games):
    first, searches = searched(client)
    assert searches == 1 and PLAN in first
    cache.clear()  # another process, or this one restarted: its own cache is empty

    again, searches = searched(client)

    assert searches == 0
    assert PLAN in again
    assert without_tokens(again) == without_tokens(first)


def test_books_changed_are_searched_again_and_their_plan_replaces_the_old(client, season_games):
    searched(client)
    before = LedgerPlan.objects.get(span="all")
    ann = Player.objects.get(name="Ann")
    Payment.objects.create(club=season_games.club, payer=ann, payee=season_games, chips=1)
    cache.clear()

    _html, searches = searched(client)

    assert searches == 1
    after = LedgerPlan.objects.get(span="all")
    assert after.pk == before.pk and after.state != before.state


SEARCHING = "A plan with fewer payments is being looked for"


def unproven_in_a_page(balances, budget):
    """The search, as on a ledger the page's steps cannot prove the fewest."""
    plan = settle_up(balances, budget=budget)
    return Plan(plan.payments, fewest=False) if budget == PAGE_STEPS else plan


def test_a_plan_the_page_cannot_prove_is_searched_on_by_a_task(
    client, season_games, django_capture_on_commit_callbacks
):
    search = mock.patch("pitchkeeper.seasons.ledger.settle_up", side_effect=unproven_in_a_page)
    with search as searched, django_capture_on_commit_callbacks() as queued:
        first = client.get(LEDGER).content.decode()
    assert searched.call_count == 1 and len(queued) == 1
    assert "A short plan that settles everything: 2 payments" in first and SEARCHING in first
    assert LedgerPlan.objects.get(span="all").complete is False

    # Meanwhile, on this worker and on another, the short plan as kept, searched once.
    for fresh_cache in (False, True):
        if fresh_cache:
            cache.clear()
        with search as searched, django_capture_on_commit_callbacks() as again:
            meanwhile = client.get(LEDGER, headers={"HX-Request": "true"}).content.decode()
        assert searched.call_count == 0 and not again
        assert "<html" not in meanwhile and SEARCHING in meanwhile

    with search as searched:
        queued[0]()  # the task, run by the queue's worker
    assert searched.call_count == 1
    kept = LedgerPlan.objects.get(span="all")
    assert kept.complete and kept.fewest
    cache.clear()
    found = client.get(LEDGER).content.decode()
    assert PLAN in found and SEARCHING not in found


def test_a_search_finished_after_the_books_changed_keeps_nothing(
    client, season_games, django_capture_on_commit_callbacks
):
    search = mock.patch("pitchkeeper.seasons.ledger.settle_up", side_effect=unproven_in_a_page)
    with search, django_capture_on_commit_callbacks() as queued:
        client.get(LEDGER)
    ann = Player.objects.get(name="Ann")
    Payment.objects.create(club=season_games.club, payer=ann, payee=season_games, chips=1)
    with search, django_capture_on_commit_callbacks() as again:
        client.get(LEDGER)
    newer = LedgerPlan.objects.get(span="all")

    queued[0]()  # the search for the books as they were

    assert LedgerPlan.objects.get(span="all").state == newer.state
    assert LedgerPlan.objects.get(span="all").complete is False
    again[0]()
    assert LedgerPlan.objects.get(span="all").complete is True


def test_cold_views_cost_a_fixed_number_of_queries(client, season_games, django_assert_num_queries):
    # The warm view's 9 (tests/seasons/test_views.py), then the kept plan looked for
    # (1) and, when it is not there, the span's row rewritten (1) or, the first time,
    # written (1 more).
    with django_assert_num_queries(12):
        client.get(LEDGER)
    cache.clear()
    with django_assert_num_queries(10):
        client.get(LEDGER)
    ann = Player.objects.get(name="Ann")
    Payment.objects.create(club=season_games.club, payer=ann, payee=season_games, chips=1)
    with django_assert_num_queries(11):
        client.get(LEDGER)


def test_the_chip_value_is_read_from_a_row_per_month(client, season_games):
    # A game is read for it only in the part-months at a span's edges, which all time
    # has none of: 60,000 games' worth of a season once took a few ms.
    with CaptureQueriesContext(connection) as captured:
        assert client.get(LEDGER).status_code == 200
    assert not [q["sql"] for q in captured if '"pitchkeeper_game"' in q["sql"]]
    assert [q["sql"] for q in captured if '"pitchkeeper_monthchipvalue"' in q["sql"]]
