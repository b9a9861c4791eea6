"""One call from a random generator to an encoded synthetic document and its ground truth.

This is the library API tests and benchmarks use::

    rng = synth.documents.document_rng(seed=7, index=0)
    doc = synth.documents.generate_document(rng, kind="passport", profile="scan")
    doc.image, doc.extension, doc.truth.to_json(), doc.mrz_lines

Every random choice (holder, layout, fonts, degradations) is drawn from ``rng`` in a fixed order,
so the same generator state gives the same bytes. ``document_rng(seed, index)`` gives each
document of a run its own stream, so document 17 is the same whether 20 or 2000 are generated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from synth import degrade, mrz, render
from synth.identity import Identity, pick_weighted, sample_identity

# Kind names as the CLI takes them, and the ICAO format each is printed in.
KINDS: dict[str, mrz.MrzFormat] = {"passport": mrz.TD3, "id_card": mrz.TD1, "td2": mrz.TD2}
PROFILES = (*degrade.PROFILES, "mixed")
# What "mixed" draws: mostly the realistic cases, some clean ones as a baseline.
MIXED_WEIGHTS = (("clean", 0.2), ("scan", 0.4), ("photo", 0.4))


@dataclass(frozen=True)
class Truth:
    """Ground truth in ARCHITECTURE §3.1 terms, taken from what the MRZ encodes."""

    document_type: str  # "passport" | "id_card"
    fields: dict[str, str]
    mrz: tuple[str, ...]
    meta: dict[str, Any] = field(default_factory=dict)  # how it was made: not part of the contract

    def to_json(self) -> dict[str, Any]:
        return {
            "document_type": self.document_type,
            "fields": dict(self.fields),
            "mrz": list(self.mrz),
            "meta": dict(self.meta),
        }


@dataclass(frozen=True)
class SyntheticDocument:
    """An encoded image of a synthetic document with everything needed to score a reader on it."""

    image: bytes
    extension: str  # "png" or "jpg"
    truth: Truth
    kind: str  # "passport" (TD3), "id_card" (TD1) or "td2"
    profile: str  # the profile actually applied (never "mixed")
    identity: Identity

    @property
    def mrz_lines(self) -> tuple[str, ...]:
        return self.truth.mrz


def document_rng(seed: int, index: int) -> np.random.Generator:
    """The random stream of document ``index`` of a run seeded with ``seed``.

    NumPy's spawn keys give statistically independent streams per index (seeding with
    ``[seed, index]`` instead would make index 0 collide with a plain ``default_rng(seed)``).
    """
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def generate_document(
    rng: np.random.Generator, kind: str = "passport", profile: str = "clean", severity: float = 1.0
) -> SyntheticDocument:
    """Draw a holder, compose their MRZ, render it, degrade it per ``profile`` and encode it.

    ``kind`` is "passport", "id_card" or "td2"; ``profile`` is "clean", "scan", "photo" or
    "mixed" (one of the three drawn per document); ``severity`` in 0..1 scales the degradations.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {sorted(KINDS)}")
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {PROFILES}")
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
