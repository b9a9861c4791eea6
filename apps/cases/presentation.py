"""What the case review screen shows: the applicant's documents side by side, the fields the
checks compare in rows, and which of them a failed check is about.

A failed check's detail names documents by label ("passport (document 1)"), never values, so the
screen marks a compared field on the documents the detail names (on every document when it names
none); the declared data is a column of its own.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from apps.cases.checks.types import DocumentFacts

SCREEN = Path(__file__).with_name("knowledge") / "screen.toml"
DECLARED = "the declared data"
_DOCUMENT_NUMBER = re.compile(r"\(document (\d+)\)")


@cache
def screen() -> dict[str, Any]:
    return tomllib.loads(SCREEN.read_text(encoding="utf-8"))


def compared_fields() -> Mapping[str, Sequence[str]]:
    return screen()["compared_fields"]


def shortcuts() -> Mapping[str, str]:
    return screen()["shortcuts"]


def field_order() -> list[str]:
    return list(dict.fromkeys(f for names in compared_fields().values() for f in names))


@dataclass(frozen=True)
class CheckRow:
    key: int
    name: str
    label: str
    passed: bool
    detail: str
    fields: tuple[str, ...]
    documents: tuple[int, ...]  # positions the detail names; () for all
    links: tuple[str, ...] = ()


@dataclass
class Column:
    """One document (or the declared data) with its compared fields, in ``field_order``."""

    title: str
    position: int  # 0 for the declared data
    status: str = ""
    document_id: str = ""
    page_url: str = ""
    cells: list[dict[str, Any]] = field(default_factory=list)


def check_rows(checks: Sequence[Mapping[str, Any]]) -> list[CheckRow]:
    rows = []
    for key, check in enumerate(checks, start=1):
        detail = str(check.get("detail", ""))
        rows.append(
            CheckRow(
                key=key,
                name=str(check["name"]),
                label=str(check["name"]).replace("_", " ").capitalize(),
                passed=bool(check["passed"]),
                detail=detail,
                fields=tuple(compared_fields().get(str(check["name"]), ())),
                documents=tuple(int(n) for n in _DOCUMENT_NUMBER.findall(detail)),
                links=tuple(check.get("links", ())),
            )
        )
    return rows


def _flags(rows: Sequence[CheckRow], position: int, declared: bool) -> dict[str, list[str]]:
    """field → the failed checks that are about it on this column."""
    flags: dict[str, list[str]] = {}
    for row in rows:
        if row.passed:
            continue
        names_it = (DECLARED in row.detail) if declared else (not row.documents or position in row.documents)
        if names_it:
            for name in row.fields:
                flags.setdefault(name, []).append(row.name)
    return flags


def columns(
    *,
    documents: Sequence[tuple[int, DocumentFacts, str]],
    declared: Mapping[str, str],
    rows: Sequence[CheckRow],
) -> list[Column]:
    """The declared data (when there is any), then each document (position, facts, page URL)."""
    order = field_order()
    found: list[Column] = []
    if declared:
        flags = _flags(rows, 0, declared=True)
        cells = [_cell(name, declared.get(name), flags) for name in order]
        found.append(Column(title="Declared by the applicant", position=0, cells=cells))
    for position, facts, page_url in documents:
        flags = _flags(rows, position, declared=False)
        found.append(
            Column(
                title=facts.label,
                position=position,
                status=facts.status,
                document_id=facts.document_id,
                page_url=page_url,
                cells=[_cell(name, facts.fields.get(name), flags) for name in order],
            )
        )
    return found


def _cell(name: str, value: str | None, flags: Mapping[str, list[str]]) -> dict[str, Any]:
    return {
        "name": name,
        "label": name.replace("_", " "),
        "value": value or "",
        "flagged": bool(value) and name in flags,
        "checks": " ".join(flags.get(name, [])),
    }
