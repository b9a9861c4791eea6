"""How often the capture gate sends back a good document, and how often it catches a bad photo.

    python bench/capture_gate.py [--out bench/results/capture-gate.json] [--count 40] [--degraded 10]

Per family: ``synth`` (``python -m synth.generate``, mixed profiles, seed 9090 as
``var/bench/all-types``), ``independent`` (``python -m htmldocs.generate``, evaluation seed 900001
as ``var/bench/independent``: measured only, never fitted on) and every real set under
``../shared/realdata`` (SROIE receipt scans, ID specimens, e-invoice and invoice2data PDFs).

``clean``: each document as it came goes through what the prepare step does (``media.preprocessing
.prepare_pages``, then ``media.capture_quality.captured_pages``: a digital PDF is not gated) and is
judged by ``assess`` with the default ``CaptureThresholds``; the share sent back is the false
resubmission rate. ``clean pages``: every page image, digital ones too, judged as if it had been
scanned (the stricter figure the thresholds were fitted on; blank pages are not measurable).
``degraded``: ``--degraded`` page images per family (drawn with a fixed seed) each get every
defect of ``DEGRADED`` (``synth.capture.capture_defect``, the defects and levels of
``bench/capture_quality.py`` at and past the level where the engine's accuracy falls off),
encoded as a JPEG photo; the share sent back is the catch rate, overall and per defect.

Nothing is read by an engine (no OCR): a run takes 2-4 minutes on two cores. Results go to
stdout (a table) and to ``--out`` (default ``bench/results/capture-gate-<UTC date>.json``), with
every page's measures, so thresholds can be refitted from the file.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from media.capture_quality import (  # noqa: E402
    CaptureMeasures,
    CaptureThresholds,
    assess,
    captured_pages,
    measure_page,
)
from synth.capture import capture_defect  # noqa: E402

REALDATA = ROOT.parent / "shared" / "realdata"
REAL_SETS = ("receipts_sroie", "id_specimens", "einvoices", "invoices_invoice2data")
SYNTH_SEED, INDEPENDENT_SEED, DEGRADE_SEED = 9090, 900001, 4711
# defect -> the levels a page must be caught at: from where bench/capture_quality.py's engine
# accuracy falls below 90 % of a clean photo's (bench/results/capture-quality-*.json) to the worst
# level it tries; glare never made the engine fall off, its strongest level stands for it
DEGRADED: dict[str, tuple[float, ...]] = {
    "blur": (5.0, 8.0),
    "motion_blur": (20.0, 32.0),
    "glare": (2.0,),
    "crop": (0.15, 0.25),
    "downscale": (0.14, 0.1),
    "dark": (0.05, 0.03),
    "low_contrast": (0.04, 0.025),
}
_MIME = {".pdf": "application/pdf", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}


def _generated(module: str, out: Path, count: int, seed: int) -> Path:
    """A generated set, written by the generator's own command line (as the Makefile does)."""
    subprocess.run(
        [sys.executable, "-m", module, str(out), "--count", str(count), "--seed", str(seed)],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return out


def _files(folder: Path, limit: int | None) -> list[Path]:
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in _MIME)
    if limit is not None and len(files) > limit:
        keep = np.random.default_rng(SYNTH_SEED).choice(len(files), size=limit, replace=False)
        files = [files[i] for i in sorted(keep)]
    return files


def _measured(measures: CaptureMeasures) -> dict[str, Any]:
    out = measures.to_dict()
    out.pop("regions")
    return out


def _document(path: str) -> dict[str, Any]:
    """One document through the prepare step's split and the gate's page choice; its pages'
    measures as the gate takes them, and every page image measured as if it were a scan."""
    from media.preprocessing import PageLimits, prepare_pages

    file = Path(path)
    mime = _MIME[file.suffix.lower()]
    pages = prepare_pages(file.read_bytes(), mime, PageLimits(pdf_sandbox=False))
    gated = {page.number for page in captured_pages(pages, mime == "application/pdf")}
    measures = [
        _measured(measure_page(cv2.imdecode(np.frombuffer(page.image, np.uint8), cv2.IMREAD_COLOR)))
        for page in pages
    ]
    return {
        "file": file.name,
        "pages": len(pages),
        "gated": sorted(gated),
        "digital": mime == "application/pdf" and not gated,
        "measures": measures,
    }


def _degraded(job: tuple[str, int]) -> list[dict[str, Any]]:
    """One page image given each defect of ``DEGRADED`` in turn, each encoded as a phone's JPEG
    and measured."""
    path, page_index = job
    from media.preprocessing import PageLimits, prepare_pages

    file = Path(path)
    pages = prepare_pages(file.read_bytes(), _MIME[file.suffix.lower()], PageLimits(pdf_sandbox=False))
    bgr = cv2.imdecode(np.frombuffer(pages[page_index].image, np.uint8), cv2.IMREAD_COLOR)
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    out = []
    for defect, levels in DEGRADED.items():
        for level in levels:
            rng = np.random.default_rng(
                [DEGRADE_SEED, page_index, sum(map(ord, file.name)), round(level * 1000)]
            )
            photo = cv2.cvtColor(capture_defect(rgb, defect, level, rng), cv2.COLOR_RGB2BGR)
            ok, data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
            assert ok
            measures = _measured(measure_page(cv2.imdecode(data, cv2.IMREAD_COLOR)))
            out.append(
                {
                    "file": file.name,
                    "page": page_index + 1,
                    "defect": defect,
                    "level": level,
                    "measures": measures,
                }
            )
    return out


