"""A batch's results as JSON Lines (one ARCHITECTURE §3.1 result a line) or as CSV (one row a
document: its status and type, then each field's value and confidence in two columns)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from apps.batches.models import Batch
from apps.batches.selectors import batch_items
from apps.documents.selectors import document_result_get

CSV_COLUMNS = [
    "id", "file", "status", "document_type", "document_type_confidence", "decision", "pages", "error_code",
]  # fmt: skip
# Spreadsheets run a cell that starts like a formula; an extracted value must never be one.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def batch_results(*, batch: Batch) -> Iterator[dict[str, Any]]:
    seen: set[str] = set()
    for item in batch_items(batch=batch):
        if str(item.document_id) in seen:
            continue
        seen.add(str(item.document_id))
        yield document_result_get(document=item.document)


def batch_export_jsonl(*, batch: Batch) -> Iterator[str]:
    for result in batch_results(batch=batch):
        yield json.dumps(result, ensure_ascii=False) + "\n"


def _cell(value: Any) -> str:
    if value is None:
        return ""
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def batch_export_csv(*, batch: Batch) -> str:
    results = list(batch_results(batch=batch))
    field_names: list[str] = []
    titles: dict[str, str] = {}  # a tenant's own type's fields: "Net pay [net_pay]"
    for result in results:
        field_names.extend(name for name in result["fields"] if name not in field_names)
        titles.update({n: f["title"] for n, f in result["fields"].items() if f.get("title")})
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(
        CSV_COLUMNS
        + [
            c
            for name in field_names
            for c in (f"{titles[name]} [{name}]" if name in titles else name, f"{name}.confidence")
        ]
    )
    for result in results:
        error = result["error"] or {}
        row = [
            result["id"], result["file"], result["status"], result["document_type"],
            result["document_type_confidence"], result["decision"], result["pages"], error.get("code"),
        ]  # fmt: skip
        for name in field_names:
            field = result["fields"].get(name) or {}
            row.extend([field.get("value"), field.get("confidence")])
        writer.writerow([_cell(v) for v in row])
    return buffer.getvalue()
