"""Restoring the word spaces the PP-OCR recogniser drops, from the gaps in the line image.

The recogniser (a Chinese/Latin CTC model) often runs words together: "KLAUS WEBER" reads
"KLAUSWEBER", "MONSIEUR NICOLAS BERNARD" one word, most of all in capitals and small serif type.
For names, streets and merchants that is the difference between right and wrong. The image still
shows the space: a run of blank columns clearly wider than the gaps between letters. So this
module wraps RapidOCR's recogniser: it recognises exactly as before, then, per line, finds the
blank column runs of the crop the model saw and inserts a space between the two characters the
model placed either side of a wide run, unless it already put one there. While decoding, it also
keeps the model to the scripts our documents are printed in: six thousand of its characters are
Chinese, and on a smeared page it reads Latin print as them ("01/月/2024" for 01/11/2024), where
the likeliest Latin character is the better guess.

A wide run is at least ``_MIN_GAP_OF_HEIGHT`` of the line's ink height and clearly wider than the
line's typical gap (letter gaps in the fonts we measured: 3-13 px at 48 px line height; word gaps:
10-45 px). Lines without a wide run, and text the model already spaced, are left alone.
"""

from __future__ import annotations

import itertools
import math
import time
from typing import Any

import cv2
import numpy as np

from engines.ocr_runtime import WIDTH_STEP

_MIN_GAP_OF_HEIGHT = 0.3  # a word gap is at least this fraction of the line's ink height
_MIN_GAP_PX = 9  # ... and at least this wide at the model's 48-pixel line height
_GAP_OVER_TYPICAL = 1.5  # ... and this many times the line's median gap
_BLANK_INK_PX = 2  # a column with at most this many ink pixels counts as blank (noise, underlines)
# ... and the recogniser's two characters either side are this many times their usual distance
# apart (a monospaced "r" leaves a wide blank beside it, but sits one usual step from its neighbour)
_STEP_OVER_TYPICAL = 1.3
_NO_SPACE_AFTER = frozenset("(/-'$€£#@")
_NO_SPACE_BEFORE = frozenset(",.:;)/%-'")


# Code points our documents print: Latin letters with their accents, punctuation, currency signs,
# and the full-width forms and CJK brackets some MRZ fonts' digits and fillers are read as ("《").
_DOCUMENT_RANGES = ((0x0000, 0x024F), (0x2000, 0x206F), (0x20A0, 0x20CF), (0x3000, 0x303F), (0xFF00, 0xFFEF))


def in_document_scripts(char: str) -> bool:
    return all(any(lo <= ord(c) <= hi for lo, hi in _DOCUMENT_RANGES) for c in char)


