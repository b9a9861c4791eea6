"""Common given names and surnames, spelled as their bearers print them (accents included).

Not a list of every name: a word missing here is simply unknown, and nothing is concluded from
it. The list only lets :mod:`engines.business.name_spelling` notice a read name that is *not*
common but lies one OCR confusion away from one that is ("HEMÁNDEZ" is HERNÁNDEZ with "rn"
read as "m"; "NGUYÊT" is NGUYỆT without its dot below). Both OCR readers make these mistakes
alike, so their agreement cannot catch them. The names are data, by region, in
engines/knowledge/names/ (surnames.txt, given_names.txt), written by hand from public
name-frequency knowledge; no data is downloaded.
"""

from __future__ import annotations

from engines.knowledge import COMMON_NAMES

__all__ = ["COMMON_NAMES"]