def _page(measures: dict[str, Any]) -> CaptureMeasures:
    return CaptureMeasures(**measures)


def verdicts(
    documents: list[dict[str, Any]], degraded: list[dict[str, Any]], thresholds: CaptureThresholds
) -> dict[str, Any]:
    """The family's false resubmission rates (documents, and every page image judged as a scan)
    and catch rates (all degraded pages, and per defect) under ``thresholds``."""
    sent_docs, reasons = 0, {}
    for doc in documents:
        pages = [_page(doc["measures"][n - 1]) for n in doc["gated"]]
        result = assess(pages, thresholds, doc["gated"]) if pages else None
        if result is not None and not result.passed:
            sent_docs += 1
            for reason in result.reasons:
                reasons[reason] = reasons.get(reason, 0) + 1
    page_verdicts = [assess([_page(m)], thresholds).passed for doc in documents for m in doc["measures"]]
    caught = {
        d: [not assess([_page(r["measures"])], thresholds).passed for r in degraded if r["defect"] == d]
        for d in DEGRADED
    }
    every = [c for values in caught.values() for c in values]
    return {
        "documents": len(documents),
        "digital_pdfs": sum(doc["digital"] for doc in documents),
        "sent_back": sent_docs,
        "false_resubmission": round(sent_docs / max(1, len(documents)), 4),
        "sent_back_reasons": reasons,
        "page_images": len(page_verdicts),
        "page_images_sent_back": page_verdicts.count(False),
        "page_false_resubmission": round(page_verdicts.count(False) / max(1, len(page_verdicts)), 4),
        "degraded_pages": len(every),
        "caught": sum(every),
        "catch_rate": round(sum(every) / max(1, len(every)), 4),
        "catch_rate_by_defect": {d: round(sum(v) / len(v), 4) if v else None for d, v in caught.items()},
    }


def _table(results: dict[str, dict[str, Any]]) -> str:
    lines = [
        f"{'family':<24}{'docs':>6}{'digital':>9}{'sent back':>11}{'false resub':>13}"
        f"{'pages as scans':>16}{'degraded':>10}{'caught':>9}  per defect",
    ]
    for family, r in results.items():
        per = " ".join(f"{d}={v:.0%}" for d, v in r["catch_rate_by_defect"].items() if v is not None)
        lines.append(
            f"{family:<24}{r['documents']:>6}{r['digital_pdfs']:>9}{r['sent_back']:>11}"
            f"{r['false_resubmission']:>13.1%}{r['page_false_resubmission']:>16.1%}"
            f"{r['degraded_pages']:>10}{r['catch_rate']:>9.1%}  {per}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--count", type=int, default=40, help="generated documents per generator")
    parser.add_argument("--real", type=int, default=60, help="documents at most per real set (sampled)")
    parser.add_argument("--degraded", type=int, default=8, help="page images per family given each defect")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="capture-gate-") as tmp:
        families: dict[str, list[Path]] = {
            "synth": _files(_generated("synth.generate", Path(tmp) / "synth", args.count, SYNTH_SEED), None),
        }
        try:
            independent = _generated(
                "htmldocs.generate", Path(tmp) / "independent", args.count, INDEPENDENT_SEED
            )
            families["independent"] = _files(independent, None)
        except subprocess.CalledProcessError:
            print(
                "independent: htmldocs could not render (make test-packages installs Chromium)",
                file=sys.stderr,
            )
        for name in REAL_SETS:
            if (REALDATA / name).is_dir():
                families[name] = _files(REALDATA / name, args.real)
        results: dict[str, dict[str, Any]] = {}
        records: dict[str, Any] = {}
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for family, files in families.items():
                documents = list(pool.map(_document, [str(f) for f in files]))
                rng = np.random.default_rng(DEGRADE_SEED)
                images = [
                    (str(f), i) for f, doc in zip(files, documents, strict=True) for i in range(doc["pages"])
                ]
                chosen = [
                    images[i]
                    for i in sorted(
                        rng.choice(len(images), size=min(args.degraded, len(images)), replace=False)
                    )
                ]
                degraded = [r for rows in pool.map(_degraded, chosen) for r in rows]
                results[family] = verdicts(documents, degraded, CaptureThresholds())
                records[family] = {"documents": documents, "degraded": degraded}
                print(f"{family}: measured ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    print(_table(results))
    record = {
        "benchmark": "capture-gate",
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count()},
        "thresholds": asdict(CaptureThresholds()),
        "degraded_levels": DEGRADED,
        "seeds": {"synth": SYNTH_SEED, "independent": INDEPENDENT_SEED, "degrade": DEGRADE_SEED},
        "results": results,
        "pages": records,
        "wall_seconds": round(time.perf_counter() - started, 1),
    }
    out = args.out or ROOT / "bench" / "results" / f"capture-gate-{dt.datetime.now(dt.UTC):%Y%m%d}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(
        f"written {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} ({record['wall_seconds']} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
