"""An outage is waited out, never the document's failure (apps.documents.unavailability).

On the real database, with the real Triton client against a port nothing listens on (Triton down)
and real master keys: a step that meets an outage gives the attempt it counted back, notes the wait
(shown in the result as still processing), and fails the document only once it has waited longer
than DOCINTEL_UNAVAILABLE_WINDOW_S; the reconciler spends no attempt on a waiting document, and
leaves the documents owing inference alone while the engine is out.
"""

from __future__ import annotations

import base64
import datetime as dt
import io
import os
import socket

import pytest
from django.utils import timezone
from PIL import Image

from apps.documents.models import Document
from apps.documents.models import DocumentStatus as S
from apps.documents.pipeline import document_infer, document_prepare, documents_reconcile
from apps.documents.selectors import document_result_get
from apps.documents.services import document_upload
from apps.documents.state import document_transition
from apps.documents.steps import PipelineStep
from apps.documents.unavailability import Dependency, dependency_of, documents_wait
from media.circuit_breaker import CircuitBreaker
from media.triton_client import CircuitOpenError, TritonEngineClient, TritonUnavailableError

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_capture_gate(settings):
    """The pages are plain swatches, not captures: what is tested happens after the gate."""
    settings.DOCINTEL_CAPTURE_GATE = False
    settings.DOCINTEL_AUTHENTICITY_SIGNALS = False


def _png(seed: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (seed % 256, 40, 90)).save(buffer, format="PNG")
    return buffer.getvalue()


def _upload(tenant, seed: int = 0) -> Document:
    return document_upload(
        tenant=tenant, content=_png(seed), original_name="d.png", uploaded_by=None
    ).document


def _prepared(tenant, seed: int = 0) -> Document:
    document = _upload(tenant, seed)
    assert document_prepare(document_id=str(document.pk)).next_step == PipelineStep.INFER
    return Document.objects.get(pk=document.pk)


