"""Fixtures for the engine tests: the real specimen folder beside the checkout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
ID_SPECIMENS = REPO_ROOT.parent / "shared" / "realdata" / "id_specimens"


@pytest.fixture(scope="session")
def id_specimens() -> tuple[Path, dict[str, Any]]:
    """The real specimen images and their labels (skips, saying where it looked, when absent)."""
    truth = ID_SPECIMENS / "truth.json"
    if not truth.is_file():
        pytest.skip(f"real specimens not found at {ID_SPECIMENS} (they live beside the checkout, in CI too)")
    return ID_SPECIMENS, json.loads(truth.read_text())
