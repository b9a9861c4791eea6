"""Document types and their canonical fields (ARCHITECTURE §3.2)."""

from __future__ import annotations

DOCUMENT_TYPES = (
    "passport",
    "id_card",
    "driver_license",
    "proof_of_address",
    "bank_statement",
    "invoice",
    "receipt",
    "other",
)

_IDENTITY_FIELDS = (
    "document_number",
    "surname",
    "given_names",
    "nationality",
    "date_of_birth",
    "sex",
    "date_of_expiry",
    "issuing_country",
    "personal_number",
    "date_of_issue",
)

FIELDS: dict[str, tuple[str, ...]] = {
    "passport": _IDENTITY_FIELDS,
    "id_card": _IDENTITY_FIELDS,
    "other": (),
}

# Fields without which a document of the type cannot be approved without a human.
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "passport": (
        "document_number",
        "surname",
        "nationality",
        "date_of_birth",
        "sex",
        "date_of_expiry",
        "issuing_country",
    ),
    "id_card": (
        "document_number",
        "surname",
        "nationality",
        "date_of_birth",
        "sex",
        "date_of_expiry",
        "issuing_country",
    ),
}

DATE_FIELDS = frozenset({"date_of_birth", "date_of_expiry", "date_of_issue"})
