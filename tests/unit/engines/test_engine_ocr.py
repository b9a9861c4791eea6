"""The OCR wrapper (engines/ocr.py): one engine per process, page and line reading."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable

import cv2
import numpy as np
import pytest
from mrz_pages import mrz_font, render_page

from engines.ocr import Ocr, get_ocr

TD3 = ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10")


def test_engine_is_loaded_once_per_process_even_when_threads_race() -> None:
    seen: list[Ocr] = []
    threads = [threading.Thread(target=lambda: seen.append(get_ocr())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(engine) for engine in seen}) == 1
    assert seen[0] is get_ocr()


@pytest.mark.skipif(mrz_font() is None, reason="no monospaced font installed to draw an MRZ")
def test_page_text_and_boxes_come_back_in_page_pixels() -> None:
    page = cv2.imdecode(np.frombuffer(render_page(TD3), dtype=np.uint8), cv2.IMREAD_COLOR)
    lines = get_ocr().read_page(page)
    texts = [line.text.replace(" ", "") for line in lines]
    assert any("L898902C3" in text for text in texts)
    height, width = page.shape[:2]
    for line in lines:
        x0, y0, x1, y1 = line.box
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height
        assert 0.0 <= line.score <= 1.0


def test_recognition_returns_greedy_text_and_ctc_probabilities() -> None:
    crop = np.full((48, 400, 3), 255, dtype=np.uint8)
    cv2.putText(crop, "HELLO 123", (10, 36), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 3)
    (result,) = get_ocr().recognize([crop])
    assert "".join(result.text.split()) == "HELLO123"  # (it may add a full-width space)
    assert result.probs.shape == (result.frames, len(get_ocr().vocabulary))
    assert np.allclose(result.probs.sum(axis=1), 1.0, atol=1e-3)


def _onnxruntime(model_path: object) -> tuple[object, Callable[[np.ndarray], np.ndarray]]:
    """An onnxruntime session of the same model file, and its call on one input batch."""
    import onnxruntime

    session = onnxruntime.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    return session, lambda batch: session.run(None, {session.get_inputs()[0].name: batch})[0]


def test_the_models_run_on_openvino_with_onnxruntimes_outputs() -> None:
    """The three models RapidOCR builds run as OpenVINO sessions (a RapidOCR upgrade that renames
    its session factory must fail here, not silently cost CPU again); the f32 classifier gives
    onnxruntime's probabilities, and the recogniser, in bfloat16 or f32, onnxruntime's text; the
    detector runs in the CPU's native precision too."""
    from engines.ocr_runtime import OpenVinoSession, native_precision

    engine = get_ocr()._engine
    recogniser, classifier = engine.text_rec.session, engine.text_cls.infer
    assert isinstance(recogniser, OpenVinoSession) and isinstance(classifier, OpenVinoSession)
    detector = engine.text_det._detector.infer
    assert isinstance(detector, OpenVinoSession) and detector.precision == native_precision()
    assert recogniser.precision == native_precision() and classifier.precision == "f32"

    crop = np.full((48, 400, 3), 255, dtype=np.uint8)
    cv2.putText(crop, "Total 12.50", (10, 36), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 3)
    batch = ((crop.astype(np.float32).transpose(2, 0, 1) / 255.0 - 0.5) / 0.5)[np.newaxis]
    reference, reference_run = _onnxruntime(recogniser.model_path)
    expected = reference_run(batch)
    # bfloat16 keeps 8 bits of mantissa: frames between two characters move by up to ~0.2
    tolerance = 2e-3 if recogniser.precision == "f32" else 0.25
    got = recogniser(batch)[0]
    assert np.allclose(got, expected, atol=tolerance)
    assert (got.argmax(axis=-1) == expected.argmax(axis=-1)).all()
    characters = reference.get_modelmeta().custom_metadata_map["character"].splitlines()  # type: ignore[attr-defined]
    assert recogniser.get_character_list() == characters
    small = np.ascontiguousarray(batch[:, :, :, :192])
    assert np.allclose(classifier(small)[0], _onnxruntime(classifier.model_path)[1](small), atol=1e-3)


def test_page_lines_come_back_on_whole_pixels_of_the_page_as_given() -> None:
    """A page above the OCR's pixel budget is read scaled down, and its boxes come back in the
    page's own pixels, around the text drawn there, on whole pixels (RapidOCR's rounding: the
    recogniser's crops are then exact shifts of the page, not resampled)."""
    from engines.ocr import PAGE_MAX_PIXELS

    page = np.full((2400, 1800, 3), 255, dtype=np.uint8)
    cv2.putText(page, "INVOICE 2026-0042", (200, 1500), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 2)
    assert page.shape[0] * page.shape[1] > PAGE_MAX_PIXELS
    (line,) = [x for x in get_ocr().read_page(page) if "0042" in x.text]
    x0, y0, x1, y1 = line.box
    assert 180 <= x0 <= 215 and 1455 <= y0 <= 1485 and 1495 <= y1 <= 1530 and x1 >= 520
    quad_in_scaled_pixels = line.quad * math.sqrt(PAGE_MAX_PIXELS / (2400 * 1800))
    assert np.allclose(quad_in_scaled_pixels, np.round(quad_in_scaled_pixels), atol=0.02)
