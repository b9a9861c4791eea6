"""Extraction accuracy against each capture-quality measure, and where each threshold belongs.

    python bench/capture_quality.py [--per-grade 4] [--held-out 60] [--held-out-read 16] [--jobs 2]

Generated phone photos of MRZ documents (passports, ID cards, TD2 cards; ``synth.documents``,
seed 5) get one defect each at graded strength (``synth.capture``: Gaussian blur, motion smear,
glare, the frame cut off one side, downscaling, under-exposure, low contrast). Each graded page
is measured (``media.capture_quality.measure_page``) and read by the CPU reference engine
(``engines.pipeline.read_document``, the engine behind ``manage.py extract --engine local``);
its fields are scored exactly against the generator's truth, as ``bench/mrz_accuracy.py`` and
``bench/extract_engines.py`` score them. Per defect and level: the mean of the measure the
defect moves, and the share of fields right.

The rule that places a threshold: going from the clean level towards the worst, the first level
whose field accuracy is below ``FALL_OFF`` (90 %) of the clean pages' accuracy is where accuracy
falls off; the threshold is the midpoint between that level's mean measure and the mean measure of
the level before it (the last one still read well). No threshold is proposed (the current default
stands) when no level falls off within the levels tried, or when the measure does not move
towards failing between those two levels (it does not follow the defect there). Motion blur has
two curves: the engine's smear length and the edges' isotropy.

The held-out set is other seeds (seed 77): realistic phone photos (``synth.degrade``'s photo
profile at a drawn severity) and, for every second one, one graded defect at a drawn level. Each
is measured; the share each proposed and each current threshold sends back is reported (of all,
of the realistic photos and of those with a graded defect), and the first ``--held-out-read`` of
them are read too, to compare the accuracy of the pages passed and of those sent back. Everything
goes to stdout and to ``bench/results/capture-quality-<UTC date>.json`` (with every reading's
measures). A full run takes about 15 minutes on two loaded cores (some 170 engine readings,
2-5 s each).
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from media.capture_quality import CaptureThresholds, assess, measure_page  # noqa: E402
from synth.capture import DEFECT_UNITS, capture_defect  # noqa: E402
from synth.documents import document_rng, generate_document  # noqa: E402

KINDS = ("passport", "id_card", "td2")
SEED, HELD_OUT_SEED = 5, 77
# A proposed threshold sits where accuracy drops below this share of the clean pages' accuracy.
FALL_OFF = 0.9
# defect -> its levels, from none to the worst
LEVELS: dict[str, tuple[float, ...]] = {
    "blur": (0.0, 1.5, 3.0, 4.0, 5.0, 6.0, 8.0),
    "motion_blur": (0.0, 4.0, 8.0, 12.0, 16.0, 20.0, 24.0, 32.0),
    "glare": (0.0, 0.8, 1.0, 1.3, 1.6, 2.0),
    "crop": (0.0, 0.06, 0.1, 0.15, 0.2, 0.25),
    "downscale": (1.0, 0.5, 0.35, 0.25, 0.18, 0.14, 0.1),
    "dark": (1.0, 0.3, 0.15, 0.1, 0.07, 0.05, 0.03),
    "low_contrast": (1.0, 0.3, 0.15, 0.1, 0.06, 0.04, 0.025),
}
# (defect, the measure it should move, that measure's threshold attribute): one curve each
CURVES: tuple[tuple[str, str, str], ...] = (
    ("blur", "blur_px", "max_blur_px"),
    ("motion_blur", "motion_blur_px", "max_motion_blur_px"),
    ("motion_blur", "edge_isotropy", "min_edge_isotropy"),
    ("glare", "glare", "max_glare"),
    ("crop", "cropped", "max_cropped"),
    ("downscale", "text_height_px", "min_text_height_px"),
    ("dark", "brightness", "min_brightness"),
    ("low_contrast", "contrast", "min_contrast"),
)
MEASURES = tuple(dict.fromkeys(measure for _, measure, _ in CURVES))


@dataclass(frozen=True)
class Reading:
    """One graded page: its measures, and how many of its fields the engine read right."""

    defect: str
    level: float
    index: int
    measures: dict[str, Any]
    right: int
    total: int
    seconds: float


def _photo(seed: int, index: int, severity: float) -> np.ndarray:
    doc = generate_document(
        document_rng(seed, index), kind=KINDS[index % len(KINDS)], profile="photo", severity=severity
    )
    rgb = cv2.cvtColor(cv2.imdecode(np.frombuffer(doc.image, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    return rgb, doc.truth.fields  # type: ignore[return-value]


def _encode(rgb: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return data.tobytes()


def _score(data: bytes, truth: dict[str, str], read: bool) -> tuple[dict[str, Any], int, int, float]:
    from engines.pipeline import read_document
    from engines.types import EngineError

    measures = measure_page(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)).to_dict()
    if not read:
        return measures, 0, 0, 0.0
    started = time.perf_counter()
    try:
        got = {k: f.value for k, f in read_document([data]).fields.items()}
    except EngineError:
        got = {}
    right = sum(got.get(name) == value for name, value in truth.items())
    return measures, right, len(truth), time.perf_counter() - started


def _graded(job: tuple[str, float, int]) -> Reading:
    defect, level, index = job
    rgb, truth = _photo(SEED, index, 0.3)
    rng = np.random.default_rng(1000 * index + 7)
    data = _encode(capture_defect(rgb, defect, level, rng))
    measures, right, total, seconds = _score(data, truth, read=True)
    return Reading(defect, level, index, measures, right, total, seconds)


def _held_out(job: tuple[int, bool]) -> dict[str, Any]:
    index, read = job
    rng = np.random.default_rng(HELD_OUT_SEED * 1000 + index)
    rgb, truth = _photo(HELD_OUT_SEED, index, float(rng.uniform(0.3, 1.0)))
    defect, level = None, None
    if index % 2:  # half of them with one graded defect at a drawn level
        defect = str(rng.choice(list(LEVELS)))
        level = float(rng.choice(LEVELS[defect][1:]))
        rgb = capture_defect(rgb, defect, level, rng)
    measures, right, total, _ = _score(_encode(rgb), truth, read=read)
    return {
        "index": index,
        "defect": defect,
        "level": level,
        "measures": measures,
        "right": right,
        "total": total,
    }


def _mean(values: list[float]) -> float | None:
    return round(float(np.mean(values)), 3) if values else None


def curves(readings: list[Reading]) -> dict[str, list[dict[str, Any]]]:
    """Per defect, per level: every measure's mean (and the range of its own measures), and the
    share of fields right."""
    out: dict[str, list[dict[str, Any]]] = {}
    for defect, levels in LEVELS.items():
        own = [m for d, m, _ in CURVES if d == defect]
        rows = []
        for level in levels:
            # the first level is no defect at all: the clean pages, shared by every curve
            if level == levels[0]:
                group = [r for r in readings if r.defect == "clean"]
            else:
                group = [r for r in readings if r.defect == defect and r.level == level]
            values = {m: [r.measures[m] for r in group if r.measures[m] is not None] for m in MEASURES}
            right, total = sum(r.right for r in group), sum(r.total for r in group)
            rows.append(
                {
                    "level": level,
                    "pages": len(group),
                    "means": {m: _mean(v) for m, v in values.items()},
                    "ranges": {m: [min(values[m]), max(values[m])] if values[m] else None for m in own},
                    "fields_right": right,
                    "fields": total,
                    "accuracy": round(right / total, 4) if total else None,
                }
            )
        out[defect] = rows
    return out


def propose(rows: list[dict[str, Any]], measure: str, attribute: str) -> dict[str, Any]:
    """The threshold the fall-off rule places on one curve (see the module's docstring), or why
    it places none: no level falls off, or the measure does not move towards failing between the
    last good level and the first bad one (it does not follow this defect there)."""
    clean = rows[0]["accuracy"] or 0.0
    floor = FALL_OFF * clean
    failing_is_high = attribute.startswith("max_")
    for before, row in itertools.pairwise(rows):
        if row["accuracy"] is None or row["accuracy"] >= floor:
            continue
        low, high = before["means"][measure], row["means"][measure]
        out = {
            "falls_off_at_level": row["level"],
            "last_good_level": before["level"],
            "accuracy_floor": round(floor, 4),
        }
        if low is None or high is None or (high <= low if failing_is_high else high >= low):
            return {"threshold": None, **out, "why": "the measure does not follow the defect there"}
        value = (low + high) / 2
        return {"threshold": round(value, 3 if abs(value) < 1 else 1), **out}
    return {
        "threshold": None,
        "falls_off_at_level": None,
        "accuracy_floor": round(floor, 4),
        "why": "no fall-off in the levels tried",
    }


def sent_back_shares(held: list[dict[str, Any]], thresholds: CaptureThresholds) -> dict[str, Any]:
    """The share of the held-out pages each measure's threshold, and all of them, send back: of
    all, of the realistic photos alone and of those given a graded defect; and the accuracy of the
    pages read that pass and of those sent back."""
    from media.capture_quality import CaptureMeasures

    pages = [CaptureMeasures(**{**h["measures"], "regions": {}}) for h in held]
    out: dict[str, Any] = {}
    for _, measure, attribute in CURVES:
        only = CaptureThresholds(
            **{f.name: None for f in fields(CaptureThresholds)} | {attribute: getattr(thresholds, attribute)}
        )
        sent = sum(not assess([page], only).passed for page in pages)
        out[measure] = {
            "threshold": getattr(thresholds, attribute),
            "sent_back": sent,
            "share": round(sent / len(pages), 4),
        }
    verdicts = [assess([page], thresholds).passed for page in pages]
    for label, keep in (
        ("any", lambda h: True),
        ("realistic", lambda h: h["defect"] is None),
        ("graded", lambda h: h["defect"] is not None),
    ):
        chosen = [ok for h, ok in zip(held, verdicts, strict=True) if keep(h)]
        out[label] = {
            "photos": len(chosen),
            "sent_back": chosen.count(False),
            "share": round(chosen.count(False) / max(1, len(chosen)), 4),
        }
    read = [(h, ok) for h, ok in zip(held, verdicts, strict=True) if h["total"]]
    for label, passed in (("passed", True), ("sent_back", False)):
        group = [h for h, ok in read if ok is passed]
        right, total = sum(h["right"] for h in group), sum(h["total"] for h in group)
        out[f"accuracy_{label}"] = {
            "pages_read": len(group),
            "accuracy": round(right / total, 4) if total else None,
        }
    return out


def _table(defect: str, rows: list[dict[str, Any]]) -> str:
    own = [m for d, m, _ in CURVES if d == defect]
    lines = [
        f"{defect} ({DEFECT_UNITS[defect]})",
        "  level   pages  " + "".join(f"{m + ' mean [min-max]':<34}" for m in own) + "fields right",
    ]
    for row in rows:
        spans = "".join(
            f"{'-':<34}"
            if row["ranges"][m] is None
            else f"{row['means'][m]:>8.3g} [{row['ranges'][m][0]:.3g}-{row['ranges'][m][1]:.3g}]".ljust(34)
            for m in own
        )
        acc = (
            "-"
            if row["accuracy"] is None
            else f"{row['fields_right']}/{row['fields']} ({row['accuracy']:.1%})"
        )
        lines.append(f"  {row['level']:<7g} {row['pages']:<6} {spans}{acc}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--per-grade", type=int, default=4, help="documents per defect level")
    parser.add_argument("--held-out", type=int, default=60, help="held-out photos measured")
    parser.add_argument("--held-out-read", type=int, default=16, help="of which read by the engine")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    started = time.perf_counter()

    jobs = [("clean", 0.0, i) for i in range(args.per_grade)]
    jobs += [
        (d, level, i) for d, levels in LEVELS.items() for level in levels[1:] for i in range(args.per_grade)
    ]
    held_jobs = [(i, i < args.held_out_read) for i in range(args.held_out)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        readings = []
        for done, reading in enumerate(pool.map(_graded_or_clean, jobs), start=1):
            readings.append(reading)
            print(f"\r{done}/{len(jobs)} graded pages read", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        held = list(pool.map(_held_out, held_jobs))

    table = curves(readings)
    current = CaptureThresholds()
    proposals = {attribute: propose(table[d], m, attribute) for d, m, attribute in CURVES}
    proposed = CaptureThresholds(
        **{
            **asdict(current),
            **{a: p["threshold"] for a, p in proposals.items() if p["threshold"] is not None},
        }
    )
    for defect, rows in table.items():
        print(_table(defect, rows))
        for d, measure, attribute in CURVES:
            if d != defect:
                continue
            p = proposals[attribute]
            said = p["why"] if p["threshold"] is None else f"threshold {p['threshold']:g}"
            if p["falls_off_at_level"] is not None:
                said = (
                    f"accuracy below {p['accuracy_floor']:.1%} at level {p['falls_off_at_level']:g}: {said}"
                )
            print(f"  -> {measure}: {said} (current {getattr(current, attribute)})")
        print()
    shares = {"current": sent_back_shares(held, current), "proposed": sent_back_shares(held, proposed)}
    for label, share in shares.items():
        per = ", ".join(f"{m} {share[m]['share']:.1%}" for m in MEASURES)
        print(
            f"held-out, {label} thresholds: sent back {share['any']['sent_back']}/{share['any']['photos']} "
            f"(realistic {share['realistic']['sent_back']}/{share['realistic']['photos']}, "
            f"with a graded defect {share['graded']['sent_back']}/{share['graded']['photos']}; {per})"
        )
        print(f"  accuracy passed {share['accuracy_passed']}, sent back {share['accuracy_sent_back']}")

    seconds = [r.seconds for r in readings]
    kept = ("defect", "level", "index", "right", "total")
    record: dict[str, Any] = {
        "benchmark": "capture-quality",
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count()},
        "engine": _engine(),
        "seed": SEED,
        "held_out_seed": HELD_OUT_SEED,
        "per_grade": args.per_grade,
        "fall_off": FALL_OFF,
        "kinds": list(KINDS),
        "curves": {
            d: {"measures": [m for c, m, _ in CURVES if c == d], "unit": DEFECT_UNITS[d], "levels": rows}
            for d, rows in table.items()
        },
        "proposals": proposals,
        "current_thresholds": asdict(current),
        "proposed_thresholds": asdict(proposed),
        "held_out": {"photos": len(held), "read": sum(1 for h in held if h["total"]), **shares},
        "readings": [
            {**{k: getattr(r, k) for k in kept}, **{m: r.measures[m] for m in MEASURES}} for r in readings
        ],
        "seconds_per_reading": round(float(np.mean(seconds)), 2) if seconds else None,
        "wall_seconds": round(time.perf_counter() - started, 1),
    }
    out = args.out or ROOT / "bench" / "results" / f"capture-quality-{dt.datetime.now(dt.UTC):%Y%m%d}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(
        f"written {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} ({record['wall_seconds']} s)"
    )
    return 0


def _graded_or_clean(job: tuple[str, float, int]) -> Reading:
    defect, _, index = job
    if defect == "clean":
        reading = _graded(("blur", 0.0, index))
        return Reading("clean", 0.0, index, reading.measures, reading.right, reading.total, reading.seconds)
    return _graded(job)


def _engine() -> dict[str, str]:
    from engines import ENGINE_NAME, ENGINE_VERSION

    return {"name": ENGINE_NAME, "version": ENGINE_VERSION}


if __name__ == "__main__":
    raise SystemExit(main())
