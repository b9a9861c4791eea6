"""The instructions sent with the page images, one per step and document type (versioned with
``engines.llm.PROMPTS_VERSION``).

The JSON Schema constrains the *shape* of the answer (guided decoding); the prompt says what each
field means and how to write it, so the model need not guess from key names. Prompts carry no
document content: the pages travel as images beside them.
"""

from __future__ import annotations

from typing import Any

from engines.llm.schemas import CLASSIFY_TYPES, MRZ_PROPERTY, field_names

_TYPE_HINTS = {
    "passport": "a passport data page (with a machine-readable zone of two 44-character lines)",
    "id_card": "a national identity card or residence permit (front or back)",
    "driver_license": "a driver licence or driving permit",
    "proof_of_address": "a utility bill or another letter that proves an address",
    "bank_statement": "a bank account statement",
    "invoice": "an invoice or bill for goods or services between businesses",
    "receipt": "a till or card receipt from a shop, restaurant or service",
    "other": "anything else",
}

_FIELD_HINTS = {
    "document_number": "the document number as printed",
    "surname": "the surname in upper case, as printed",
    "given_names": "the given names in upper case, separated by one space",
    "nationality": "the nationality as an ICAO alpha-3 code (e.g. SWE)",
    "issuing_country": "the issuing state as an ICAO alpha-3 code",
    "sex": "M, F or X",
    "personal_number": "the optional personal number, or null",
    "date_of_birth": "YYYY-MM-DD",
    "date_of_expiry": "YYYY-MM-DD",
    "date_of_issue": "YYYY-MM-DD",
    "document_date": "the date the document was issued, YYYY-MM-DD",
    "statement_period_start": "YYYY-MM-DD",
    "statement_period_end": "YYYY-MM-DD",
    "invoice_date": "YYYY-MM-DD",
    "due_date": "YYYY-MM-DD",
    "date": "the purchase date, YYYY-MM-DD",
    "currency": "the ISO 4217 code (e.g. EUR)",
    "subtotal": "a decimal with two places and a dot, no currency sign (e.g. 1234.50)",
    "tax_amount": "a decimal with two places and a dot, no currency sign",
    "total_amount": "the amount due or paid, a decimal with two places and a dot, no currency sign",
    "iban_or_account_number": "the IBAN without spaces, or the account number as printed",
    "address_region": "the state, province or region as printed (US/Canada: the two-letter code)",
    "address_postal_code": "the postal code as printed",
    "issuing_region": "the issuing state or province code (e.g. CA, ON)",
    MRZ_PROPERTY: "the machine-readable zone lines exactly as printed, '<' included, or null",
}


def classification_prompt(page_count: int) -> str:
    """What the classifier is asked; the answer is constrained to one §3.2 type."""
    choices = "\n".join(f"- {name}: {_TYPE_HINTS[name]}" for name in CLASSIFY_TYPES)
    pages = "this page" if page_count == 1 else f"these {page_count} pages of one document"
    return (
        f"You classify identity and business documents. Which type of document is {pages}?\n"
        f"{choices}\n"
        'Answer with JSON only: {"document_type": "<type>"}.'
    )


def extraction_prompt(document_type: str, schema: dict[str, Any], page_count: int) -> str:
    """What the extractor is asked for a document of ``document_type`` (a §3.2 type or a tenant's)."""
    lines = []
    for name in [*field_names(schema), *([MRZ_PROPERTY] if MRZ_PROPERTY in schema["properties"] else [])]:
        hint = _FIELD_HINTS.get(name)
        lines.append(f"- {name}" + (f": {hint}" if hint else ""))
    pages = "this page" if page_count == 1 else f"these {page_count} pages"
    return (
        f"Read {pages} of a {document_type.replace('_', ' ')} and copy its fields exactly as printed.\n"
        f"{chr(10).join(lines)}\n"
        "Write null for a field the document does not show; never guess or invent a value.\n"
        "Answer with one JSON object with these keys, in this order, and nothing else."
    )
