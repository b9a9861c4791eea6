"""Stand-ins for loading model_repo's Gemma 4 Python model outside Triton (tests/unit/llm and
tests/gemma4): the model's file, Triton's ``pb_utils.TritonError`` and the model's logger."""

from __future__ import annotations

from tests.conftest import REPO_ROOT

MODEL_FILE = REPO_ROOT / "model_repo" / "doc_pipeline" / "1" / "gemma4_model.py"


class TritonError:
    """Triton's ``pb_utils.TritonError``: a message and one of these codes, read by methods."""

    UNKNOWN, INTERNAL, NOT_FOUND, INVALID_ARG, UNAVAILABLE, UNSUPPORTED, ALREADY_EXISTS, CANCELLED = range(8)

    def __init__(self, message: str, code: int = 0) -> None:
        self._message, self._code = message, code

    def message(self) -> str:
        return self._message

    def code(self) -> int:
        return self._code


class Logger:
    """``pb_utils.Logger``'s two levels, kept as (level, line) for a test to read."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def log_info(self, line: str) -> None:
        self.lines.append(("info", line))

    def log_error(self, line: str) -> None:
        self.lines.append(("error", line))
