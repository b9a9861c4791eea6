"""ROC of each advisory authenticity signal on a generated attack set, seed fixed.

    python bench/authenticity.py [--count 20] [--read 10]

The attack set (``synth.capture.attack_pages``, seed 31): ``--count`` clean phone photos of
passports, ID cards and TD2 cards, and the same documents shown on a simulated screen and
re-photographed, printed with a halftone screen and re-scanned, with a rectangle pasted in
from another document's JPEG, and with a few of its own characters copied over another field's.
Each page signal (``media.authenticity``: screen, print, edited, copied) is scored on its own
attack against the clean photos: ROC AUC (the chance an attack scores above a clean capture,
ties half), the false-positive rate on the clean photos and the share of attacks flagged at the
shipped threshold, and the false-positive rate of every signal on every attack it is not meant
for. For the copied signal, also how often its region overlaps the pasted rectangle (and how
often it is that copy's box alone, not the box around both copies), and its CPU time a page.
The zones signal needs the engine's reading: the first ``--read`` clean and edited pages are
read (``engines.pipeline.read_document``, 2-5 s a page) and scored by ``zones_signal``. The bundled sample captures (samples/*.jpg) are scored too, as clean pages
made another way. Printed, and written to ``bench/results/authenticity-<UTC date>.json``.
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
from media.authenticity import (  # noqa: E402
    THRESHOLDS,
    ZONES_THRESHOLD,
    edited_score,
    print_score,
    screen_score,
    zones_signal,
)
from media.copy_move import copied_score  # noqa: E402
from synth.capture import attack_pages  # noqa: E402

SEED = 31
SCORES = {
    "screen": screen_score,
    "print": print_score,
    "edited": lambda page: edited_score(page)[0],
    "copied": lambda page: copied_score(page)[0],
}


def roc(positives: list[float], negatives: list[float], threshold: float) -> dict[str, Any]:
    return {
        "auc": round(auc(positives, negatives), 4),
        "threshold": threshold,
        "false_positives": sum(n >= threshold for n in negatives),
        "clean": len(negatives),
        "fpr": round(sum(n >= threshold for n in negatives) / len(negatives), 4),
        "flagged": sum(p >= threshold for p in positives),
        "attacks": len(positives),
        "tpr": round(sum(p >= threshold for p in positives) / len(positives), 4),
        "clean_scores": [round(n, 2) for n in negatives],
        "attack_scores": [round(p, 2) for p in positives],
    }


def copied_regions(pages: list[np.ndarray], pasted: list[tuple[int, int, int, int]]) -> dict[str, Any]:
    """Of the copied pages flagged, those whose region overlaps the pasted rectangle, and those
    whose region is one copy's box (not the box around both); the CPU time a page, in ms."""
    flagged = overlapping = one_side = 0
    times = []
    for page, (x0, y0, x1, y1) in zip(pages, pasted, strict=True):
        started = time.process_time()
        score, region = copied_score(page)
        times.append(1000 * (time.process_time() - started))
        if score < THRESHOLDS["copied"] or region is None:
            continue
        flagged += 1
        h, w = page.shape[:2]
        rx0, ry0, rx1, ry1 = region[0] * w, region[1] * h, region[2] * w, region[3] * h
        if min(rx1, x1) > max(rx0, x0) and min(ry1, y1) > max(ry0, y0):
            overlapping += 1
            one_side += (rx1 - rx0) * (ry1 - ry0) <= 2 * (x1 - x0) * (y1 - y0)
    return {
        "flagged": flagged,
        "region_overlaps_paste": overlapping,
        "region_one_copy": one_side,
        "cpu_ms_median": round(float(np.median(times)), 1),
        "cpu_ms_max": round(max(times), 1),
    }


def zones_scores(pages: list[np.ndarray]) -> list[float]:
    from engines.pipeline import read_document
    from engines.types import EngineError

    scores = []
    for page in pages:
        ok, data = cv2.imencode(".jpg", page, [cv2.IMWRITE_JPEG_QUALITY, 95])
        assert ok
        try:
            result = read_document([data.tobytes()]).to_dict()
        except EngineError:
            scores.append(0.0)
            continue
        signal = zones_signal(result["checks"], result["fields"])
        scores.append(0.0 if signal is None else float(signal["score"]))
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument(
        "--read", type=int, default=10, help="clean and edited pages read for the zones signal"
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    boxes: dict[str, list[tuple[int, int, int, int]]] = {}
    pages = attack_pages(SEED, args.count, boxes)
    scores = {
        name: {kind: [score(p) for p in group] for kind, group in pages.items()}
        for name, score in SCORES.items()
    }
    signals: dict[str, Any] = {}
    for name in SCORES:
        signals[name] = roc(scores[name][name], scores[name]["clean"], THRESHOLDS[name])
        signals[name]["fpr_on_other_attacks"] = {
            kind: round(sum(s >= THRESHOLDS[name] for s in group) / len(group), 4)
            for kind, group in scores[name].items()
            if kind not in ("clean", name)
        }
    signals["copied"]["regions"] = copied_regions(pages["copied"], boxes["copied"])
    # the bundled sample captures (samples/*.jpg): clean too, made otherwise than the photos above
    samples = [cv2.imread(str(path)) for path in sorted((ROOT / "samples").glob("*.jpg"))]
    for name, score in SCORES.items():
        flagged = [score(page) for page in samples]
        signals[name]["samples_flagged"] = sum(f >= THRESHOLDS[name] for f in flagged)
        signals[name]["samples"] = len(samples)
        signals[name]["sample_scores"] = [round(f, 2) for f in flagged]
    if args.read:
        clean = zones_scores(pages["clean"][: args.read])
        edited = zones_scores(pages["edited"][: args.read])
        signals["zones"] = {**roc(edited, clean, ZONES_THRESHOLD), "attack": "edited"}
    regions = signals["copied"]["regions"]
    for name, row in signals.items():
        print(
            f"{name:<7} AUC {row['auc']:.3f}  threshold {row['threshold']:g}: "
            f"false positives {row['false_positives']}/{row['clean']} ({row['fpr']:.0%}), "
            f"attacks flagged {row['flagged']}/{row['attacks']} ({row['tpr']:.0%})"
            + (
                f", flags on other attacks {row['fpr_on_other_attacks']}"
                if "fpr_on_other_attacks" in row
                else ""
            )
        )
    print(
        f"copied  regions: {regions['region_overlaps_paste']}/{regions['flagged']} flagged overlap the pasted "
        f"rectangle, {regions['region_one_copy']} with one copy's box; "
        f"{regions['cpu_ms_median']:g} ms CPU a page (max {regions['cpu_ms_max']:g})"
    )
    record = {
        "benchmark": "authenticity",
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seed": SEED,
        "count": args.count,
        "read": args.read,
        "signals": signals,
        "wall_seconds": round(time.perf_counter() - started, 1),
    }
    out = args.out or ROOT / "bench" / "results" / f"authenticity-{dt.datetime.now(dt.UTC):%Y%m%d}.json"
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(
        f"written {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} ({record['wall_seconds']} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
