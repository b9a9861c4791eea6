"""One call from a random generator to an encoded synthetic document and its ground truth.

This is the library API tests and benchmarks use::

    rng = synth.documents.document_rng(seed=7, index=0)
    doc = synth.documents.generate_document(rng, kind="passport", profile="scan")
    doc.image, doc.extension, doc.truth.to_json(), doc.mrz_lines

Kinds: the MRZ documents ("passport", "id_card", "td2"), "driver_license" (from
``synth.driver_license``, imported only when asked for, so the rest works without it) and the
business documents of ``synth.business`` ("receipt", "invoice", "proof_of_address",
"bank_statement", "other"). ``doc.image`` holds the encoded file, whatever it is: PNG, JPEG or,
for business documents and driver licences that come as one, PDF (``doc.extension`` says).

Every random choice (holder, layout, fonts, degradations) is drawn from ``rng`` in a fixed order,
so the same generator state gives the same bytes. ``document_rng(seed, index)`` gives each
document of a run its own stream, so document 17 is the same whether 20 or 2000 are generated.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import cv2
import numpy as np

from synth import business, degrade, mrz, render
from synth.identity import Identity, pick_weighted, sample_identity

# MRZ kind names as the CLI takes them, and the ICAO format each is printed in.
KINDS: dict[str, mrz.MrzFormat] = {"passport": mrz.TD3, "id_card": mrz.TD1, "td2": mrz.TD2}
MRZ_KINDS: tuple[str, ...] = tuple(KINDS)
DRIVER_LICENSE = "driver_license"
BUSINESS_KINDS: tuple[str, ...] = business.KINDS
# Every kind the generator knows, in the CLI's default round-robin order.
ALL_KINDS: tuple[str, ...] = (*MRZ_KINDS, DRIVER_LICENSE, *BUSINESS_KINDS)
PROFILES = (*degrade.PROFILES, "mixed")
# What "mixed" draws: mostly the realistic cases, some clean ones as a baseline.
MIXED_WEIGHTS = (("clean", 0.2), ("scan", 0.4), ("photo", 0.4))


class KindUnavailable(ValueError):
    """A known kind whose generator cannot be loaded here (``synth.driver_license`` missing)."""


@dataclass(frozen=True)
class Truth:
    """Ground truth in ARCHITECTURE §3.1 terms (for MRZ kinds, taken from what the MRZ encodes)."""

    document_type: str  # a §3.2 document_type: "passport", "id_card", "invoice", ...
    fields: dict[str, str]
    mrz: tuple[str, ...] = ()  # empty for kinds without an MRZ
    meta: dict[str, Any] = field(default_factory=dict)  # how it was made: not part of the contract

    def to_json(self) -> dict[str, Any]:
        """truth.json's entry: "mrz" only for documents that have one."""
        out: dict[str, Any] = {"document_type": self.document_type, "fields": dict(self.fields)}
        if self.mrz:
            out["mrz"] = list(self.mrz)
        out["meta"] = dict(self.meta)
        return out


@dataclass(frozen=True)
class SyntheticDocument:
    """An encoded synthetic document (image or PDF) with everything needed to score a reader on it."""

    image: bytes  # the encoded file: an image, or a PDF where extension is "pdf"
    extension: str  # "png", "jpg" or "pdf"
    truth: Truth
    kind: str  # one of ALL_KINDS
    profile: str  # the profile actually applied (never "mixed"; digital PDFs count as "clean")
    identity: Identity | None = None  # the MRZ holder; None for other kinds

    @property
    def mrz_lines(self) -> tuple[str, ...]:
        return self.truth.mrz


def document_rng(seed: int, index: int) -> np.random.Generator:
    """The random stream of document ``index`` of a run seeded with ``seed``.

    NumPy's spawn keys give statistically independent streams per index (seeding with
    ``[seed, index]`` instead would make index 0 collide with a plain ``default_rng(seed)``).
    """
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def driver_license_module() -> ModuleType:
    """``synth.driver_license``, imported on first use; ``KindUnavailable`` says why it is not there."""
    try:
        return importlib.import_module("synth.driver_license")
    except ModuleNotFoundError as exc:
        if exc.name == "synth.driver_license":
            raise KindUnavailable(
                "driver_license is unavailable: synth/driver_license.py does not exist in this checkout"
            ) from exc
        raise KindUnavailable(
            f"driver_license is unavailable: synth.driver_license needs {exc.name!r}"
        ) from exc
    except Exception as exc:  # a half-written module must not break the other kinds
        raise KindUnavailable(
            f"driver_license is unavailable: importing synth.driver_license failed: {exc!r}"
        ) from exc


