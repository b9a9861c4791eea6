"""The webhook SSRF guard: private destinations are refused at upload and at delivery, and a
refused delivery never opens a connection. Real HTTP: a local server that must hear nothing."""

from __future__ import annotations

import ipaddress
import socket

import pytest

from apps.webhooks.destinations import url_refusal
from apps.webhooks.models import WebhookDelivery
from apps.webhooks.services import document_callback_set, webhook_deliver, webhook_document_event
from tests.factories import make_document
from tests.support.uploads import png_bytes, upload
from tests.support.webhook_receiver import Receiver

pytestmark = pytest.mark.django_db


@pytest.fixture
def guarded(settings):
    settings.DOCINTEL_WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    settings.DOCINTEL_WEBHOOK_ALLOWED_HOSTS = []
    return settings


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://api.localhost/hook",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        # IPv6 forms with a private IPv4 address inside (issue 48): NAT64, 6to4, IPv4-compatible,
        # and the forms refused whatever they carry: local-use NAT64, Teredo
        "http://[64:ff9b::7f00:1]/hook",
        "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",
        "http://[2002:0a00:0001::1]/hook",
        "http://[2002:c0a8:000a::]/hook",
        "http://[::7f00:1]/hook",
        "http://[::a00:1]/hook",
        "http://[::808:808]/hook",
        "http://[64:ff9b:1::808:808]/hook",
        "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
        "http://0.0.0.0/hook",
        "ftp://example.com/hook",
        "http://user:secret@example.com/hook",
    ],
)
def test_private_or_odd_urls_are_refused_without_resolving(guarded, url):
    assert url_refusal(url)


def test_a_public_url_passes_and_private_networks_can_be_allowed(guarded):
    assert url_refusal("https://hooks.bank.example/docintel?x=1") is None
    assert url_refusal("https://93.184.216.34/hook") is None
    # a public IPv4 receiver reached through a NAT64 or 6to4 gateway
    assert url_refusal("https://[64:ff9b::5db8:d822]/hook") is None
    assert url_refusal("https://[2002:5db8:d822::1]/hook") is None
    guarded.DOCINTEL_WEBHOOK_ALLOWED_HOSTS = ["receiver.internal", "127.0.0.1"]
    assert url_refusal("http://127.0.0.1:9000/hook") is None
    guarded.DOCINTEL_WEBHOOK_ALLOWED_HOSTS = []
    guarded.DOCINTEL_WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    assert url_refusal("http://10.0.0.5/hook") is None


def test_the_api_refuses_a_private_callback_url_before_storing_anything(guarded, api):
    from apps.documents.models import Document

    response = api.post(
        "/api/v1/documents",
        {"file": upload(png_bytes(7), "a.png"), "callback_url": "http://169.254.169.254/latest/meta-data/"},
        format="multipart",
    )
    assert response.status_code in (400, 422)
    body = response.json()
    assert body["code"] and "callback_url" in body["message"]
    assert not Document.objects.exists()


def test_a_name_resolving_to_a_private_address_is_refused_at_delivery_and_nothing_is_sent(guarded, tenant):
    server = Receiver([200])
    try:
        port = server.server.server_address[1]
        host = socket.gethostname()  # a name no static rule knows, resolving to this machine
        addresses = {info[4][0] for info in socket.getaddrinfo(host, port)}
        if any(ipaddress.ip_address(address).is_global for address in addresses):
            pytest.skip("this machine's name resolves to a public address")
        assert url_refusal(f"http://{host}:{port}/hook") is None  # only resolving finds it out
        document = make_document(tenant)
        document_callback_set(document=document, url=f"http://{host}:{port}/hook")
        delivery = webhook_document_event(document=document, event="document.decided")
        webhook_deliver(delivery_id=str(delivery.pk))
        attempt = WebhookDelivery.objects.get(pk=delivery.pk).attempt_log.get()
        assert attempt.error.startswith("refused:") and attempt.status_code is None
        assert server.received == []
    finally:
        server.close()


def test_an_allow_listed_internal_host_is_delivered_to(guarded, tenant):
    server = Receiver([200])
    try:
        guarded.DOCINTEL_WEBHOOK_ALLOWED_HOSTS = ["localhost"]
        port = server.server.server_address[1]
        document = make_document(tenant)
        document_callback_set(document=document, url=f"http://localhost:{port}/hook")
        delivery = webhook_document_event(document=document, event="document.decided")
        assert webhook_deliver(delivery_id=str(delivery.pk)) == "succeeded"
        assert len(server.received) == 1
    finally:
        server.close()
