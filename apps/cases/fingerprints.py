"""What identifies a document across applicants, as salted hashes: its identity document number
per type and issuing country, and what its barcode holds.

The barcode's raw payload is not kept by the pipeline; the fields read from it (source
``barcode``) are what it holds, so their values together stand for the payload. Hashes are salted
with the tenant's id: equal keys never say anything across tenants, and a key does not show the
number it was made from at a glance.
"""

from __future__ import annotations

import hashlib
import re

from apps.cases.checks.types import DocumentFacts, family_of

# A barcode's fields stand for its payload only when there are enough of them to name one document.
MIN_BARCODE_FIELDS = 3


def normalised_number(value: str) -> str:
    """A document number without spaces, hyphens, fillers or case: ``"273184-560"`` is ``"273184560"``."""
    return re.sub(r"[^A-Z0-9]", "", value.upper())


def issuer_of(document: DocumentFacts) -> str:
    """The issuing country, or for a driver licence the issuing region."""
    return document.fields.get("issuing_country") or document.fields.get("issuing_region") or ""


def _digest(salt: str, *parts: str) -> str:
    return hashlib.sha256("\x1f".join((salt, *parts)).encode()).hexdigest()


def number_key(document: DocumentFacts, *, salt: str) -> str:
    """The key of an identity document's number, type and issuer; "" for other documents."""
    number = normalised_number(document.fields.get("document_number", ""))
    if not number or family_of(document.document_type) != "identity":
        return ""
    return _digest(salt, "number", document.document_type, issuer_of(document).upper(), number)


def barcode_key(document: DocumentFacts, *, salt: str) -> str:
    """The key of what the document's barcode holds; "" without a barcode read."""
    read = sorted(
        f"{name}={document.fields[name]}"
        for name, source in document.sources.items()
        if source == "barcode" and document.fields.get(name)
    )
    if len(read) < MIN_BARCODE_FIELDS:
        return ""
    return _digest(salt, "barcode", document.document_type, *read)


def blocked(document: DocumentFacts, *, number: str, document_type: str, issuer: str) -> bool:
    """Whether a blocklist entry names the document (its type and issuer narrow it when set)."""
    if not number or normalised_number(document.fields.get("document_number", "")) != normalised_number(
        number
    ):
        return False
    if document_type and document_type != document.document_type:
        return False
    return not issuer or issuer.upper() == issuer_of(document).upper()
