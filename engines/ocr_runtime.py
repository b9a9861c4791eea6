"""Runs RapidOCR's three ONNX models on OpenVINO's CPU runtime instead of onnxruntime.

Why: OCR is three quarters of the engine's CPU time. On the 2-core reference machine, one thread
each, OpenVINO ran PP-OCRv4's detector in 0.52 of onnxruntime's CPU time and its recogniser in
0.61 (f32, on the inputs of real pages, probabilities within 1e-3, every character the same).

Precision: the detector and the recogniser run in bfloat16 where the CPU computes it natively
(AVX512-BF16 or AMX; OpenVINO lists "BF16" in its capabilities), f32 elsewhere; the orientation
classifier always in f32. bfloat16 runs the recogniser in 0.68 of f32's CPU time and the detector
in 0.58 (about 0.14 s less a detection of a page). It moves a few of the detector's pixel
probabilities across the threshold (0.04 % of pixels on 40 pages), and with them the odd box
edge: on seeds 44 and 45 (272 generated documents, engine 0.2.86) the bfloat16 detector read 1,947
of 2,042 fields right against f32's 1,925, the documents where either won being few and each
way (7 against 4).

RapidOCR builds its sessions itself, by the name ``OrtInferSession`` in each model's module;
:func:`openvino_sessions` puts :class:`OpenVinoSession` under that name while RapidOCR is built,
so no onnxruntime session is ever loaded.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

# Recogniser inputs are padded to a multiple of this width: the runtime reuses what it prepared for
# an input shape it has seen, and a new shape costs it ~20 ms, as much as reading a short line.
WIDTH_STEP = 64

_FACTORY = "OrtInferSession"  # the name each RapidOCR model module builds its session by
_DETECTOR_MODULE = "rapidocr_onnxruntime.ch_ppocr_det.text_detect"
_CLASSIFIER_MODULE = "rapidocr_onnxruntime.ch_ppocr_cls.text_cls"
_RECOGNISER_MODULE = "rapidocr_onnxruntime.ch_ppocr_rec.text_recognize"


class OpenVinoSession:
    """The interface RapidOCR uses of its ``OrtInferSession``: call with one input batch, get the
    model's outputs as a list; and the recogniser's character list from the model's metadata.

    ``config`` is RapidOCR's per-model configuration: ``model_path`` and ``intra_op_num_threads``
    (-1 for OpenVINO's choice). ``precision`` is "f32" or "bf16" (see the module docstring).
    """

    def __init__(self, config: dict[str, Any], *, precision: str = "f32") -> None:
        import openvino

        self.model_path = Path(config["model_path"])
        if not self.model_path.is_file():
            raise FileNotFoundError(f"OCR model {self.model_path} does not exist.")
        core = openvino.Core()
        self._model = core.read_model(str(self.model_path))
        self.precision = precision
        properties: dict[str, Any] = {"INFERENCE_PRECISION_HINT": precision, "PERFORMANCE_HINT": "LATENCY"}
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


def native_precision() -> str:
    """bf16 where this CPU computes bfloat16 natively, else f32 (emulated bfloat16 is slower)."""
    import openvino

    return "bf16" if "BF16" in openvino.Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES") else "f32"


@contextlib.contextmanager
def openvino_sessions() -> Iterator[None]:
    """While RapidOCR is constructed, its models load as :class:`OpenVinoSession`."""
    factories = {
        _DETECTOR_MODULE: functools.partial(OpenVinoSession, precision=native_precision()),
        _CLASSIFIER_MODULE: OpenVinoSession,
        _RECOGNISER_MODULE: functools.partial(OpenVinoSession, precision=native_precision()),
    }
    modules = {name: importlib.import_module(name) for name in factories}
    originals = {name: getattr(module, _FACTORY) for name, module in modules.items()}
    for name, module in modules.items():
        setattr(module, _FACTORY, factories[name])
    try:
        yield
    finally:
        for name, module in modules.items():
            setattr(module, _FACTORY, originals[name])
