"""The family's word lists, read from ``htmldocs/data/*.json``.

Names, streets, items, captions and themes are data, not code, so that a reviewer can see at a
glance what the documents say and that none of it comes from ``synth/``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).with_name("data")


@cache
def load(name: str) -> dict[str, Any]:
    """The JSON document ``data/<name>.json`` (read once per process)."""
    data: dict[str, Any] = json.loads((DATA_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return data


def country_codes() -> tuple[str, ...]:
    """Every country the family prints documents of."""
    return tuple(load("locales")["countries"])
