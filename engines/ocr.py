"""A thin, lazily loaded, thread-safe wrapper around RapidOCR (PP-OCRv4 ONNX models, CPU).

The models ship inside the pinned ``rapidocr-onnxruntime==1.4.4`` wheel, so nothing is downloaded
at run time. They are loaded once per process, on first use, because loading costs ~1 s and most
processes (web, tests of other apps) never need OCR.

Besides whole-page OCR, this exposes the two halves separately, because the MRZ reader detects on
the full page but recognises tight crops, and needs the recogniser's per-frame character
probabilities (not just its greedy text) to decode with the MRZ's fixed format:

- :meth:`Ocr.detect` returns text-line quadrilaterals in page pixels;
- :meth:`Ocr.recognize` returns, per crop, the greedy text *and* the CTC probability matrix.

The models run on OpenVINO's CPU runtime (engines/ocr_runtime.py): the detector and the
recogniser in bfloat16 where the CPU has it, for well under half of onnxruntime's CPU time. Calls are
serialised with a lock: RapidOCR keeps per-call state on the instance and is not documented as
thread-safe.

Threads: ``DOCINTEL_OCR_THREADS`` sets the runtime's thread count: 1 by default, ``0`` for the
runtime's choice. One thread costs the least CPU a page at about the same wall time, because OCR
here is many small recogniser calls: a CPU host gets its parallelism from more ``doc_pipeline``
instances (one per core, ``config.pbtxt``), each with one thread.
"""

from __future__ import annotations

import math
import os
import threading
import time
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from engines.ocr_runtime import WIDTH_STEP, openvino_sessions

Quad = np.ndarray  # shape (4, 2), float32, clockwise from top-left, page pixels

# Detection runs on the page scaled to about this many pixels (small pages up, at most
# _DETECT_MAX_UPSCALE times; photos down): MRZ characters stay detectable on ordinary scans and
# photos, and the cost no longer grows with the camera's resolution. Callers may ask for more.
DETECT_PIXELS = 900_000
_DETECT_MAX_UPSCALE = 2.5
_PAGE_MIN_SIDE = 736  # RapidOCR's own default for whole-page OCR
# Whole-page OCR works on at most this many pixels: an A4 page at about 150 dpi, where body text
# is ~20 px tall, enough for the recogniser; more pixels cost detection time and gain nothing.
# Lines are found at this resolution too: finding them at 1.2 MP and reading them at 2.2 MP saved
# 0.17 s a page but cost a point of field accuracy on test4 (96.8 % against 97.8 %).
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


class Ocr:
    """Load with :func:`get_ocr`; one instance per process."""

    def __init__(self) -> None:
        from rapidocr_onnxruntime import RapidOCR

        # We choose the detection scale ourselves (see detect), so RapidOCR must not rescale.
        kwargs: dict[str, Any] = {"det_limit_type": "max", "det_limit_side_len": 100_000}
        threads = os.environ.get("DOCINTEL_OCR_THREADS", "1").strip()
        if threads and threads != "0":
            kwargs["intra_op_num_threads"] = int(threads)
        with openvino_sessions():
            self._engine = RapidOCR(**kwargs)
        self._detector = _ScaledDetector(self._engine.text_det)
        self._engine.text_det = self._detector
        # whole-page reading restores the word spaces the recogniser drops (engines/ocr_spaces.py)
        from engines.ocr_spaces import SpacedRecognizer

        self._engine.text_rec = SpacedRecognizer(self._engine.text_rec)
        self._lock = threading.Lock()
        self.vocabulary: list[str] = list(self._engine.text_rec.postprocess_op.character)
        self._rec_height = int(self._engine.text_rec.rec_image_shape[1])

    def detect(self, image: np.ndarray, *, pixels: int = DETECT_PIXELS) -> list[Quad]:
        """Text-line quads of a BGR page, in the page's pixel coordinates, top to bottom.

        The page is scaled to about ``pixels`` pixels for detection (see DETECT_PIXELS).
        """
        with self._lock:
            boxes = self._detector.boxes(image, pixels=pixels, max_upscale=_DETECT_MAX_UPSCALE)
        quads = [np.asarray(b, dtype=np.float32) for b in boxes]
        quads.sort(key=lambda q: (float(q[:, 1].mean()), float(q[:, 0].min())))
        return quads

    def recognize(self, crops: list[np.ndarray]) -> list[Recognition]:
        """Recognise single-line BGR crops (any size; each is scaled to the model's height)."""
        results = []
        for crop in crops:
            norm = self._normalise(crop)
            width = norm.shape[2]
            padded = np.zeros((*norm.shape[:2], math.ceil(width / WIDTH_STEP) * WIDTH_STEP), dtype=np.float32)
            padded[:, :, :width] = norm  # zero is the model's mid-grey padding
            with self._lock:
                probs = self._engine.text_rec.session(padded[np.newaxis])[0][0]
            # only the frames over the crop: the padding's are blanks and would shift positions
            frames = math.ceil(probs.shape[0] * width / padded.shape[2])
            probs = probs[:frames]
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

    def read_page(self, image: np.ndarray, *, enlarge_to: int | None = None) -> list[TextLine]:
        """Plain full-page OCR (detect, orient, recognise), for callers that want all text.

        Small pages are enlarged to RapidOCR's usual working size, huge ones reduced to a few
        million pixels (detection cost grows with pixels, accuracy stops growing long before).
        ``enlarge_to``: enlarge the page to about this many pixels instead (never reduce it), for
        a second look at a photo whose small print the usual size lost.
        """
        h, w = image.shape[:2]
        if enlarge_to is not None:
            scale = max(1.0, math.sqrt(enlarge_to / (h * w)))
        else:
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


