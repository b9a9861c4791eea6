"""A tenant's webhook secret, encrypted at rest under the master key.

The secret signs every webhook sent to the tenant: whoever holds it can forge an "approved"
document's delivery. So the database holds it only sealed (AES-256-GCM, ``apps.documents.crypto``)
under the master key that wraps the documents' data keys, bound to its tenant (the tenant's id is
the associated data: a sealed secret copied onto another tenant does not open). It is opened only
to sign a delivery (``apps.webhooks.services``) or to print it (``manage.py webhook_secret``), and
``manage.py rotate_keys`` re-seals it under the current master key with the documents' keys.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field

from django.db import transaction

from apps.documents import blobs, crypto
from apps.tenants.models import Tenant

logger = logging.getLogger(__name__)


def _associated_data(tenant_id: uuid.UUID | str) -> bytes:
    return b"webhook-secret:" + str(tenant_id).encode()


def webhook_secret_seal(*, tenant_id: uuid.UUID | str, secret: str, master_key: bytes | None = None) -> bytes:
    """``secret`` encrypted for the tenant under ``master_key`` (by default the current one)."""
    key = master_key if master_key is not None else blobs.master_key()
    return crypto.encrypt(key, secret.encode(), associated_data=_associated_data(tenant_id))


def webhook_secret_open(*, tenant_id: uuid.UUID | str, sealed: bytes) -> tuple[str, int]:
    """The secret, and the index in ``blobs.master_keys()`` of the key that opened it (0: the
    current one). ``crypto.DecryptionError`` when no configured master key opens it."""
    for index, key in enumerate(blobs.master_keys()):
        try:
            return crypto.decrypt(key, sealed, associated_data=_associated_data(tenant_id)).decode(), index
        except crypto.DecryptionError:
            continue
    raise crypto.DecryptionError("no configured master key opens this webhook secret")


def webhook_secret_of(*, tenant: Tenant) -> str:
    """The tenant's webhook secret in clear, to sign with or to show to its administrator."""
    secret, _ = webhook_secret_open(tenant_id=tenant.pk, sealed=bytes(tenant.webhook_secret_encrypted))
    return secret


@dataclass
class ResealReport:
    checked: int = 0
    resealed: int = 0
    unreadable: list[str] = field(default_factory=list)  # tenant ids no configured key opens


def webhook_secrets_reseal(*, dry_run: bool = False) -> ResealReport:
    """Re-seal under the current master key every webhook secret still sealed under a retired one
    (step 2 of the rotation in ``apps.documents.keys``); each tenant in its own transaction."""
    report = ResealReport()
    for tenant_id in Tenant.objects.order_by("pk").values_list("pk", flat=True):
        report.checked += 1
        with transaction.atomic():
            tenant = Tenant.objects.select_for_update().filter(pk=tenant_id).first()
            if tenant is None:
                continue
            try:
                secret, index = webhook_secret_open(
                    tenant_id=tenant.pk, sealed=bytes(tenant.webhook_secret_encrypted)
                )
            except crypto.DecryptionError:
                report.unreadable.append(str(tenant.pk))
                continue
            if index == 0:
                continue
            report.resealed += 1
            if not dry_run:
                tenant.webhook_secret_encrypted = webhook_secret_seal(tenant_id=tenant.pk, secret=secret)
                tenant.save(update_fields=["webhook_secret_encrypted"])
    logger.info(
        "key rotation: %d webhook secrets checked, %d re-sealed, %d unreadable",
        report.checked, report.resealed, len(report.unreadable),
    )  # fmt: skip
    return report
