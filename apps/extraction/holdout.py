"""Which documents of a real set the fitting may see, and which it must not.

"Fit on ours, prove on theirs": every fitted artefact (the confidence maps, the layouts the
calibration knows, the per-type approval thresholds) is fitted on part of each real set and judged
on the rest. The split is by the file's name alone — a stable hash, not a random draw — so the
fitting (``manage.py calibrate``) and the evaluation (``manage.py evaluate``, ``make
bench-accuracy``) agree on it without sharing any state, and a file keeps its side when files are
added to a set.
"""

from __future__ import annotations

import hashlib

# The share of a real set held out of every fit (judged only).
HELD_OUT_SHARE = 0.5


def held_out(file_name: str, *, share: float = HELD_OUT_SHARE) -> bool:
    """Is this file in the held-out part of its set? (The first byte of SHA-256 of its name.)"""
    return hashlib.sha256(file_name.encode("utf-8")).digest()[0] < round(256 * share)
