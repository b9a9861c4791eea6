"""A tenant's own document type for the tests: a payslip, its schema and a digital PDF of one.

The schema uses every format of engines.custom_types: a name, an address, dates, amounts with
their currency, a code with a pattern and an enumeration.
"""

from __future__ import annotations

from typing import Any

PAYSLIP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "employee_name": {
            "type": "string",
            "title": "Employee",
            "description": "the employee's full name, as printed",
            "format": "name",
            "maxLength": 120,
        },
        "employer_name": {"type": "string", "title": "Employer", "format": "name"},
        "employee_id": {
            "type": "string",
            "title": "Employee ID",
            "description": "staff number",
            "format": "code",
            "pattern": "^E-[0-9]{4,8}$",
        },
        "pay_period_end": {"type": "string", "title": "Period ending", "format": "date"},
        "pay_date": {"type": "string", "title": "Pay date", "description": "payment date", "format": "date"},
        "gross_pay": {"type": "string", "title": "Gross pay", "format": "amount"},
        "net_pay": {
            "type": "string",
            "title": "Net pay",
            "description": "take-home pay, amount paid",
            "format": "amount",
        },
        "currency": {"type": "string", "title": "Currency", "format": "currency"},
        "pay_frequency": {
            "type": "string",
            "title": "Pay frequency",
            "enum": ["weekly", "fortnightly", "monthly"],
        },
        "employee_address": {"type": "string", "title": "Address", "format": "address"},
    },
    "required": ["employee_name", "pay_date", "net_pay"],
}

PAYSLIP_TRUTH = {
    "employee_name": "Jane Doe",
    "employer_name": "Acme Widgets Ltd",
    "employee_id": "E-20417",
    "pay_period_end": "2026-03-31",
    "pay_date": "2026-03-28",
    "gross_pay": "3500.00",
    "net_pay": "2731.45",
    "currency": "EUR",
    "pay_frequency": "monthly",
    "employee_address": "12 Harbour Street, Dublin D02 XY45",
}

_LINES = [
    (20, 20, "PAYSLIP", 16),
    (20, 35, "Employer: Acme Widgets Ltd", 11),
    (20, 45, "Employee: Jane Doe", 11),
    (20, 55, "Employee ID: E-20417", 11),
    (20, 65, "Address: 12 Harbour Street, Dublin D02 XY45", 11),
    (20, 80, "Period ending: 31/03/2026", 11),
    (20, 90, "Pay date: 28/03/2026", 11),
    (20, 100, "Pay frequency: Monthly", 11),
    (20, 115, "Gross pay: EUR 3,500.00", 11),
    (20, 125, "Income tax: EUR 612.30", 11),
    (20, 135, "Social insurance: EUR 156.25", 11),
    (20, 150, "Net pay: EUR 2,731.45", 12),
]


def payslip_pdf(*, seed: str = "") -> bytes:
    """A one-page digital payslip (its text layer holds the printed lines); ``seed`` changes the
    bytes, not the values (a second upload that is not a duplicate)."""
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format="A4")
    pdf.set_creation_date(__import__("datetime").datetime(2026, 1, 1, tzinfo=__import__("datetime").UTC))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    for x, y, text, size in _LINES:
        pdf.set_font("Helvetica", size=size)
        pdf.text(x, y, text)
    if seed:
        pdf.set_font("Helvetica", size=6)
        pdf.text(20, 280, f"ref {seed}")
    return bytes(pdf.output())
