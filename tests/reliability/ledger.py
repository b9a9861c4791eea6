"""Counting documents through a fault: how many were in flight, where they ended, and whether any
was processed into two results. Reads the database only (the source of truth)."""

from __future__ import annotations

import io
import time
from collections import Counter
from collections.abc import Iterable

from PIL import Image

DECIDED = frozenset({"auto_approved", "needs_review", "approved", "rejected"})
TERMINAL = DECIDED | {"failed"}


def png(seed: int) -> bytes:
    """A small image with distinct bytes (lossless: no upload is deduplicated into another)."""
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (seed % 256, (seed // 256) % 256, 90)).save(buffer, format="PNG")
    return buffer.getvalue()


def upload(tenant: object, count: int, *, first: int = 0, hint: str = "") -> list[str]:
    """``count`` new documents through the upload service (committed, their first task sent)."""
    from apps.documents.services import document_upload

    ids = [
        str(
            document_upload(
                tenant=tenant,  # type: ignore[arg-type]
                content=png(first + i),
                original_name=f"doc-{first + i}.png",
                uploaded_by=None,
                document_type_hint=hint,
            ).document.pk
        )
        for i in range(count)
    ]
    assert len(set(ids)) == count, "an upload was deduplicated"
    return ids


def statuses(ids: Iterable[str]) -> Counter[str]:
    from apps.documents.models import Document

    return Counter(Document.objects.filter(pk__in=list(ids)).values_list("status", flat=True))


def in_flight(ids: Iterable[str]) -> int:
    return sum(n for status, n in statuses(ids).items() if status not in TERMINAL)


def settled(ids: list[str], timeout_s: float, tails: object = None) -> float:
    """Wait until every document is terminal; the seconds it took."""
    started = time.monotonic()
    while True:
        counts = statuses(ids)
        if sum(counts.values()) == len(ids) and all(s in TERMINAL for s in counts):
            return time.monotonic() - started
        if time.monotonic() - started > timeout_s:
            extra = tails() if callable(tails) else ""
            raise AssertionError(f"not terminal after {timeout_s:.0f} s: {dict(counts)}\n{extra}")
        time.sleep(0.2)


def processed_twice(ids: list[str]) -> dict[str, list[str]]:
    """Documents with more than one result of a kind: extractions, review tasks, or the same
    state change audited twice. Empty when every document was processed exactly once."""
    from apps.audit.models import AuditEvent
    from apps.documents.models import Extraction
    from apps.review.models import ReviewTask

    found: dict[str, list[str]] = {}
    extractions = Counter(
        str(d) for d in Extraction.objects.filter(document_id__in=ids).values_list("document_id", flat=True)
    )
    reviews = Counter(
        str(d) for d in ReviewTask.objects.filter(document_id__in=ids).values_list("document_id", flat=True)
    )
    transitions = Counter(
        (event.object_id, event.data.get("from"), event.data.get("to"))
        for event in AuditEvent.objects.filter(action="document.status_changed", object_id__in=ids)
    )
    for document_id, n in extractions.items():
        if n > 1:
            found.setdefault(document_id, []).append(f"{n} extractions")
    for document_id, n in reviews.items():
        if n > 1:
            found.setdefault(document_id, []).append(f"{n} review tasks")
    for (document_id, source, target), n in transitions.items():
        if n > 1:
            found.setdefault(document_id, []).append(f"{source}->{target} audited {n} times")
    return found


def max_attempts(ids: list[str]) -> int:
    from django.db.models import Max

    from apps.documents.models import Document

    return int(Document.objects.filter(pk__in=ids).aggregate(m=Max("attempt_count"))["m"] or 0)
