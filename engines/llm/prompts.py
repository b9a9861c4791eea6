"""The instructions sent with the page images, one per step and document type (versioned with
``engines.llm.PROMPTS_VERSION``).

The JSON Schema constrains the *shape* of the answer (guided decoding); the prompt says what each
field means and how to write it, so the model need not guess from key names. Prompts carry no
document content: the pages travel as images beside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.custom_types import TypeCandidate
from engines.llm.schemas import CLASSIFY_TYPES, MRZ_PROPERTY, field_names
from engines.spec import CATALOGUE

_FIELD_HINTS = {
    **{name: spec.hint for name, spec in CATALOGUE.fields.items() if spec.hint},
    MRZ_PROPERTY: "the machine-readable zone lines exactly as printed, '<' included, or null",
}


def classification_prompt(page_count: int, own_types: Sequence[TypeCandidate] = ()) -> str:
    """What the classifier is asked; the answer is constrained to one §3.2 type or one of
    ``own_types``, the tenant's own types, listed after them with their descriptions."""
    choices = "\n".join(f"- {name}: {CATALOGUE.types[name].description}" for name in CLASSIFY_TYPES)
    if own_types:
        listed = "\n".join(_own_type_line(t) for t in own_types)
        choices += f"\nThis organisation's own document types:\n{listed}"
    pages = "this page" if page_count == 1 else f"these {page_count} pages of one document"
    return (
        f"You classify identity and business documents. Which type of document is {pages}?\n"
        f"{choices}\n"
        'Answer with JSON only: {"document_type": "<type>"}.'
    )


def _own_type_line(candidate: TypeCandidate) -> str:
    """A tenant's type as the classifier sees it: its name and description on one line."""
    description = " ".join(candidate.description.split())
    return f"- {candidate.name}" + (f": {description}" if description else "")


def extraction_prompt(document_type: str, schema: dict[str, Any], page_count: int) -> str:
    """What the extractor is asked for a document of ``document_type`` (a §3.2 type or a tenant's)."""
    lines = []
    for name in [*field_names(schema), *([MRZ_PROPERTY] if MRZ_PROPERTY in schema["properties"] else [])]:
        hint = _described(schema["properties"][name]) or _FIELD_HINTS.get(name)
        lines.append(f"- {name}" + (f": {hint}" if hint else ""))
    pages = "this page" if page_count == 1 else f"these {page_count} pages"
    return (
        f"Read {pages} of a {document_type.replace('_', ' ')} and copy its fields exactly as printed.\n"
        f"{chr(10).join(lines)}\n"
        "Write null for a field the document does not show; never guess or invent a value.\n"
        "Answer with one JSON object with these keys, in this order, and nothing else."
    )


def _described(prop: dict[str, Any]) -> str | None:
    """A tenant's field as its schema describes it ("Net pay: take-home pay"), else None."""
    value = next((p for p in prop.get("anyOf", [prop]) if p.get("type") != "null"), prop)
    parts = [str(value[key]) for key in ("title", "description") if value.get(key)]
    return ": ".join(parts) or None
