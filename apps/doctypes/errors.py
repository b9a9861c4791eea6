from __future__ import annotations


class DocumentTypeInvalidError(Exception):
    """A definition refused before anything is saved; ``problems`` per part (``name``, ``schema``)."""

    def __init__(self, problems: dict[str, list[str]]) -> None:
        super().__init__("; ".join(p for found in problems.values() for p in found))
        self.problems = problems


class DocumentTypeTenantRequiredError(Exception):
    """A tenant's own type named without its tenant where one is needed (whose ``payslip``?)."""


class AuthenticityPolicyInvalidError(Exception):
    """An authenticity policy refused before anything is saved (its types unknown to the catalogue
    and to the tenant, or not a list of names)."""
