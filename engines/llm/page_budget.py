"""How many image tokens Gemma 4 spends on a page at a given budget (``max_soft_tokens``).

Gemma 4's image processor resizes a page, keeping its aspect ratio, to the largest size whose
16-pixel patches fit ``budget x 3²`` and whose sides are multiples of 48 (patch x the 3x3 pooling);
each pooled 3x3 block of patches is one soft token. So a page costs *at most* its budget — an A4
page at 1120 slightly less — and the prompt grows by that count plus the two tokens around it.
This mirrors ``get_aspect_ratio_preserving_size`` in transformers' ``image_processing_gemma4``
(5.16-5.19); the Gemma 4 tests check it against what vLLM counts.
"""

from __future__ import annotations

import math

SUPPORTED_BUDGETS = (70, 140, 280, 560, 1120)
PATCH = 16
POOLING = 3
TOKENS_AROUND_IMAGE = 2  # <|image> before the soft tokens, <image|> after


def image_soft_tokens(width: int, height: int, budget: int) -> int:
    """The soft tokens of one ``width`` x ``height`` page read at ``budget``."""
    if budget not in SUPPORTED_BUDGETS:
        raise ValueError(f"Gemma 4 reads pages at {SUPPORTED_BUDGETS} soft tokens, not {budget}")
    if width < 1 or height < 1:
        raise ValueError("a page has a positive size")
    max_patches = budget * POOLING**2
    factor = math.sqrt(max_patches * PATCH**2 / (width * height))
    side = POOLING * PATCH
    target_height = math.floor(factor * height / side) * side
    target_width = math.floor(factor * width / side) * side
    longest = (max_patches // POOLING**2) * side
    if target_height == 0:
        target_height, target_width = side, min(math.floor(width / height) * side, longest)
    elif target_width == 0:
        target_width, target_height = side, min(math.floor(height / width) * side, longest)
    return (target_height // PATCH) * (target_width // PATCH) // POOLING**2
