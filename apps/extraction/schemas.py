"""Document types, their canonical fields (ARCHITECTURE §3.2) and what each field is.

The field *family* groups fields whose values fail in the same way (a name misread is not a date
misread), so calibration fits one map per family and source instead of one per field name: a
family has enough labelled examples to fit, a single rare field would not.
"""

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
_ADDRESS_FIELDS = (
    "full_name",
    "address_street",
    "address_city",
    "address_region",
    "address_postal_code",
    "document_date",
    "issuer_name",
)

FIELDS: dict[str, tuple[str, ...]] = {
    "passport": _IDENTITY_FIELDS,
    "id_card": _IDENTITY_FIELDS,
    "driver_license": (
        "document_number",
        "surname",
        "given_names",
        "date_of_birth",
        "sex",
        "date_of_expiry",
        "date_of_issue",
        "address_street",
        "address_city",
        "address_region",
        "address_postal_code",
        "issuing_region",
        "license_class",
    ),
    "proof_of_address": _ADDRESS_FIELDS,
    "bank_statement": (
        *_ADDRESS_FIELDS,
        "account_holder",
        "iban_or_account_number",
        "statement_period_start",
        "statement_period_end",
    ),
    "invoice": (
        "vendor_name",
        "invoice_number",
        "invoice_date",
        "due_date",
        "customer_name",
        "currency",
        "subtotal",
        "tax_amount",
        "total_amount",
    ),
    "receipt": ("merchant_name", "date", "currency", "total_amount", "tax_amount"),
    "other": (),
}

_IDENTITY_REQUIRED = (
    "document_number",
    "surname",
    "nationality",
    "date_of_birth",
    "sex",
    "date_of_expiry",
    "issuing_country",
)

# Fields without which a document of the type cannot be approved without a human.
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "passport": _IDENTITY_REQUIRED,
    "id_card": _IDENTITY_REQUIRED,
    "driver_license": ("document_number", "surname", "given_names", "date_of_birth", "date_of_expiry"),
    "proof_of_address": ("full_name", "address_street", "address_postal_code", "document_date"),
    "bank_statement": ("account_holder", "iban_or_account_number", "statement_period_end"),
    "invoice": ("vendor_name", "invoice_number", "invoice_date", "total_amount"),
    "receipt": ("merchant_name", "date", "total_amount"),
}

DATE_FIELDS = frozenset(
    {
        "date_of_birth",
        "date_of_expiry",
        "date_of_issue",
        "document_date",
        "statement_period_start",
        "statement_period_end",
        "invoice_date",
        "due_date",
        "date",
    }
)
AMOUNT_FIELDS = frozenset({"subtotal", "tax_amount", "total_amount"})

_FAMILIES: dict[str, str] = {
    **dict.fromkeys(
        ("document_number", "personal_number", "invoice_number", "iban_or_account_number"), "number"
    ),
    **dict.fromkeys(
        (
            "surname",
            "given_names",
            "full_name",
            "account_holder",
            "customer_name",
            "vendor_name",
            "merchant_name",
            "issuer_name",
        ),
        "name",
    ),
    **dict.fromkeys(DATE_FIELDS, "date"),
    **dict.fromkeys(AMOUNT_FIELDS, "amount"),
    **dict.fromkeys(
        (
            "nationality",
            "issuing_country",
            "sex",
            "currency",
            "address_region",
            "issuing_region",
            "license_class",
        ),
        "code",
    ),
    **dict.fromkeys(("address_street", "address_city", "address_postal_code"), "address"),
}


def field_family(name: str) -> str:
    """The calibration family of a field name ("other" for a tenant's own fields)."""
    return _FAMILIES.get(name, "other")
