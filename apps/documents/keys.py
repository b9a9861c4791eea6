"""Master key rotation: re-wrap every document's data key, and re-seal every tenant's webhook
secret (``apps.tenants.webhook_secrets``), under the current master key.

Blobs are encrypted under per-document data keys and never touched here: rotating the master key
re-encrypts 32-byte keys in the database, not gigabytes of storage. The procedure is
    1. set ``DOCINTEL_MASTER_KEY`` to a new key and list the old one in ``DOCINTEL_OLD_MASTER_KEYS``
       (every process reads with both, and wraps new documents under the new one);
    2. run ``manage.py rotate_keys`` (safe to interrupt and run again: each row is re-wrapped in its
       own transaction, and rows already under the new key are skipped);
    3. remove the old key from ``DOCINTEL_OLD_MASTER_KEYS`` (and destroy it).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.db import transaction

from apps.audit.services import audit_record
from apps.documents import blobs, crypto
from apps.documents.models import Document
from apps.tenants.webhook_secrets import webhook_secrets_reseal

logger = logging.getLogger(__name__)


@dataclass
class RewrapReport:
    checked: int = 0
    rewrapped: int = 0
    unreadable: list[str] = field(default_factory=list)  # document ids no configured key unwraps
    webhook_secrets_resealed: int = 0
    unreadable_webhook_secrets: list[str] = field(default_factory=list)  # tenant ids


def documents_rewrap_keys(*, dry_run: bool = False, batch_size: int = 500) -> RewrapReport:
    """Re-wrap under the current master key every data key still wrapped under a retired one."""
    keys = blobs.master_keys()
    report = RewrapReport()
    last_pk = None
    while True:
        page = Document.objects.order_by("pk")
        if last_pk is not None:
            page = page.filter(pk__gt=last_pk)
        ids = list(page.values_list("pk", flat=True)[:batch_size])
        if not ids:
            break
        last_pk = ids[-1]
        for document_id in ids:
            report.checked += 1
            with transaction.atomic():
                document = Document.objects.select_for_update().filter(pk=document_id).first()
                if document is None:  # purged meanwhile
                    continue
                try:
                    data_key, index = crypto.unwrap_key_any(
                        keys, bytes(document.wrapped_key), document_id=str(document.pk)
                    )
                except crypto.DecryptionError:
                    report.unreadable.append(str(document.pk))
                    continue
                if index == 0:
                    continue
                report.rewrapped += 1
                if not dry_run:
                    document.wrapped_key = crypto.wrap_key(keys[0], data_key, document_id=str(document.pk))
                    document.save(update_fields=["wrapped_key"])
    secrets = webhook_secrets_reseal(dry_run=dry_run)
    report.webhook_secrets_resealed = secrets.resealed
    report.unreadable_webhook_secrets = secrets.unreadable
    if not dry_run:
        audit_record(
            tenant=None,
            actor=None,
            action="keys.rotated",
            object_type="master_key",
            object_id="current",
            data={
                "checked": report.checked,
                "rewrapped": report.rewrapped,
                "unreadable": len(report.unreadable),
                "webhook_secrets_resealed": secrets.resealed,
                "unreadable_webhook_secrets": len(secrets.unreadable),
            },
        )
    logger.info(
        "key rotation: %d documents checked, %d re-wrapped, %d unreadable",
        report.checked,
        report.rewrapped,
        len(report.unreadable),
    )
    return report