def _triton_down() -> TritonEngineClient:
    """The real client, pointed at a port where nothing listens: Triton is down."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return TritonEngineClient(f"127.0.0.1:{port}", timeout_s=5, model="null", breaker=CircuitBreaker())


@pytest.fixture
def prepared(tenant):
    return _prepared(tenant)


def test_an_outage_longer_than_the_attempt_budget_spends_no_attempt(prepared, settings):
    """GIVEN a prepared document (one attempt: prepare) WHEN inference meets Triton down more times
    than DOCINTEL_MAX_ATTEMPTS THEN it is still PROCESSING with that one attempt, noted as waiting
    on Triton since the first time, and the result shows it processing, waiting. (Before, each try
    counted an attempt and the document ended ``max_attempts_exceeded``.)"""
    settings.DOCINTEL_MAX_ATTEMPTS = 3
    reader = _triton_down()
    outcomes = [document_infer(document_id=str(prepared.pk), reader=reader) for _ in range(6)]

    document = Document.objects.get(pk=prepared.pk)
    assert (document.status, document.error_code) == (S.PROCESSING, "")
    assert document.attempt_count == 1
    assert document.unavailable_reason == Dependency.TRITON
    assert all(o.waiting == Dependency.TRITON and not o.ran for o in outcomes)
    assert outcomes[-1].waited_s >= outcomes[0].waited_s  # since the first time, not the last
    result = document_result_get(document=document)
    assert result["status"] == "processing"
    assert result["error"] is None
    assert result["waiting"] == {"on": "triton", "since": document.unavailable_since.isoformat()}


def test_the_note_ends_with_the_next_state_change_and_the_result_no_longer_mentions_it(prepared):
    documents_wait(document_ids=[str(prepared.pk)], dependency=Dependency.TRITON, expected=S.PROCESSING)
    document_transition(document=prepared, target=S.FAILED, error_code="unreadable_image")
    document = Document.objects.get(pk=prepared.pk)
    assert (document.unavailable_since, document.unavailable_reason) == (None, "")
    assert "waiting" not in document_result_get(document=document)


def test_a_document_waiting_longer_than_the_window_fails_with_unavailable_timeout(prepared, settings):
    """GIVEN a document waiting on the model engine since longer than the window WHEN it meets the
    outage once more THEN it fails with unavailable_timeout; one waiting less long keeps waiting."""
    settings.DOCINTEL_UNAVAILABLE_WINDOW_S = 3600
    Document.objects.filter(pk=prepared.pk).update(
        unavailable_since=timezone.now() - dt.timedelta(seconds=3601), unavailable_reason="model_engine"
    )
    recent = _prepared(prepared.tenant, seed=1)
    Document.objects.filter(pk=recent.pk).update(
        unavailable_since=timezone.now() - dt.timedelta(seconds=3500), unavailable_reason="model_engine"
    )
    still = documents_wait(
        document_ids=[str(prepared.pk), str(recent.pk)],
        dependency=Dependency.MODEL_ENGINE,
        expected=S.PROCESSING,
    )
    assert list(still) == [str(recent.pk)]
    assert 3500 <= still[str(recent.pk)] < 3600
    failed = Document.objects.get(pk=prepared.pk)
    assert (failed.status, failed.error_code) == (S.FAILED, "unavailable_timeout")
    assert "DOCINTEL_UNAVAILABLE_WINDOW_S" in failed.error_message


def test_a_model_failing_on_the_document_is_no_outage_and_spends_its_attempt(prepared):
    """GIVEN Triton answering this document with an error that is no verdict (a model process
    crashing on it) WHEN inference runs THEN the failure reaches the worker, to be retried, and the
    attempt stays spent: a document that crashes the model every time still ends."""

    class CrashingModel:
        def read_document(self, pages, **kwargs):
            raise TritonUnavailableError("Triton failed (StatusCode.INTERNAL): crash", kind="failed")

    with pytest.raises(TritonUnavailableError):
        document_infer(document_id=str(prepared.pk), reader=CrashingModel())
    document = Document.objects.get(pk=prepared.pk)
    assert (document.attempt_count, document.unavailable_since) == (2, None)


def _master_key() -> str:
    return base64.b64encode(os.urandom(32)).decode()


def test_a_key_not_loaded_yet_is_waited_for_not_blob_missing(tenant, settings):
    """GIVEN a document uploaded by a web process that holds a newly rotated master key
    WHEN a worker that does not hold it yet prepares it
    THEN the document waits (still queued, its attempt given back, noted key_not_loaded) instead
    of failing blob_missing; once the worker holds the key, it is prepared."""
    new, old = _master_key(), _master_key()
    settings.DOCINTEL_MASTER_KEY, settings.DOCINTEL_OLD_MASTER_KEYS = new, [old]
    document = _upload(tenant)

    settings.DOCINTEL_MASTER_KEY, settings.DOCINTEL_OLD_MASTER_KEYS = old, []  # a worker not yet rolled
    outcome = document_prepare(document_id=str(document.pk))
    waiting = Document.objects.get(pk=document.pk)
    assert (outcome.ran, outcome.waiting) == (False, Dependency.KEY_NOT_LOADED)
    assert (waiting.status, waiting.error_code, waiting.attempt_count) == (S.QUEUED, "", 0)
    assert waiting.unavailable_reason == "key_not_loaded"

    settings.DOCINTEL_MASTER_KEY, settings.DOCINTEL_OLD_MASTER_KEYS = new, [old]  # restarted with it
    assert document_prepare(document_id=str(document.pk)).next_step == PipelineStep.INFER
    prepared = Document.objects.get(pk=document.pk)
    assert (prepared.status, prepared.unavailable_reason) == (S.PROCESSING, "")


def test_a_key_no_configured_master_key_opens_is_still_blob_missing(tenant, settings):
    """A data key wrapped under a key this process holds, that does not open, is no outage."""
    document = _upload(tenant)
    wrapped = bytearray(document.wrapped_key)
    wrapped[-3] ^= 0x01
    Document.objects.filter(pk=document.pk).update(wrapped_key=bytes(wrapped))
    document_prepare(document_id=str(document.pk))
    failed = Document.objects.get(pk=document.pk)
    assert (failed.status, failed.error_code) == (S.FAILED, "blob_missing")


def test_the_reconciler_spends_no_attempt_on_a_document_waiting_out_an_outage(prepared, settings):
    """GIVEN a document waiting on Triton, untouched past the reconciler's deadline (its message
    lost) WHEN the reconciler runs, long after the outage's last note THEN it is sent again
    without an attempt counted."""
    long_ago = timezone.now() - dt.timedelta(seconds=settings.DOCINTEL_STUCK_AFTER_S * 3)
    Document.objects.filter(pk=prepared.pk).update(
        unavailable_since=long_ago, unavailable_reason="triton", updated_at=long_ago
    )
    assert documents_reconcile() == [(str(prepared.pk), PipelineStep.INFER)]
    assert Document.objects.get(pk=prepared.pk).attempt_count == 1


def test_the_reconciler_leaves_documents_owing_inference_alone_while_the_engine_is_out(tenant, settings):
    """GIVEN one document just noted waiting on Triton, and others untouched past the deadline
    (their messages queued behind the outage) WHEN the reconciler runs THEN it re-sends none of
    the ones owing inference (each re-send would spend an attempt and queue a copy), but does
    re-send a document owing another step; once the broker lost its messages, it re-sends all."""
    waiting, queued_behind = _prepared(tenant, 1), _prepared(tenant, 2)
    owing_prepare = _upload(tenant, 3)
    documents_wait(document_ids=[str(waiting.pk)], dependency=Dependency.TRITON, expected=S.PROCESSING)
    old = timezone.now() - dt.timedelta(seconds=settings.DOCINTEL_STUCK_AFTER_S + 5)
    Document.objects.filter(pk__in=[queued_behind.pk, owing_prepare.pk]).update(updated_at=old)

    assert documents_reconcile() == [(str(owing_prepare.pk), PipelineStep.PREPARE)]
    assert Document.objects.get(pk=queued_behind.pk).attempt_count == 1
    lost = documents_reconcile(now=timezone.now() + dt.timedelta(seconds=1), messages_lost=True)
    assert {str(queued_behind.pk), str(waiting.pk)} <= {document_id for document_id, _ in lost}


def test_a_call_the_breaker_kept_back_waits_on_what_opened_the_breaker():
    """The model engine down opens the breaker in front of Triton: the calls it then keeps back
    still wait on the model engine, not on Triton."""
    assert dependency_of(CircuitOpenError("127.0.0.1:1", "model_unavailable")) == Dependency.MODEL_ENGINE
    assert dependency_of(CircuitOpenError("127.0.0.1:1", "timeout")) == Dependency.TRITON
    assert dependency_of(TritonUnavailableError("x", kind="model_unavailable")) == Dependency.MODEL_ENGINE


def test_the_document_page_shows_a_waiting_document_processing_and_what_it_waits_for(
    prepared, operator_client
):
    from django.urls import reverse

    documents_wait(document_ids=[str(prepared.pk)], dependency=Dependency.TRITON, expected=S.PROCESSING)
    page = operator_client.get(reverse("ingestion:document_detail", args=[prepared.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="progress"' in text and 'id="waiting"' in text
    assert "<code>triton</code>" in text
    assert 'id="error"' not in text


def test_metrics_count_the_documents_waiting_on_an_outage_and_the_longest_wait(tenant, client):
    """An operator's alert: documents held by an outage, by what they wait on, and for how long."""
    import re

    waiting = [_prepared(tenant, seed) for seed in (1, 2)]
    documents_wait(
        document_ids=[str(d.pk) for d in waiting], dependency=Dependency.TRITON, expected=S.PROCESSING
    )
    Document.objects.filter(pk=waiting[0].pk).update(
        unavailable_since=timezone.now() - dt.timedelta(minutes=20)
    )
    text = client.get("/metrics").content.decode()

    def value(name: str) -> float:
        found = re.search(rf'^{name}{{on="{Dependency.TRITON.value}"}} (\S+)$', text, re.M)
        assert found, f"{name} not in /metrics"
        return float(found.group(1))

    assert value("docintel_documents_waiting_on_outage") == 2
    assert 20 * 60 <= value("docintel_oldest_outage_wait_seconds") < 25 * 60
