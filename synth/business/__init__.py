"""Synthetic business documents: receipts, invoices, proofs of address, bank statements, others.

The engine will be measured on documents from generators it has never seen, so variety is the
point: each type has several layout families (label beside or above its value, tables, totals
blocks, letterheads, multi-page statements and invoices), six label languages, the date,
number and currency habits of nine countries, and comes out as a phone photo, a scan, a clean
image, a digital PDF with a text layer or a scanned PDF without one.

Each type module composes pages in millimetres (``synth.business.layout``) and returns the
truth in the ARCHITECTURE §3.1 conventions documented in ``synth.business.common``; the
``output`` module turns the pages into a file. ``generate`` is the one entry point::

    doc = synth.business.generate(rng, "invoice", profile="mixed", severity=1.0)
    doc.data, doc.extension, doc.fields, doc.meta

Everything is drawn from ``rng`` in a fixed order: the same generator state gives the same
bytes, PDFs included.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from synth.business.output import choose_rendition, render

# Kind -> module with ``compose(rng) -> Composition``.
_MODULES: dict[str, str] = {
    "receipt": "synth.business.receipt",
    "invoice": "synth.business.invoice",
    "proof_of_address": "synth.business.address",
    "bank_statement": "synth.business.statement",
    "other": "synth.business.other",
}
KINDS: tuple[str, ...] = tuple(_MODULES)


@dataclass(frozen=True)
class BusinessDocument:
    """An encoded business document (image or PDF) and its ground truth."""

    data: bytes
    extension: str  # "jpg", "png" or "pdf"
    document_type: str
    fields: dict[str, str]
    profile: str  # "clean", "scan" or "photo" (digital PDFs count as clean)
    meta: dict[str, Any] = field(default_factory=dict)


def generate(
    rng: np.random.Generator, kind: str, profile: str = "mixed", severity: float = 1.0
) -> BusinessDocument:
    """Compose a document of ``kind``, pick its form (image, digital or scanned PDF) and write it."""
    if kind not in _MODULES:
        raise ValueError(f"unknown business kind {kind!r}; expected one of {KINDS}")
    fmt, image_profile = choose_rendition(rng, kind, profile)
    composition = importlib.import_module(_MODULES[kind]).compose(rng)
    rendered = render(composition, rng, fmt, image_profile, severity)
    meta: dict[str, Any] = {
        "kind": kind,
        "layout": composition.layout,
        "format": rendered.format,
        "profile": rendered.profile,
        "severity": severity,
        **composition.meta,
        **rendered.meta,
        "printed": dict(composition.printed),
    }
    return BusinessDocument(
        data=rendered.data,
        extension=rendered.extension,
        document_type=composition.document_type,
        fields=dict(composition.fields),
        profile=rendered.profile,
        meta=meta,
    )
