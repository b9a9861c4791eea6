"""The OCR wrapper (engines/ocr.py): one engine per process, page and line reading."""

from __future__ import annotations

import threading

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


def test_onnxruntime_sessions_do_not_spin_and_keep_their_memory_arena():
    """The CPU-time settings of engines/ocr.py reach the sessions RapidOCR builds (a RapidOCR
    upgrade that renames its session factory must fail here, not silently cost CPU again)."""
    from engines.ocr import get_ocr

    detector_options = get_ocr()._engine.text_det.infer.session.get_session_options()
    assert detector_options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert detector_options.enable_cpu_mem_arena
