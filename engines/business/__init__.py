"""Key-value readers for business documents: receipts, invoices, proof of address and bank
statements. Each takes the document's pages as :class:`engines.layout.PageText` (OCR or a PDF
text layer) and returns :class:`engines.types.Extracted` with the ARCHITECTURE §3.2 fields."""

from engines.business.address import read_proof_of_address
from engines.business.invoice import read_invoice
from engines.business.receipt import read_receipt
from engines.business.statement import read_bank_statement

READERS = {
    "receipt": read_receipt,
    "invoice": read_invoice,
    "proof_of_address": read_proof_of_address,
    "bank_statement": read_bank_statement,
}

__all__ = ["READERS", "read_bank_statement", "read_invoice", "read_proof_of_address", "read_receipt"]