def available_kinds() -> tuple[str, ...]:
    """ALL_KINDS less those whose generator cannot be loaded here (the CLI's default)."""
    try:
        driver_license_module()
    except KindUnavailable:
        return tuple(k for k in ALL_KINDS if k != DRIVER_LICENSE)
    return ALL_KINDS


def generate_document(
    rng: np.random.Generator, kind: str = "passport", profile: str = "clean", severity: float = 1.0
) -> SyntheticDocument:
    """Generate one document of ``kind`` with its truth.

    ``kind`` is one of ALL_KINDS; ``profile`` is "clean", "scan", "photo" or "mixed" (one drawn
    per document; business documents draw their own mix of images, digital and scanned PDFs,
    see ``synth.business.output``); ``severity`` in 0..1 scales the degradations.
    """
    if kind not in ALL_KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {sorted(ALL_KINDS)}")
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {PROFILES}")
    if kind in BUSINESS_KINDS:
        return _business_document(rng, kind, profile, severity)
    if kind == DRIVER_LICENSE:
        return _driver_license(rng, profile, severity)
    return _mrz_document(rng, kind, profile, severity)


def _business_document(
    rng: np.random.Generator, kind: str, profile: str, severity: float
) -> SyntheticDocument:
    doc = business.generate(rng, kind, profile, severity)
    truth = Truth(document_type=doc.document_type, fields=doc.fields, meta=doc.meta)
    return SyntheticDocument(doc.data, doc.extension, truth, kind, doc.profile)


def _driver_license(rng: np.random.Generator, profile: str, severity: float) -> SyntheticDocument:
    """A driver licence from ``synth.driver_license.generate(rng, profile, severity)``.

    "mixed" is resolved here, with the MRZ kinds' weights, so that module only ever sees one of
    the three concrete profiles.
    """
    module = driver_license_module()
    if profile == "mixed":
        profile = pick_weighted(rng, MIXED_WEIGHTS)
    data, extension, raw = module.generate(rng, profile, severity)
    meta = {"kind": DRIVER_LICENSE, "profile": profile, "severity": severity, **dict(raw.get("meta") or {})}
    truth = Truth(
        document_type=raw.get("document_type", DRIVER_LICENSE), fields=dict(raw["fields"]), meta=meta
    )
    return SyntheticDocument(data, extension, truth, DRIVER_LICENSE, profile)


def _mrz_document(rng: np.random.Generator, kind: str, profile: str, severity: float) -> SyntheticDocument:
    """Draw a holder, compose their MRZ, render it, degrade it per ``profile`` and encode it."""
    if profile == "mixed":
        profile = pick_weighted(rng, MIXED_WEIGHTS)

    identity = sample_identity(rng, KINDS[kind])
    lines = mrz.compose(identity.mrz)
    rendered = render.render(identity, lines, rng)
    degraded = degrade.degrade(rendered, rng, profile, severity)
    truth = Truth(
        document_type=mrz.document_type(identity.mrz),
        fields=mrz.truth_fields(identity.mrz),
        mrz=lines,
        meta={
            "kind": kind,
            "format": identity.mrz.format.name,
            "document_code": identity.mrz.document_code,
            "layout": rendered.layout,
            "profile": profile,
            "severity": severity,
            "degradations": list(degraded.steps),
            "name_truncated": identity.mrz.name.truncated,
            "optional_data": mrz.optional_data(identity.mrz),
            "width": int(degraded.image.shape[1]),
            "height": int(degraded.image.shape[0]),
        },
    )
    return SyntheticDocument(
        image=encode(degraded.image, degraded.extension, degraded.jpeg_quality),
        extension=degraded.extension,
        truth=truth,
        kind=kind,
        profile=profile,
        identity=identity,
    )


def encode(image: np.ndarray, extension: str, jpeg_quality: int | None = None) -> bytes:
    """PNG or baseline JPEG bytes of an RGB image (OpenCV: fast (PNG at level 1: noisy images barely compress anyway), no timestamps)."""
    bgr = cv2.cvtColor(image, cv2.COLOR_RGB2BGR)
    if extension == "png":
        ok, buffer = cv2.imencode(".png", bgr, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    else:
        ok, buffer = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality or 90)])
    if not ok:
        raise RuntimeError(f"OpenCV could not encode a {image.shape} image as {extension}")
    return buffer.tobytes()
