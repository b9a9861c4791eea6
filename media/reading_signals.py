"""Authenticity signals that need the reading: where each field's value was read on the page.

The page signals (``media.authenticity``) look at the page images alone, in the prepare step.
The glyph signal (``media.field_glyphs``) compares the glyphs *within* one field's box, so it
runs once the engine has placed the fields: in the inference step's validation, on the same
stored page images, before the result is stored. Pages with a text layer (a digital PDF) are
not photographs of print and are not judged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import cv2
import numpy as np

from engines.types import FieldResult
from media.field_glyphs import field_glyph_signal


def glyph_check(
    pages: Sequence[bytes],
    text_layer: Sequence[str] | None,
    fields: Mapping[str, FieldResult],
    max_pages: int,
) -> dict[str, Any] | None:
    """The document's glyph-consistency check: the highest-scoring of its first ``max_pages``
    photographed pages that hold a judged field, or None when there is none."""
    placed: dict[int, list[tuple[str, str, tuple[float, float, float, float]]]] = defaultdict(list)
    for name, found in fields.items():
        if found.value and found.bbox is not None and found.page:
            placed[found.page].append((name, str(found.value), tuple(found.bbox)))  # type: ignore[arg-type]
    checks: list[dict[str, Any]] = []
    for number in sorted(placed)[:max_pages]:
        if not 1 <= number <= len(pages) or (text_layer and text_layer[number - 1]):
            continue
        image = cv2.imdecode(np.frombuffer(pages[number - 1], np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            continue
        check = field_glyph_signal(image, placed[number], number)
        if check is not None:
            checks.append(check)
    return max(checks, key=lambda c: float(c.get("score") or 0.0)) if checks else None
