"""What the capture gate and the authenticity signals cost a page, next to decoding it.

Issue 49 ("the app side keeps up with a GPU"): every uploaded page is decoded, judged by the
capture gate (``media.capture_quality``) and scored by the advisory authenticity signals
(``media.authenticity``, ``media.copy_move``, ``media.field_glyphs``) on the app's CPUs, while
the reading itself goes to the GPU. When these cost more than the GPU's share of a page, the app
is what limits throughput; this measures them, each alone, in CPU milliseconds a page (the
median of ``repeats`` runs of ``time.process_time``, OpenCV, OpenMP and OpenBLAS held to one
thread so that the figure is one core's), and as a ratio to decoding the same page's JPEG.

Three page sizes: ``bench`` is the load benches' page (``bench.stack.tiny_jpeg``, 320 x 240);
``1600`` and ``2400`` are a generated phone photo of a passport (``synth.capture``'s attack
set, seed 31) fitted to that longest side, with a phone's sensor noise added back after the
resize, saved as a JPEG at quality 90 (what an upload decodes to). The field-glyph score is
taken on the page's first text lines (``synth.capture._text_lines``, at most 4).

``page_costs(sizes, repeats)`` returns the figures (bench/run.py calls it); the command line
prints them as one JSON object. ``--profile`` also runs py-spy over a loop of the gate and the
signals at one size and adds the top 10 functions by own (self) time.

    .venv/bin/python bench/page_costs.py [--repeats 7] [--sizes bench,1600,2400] [--profile 1600] [--out FILE]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import collections  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from media import authenticity, capture_quality, copy_move, field_glyphs  # noqa: E402

SIZES: tuple[str, ...] = ("bench", "1600", "2400")
SIGNAL_NAMES: tuple[str, ...] = ("screen", "print", "edited", "copied", "glyphs")
_SEED = 31
_MAX_FIELDS = 4


def page_jpeg(size: str) -> bytes:
    """The JPEG bytes of the page measured at ``size`` ("bench", or a longest side in pixels)."""
    if size == "bench":
        from bench.stack import tiny_jpeg

        return tiny_jpeg(0)
    from synth.capture import _photo_rgb

    rgb = _photo_rgb(_SEED, 0)
    side = int(size)
    scale = side / max(rgb.shape[:2])
    resized = cv2.resize(
        rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA
    )
    # a phone's sensor noise, at the page's own size (resampling smooths the photo's own away)
    noise = np.random.default_rng(_SEED).normal(0.0, 1.5, resized.shape)
    noisy = np.clip(resized.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(noisy, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return data.tobytes()


def field_boxes(bgr: np.ndarray) -> list[tuple[int, int, int, int]]:
    """A few text lines of the page, as the boxes of fields (x0, y0, x1, y1 pixels)."""
    from synth.capture import _text_lines

    return _text_lines(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))[:_MAX_FIELDS]


def _median_ms(call: Callable[[], object], repeats: int) -> float:
    call()  # warm: imports, allocations, OpenCV's first-call set-up
    times = []
    for _ in range(repeats):
        started = time.process_time()
        call()
        times.append(time.process_time() - started)
    return round(1000 * statistics.median(times), 3)


def _glyphs(gray: np.ndarray, boxes: Sequence[tuple[int, int, int, int]]) -> None:
    for box in boxes:
        field_glyphs.field_score(gray, box)


def costs_of(data: bytes, repeats: int) -> dict[str, Any]:
    """One page's figures: decoding, the gate, each signal, their total, each over decoding."""
    bgr = capture_quality.decode_page(data)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    boxes = field_boxes(bgr)
    thresholds = capture_quality.CaptureThresholds()
    decode = _median_ms(lambda: capture_quality.decode_page(data), repeats)
    gate = _median_ms(lambda: capture_quality.assess_images([data], thresholds), repeats) - decode
    signals = {
        "screen": _median_ms(lambda: authenticity.screen_score(bgr), repeats),
        "print": _median_ms(lambda: authenticity.print_score(bgr), repeats),
        "edited": _median_ms(lambda: authenticity.edited_score(bgr), repeats),
        "copied": _median_ms(lambda: copy_move.copied_score(bgr), repeats),
        "glyphs": _median_ms(lambda: _glyphs(gray, boxes), repeats),
    }
    # all of them as the pipeline calls them today: signals_of_images decodes the page itself
    together = _median_ms(lambda: authenticity.signals_of_images([data]), repeats) - decode
    shared = None
    if hasattr(capture_quality, "analyses_of"):  # one decode and grey page for the gate and signals

        def both() -> None:
            pages = capture_quality.analyses_of([data])
            capture_quality.assess_images([data], thresholds, analyses=pages)
            authenticity.signals_of_images([data], analyses=pages)

        shared = _median_ms(both, repeats)
    total = round(sum(signals.values()), 3)
    ratio = max(decode, 1e-3)
    return {
        "width": int(bgr.shape[1]),
        "height": int(bgr.shape[0]),
        "jpeg_bytes": len(data),
        "field_boxes": len(boxes),
        "decode_ms": decode,
        "gate_ms": round(gate, 3),
        "signals_ms": signals,
        "signals_total_ms": total,
        "signals_of_images_ms": round(together + signals["glyphs"], 3),
        # decode + gate + signals (field glyphs left out) with one PageAnalysis shared
        "decode_gate_signals_shared_ms": shared,
        "gate_over_decode": round(gate / ratio, 2),
        "signals_over_decode": {k: round(v / ratio, 2) for k, v in signals.items()},
        "signals_total_over_decode": round(total / ratio, 2),
    }