_SCALE_TOLERANCE = 0.05  # a page this close to the detection budget is detected as it is


class _ScaledDetector:
    """RapidOCR's text detector with its boxes in the pixels of the image it was given.

    Why: the MRZ search detects on the page scaled to its own pixel budget (:meth:`Ocr.detect`),
    whole-page OCR on the page as :meth:`Ocr.read_page` sized it, and both want boxes on the page
    itself, rounded to whole pixels. It also normalises the image in one OpenCV call, where
    RapidOCR's float arithmetic in NumPy cost ~90 ms a page.
    """

    def __init__(self, detector: Any) -> None:
        self._detector = detector

    def __call__(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """RapidOCR's whole-page call, on the image as given: boxes (N x 4 x 2), seconds spent."""
        started = time.perf_counter()
        height, width = image.shape[:2]
        boxes = self.boxes(image, pixels=height * width, max_upscale=1.0)
        return boxes, time.perf_counter() - started

    def boxes(self, image: np.ndarray, *, pixels: int, max_upscale: float) -> np.ndarray:
        """Text boxes (N x 4 x 2, float32) of a BGR image scaled to about ``pixels`` pixels (never
        enlarged more than ``max_upscale`` times), in the image's pixel coordinates."""
        h, w = image.shape[:2]
        scale = min(max_upscale, math.sqrt(pixels / (h * w)))
        if abs(scale - 1) < _SCALE_TOLERANCE:
            scale = 1.0
        size = (max(32, round(w * scale / 32) * 32), max(32, round(h * scale / 32) * 32))
        scaled = image
        if size != (w, h):
            # (the model needs sides in multiples of 32: at scale 1 only that rounding is left)
            interpolation = (
                cv2.INTER_LINEAR if scale == 1 else cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
            )
            scaled = cv2.resize(image, size, interpolation=interpolation)
        # (pixel - 127.5) / 127.5: the model's mean and deviation of 0.5 on values in 0..1
        blob = cv2.dnn.blobFromImage(scaled, scalefactor=1 / 127.5, mean=(127.5, 127.5, 127.5))
        probabilities = self._detector.infer(blob)[0]
        # Mapped to the image's own pixels, and rounded there, by RapidOCR's post-processing: boxes
        # on whole pixels make the recogniser's crops exact shifts of the image, where fractional
        # corners would resample them and blur the blank columns between words (engines/ocr_spaces.py).
        boxes, _ = self._detector.postprocess_op(probabilities, (h, w))
        boxes = self._detector.filter_tag_det_res(boxes, (h, w))
        if len(boxes) == 0:
            return np.zeros((0, 4, 2), dtype=np.float32)
        return np.asarray(boxes, dtype=np.float32)


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
