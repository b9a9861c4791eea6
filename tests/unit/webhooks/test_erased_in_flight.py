"""A delivery erased while its request is in flight ends quietly (issue 48, item 7 beside item 3).

GIVEN a delivery being sent WHEN the person's erasure deletes its document (and with it the
delivery) before the receiver answers THEN the attempt ends as "missing": no attempt row is written
for a delivery that no longer exists, and the task does not raise.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.db import connection

from apps.documents.models import Document
from apps.webhooks.models import WebhookAttempt, WebhookDelivery
from apps.webhooks.services import document_callback_set, webhook_deliver, webhook_document_event
from tests.factories import make_document


@pytest.mark.django_db(transaction=True)
def test_a_delivery_erased_while_in_flight_ends_as_missing(tenant):
    document = make_document(tenant)
    erase_failed: list[BaseException] = []

    class ErasingHandler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            try:
                Document.objects.filter(pk=document.pk).delete()  # as person_erase does, by cascade
            except BaseException as exc:
                erase_failed.append(exc)
            finally:
                connection.close()
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), ErasingHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        document_callback_set(document=document, url=f"http://127.0.0.1:{server.server_address[1]}/hook")
        delivery = webhook_document_event(document=document, event="document.decided")
        assert delivery is not None

        assert webhook_deliver(delivery_id=str(delivery.pk)) == "missing"

        assert not erase_failed
        assert not WebhookDelivery.objects.filter(pk=delivery.pk).exists()
        assert not WebhookAttempt.objects.filter(delivery_id=delivery.pk).exists()
    finally:
        server.shutdown()
        server.server_close()
