"""Logins as banks run them: the client's real address, lock-outs per user name and per address,
and idle sessions that end.

GIVEN DocIntel behind an ingress (``DOCINTEL_TRUSTED_PROXIES``) WHEN requests arrive through it
THEN django-axes sees each client's own address from ``X-Forwarded-For``, and a header sent by
anyone else is ignored; GIVEN wrong passwords for one user name from many addresses THEN that user
name is locked; GIVEN one address trying many user names (password spraying) THEN that address is
locked, and nobody else; GIVEN a signed-in operator idle past ``DOCINTEL_SESSION_IDLE_TIMEOUT_S``
THEN their next request finds them signed out. Real middleware, real django-axes, real PostgreSQL.
"""

from __future__ import annotations

import ipaddress
import time

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

from apps.accounts.client_address import client_address

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"
PROXY = "10.20.0.7"  # the ingress, inside the trusted network


def _login(client, username: str, password: str, **meta):
    return client.post(reverse("login"), {"username": username, "password": password}, **meta)


@pytest.mark.parametrize(
    ("peer", "forwarded_for", "client"),
    [
        ("203.0.113.9", "", "203.0.113.9"),  # no proxy
        ("203.0.113.9", "198.51.100.1", "203.0.113.9"),  # an untrusted peer's header proves nothing
        (PROXY, "198.51.100.1", "198.51.100.1"),  # through the ingress
        (PROXY, "6.6.6.6, 198.51.100.1", "198.51.100.1"),  # a client-written left part is skipped
        (PROXY, "198.51.100.1, 10.20.0.3", "198.51.100.1"),  # two trusted hops
        (PROXY, "198.51.100.1:51234", "198.51.100.1"),  # with a port
        (PROXY, "[2001:db8::5]:443", "2001:db8::5"),
        (PROXY, "not-an-address", PROXY),  # junk: the last address a proxy did write
        ("::ffff:10.20.0.7", "198.51.100.1", "198.51.100.1"),  # IPv4 mapped into IPv6
    ],
)
def test_the_client_address_comes_from_forwarded_for_only_behind_a_trusted_proxy(peer, forwarded_for, client):
    networks = (ipaddress.ip_network("10.20.0.0/16"),)
    assert client_address(peer, forwarded_for, networks) == client


def test_a_spoofed_forwarded_for_from_an_untrusted_peer_is_ignored(client, operator, settings):
    settings.DOCINTEL_TRUSTED_PROXIES = ["10.20.0.0/16"]
    _login(client, "nobody", "wrong", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.1")
    _login(client, "nobody2", "wrong", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="198.51.100.2")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.1", "203.0.113.9"}


def test_behind_the_proxy_a_sprayer_is_locked_out_and_the_operators_are_not(client, operator, settings):
    """Every request reaches Django from the ingress's address: the sprayer must be told apart."""
    settings.DOCINTEL_TRUSTED_PROXIES = ["10.20.0.0/16"]
    sprayer = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "198.51.100.66"}
    answers = [_login(client, f"user{n}", "Summer2025!", **sprayer).status_code for n in range(10)]
    assert answers[-1] == 429 and set(answers[:-1]) == {200}
    assert _login(client, operator.username, PASSWORD, **sprayer).status_code == 429
    office = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "198.51.100.20"}
    assert _login(client, operator.username, PASSWORD, **office).status_code == 302


def test_a_user_name_is_locked_out_whatever_address_the_tries_come_from(client, operator, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):
        _login(client, operator.username, "wrong", REMOTE_ADDR=f"203.0.113.{n + 1}")
    assert _login(client, operator.username, PASSWORD, REMOTE_ADDR="192.0.2.44").status_code == 429
    assert "_auth_user_id" not in client.session


def test_spraying_many_user_names_from_one_address_is_throttled(
    client, operator, settings, django_user_model
):
    django_user_model.objects.create_user(username="victor", password=PASSWORD)
    sprayer = {"REMOTE_ADDR": "203.0.113.66"}
    for n in range(settings.DOCINTEL_LOGIN_SPRAY_LIMIT - 1):
        assert _login(client, f"teller{n}", "Summer2025!", **sprayer).status_code == 200
    assert _login(client, "victor", "Summer2025!", **sprayer).status_code == 429
    # the address is held for every name, even with the right password; elsewhere all is well
    assert _login(client, operator.username, PASSWORD, **sprayer).status_code == 429
    assert _login(client, operator.username, PASSWORD, REMOTE_ADDR="192.0.2.10").status_code == 302


def test_a_few_people_mistyping_behind_one_address_are_not_an_attack(client, operator, django_user_model):
    for name in ("ana", "ben", "carla"):
        django_user_model.objects.create_user(username=name, password=PASSWORD)
        for _ in range(2):
            assert _login(client, name, "typo", REMOTE_ADDR="203.0.113.80").status_code == 200
        assert _login(client, name, PASSWORD, REMOTE_ADDR="203.0.113.80").status_code == 302
        client.logout()


@pytest.mark.slow  # about 15 s of waiting, with room for a loaded machine
def test_an_idle_session_ends_after_the_timeout_and_activity_keeps_it(client, operator, settings):
    settings.DOCINTEL_SESSION_IDLE_TIMEOUT_S = 6
    documents = reverse("ingestion:document_list")
    assert _login(client, operator.username, PASSWORD).status_code == 302
    assert client.get(documents).status_code == 200
    for _ in range(2):  # a request every 3.5 s: 7 s in all, more than the timeout, still signed in
        time.sleep(3.5)
        assert client.get(documents).status_code == 200
    time.sleep(7)  # idle past the timeout
    answer = client.get(documents)
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    assert "_auth_user_id" not in client.session
    assert client.get("/api/v1/documents").status_code in {401, 403}


def test_operators_sessions_time_out_after_30_minutes_by_default():
    from django.conf import settings

    assert settings.DOCINTEL_SESSION_IDLE_TIMEOUT_S == 30 * 60