class SpacedRecognizer:
    """RapidOCR's ``TextRecognizer`` with its call replaced by one that restores word spaces; its
    attributes (session, shapes, vocabulary) stay reachable, because :meth:`engines.ocr.Ocr.recognize`
    uses them directly."""

    def __init__(self, recognizer: Any) -> None:
        self._rec = recognizer
        self._vocabulary: list[str] = list(recognizer.postprocess_op.character)
        # the CTC blank (index 0) and every character of our scripts stay readable
        self._readable = np.array(
            [index == 0 or in_document_scripts(char) for index, char in enumerate(self._vocabulary)]
        )

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rec, name)

    def __call__(self, img_list: Any, return_word_box: bool = False) -> tuple[list[tuple[str, float]], float]:
        if isinstance(img_list, np.ndarray):
            img_list = [img_list]
        _, height, width = self._rec.rec_image_shape[:3]
        order = np.argsort([img.shape[1] / float(img.shape[0]) for img in img_list])
        results: list[tuple[str, float]] = [("", 0.0)] * len(img_list)
        elapsed = 0.0
        batch = self._rec.rec_batch_num
        for start in range(0, len(img_list), batch):
            members = order[start : start + batch]
            max_ratio = max([width / height] + [img_list[i].shape[1] / img_list[i].shape[0] for i in members])
            max_ratio = math.ceil(height * max_ratio / WIDTH_STEP) * WIDTH_STEP / height
            inputs = np.concatenate(
                [self._rec.resize_norm_img(img_list[i], max_ratio)[np.newaxis] for i in members]
            )
            started = time.time()
            preds = self._rec.session(inputs.astype(np.float32))[0]
            elapsed += time.time() - started
            input_width = int(height * max_ratio)
            for row, index in enumerate(members):
                crop = img_list[index]
                resized_width = min(input_width, math.ceil(height * crop.shape[1] / crop.shape[0]))
                results[index] = self._decode(preds[row], crop, resized_width, input_width, height)
        return results, elapsed

    def _decode(
        self, probs: np.ndarray, crop: np.ndarray, resized_width: int, input_width: int, height: int
    ) -> tuple[str, float]:
        if len(self._readable) == probs.shape[1]:
            probs = np.where(self._readable, probs, 0.0)
        best = probs.argmax(axis=1)
        chars: list[tuple[int, str, float]] = []  # (frame, character, probability)
        previous = 0
        for frame, index in enumerate(best):
            if index != 0 and index != previous:
                chars.append((frame, self._vocabulary[index], float(probs[frame, index])))
            previous = index
        if not chars:
            return "", 0.0
        score = float(np.mean([p for _, _, p in chars]))
        frame_px = input_width / probs.shape[0]
        gaps = _word_gaps(crop, resized_width, height)
        steps = [b[0] - a[0] for a, b in itertools.pairwise(chars)]
        typical_step = float(np.median(steps)) if steps else 0.0
        text = []
        for i, (frame, char, _) in enumerate(chars):
            if (
                i
                and gaps
                and _may_split(chars[i - 1][1], char)
                and frame - chars[i - 1][0] >= _STEP_OVER_TYPICAL * typical_step
            ):
                left, right = (chars[i - 1][0] + 0.5) * frame_px, (frame + 0.5) * frame_px
                if any(left < centre < right for centre in gaps):
                    text.append(" ")
            text.append(char)
        return "".join(text), score


def _may_split(before: str, after: str) -> bool:
    """Spaces are restored between words of letters only: never inside numbers, codes ("M19 2LL",
    "SW1A") or next to punctuation, where wide side bearings (a "1", a ",") leave gaps that are
    not word breaks."""
    if " " in (before, after) or before in _NO_SPACE_AFTER or after in _NO_SPACE_BEFORE:
        return False
    return not (before.isdigit() or after.isdigit())


def _word_gaps(crop: np.ndarray, width: int, height: int) -> list[float]:
    """Centres (in the model's input pixels) of the blank column runs wide enough to be word gaps."""
    resized = cv2.resize(crop, (max(width, 1), height))
    gray = cv2.cvtColor(resized, cv2.COLOR_BGR2GRAY) if resized.ndim == 3 else resized
    _, binary = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = binary == 0 if float(np.median(gray)) > 127 else binary == 255
    columns = ink.sum(axis=0)
    inked = np.flatnonzero(columns > _BLANK_INK_PX)
    rows = np.flatnonzero(ink.sum(axis=1) > _BLANK_INK_PX)
    if len(inked) < 2 or len(rows) == 0:
        return []
    ink_height = float(rows[-1] - rows[0] + 1)
    runs: list[tuple[int, int]] = []  # (start, width) of blank runs between the first and last ink
    start = None
    for x in range(int(inked[0]), int(inked[-1]) + 1):
        if columns[x] <= _BLANK_INK_PX:
            start = x if start is None else start
        elif start is not None:
            runs.append((start, x - start))
            start = None
    if not runs:
        return []
    typical = float(np.median([w for _, w in runs]))
    wide = max(_MIN_GAP_PX, _MIN_GAP_OF_HEIGHT * ink_height, _GAP_OVER_TYPICAL * typical)
    return [s + w / 2 for s, w in runs if w >= wide]