def _single_threaded() -> None:
    cv2.setNumThreads(1)


def page_costs(sizes: Sequence[str] = SIZES, repeats: int = 7) -> dict[str, Any]:
    """Per size ("bench", "1600", "2400"): decode_ms, gate_ms, signals_ms (screen, print,
    edited, copied, glyphs), signals_total_ms and each over decode_ms; CPU ms a page, one thread,
    median of ``repeats``."""
    _single_threaded()
    return {size: costs_of(page_jpeg(size), repeats) for size in sizes}


def _loop(size: str, seconds: float) -> None:
    """The gate and every signal over one page, again and again (what --profile samples)."""
    _single_threaded()
    data = page_jpeg(size)
    thresholds = capture_quality.CaptureThresholds()
    bgr = capture_quality.decode_page(data)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    boxes = field_boxes(bgr)
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        capture_quality.assess_images([data], thresholds)
        authenticity.signals_of_images([data])
        _glyphs(gray, boxes)


def profile(size: str, seconds: float = 20.0, top: int = 10) -> dict[str, Any]:
    """py-spy's samples of :func:`_loop`, the ``top`` functions by own time (share of samples)."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "profile.txt"
        command = [spy, "record", "-f", "raw", "-r", "200", "-o", str(out), "--", sys.executable]
        command += [__file__, "--loop", size, "--seconds", str(seconds)]
        subprocess.run(command, check=True, capture_output=True)
        lines = out.read_text().splitlines()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for line in lines:
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        total += int(count)
        # the innermost frame, "function (file:line)", counted by function: its lines together
        own[re.sub(r":\d+\)$", ")", stack.split(";")[-1])] += int(count)
    return {
        "size": size,
        "samples": total,
        "self_time_top": [
            {"function": name, "share": round(count / max(total, 1), 3)}
            for name, count in own.most_common(top)
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--profile", default=None, help="a size: profile the gate and signals there")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--loop", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=None, help="also write the record here (JSON)")
    args = parser.parse_args(argv)
    if args.loop:
        _loop(args.loop, args.seconds)
        return 0
    record: dict[str, Any] = {
        "unit": "CPU ms a page (process_time, one thread, median)",
        "repeats": args.repeats,
        "sizes": page_costs([s for s in args.sizes.split(",") if s], args.repeats),
    }
    if args.profile:
        record["profile"] = profile(args.profile, args.seconds)
    if args.out is not None:
        args.out.write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
