"""A readable table of §3.1 results for terminals (``--format table``)."""

from __future__ import annotations

from typing import Any


def result_table(result: dict[str, Any]) -> str:
    lines = [f"{result['file']}  [{result['status']}]  type={result['document_type'] or '-'}"]
    if result["error"]:
        lines.append(f"  error {result['error']['code']}: {result['error']['message']}")
    width = max((len(name) for name in result["fields"]), default=0)
    for name, field in result["fields"].items():
        confidence = "-" if field["confidence"] is None else f"{field['confidence']:.2f}"
        valid = {True: "valid", False: "INVALID", None: ""}[field["valid"]]
        lines.append(f"  {name:<{width}}  {field['value'] or '-':<32} {confidence:>5}  {valid}")
    if result.get("resubmission"):
        reasons = ", ".join(result["resubmission"]["reasons"])
        lines.append(f"  resubmission requested ({reasons}): {result['resubmission']['message']}")
    failed = [c["name"] for c in result["checks"] if not c["passed"]]
    if failed:
        lines.append(f"  failed checks: {', '.join(failed)}")
    return "\n".join(lines)
