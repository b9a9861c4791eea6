"""A thin, lazily loaded, thread-safe wrapper around RapidOCR (PP-OCRv4 ONNX models, CPU).

The models ship inside the pinned ``rapidocr-onnxruntime==1.4.4`` wheel, so nothing is downloaded
at run time. They are loaded once per process, on first use, because loading costs ~1 s and most
processes (web, tests of other apps) never need OCR.

Besides whole-page OCR, this exposes the two halves separately, because the MRZ reader detects on
the full page but recognises tight crops, and needs the recogniser's per-frame character
probabilities (not just its greedy text) to decode with the MRZ's fixed format:

- :meth:`Ocr.detect` returns text-line quadrilaterals in page pixels;
- :meth:`Ocr.recognize` returns, per crop, the greedy text *and* the CTC probability matrix.

Calls are serialised with a lock: RapidOCR keeps per-call state on the instance and is not
documented as thread-safe; onnxruntime already uses several cores inside one call.

Threads: ``DOCINTEL_OCR_THREADS`` sets onnxruntime's intra-op thread count: 1 by default, ``0``
for all cores. Its idle threads do not spin and its memory arena is on
(:func:`_cpu_frugal_sessions`): on the 2-core reference machine that cut the engine's median CPU
time per page from 2.4 s to 1.35 s at the same wall time, because OCR here is many small
recogniser calls, between which spinning threads burn a core each for nothing. One thread costs
less CPU again (1.46 s against 1.69 s a page on 45 generated documents, both measured on a loaded
machine) at about the same wall time there: a CPU host gets its parallelism from more
``doc_pipeline`` instances (one per core, ``config.pbtxt``), each with one thread.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

Quad = np.ndarray  # shape (4, 2), float32, clockwise from top-left, page pixels

# Detection runs on the page scaled to about this many pixels (small pages up, at most
# _DETECT_MAX_UPSCALE times; photos down): MRZ characters stay detectable on ordinary scans and
# photos, and the cost no longer grows with the camera's resolution. Callers may ask for more.
DETECT_PIXELS = 900_000
_DETECT_MAX_UPSCALE = 2.5
_PAGE_MIN_SIDE = 736  # RapidOCR's own default for whole-page OCR
# Whole-page OCR works on at most this many pixels: an A4 page at about 150 dpi, where body text
# is ~20 px tall, enough for the recogniser; more pixels cost detection time and gain nothing.
PAGE_MAX_PIXELS = 2_200_000


@dataclass(frozen=True)
class TextLine:
    """One recognised line: its text, the recogniser's mean character score and its quad."""

    text: str
    score: float
    quad: Quad

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Axis-aligned [x0, y0, x1, y1] in pixels."""
        xs, ys = self.quad[:, 0], self.quad[:, 1]
        return float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())


@dataclass(frozen=True)
class Recognition:
    """The recogniser's answer for one crop.

    ``probs`` is the (frames x vocabulary) softmax matrix of the CTC head; column 0 is the CTC
    blank and ``vocabulary[i]`` names column ``i``. ``frames`` is how many leading frames
    belong to the crop (the rest is padding).
    """

    text: str
    score: float
    probs: np.ndarray
    frames: int


@contextlib.contextmanager
def _cpu_frugal_sessions() -> Iterator[None]:
    """While RapidOCR builds its onnxruntime sessions, give them options it does not expose:
    no spinning of idle intra-op threads, and the CPU memory arena (RapidOCR turns it off, so
    every small call allocated afresh)."""
    from rapidocr_onnxruntime.utils import infer_engine

    session_class = infer_engine.OrtInferSession
    original = session_class.__dict__["_init_sess_opts"]

    def frugal_options(config: dict[str, Any]) -> Any:
        options = original.__func__(config)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.enable_cpu_mem_arena = True
        return options

    session_class._init_sess_opts = staticmethod(frugal_options)  # type: ignore[method-assign]
    try:
        yield
    finally:
        session_class._init_sess_opts = original  # type: ignore[method-assign]


class Ocr:
    """Load with :func:`get_ocr`; one instance per process."""

    def __init__(self) -> None:
        from rapidocr_onnxruntime import RapidOCR

        # We choose the detection scale ourselves (see detect), so RapidOCR must not rescale.
        kwargs: dict[str, Any] = {"det_limit_type": "max", "det_limit_side_len": 100_000}
        threads = os.environ.get("DOCINTEL_OCR_THREADS", "1").strip()
        if threads and threads != "0":
            kwargs["intra_op_num_threads"] = int(threads)
        with _cpu_frugal_sessions():
            self._engine = RapidOCR(**kwargs)
        # whole-page reading restores the word spaces the recogniser drops (engines/ocr_spaces.py)
        from engines.ocr_spaces import SpacedRecognizer

        self._engine.text_rec = _RecognizerWithSpaces(
            self._engine.text_rec, SpacedRecognizer(self._engine.text_rec)
        )
        self._lock = threading.Lock()
        self.vocabulary: list[str] = list(self._engine.text_rec.postprocess_op.character)
        self._rec_height = int(self._engine.text_rec.rec_image_shape[1])

    def detect(self, image: np.ndarray, *, pixels: int = DETECT_PIXELS) -> list[Quad]:
        """Text-line quads of a BGR page, in the page's pixel coordinates, top to bottom.

        The page is scaled to about ``pixels`` pixels for detection (see DETECT_PIXELS).
        """
        h, w = image.shape[:2]
        scale = min(_DETECT_MAX_UPSCALE, math.sqrt(pixels / (h * w)))
        size = (max(32, round(w * scale / 32) * 32), max(32, round(h * scale / 32) * 32))
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
        scaled = cv2.resize(image, size, interpolation=interp)
        with self._lock:
            boxes, _ = self._engine.text_det(scaled)
        if boxes is None or len(boxes) == 0:
            return []
        factor = np.array([w / size[0], h / size[1]], dtype=np.float32)
        quads = [np.asarray(b, dtype=np.float32) * factor for b in boxes]
        quads.sort(key=lambda q: (float(q[:, 1].mean()), float(q[:, 0].min())))
        return quads

    def recognize(self, crops: list[np.ndarray]) -> list[Recognition]:
        """Recognise single-line BGR crops (any size; each is scaled to the model's height)."""
        results = []
        for crop in crops:
            norm = self._normalise(crop)
            with self._lock:
                probs = self._engine.text_rec.session(norm[np.newaxis])[0][0]
            frames = probs.shape[0]
            text, score = self._greedy(probs)
            results.append(Recognition(text=text, score=score, probs=probs, frames=frames))
        return results

    def upside_down(self, crops: list[np.ndarray]) -> list[float]:
        """For each single-line crop, the orientation classifier's probability that it is upside
        down (text turned 180 degrees)."""
        if not crops:
            return []
        with self._lock:
            _, labels, _ = self._engine.text_cls(crops)
        return [float(score) if "180" in str(label) else 1.0 - float(score) for label, score in labels]

    def read_page(self, image: np.ndarray) -> list[TextLine]:
        """Plain full-page OCR (detect, orient, recognise), for callers that want all text.

        Small pages are enlarged to RapidOCR's usual working size, huge ones reduced to a few
        million pixels (detection cost grows with pixels, accuracy stops growing long before).
        """
        h, w = image.shape[:2]
        scale = max(1.0, _PAGE_MIN_SIDE / min(h, w))
        scale = min(scale, math.sqrt(PAGE_MAX_PIXELS / (h * w)))
        scaled = (
            image
            if scale == 1.0
            else cv2.resize(
                image,
                (round(w * scale), round(h * scale)),
                interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA,
            )
        )
        with self._lock:
            result, _ = self._engine(scaled)
        return [
            TextLine(text=str(text), score=float(score), quad=np.asarray(quad, dtype=np.float32) / scale)
            for quad, text, score in (result or [])
        ]

    def _normalise(self, crop: np.ndarray) -> np.ndarray:
        """Scale to the model height, keep the aspect ratio, CHW, values in -1..1."""
        if crop.ndim == 2:
            crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
        h, w = crop.shape[:2]
        width = max(self._rec_height, math.ceil(self._rec_height * w / max(h, 1)))
        resized = cv2.resize(crop, (width, self._rec_height), interpolation=cv2.INTER_LINEAR)
        chw = resized.astype(np.float32).transpose(2, 0, 1) / 255.0
        return (chw - 0.5) / 0.5

    def _greedy(self, probs: np.ndarray) -> tuple[str, float]:
        best = probs.argmax(axis=1)
        keep = np.ones(len(best), dtype=bool)
        keep[1:] = best[1:] != best[:-1]
        keep &= best != 0
        chars = [self.vocabulary[i] for i in best[keep]]
        scores = probs.max(axis=1)[keep]
        return "".join(chars), float(scores.mean()) if len(scores) else 0.0


class _RecognizerWithSpaces:
    """RapidOCR's recogniser object with its call replaced; its attributes (session, shapes,
    vocabulary) stay reachable, because :meth:`Ocr.recognize` uses them directly."""

    def __init__(self, recognizer: Any, call: Any) -> None:
        self._recognizer = recognizer
        self._call = call

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._call(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._recognizer, name)


_instance: Ocr | None = None
_instance_lock = threading.Lock()


def get_ocr() -> Ocr:
    """The process-wide OCR engine, loaded on first call (thread-safe)."""
    global _instance
    if _instance is None:
        with _instance_lock:
            if _instance is None:
                _instance = Ocr()
    return _instance
