"""Writes on batches: a batch is opened, files are added one by one, each through the same upload
service as the web page (``apps.ingestion.services.file_upload``: zips unpacked safely, every
refusal a readable reason), and the documents made are listed in the batch in submission order."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from apps.audit.services import audit_record
from apps.batches.models import Batch, BatchDocument, BatchSource
from apps.ingestion.services import FileUploadOutcome, UploadRefusal
from apps.tenants.models import Tenant


@transaction.atomic
def batch_open(*, tenant: Tenant, source: str = BatchSource.API, actor: User | None = None) -> Batch:
    batch = Batch.objects.create(tenant=tenant, source=source)
    audit_record(
        tenant=tenant,
        actor=actor,
        action="batch.created",
        object_type="batch",
        object_id=str(batch.pk),
        data={"source": source},
    )
    return batch


@transaction.atomic
def batch_record(
    *,
    batch: Batch,
    outcome: FileUploadOutcome,
    position: int | None = None,
    deferred: list[BatchDocument] | None = None,
) -> list[BatchDocument]:
    """Add what one uploaded file became to the batch: its documents, and its refusals.
    ``position``: how many documents the batch has already, when the caller knows. ``deferred``:
    the batch's rows are appended there for the caller to insert together, once for the batch."""
    start = BatchDocument.objects.filter(batch=batch).count() if position is None else position
    items = [
        BatchDocument(
            batch=batch, document=uploaded.document, position=start + i, file=uploaded.name[:255],
            duplicate=not uploaded.created,
        )
        for i, uploaded in enumerate(outcome.documents)
    ]  # fmt: skip
    if deferred is None:
        BatchDocument.objects.bulk_create(items)
    else:
        deferred.extend(items)
    refusals = ([outcome.error] if outcome.error else []) + outcome.refused
    if refusals:
        batch_refusals_add(batch=batch, refusals=refusals)
    return items


def batch_refusals_add(*, batch: Batch, refusals: list[UploadRefusal]) -> None:
    batch.refused = [
        *batch.refused,
        *({"file": r.name, "code": r.code, "message": r.message} for r in refusals),
    ]
    batch.save(update_fields=["refused"])
