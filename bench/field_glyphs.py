"""ROC of the one-glyph signal (media.field_glyphs) on generated clean photos and their
one-glyph forgeries, seed fixed.

    python bench/field_glyphs.py [--count 16] [--seed 41]

``--count`` clean phone photos of passports, ID cards and TD2 cards (``synth.capture``'s, seed
``--seed``), each read with the engine for its fields' boxes, and each with one glyph of its date
of birth (or expiry, or document number) replaced by the same glyph of another document's same
field (``synth.glyph_attack``, donor seed ``--seed + 1``), saved as a JPEG at quality 90 and read
again. Reported: ROC AUC (the chance an attack scores above a clean page, ties half), the
false-positive rate on the clean pages and the share of attacks flagged at the shipped threshold
(``GLYPHS_THRESHOLD``), the same on the attacked field alone, the bundled samples/*.jpg scored as
clean pages, and the signal's time per page. Three readings a document at 2-5 s: a few minutes
for 16. Printed, and written to ``bench/results/field-glyphs-<UTC date>.json``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.roc import auc  # noqa: E402
from media.field_glyphs import GLYPHS_THRESHOLD, field_glyph_signal  # noqa: E402
from synth.glyph_attack import glyph_attack, photo_bgr, read_fields  # noqa: E402

SEED = 41


def roc(positives: list[float], negatives: list[float], threshold: float) -> dict[str, Any]:
    return {
        "auc": round(auc(positives, negatives), 4),
        "threshold": threshold,
        "clean": len(negatives),
        "false_positives": sum(n >= threshold for n in negatives),
        "fpr": round(sum(n >= threshold for n in negatives) / max(1, len(negatives)), 4),
        "attacks": len(positives),
        "flagged": sum(p >= threshold for p in positives),
        "tpr": round(sum(p >= threshold for p in positives) / max(1, len(positives)), 4),
        "clean_max": round(max(negatives), 3) if negatives else None,
        "attack_scores": sorted(round(p, 3) for p in positives),
    }


def score(page: np.ndarray, fields: list[Any]) -> tuple[float, float]:
    """The signal's score of the page (0 when no field is judged) and its time in ms."""
    start = time.perf_counter()
    check = field_glyph_signal(page, fields, 1)
    return (float(check["score"]) if check else 0.0), 1000 * (time.perf_counter() - start)


def run(count: int, seed: int) -> dict[str, Any]:
    clean_scores: list[float] = []
    attack_scores: list[float] = []
    clean_field: list[float] = []
    attack_field: list[float] = []
    times: list[float] = []
    ratios: list[float] = []
    documents: list[dict[str, Any]] = []
    for index in range(count):
        clean, donor = photo_bgr(seed, index), photo_bgr(seed + 1, index)
        clean_fields, donor_fields = read_fields(clean), read_fields(donor)
        clean_score, ms = score(clean, clean_fields)
        times.append(ms)
        rng = np.random.default_rng(2000 + index)
        attack = glyph_attack(clean, donor, rng, clean_fields, donor_fields)
        row: dict[str, Any] = {"index": index, "clean": round(clean_score, 3)}
        clean_scores.append(clean_score)
        if attack is not None:
            attacked_score, ms = score(attack.image, read_fields(attack.image))
            times.append(ms)
            only = [
                (attack.field, value, attack.bbox) for name, value, _ in clean_fields if name == attack.field
            ]
            clean_only, _ = score(clean, only)
            attacked_only, _ = score(attack.image, only)
            attack_scores.append(attacked_score)
            clean_field.append(clean_only)
            attack_field.append(attacked_only)
            ratios.append(attack.size_ratio)
            row.update(
                field=attack.field,
                glyph=attack.glyph,
                size_ratio=attack.size_ratio,
                attacked=round(attacked_score, 3),
                field_clean=round(clean_only, 3),
                field_attacked=round(attacked_only, 3),
            )
        documents.append(row)
        print(json.dumps(row), flush=True)
    samples: list[dict[str, Any]] = []
    for path in sorted((ROOT / "samples").glob("*.jpg")):
        page = cv2.imread(str(path), cv2.IMREAD_COLOR)
        fields = read_fields(page)
        check = field_glyph_signal(page, fields, 1)
        samples.append(
            {
                "sample": path.name,
                "judged": check is not None,
                "score": None if check is None else check["score"],
                "flagged": bool(check and not check["passed"]),
            }
        )
    judged = [s for s in samples if s["judged"]]
    # the attacks whose pasted glyph is within 10 % of the replaced one's height, and the others
    close = [abs(r - 1.0) <= 0.1 for r in ratios]
    by_size = {
        label: {
            "attacks": sum(c == want for c in close),
            "flagged": sum(
                c == want and p >= GLYPHS_THRESHOLD for c, p in zip(close, attack_scores, strict=True)
            ),
        }
        for label, want in (("size_within_10pct", True), ("size_off_by_more", False))
    }
    return {
        "seed": seed,
        "count": count,
        "threshold": GLYPHS_THRESHOLD,
        "page": roc(attack_scores, clean_scores, GLYPHS_THRESHOLD),
        "attacked_field_only": roc(attack_field, clean_field, GLYPHS_THRESHOLD),
        "by_size": by_size,
        "samples": {
            "judged": len(judged),
            "false_positives": sum(s["flagged"] for s in judged),
            "fpr": round(sum(s["flagged"] for s in judged) / len(judged), 4) if judged else None,
            "pages": samples,
        },
        "ms_per_page": {"median": round(float(np.median(times)), 1), "max": round(max(times), 1)},
        "documents": documents,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=16)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    started = time.time()
    report = run(args.count, args.seed)
    report["seconds"] = round(time.time() - started, 1)
    report["date"] = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    out = ROOT / "bench" / "results" / f"field-glyphs-{dt.datetime.now(dt.UTC):%Y%m%d}.json"
    out.write_text(json.dumps(report, indent=2) + "\n")
    for key in ("page", "attacked_field_only"):
        print(key, {k: v for k, v in report[key].items() if k != "attack_scores"})
    print("by_size", report["by_size"])
    print("samples", {k: v for k, v in report["samples"].items() if k != "pages"})
    print("ms_per_page", report["ms_per_page"], "seconds", report["seconds"], "->", out.relative_to(ROOT))


if __name__ == "__main__":
    main()
