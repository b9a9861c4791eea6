"""The glyphs OCR confuses in a machine-readable zone, as data (engines/knowledge/mrz_lookalikes.toml):
what MRZ repair and the format-constrained decoder may read a character as."""

from __future__ import annotations

import tomllib
from pathlib import Path

_TABLES = tomllib.loads(
    (Path(__file__).resolve().parent.parent / "knowledge" / "mrz_lookalikes.toml").read_text(encoding="utf-8")
)

FILLER_GLYPHS: dict[str, str] = dict(_TABLES["filler_glyphs"])
CONFUSABLE: dict[str, str] = dict(_TABLES["confusable"])
DIGIT_LOOKALIKES: dict[str, str] = dict(_TABLES["digit_lookalikes"])
LETTER_LOOKALIKES: dict[str, str] = dict(_TABLES["letter_lookalikes"])
RECOGNISER_FILLER_LOOKALIKES: str = _TABLES["recogniser"]["filler_lookalikes"]
