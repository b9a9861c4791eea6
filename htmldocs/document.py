"""What a composed document is: its HTML, how it is printed, and its truth.

Each kind module (invoice, receipt, bill, statement) returns a :class:`Composed`; the renderer
turns its HTML into the file the truth describes. The truth names every field of the type in
the order of the one field spec (``engines/spec/document_types.toml``), with ``None`` for what
the document does not print, so a missing field is a decision recorded here, not an accident.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from engines.spec import FIELDS


@dataclass(frozen=True)
class Output:
    """How a document is printed: a PDF with a text layer, or an image (PNG or JPEG)."""

    form: str  # "pdf", "png" or "jpeg"
    page: str = "a4"  # "a4", or "strip" (a narrow receipt as long as its content)
    width_px: int = 794  # CSS width of the viewport (A4 is 794 px at 96 dpi)
    scale: float = 2.0  # device pixels per CSS pixel for images
    roughen: bool = False  # lightly degrade the image (rotation, blur, paper tone, JPEG)
    photo: bool = False  # a narrow strip laid on a desk and photographed (receipts)
    seed: int = 0  # drives the roughening and the JPEG quality, so the truth never depends on them

    @property
    def extension(self) -> str:
        return {"pdf": "pdf", "png": "png", "jpeg": "jpg"}[self.form]


@dataclass(frozen=True)
class Composed:
    document_type: str
    layout: str
    html: str
    fields: dict[str, str | None]
    output: Output
    printed_total: str  # the amount due or paid exactly as printed ("" where none is printed)
    meta: dict[str, Any] = field(default_factory=dict)


def complete_fields(document_type: str, values: dict[str, str | None]) -> dict[str, str | None]:
    """Every field of ``document_type`` in spec order; a name the spec lacks is a bug here."""
    names = FIELDS[document_type]
    unknown = set(values) - set(names)
    if unknown:
        raise ValueError(f"{document_type} has no fields {sorted(unknown)}")
    return {name: values.get(name) for name in names}


def random_date(rng: random.Random, start: date = date(2023, 1, 1), end: date = date(2026, 12, 31)) -> date:
    """A day between ``start`` and ``end``, every day equally likely."""
    return start + timedelta(days=rng.randrange((end - start).days + 1))


# Device scale factors: a few fixed ones, so the renderer keeps one browser context per factor.
A4_SCALES = (1.75, 2.0, 2.25)
STRIP_SCALES = (2.25, 2.5, 2.75)


def image_output(rng: random.Random, *, page: str = "a4", width_px: int = 794, photo: float = 0.0) -> Output:
    """An image form: PNG or JPEG at a scan-like scale, lightly roughened more often than not."""
    return Output(
        form=rng.choice(["png", "jpeg", "jpeg"]),
        page=page,
        width_px=width_px,
        scale=rng.choice(A4_SCALES if page == "a4" else STRIP_SCALES),
        roughen=rng.random() < 0.65,
        photo=rng.random() < photo,
        seed=rng.randrange(2**31),
    )
