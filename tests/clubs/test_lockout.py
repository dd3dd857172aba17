"""The sign-in lockout counts failures per client address, and behind the HTTPS proxy
that is the address the proxy saw, not the proxy's own: one visitor's wrong passwords
do not lock another out, and a forged X-Forwarded-For does not dodge the lockout."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from pitchkeeper.clubs.lockout import client_ip

PASSWORD = "correct horse battery"
PROXY = "10.0.0.2"
ALICE = "203.0.113.5"
BOB = "198.51.100.7"

behind_proxy = override_settings(BEHIND_HTTPS_PROXY=True)


@pytest.fixture
def ann(db):
    return get_user_model().objects.create_user("ann", password=PASSWORD)


def via_proxy(forwarded_for: str) -> Client:
    """A browser whose requests reach the app through the proxy, which appended the
    browser's address to X-Forwarded-For (nginx's $proxy_add_x_forwarded_for)."""
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded_for)


def sign_in(client: Client, password: str, **extra: str) -> int:
    data = {"username": "ann", "password": password}
    return client.post(reverse("login"), data, **extra).status_code


def fail_five_times(client: Client, **extra: str) -> None:
    statuses = [sign_in(client, "not the password", **extra) for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]


@behind_proxy
def test_behind_the_proxy_one_visitor_does_not_lock_out_another(ann):
    fail_five_times(via_proxy(ALICE))

    assert sign_in(via_proxy(BOB), PASSWORD) == 302
    assert sign_in(via_proxy(ALICE), PASSWORD) == 429


@behind_proxy
def test_a_forged_forwarded_for_does_not_dodge_the_lockout(ann):
    client = Client(REMOTE_ADDR=PROXY)
    # The client writes its own X-Forwarded-For; the proxy appends the real address.
    for n in range(5):
        sign_in(client, "not the password", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, {ALICE}")

    assert sign_in(client, PASSWORD, HTTP_X_FORWARDED_FOR=f"{BOB}, {ALICE}") == 429


def test_without_the_proxy_setting_the_header_is_ignored(ann):
    # Without a proxy the header is the client's own: changing it changes nothing.
    for n in range(5):
        sign_in(Client(), "not the password", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")

    assert sign_in(Client(), PASSWORD, HTTP_X_FORWARDED_FOR=BOB) == 429


@pytest.mark.parametrize(
    ("forwarded_for", "address"),
    [
        (ALICE, ALICE),
        (f"1.1.1.1,{ALICE}", ALICE),
        (f"  9.9.9.9 ,  {ALICE}  ", ALICE),
        ("2001:db8::1", "2001:db8::1"),
        ("2001:DB8:0:0::1", "2001:db8::1"),
        # Nothing usable from the proxy: the attempt counts against the proxy itself.
        ("", PROXY),
        (f"{ALICE}, unknown", PROXY),
        (f"{ALICE},", PROXY),
        (f"{ALICE}:443", PROXY),
        (f"\u200b{ALICE}", PROXY),
        ("999.1.1.1", PROXY),
        (",".join(["192.0.2.1"] * 100_000) + f",{ALICE}", ALICE),
    ],
)
def test_client_ip_believes_only_the_proxys_own_entry(forwarded_for, address):
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded_for)

    with behind_proxy:
        assert client_ip(request) == address
    assert client_ip(request) == PROXY
