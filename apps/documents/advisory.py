"""The advisory work on a decided document, off the decision's path: its authenticity signals.

The signals (``media.authenticity``: a photo of a screen, a print or photocopy, an edited region,
a patch copied within the page; ``media.reading_signals.glyph_check``: one character of a field
unlike the rest) point a reviewer at what to look at; they never decline a document, so the
decision does not wait for them. When a document is decided (``apps.documents.pipeline``) and

* ``DOCINTEL_AUTHENTICITY_SIGNALS`` is on (the master switch),
* some page of it was photographed or scanned (``Page.captured``; a digital PDF never is), and
* its type, now read, is one its tenant's authenticity policy names (``apps.doctypes``; without
  one, identity documents and proofs of address: ``apps/doctypes/knowledge/authenticity.toml``),

it is marked ``advisory_state = pending`` in the decision's transaction and the ``advisory`` step is
requested on commit, a message with its id on ``DOCINTEL_ADVISORY_QUEUE``. :func:`document_advisory`
then reads the stored page images (decrypted as the pipeline reads them) and the stored fields,
computes the signals outside any transaction, and stores them among ``page_checks`` (kind
``authenticity``) with ``advisory_state = done``, under the row's lock.

Idempotent: a document no longer pending (done already, reprocessed, erased) is skipped; a run
killed half-way wrote nothing and runs again (``acks_late``). A database gone away or a master key
not loaded yet raises for the task to retry later; the reconciler sends the step again for a
document pending too long (a lost message).
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from collections.abc import Sequence
from typing import Any, Literal

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.documents import blobs
from apps.documents.crypto import DecryptionError, KeyNotLoadedError
from apps.documents.models import AdvisoryState, Document, Field, Page
from apps.documents.state import document_lock
from apps.documents.steps import PipelineStep, steps_request
from apps.observability import metrics
from engines.types import FieldResult

logger = logging.getLogger(__name__)

# uploads that are one image: page 1 is the upload itself, made smaller where it was too large
# (the copy-move signal is lent the upload as it came, before resizing)
SINGLE_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/webp"})
AUTHENTICITY = "authenticity"


class AdvisoryKeyNotLoaded(Exception):
    """The document's data key is wrapped under a master key this process has not loaded: the
    step runs again later."""


def document_advisory(*, document_id: str) -> Literal["done", "skipped"]:
    """The advisory signals of a document pending them, stored with its page checks: ``done``;
    ``skipped`` when it is not pending (done already, reprocessed, or erased meanwhile)."""
    document = Document.objects.filter(pk=document_id).first()
    if document is None or document.advisory_state != AdvisoryState.PENDING:
        return "skipped"
    try:
        checks = _signals(document)
    except KeyNotLoadedError as exc:
        raise AdvisoryKeyNotLoaded(str(document.pk)) from exc
    except (blobs.BlobMissingError, DecryptionError):
        # its pages are gone (erased while this was queued, or unreadable): nothing to judge
        logger.warning("advisory: the pages of document %s are unreadable; no signals", document.pk)
        checks = []
    with transaction.atomic():
        row = document_lock(document_id=document.pk)
        if row is None or row.advisory_state != AdvisoryState.PENDING:
            return "skipped"
        row.page_checks = [
            *(c for c in row.page_checks if c.get("kind") != AUTHENTICITY),
            *checks,
        ]
        row.advisory_state = AdvisoryState.DONE
        row.advisory_done_at = timezone.now()
        row.save(update_fields=["page_checks", "advisory_state", "advisory_done_at", "updated_at"])
        if checks:
            transaction.on_commit(
                functools.partial(metrics.page_checks_observe, checks=checks, sent_back=False)
            )
    return "done"


def _signals(document: Document) -> list[dict[str, Any]]:
    """The page signals of the first ``DOCINTEL_CAPTURE_MAX_PAGES`` captured pages, and the
    glyph check of the fields placed on captured pages: pure CPU work, no lock held."""
    from media.authenticity import signals_of_images
    from media.reading_signals import glyph_check

    pages = list(Page.objects.filter(document=document).order_by("number"))
    captured = [page for page in pages if page.captured]
    if not captured:
        return []
    limit = settings.DOCINTEL_CAPTURE_MAX_PAGES
    judged = captured[:limit]
    fields = _placed_fields(document, {page.number for page in captured})
    wanted = {page.number for page in judged} | {found.page for found in fields.values()}
    images = {
        page.number: blobs.blob_read(document=document, name=page.blob_name)
        for page in captured
        if page.number in wanted
    }
    checks: list[dict[str, Any]] = []
    if judged:
        numbers = [page.number for page in judged]
        photo = None
        if document.mime_type in SINGLE_IMAGE_TYPES and numbers[:1] == [1]:
            photo = {1: blobs.blob_read(document=document, name=document.blob_name)}
        signals = signals_of_images([images[n] for n in numbers], numbers, photo)
        checks.extend(signal.to_dict() for signal in signals)
    if fields:
        # the pages by number; a page not captured (or not read) stands as one with a text
        # layer, which glyph_check never judges
        count = max(page.number for page in pages)
        page_images = [images.get(n, b"") for n in range(1, count + 1)]
        not_judged = ["" if n in images else "-" for n in range(1, count + 1)]
        glyphs = glyph_check(page_images, not_judged, fields, limit)
        if glyphs is not None:
            checks.append(glyphs)
    return checks


def _placed_fields(document: Document, captured: set[int]) -> dict[str, FieldResult]:
    """The fields of the document's latest reading that have a value and a box on a captured
    page, as the engine placed them (the rows keep its value, page and box)."""
    extraction = document.extractions.order_by("-created_at").first()
    if extraction is None:
        return {}
    rows: Sequence[Field] = list(
        extraction.fields.filter(page__in=captured, bbox__isnull=False)
        .exclude(value__isnull=True)
        .exclude(value="")
    )
    return {
        row.name: FieldResult(
            value=row.value,
            confidence=row.raw_confidence,
            page=row.page,
            bbox=tuple(row.bbox),
            source=row.source,
        )
        for row in rows
        if isinstance(row.bbox, list) and len(row.bbox) == 4
    }


def documents_advisory_reconcile(*, now: dt.datetime | None = None) -> list[str]:
    """Documents pending their signals, untouched for longer than ``DOCINTEL_STUCK_AFTER_S`` (a
    message lost with the broker), have the step requested again; their ids."""
    now = now or timezone.now()
    cutoff = now - dt.timedelta(seconds=settings.DOCINTEL_STUCK_AFTER_S)
    stuck = [
        str(pk)
        for pk in Document.objects.filter(
            advisory_state=AdvisoryState.PENDING, updated_at__lt=cutoff
        ).values_list("pk", flat=True)[:500]
    ]
    if stuck:
        # touched, so that the next run waits a deadline again before it sends them once more
        Document.objects.filter(pk__in=stuck).update(updated_at=now)
        steps_request(PipelineStep.ADVISORY, stuck)
    return stuck
