"""CPU time per page of the reference engine, against plain OCR of the same pages, in one run.

    python bench/engine_speed.py DIR [DIR ...] [--limit N]

For every document of each DIR (images and PDFs; a truth.json is not needed) the pages are
prepared as the worker prepares them, then timed twice: ``engines.pipeline.read_document`` (the
whole engine: MRZ search, text layer or OCR, classification, the type's reader) and, as the
baseline, RapidOCR's plain full-page OCR of the same page images, which is the least any OCR-based
reader must spend. Prints the median and 90th percentile seconds per page of both, and their
ratio. Process CPU time is reported beside wall time: on a shared 2-core machine wall time
includes other people's work.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engines.ocr import Ocr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _warm_up(ocr: Ocr) -> None:
    """Run the models once on pages of a few sizes, untimed: a serving process reads thousands of
    pages, and the OCR runtime prepares its kernels for an input shape on first sight of it."""
    import numpy as np

    for height, width in ((1600, 1200), (1200, 1600), (1100, 850)):
        page = np.full((height, width, 3), 255, dtype=np.uint8)
        for row in range(100, height - 100, 60):
            page[row : row + 18, 100 : width - 100 - row % 300] = 40
        ocr.read_page(page)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--limit", type=int, default=0, help="at most this many documents per folder")
    args = parser.parse_args(argv)

    import django

    django.setup()
    from apps.documents.filetypes import sniff_mime_type
    from engines.images import decode_image
    from engines.ocr import get_ocr
    from engines.pipeline import read_document
    from engines.types import EngineContext, EngineError
    from media.preprocessing import prepare_pages

    ocr = get_ocr()
    _warm_up(ocr)
    context = EngineContext.from_environment()
    engine_wall: list[float] = []
    engine_cpu: list[float] = []
    baseline_wall: list[float] = []
    for folder in args.dirs:
        files = sorted(p for p in folder.iterdir() if p.is_file() and p.name != "truth.json")
        for path in files[: args.limit or None]:
            content = path.read_bytes()
            mime = sniff_mime_type(content[:2048])
            if mime is None:
                continue
            pages = prepare_pages(content, mime)
            layers = [p.text_layer for p in pages]
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                read_document(
                    [p.image for p in pages], text_layer=layers if any(layers) else None, context=context
                )
            except EngineError:
                continue
            engine_wall.append((time.perf_counter() - wall) / len(pages))
            engine_cpu.append((time.process_time() - cpu) / len(pages))
            wall = time.perf_counter()
            for page in pages:
                ocr.read_page(decode_image(page.image))
            baseline_wall.append((time.perf_counter() - wall) / len(pages))
    if not engine_wall:
        print("no readable documents")
        return 1
    med_engine, med_base = statistics.median(engine_wall), statistics.median(baseline_wall)
    print(f"documents                         {len(engine_wall)}")
    print(f"engine   s/page wall  median {med_engine:.2f}  p90 {_percentile(engine_wall, 0.9):.2f}")
    print(f"engine   s/page CPU   median {statistics.median(engine_cpu):.2f}  (process CPU, all threads)")
    print(f"plain OCR s/page wall median {med_base:.2f}  p90 {_percentile(baseline_wall, 0.9):.2f}")
    print(f"engine / plain OCR    {med_engine / med_base:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
