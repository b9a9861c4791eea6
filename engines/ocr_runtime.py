"""Runs RapidOCR's three ONNX models on OpenVINO's CPU runtime instead of onnxruntime.

Why: OCR is three quarters of the engine's CPU time, and on the same 2-core machine, one thread
each, OpenVINO ran PP-OCRv4's detector in 0.52 of onnxruntime's CPU time and its recogniser in
0.61, on the inputs of real pages, with the same outputs (probabilities within 1e-3; every
recognised character the same). Precision is pinned to f32: OpenVINO would otherwise use bfloat16
where the CPU has it, which is faster again but moves the detector's probabilities by up to 0.8
and so changes what is read.

RapidOCR builds its sessions itself, by the name ``OrtInferSession`` in each model's module;
:func:`openvino_sessions` puts :class:`OpenVinoSession` under that name while RapidOCR is built,
so no onnxruntime session is ever loaded.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

# Recogniser inputs are padded to a multiple of this width: the runtime reuses what it prepared for
# an input shape it has seen, and a new shape costs it ~20 ms, as much as reading a short line.
WIDTH_STEP = 64

_RAPIDOCR_MODULES = (
    "rapidocr_onnxruntime.ch_ppocr_det.text_detect",
    "rapidocr_onnxruntime.ch_ppocr_cls.text_cls",
    "rapidocr_onnxruntime.ch_ppocr_rec.text_recognize",
)


class OpenVinoSession:
    """The interface RapidOCR uses of its ``OrtInferSession``: call with one input batch, get the
    model's outputs as a list; and the recogniser's character list from the model's metadata.

    ``config`` is RapidOCR's per-model configuration: ``model_path`` and ``intra_op_num_threads``
    (-1 for OpenVINO's choice).
    """

    def __init__(self, config: dict[str, Any]) -> None:
        import openvino

        self.model_path = Path(config["model_path"])
        if not self.model_path.is_file():
            raise FileNotFoundError(f"OCR model {self.model_path} does not exist.")
        core = openvino.Core()
        self._model = core.read_model(str(self.model_path))
        properties: dict[str, Any] = {"INFERENCE_PRECISION_HINT": "f32", "PERFORMANCE_HINT": "LATENCY"}
        threads = int(config.get("intra_op_num_threads", -1))
        if threads > 0:
            properties["INFERENCE_NUM_THREADS"] = threads
        self._request = core.compile_model(self._model, "CPU", properties).create_infer_request()
        # one request object holds its buffers: calls must not interleave
        self._lock = threading.Lock()

    def __call__(self, input_content: np.ndarray) -> list[np.ndarray]:
        with self._lock:
            outputs = self._request.infer([np.ascontiguousarray(input_content, dtype=np.float32)])
            return [outputs[index] for index in range(len(outputs))]

    def have_key(self, key: str = "character") -> bool:
        return bool(self._model.has_rt_info(["framework", key]))

    def get_character_list(self, key: str = "character") -> list[str]:
        return str(self._model.get_rt_info(["framework", key]).astype(str)).splitlines()


@contextlib.contextmanager
def openvino_sessions() -> Iterator[None]:
    """While RapidOCR is constructed, its models load as :class:`OpenVinoSession`."""
    import importlib

    modules = [importlib.import_module(name) for name in _RAPIDOCR_MODULES]
    originals = [module.OrtInferSession for module in modules]
    for module in modules:
        module.OrtInferSession = OpenVinoSession
    try:
        yield
    finally:
        for module, original in zip(modules, originals, strict=True):
            module.OrtInferSession = original
