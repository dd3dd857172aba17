"""The ledger page: every balance shown, square ones too; a payment recorded only
once confirmed, and taken back; chips worded with the right plural in every language."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from pitchkeeper.clubs.models import Membership, Player
from pitchkeeper.games.chips import chips_said
from pitchkeeper.seasons.ledger import ledger, payment_record, payment_take_back
from pitchkeeper.seasons.models import Payment
from pitchkeeper.seasons.spans import Span
from tests.conftest import PASSWORD, sign_in
from tests.seasons.test_views import HTMX, balances, body

pytestmark = pytest.mark.django_db

URL = reverse("ledger") + "?season=all"


def test_a_player_who_is_square_is_on_the_ledger(client, season_games):
    """Ann lost the setback game (-1) and won the team game (+1): square, and listed."""
    for html in (body(client.get(URL)), body(client.get(URL, **HTMX))):
        assert balances(html) == [("Bob", "+2"), ("Ann", "0"), ("Cy", "-1"), ("Dee", "-1")]
        ann = html.split('<span class="name">Ann</span>')[1].split("</li>")[0]
        assert "Received <strong>0</strong>" in ann and "Won in games <strong>0</strong>" in ann


def test_mark_as_paid_asks_first(client, season_games):
    """The plan's "Mark as paid" opens a confirmation; only its button posts."""
    html = body(client.get(URL))
    plan = html.split('<ul class="plain plan">')[1].split("</ul>")[0]
    for item in plan.split('<li class="card">')[1:]:
        summary, confirmation = item.split("</summary>")
        assert "<details" in summary and "Mark as paid" in summary and "<form" not in summary
        assert '<form method="post"' in confirmation
        assert "Yes, record this payment" in confirmation.split("</form>")[0]
    assert not Payment.objects.exists()


def test_a_payment_is_taken_back(client, season_games, club):
    """Recorded, then taken back (full page and htmx): the balances are the games'
    again; a second take-back is refused with its reason, and changes nothing."""
    dee, bob = Player.objects.get(name="Dee"), season_games
    before = balances(body(client.get(URL)))
    for headers in ({}, HTMX):
        client.post(URL, {"payer": dee.pk, "payee": bob.pk, "chips": 1}, **headers)
        payment = Payment.objects.get()
        html = body(client.get(URL))
        assert ("Dee", "0") in balances(html) and "Yes, take this payment back" in html
        take_back = reverse("payment_take_back", args=[payment.pk]) + "?season=all"
        assert take_back in html

        response = client.post(take_back, **headers)
        if headers:
            assert response.status_code == 200 and "<html" not in body(response)
            assert body(response).lstrip().startswith('<div id="ledger">')
            html = body(response)
        else:
            assert response.status_code == 302 and response["Location"] == URL
            html = body(client.get(URL))
        assert "Taken back: Dee paid Bob 1 chip." in html
        assert balances(html) == before and not Payment.objects.exists()

        again = client.post(take_back, **headers)
        assert again.status_code == 409 and "it was taken back already" in body(again)
        assert balances(body(again)) == before


def test_the_take_back_service_leaves_other_payments(club, season_games, user):
    dee, cy, bob = (Player.objects.get(name=name) for name in ("Dee", "Cy", "Bob"))
    span = Span(None)
    first = payment_record(club=club, span=span, payer=dee, payee=bob, chips=1, by=user)
    payment_record(club=club, span=span, payer=cy, payee=bob, chips=1, by=user)

    taken = payment_take_back(club=club, payment_id=first.pk)

    assert (taken.payer, taken.payee, taken.chips) == (dee, bob, 1)
    found = {b.name: b for b in ledger(club=club, span=span).balances}
    assert (found["Dee"].balance, found["Cy"].balance, found["Bob"].balance) == (-1, 0, 1)
    assert [(p.payer, p.payee) for p in Payment.objects.all()] == [(cy, bob)]
    with pytest.raises(Payment.DoesNotExist):
        payment_take_back(club=club, payment_id=first.pk)


def test_a_payment_is_taken_back_only_by_its_club_and_a_scorer(client, season_games, club, user):
    dee, bob = Player.objects.get(name="Dee"), season_games
    payment = payment_record(club=club, span=Span(None), payer=dee, payee=bob, chips=1, by=user)
    take_back = reverse("payment_take_back", args=[payment.pk])
    viewer = get_user_model().objects.create_user("viewer", password=PASSWORD)
    Membership.objects.create(club=club, user=viewer, role="viewer")
    sign_in(client, viewer, club)
    assert "Take back" not in body(client.get(URL))
    assert client.post(take_back).status_code == 403
    assert client.get(take_back).status_code in (403, 405)
    assert Payment.objects.filter(pk=payment.pk).exists()


# Each number's plural form, by the number without its sign.
CHIPS = {
    "en": {-21: "-21 chips", -2: "-2 chips", -1: "-1 chip", 0: "0 chips", 1: "+1 chip"},
    "ru": {
        -21: "-21 фишка",
        -5: "-5 фишек",
        -2: "-2 фишки",
        -1: "-1 фишка",
        0: "0 фишек",
        1: "+1 фишка",
        3: "+3 фишки",
        11: "+11 фишек",
    },
    "nb": {-2: "-2 sjetonger", -1: "-1 sjetong", 0: "0 sjetonger", 1: "+1 sjetong"},
}


@pytest.mark.parametrize("language", CHIPS)
def test_chips_take_the_plural_of_the_number_without_its_sign(language):
    with translation.override(language):
        for chips, said in CHIPS[language].items():
            assert chips_said(chips, sign=True) == said


@pytest.mark.parametrize(
    ("language", "lost", "won"),
    [
        ("en", "-1 chip", "+1 chip"),
        ("ru", "-1 фишка", "+1 фишка"),
        ("nb", "-1 sjetong", "+1 sjetong"),
    ],
)
def test_the_player_page_words_a_lost_chip_as_one(client, season_games, language, lost, won):
    """Dee lost one chip in the team game; Ann won one there."""
    for name, said in (("Dee", lost), ("Ann", won)):
        url = reverse("player_stats", args=[Player.objects.get(name=name).pk]) + "?season=all"
        html = body(client.get(url, HTTP_ACCEPT_LANGUAGE=language))
        assert f"· {said}\n" in html, name
