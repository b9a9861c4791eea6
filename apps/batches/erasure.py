"""Forgetting the file names of refused files (``Batch.refused``): on a person's erasure request,
and after the tenant's retention period.

A refused file never became a document, so nothing links it to a person but its name, which an
applicant or integrator often makes of the person's name ("anna-mueller-passport.heic"). Its
entry keeps the reason it was refused (code and message, which never quote the file) and loses
the name: ``{"file": "", ...}``, so the batch still counts and explains its refusals.

On a person's request, the names go in every batch that held one of the person's documents (the
same submission), and in any batch where a refused name mentions the person: two words of their
name (accents and case folded), or their document number. A namesake's file loses its name too:
only a name, and one that mentions the person. After the retention period, batches older than
the period lose every refused name, and those with no documents left are deleted.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
import uuid
from collections.abc import Sequence
from typing import Any

from apps.batches.models import Batch, BatchDocument
from apps.tenants.models import Tenant

ERASED_NAME = ""


def _words(text: str) -> set[str]:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().upper()
    return set("".join(c if c.isalnum() else " " for c in plain).split())


def _alnum(text: str) -> str:
    return "".join(c for c in text.upper() if c.isalnum())


def name_mentions_person(file_name: str, *, name: str, document_number: str = "") -> bool:
    """Whether a file name mentions the person: two words of their name (all of a one-word
    name), or their document number."""
    wanted = _words(name)
    found = _words(file_name)
    if wanted and len(found & wanted) >= min(2, len(wanted)):
        return True
    number = _alnum(document_number)
    return len(number) >= 5 and number in _alnum(file_name)


def _names_forget(batch: Batch, forget: Any) -> bool:
    """Blank the name of each refused entry ``forget(entry)`` is true for; whether any was."""
    changed = False
    for entry in batch.refused:
        if entry.get("file") and forget(entry):
            entry["file"] = ERASED_NAME
            changed = True
    if changed:
        batch.save(update_fields=["refused"])
    return changed


def batch_refusals_forget_person(
    *, tenant: Tenant, document_ids: Sequence[uuid.UUID | str], name: str, document_number: str = ""
) -> int:
    """A person's erasure: refused names of the batches that held ``document_ids`` (call it before
    those documents are erased), and those that mention the person. Returns the batches changed."""
    theirs = set(
        BatchDocument.objects.filter(document_id__in=list(document_ids)).values_list("batch_id", flat=True)
    )
    changed = 0
    for batch in Batch.objects.filter(tenant=tenant).exclude(refused=[]):
        if batch.pk in theirs:
            changed += _names_forget(batch, lambda _: True)
        else:
            changed += _names_forget(
                batch,
                lambda e: name_mentions_person(e["file"], name=name, document_number=document_number),
            )
    return changed


def batches_expire(*, tenant: Tenant, cutoff: dt.datetime) -> int:
    """Retention: the tenant's batches opened before ``cutoff`` lose their refused names, and those
    whose documents are all erased are deleted. Returns the batches deleted."""
    old = Batch.objects.filter(tenant=tenant, created_at__lt=cutoff)
    _, deleted = old.filter(items__isnull=True).delete()
    for batch in old.exclude(refused=[]):
        _names_forget(batch, lambda _: True)
    return deleted.get(Batch._meta.label, 0)
