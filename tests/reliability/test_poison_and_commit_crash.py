"""Fault 4: a poison document that makes the model crash on every attempt.
Fault 5: the uploading process dies between the database commit and the task send."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest
import redis

from tests.reliability import ledger
from tests.reliability.conftest import POISON_HINT, REPO_ROOT, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MAX_ATTEMPTS = 4
STUCK_AFTER_S = 3


def _poison_calls(log: str, document_id: str) -> int:
    """Calls the dispatcher tried for the document: each failed one is logged with its id, as a
    retry or, after the last, as given up."""
    pattern = re.compile(r"Triton unavailable (\(\w+\); retry|after \d+ retries)")
    return sum(1 for line in log.splitlines() if document_id in line and pattern.search(line))


def test_a_poison_document_ends_failed_after_bounded_attempts_and_never_loops(
    fault_stack, tenant, reliability_results
) -> None:
    """GIVEN a document the model crashes on every time (an internal error: retryable as far as
    the client can tell), among good ones
    WHEN it goes through the pipeline, the dispatcher's retries and the reconciler's re-sends
    THEN it ends FAILED with max_attempts_exceeded after at most DOCINTEL_MAX_ATTEMPTS attempts,
    stays there (no more calls), and the good documents are decided."""
    from apps.documents.models import Document

    stack = fault_stack(
        DOCINTEL_MAX_ATTEMPTS=str(MAX_ATTEMPTS),
        DOCINTEL_STUCK_AFTER_S=str(STUCK_AFTER_S),
        DOCINTEL_TRITON_RETRIES="2",
        DOCINTEL_TRITON_RETRY_BASE_S="0.2",
        DOCINTEL_TRITON_RETRY_MAX_S="0.5",
        DOCINTEL_TRITON_BREAKER_COOLDOWN_S="1",
        DOCINTEL_LOG_FORMAT="json",  # lines carry the document id
    )
    (poison,) = ledger.upload(tenant, 1, first=1000, hint=POISON_HINT)
    good = ledger.upload(tenant, 5)
    stack.start("beat", "worker", "dispatcher")

    ended_in = ledger.settled([poison, *good], 90, stack.tails)
    document = Document.objects.get(pk=poison)
    calls = _poison_calls(stack.log_text("dispatcher"), poison)
    time.sleep(2 * STUCK_AFTER_S)  # reconciler rounds later (it runs every second)...
    document.refresh_from_db()
    calls_later = _poison_calls(stack.log_text("dispatcher"), poison)

    reliability_results["poison_document"] = {
        "status": document.status,
        "error_code": document.error_code,
        "attempts": document.attempt_count,
        "max_attempts": MAX_ATTEMPTS,
        "triton_calls": calls,
        "triton_calls_after_failing": calls_later - calls,
        "failed_after_s": round(ended_in, 1),
        "good_documents_decided": sum(n for s, n in ledger.statuses(good).items() if s in ledger.DECIDED),
    }
    assert document.status == "failed"
    assert document.error_code == "max_attempts_exceeded"
    assert document.attempt_count <= MAX_ATTEMPTS
    assert calls >= 2, "the model was not called: the test proves nothing"
    assert calls_later == calls, "the failed document is still being retried"
    assert set(ledger.statuses(good)) <= ledger.DECIDED


UPLOAD_THEN_DIE = """
import os, sys
import django
django.setup()
from django.db import transaction
from apps.documents.services import document_upload
from apps.tenants.models import Tenant

tenant = Tenant.objects.get(pk=sys.argv[1])
with open(sys.argv[2], "rb") as file:
    content = file.read()
with transaction.atomic():
    # registered first, so it runs first once the upload commits: the process dies after the
    # commit and before document_upload's own on_commit hook sends the first task
    transaction.on_commit(lambda: os._exit(17))
    outcome = document_upload(tenant=tenant, content=content, original_name="crash.png", uploaded_by=None)
    print(outcome.document.pk, flush=True)
"""


def test_a_crash_between_commit_and_send_loses_nothing(
    fault_stack, tenant, private_redis, tmp_path, reliability_results
) -> None:
    """GIVEN an upload whose process dies right after the commit, before the task is sent
    WHEN the worker and the reconciler run
    THEN the document was committed QUEUED with no message anywhere, and it is decided anyway."""
    from apps.documents.models import Document

    stack = fault_stack(DOCINTEL_STUCK_AFTER_S=str(STUCK_AFTER_S))
    image = tmp_path / "upload.png"
    image.write_bytes(ledger.png(4242))
    result = subprocess.run(
        [sys.executable, "-c", UPLOAD_THEN_DIE, str(tenant.pk), str(image)],
        cwd=REPO_ROOT,
        env=stack.env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 17, result.stderr.decode(errors="replace")[-3000:]
    document_id = result.stdout.decode().split()[0]
    document = Document.objects.get(pk=document_id)
    broker = redis.Redis.from_url(private_redis)
    messages = sum(broker.llen(key) for key in broker.keys("*") if broker.type(key) == b"list")
    assert document.status == "queued"
    assert messages == 0, "the task was sent after all: the crash came too late to test anything"

    stack.start("beat", "worker", "dispatcher")
    recovered_in = wait_for(
        lambda: Document.objects.get(pk=document_id).status in ledger.DECIDED, "the orphan to be decided", 60
    )
    reliability_results["crash_between_commit_and_send"] = {
        "documents": 1,
        "messages_sent_before_crash": messages,
        "lost": 0,
        "processed_twice": len(ledger.processed_twice([document_id])),
        "recovered_in_s": round(recovered_in, 1),
    }
    assert ledger.processed_twice([document_id]) == {}
