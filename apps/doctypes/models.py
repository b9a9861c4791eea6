"""A tenant's own document types (ARCHITECTURE §3.2, last paragraph), their schema versions, and
the version each document was read with.

A type's schema never changes in place: a changed schema is a new :class:`DocumentTypeVersion`,
and a document keeps the version it was first read with (:class:`DocumentTypeReading`), so its
fields always mean what they meant when it was read.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.db import models


class DocumentType(models.Model):
    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.PROTECT, related_name="document_types")
    name = models.CharField(max_length=49)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["tenant", "name"], name="one_document_type_per_name")]

    def __str__(self) -> str:
        return f"{self.name} ({self.tenant_id})"


class DocumentTypeVersion(models.Model):
    document_type = models.ForeignKey(DocumentType, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    # the schema as checked and stored (engines.custom_types.CustomSchema.to_json), as text: the
    # order of its fields is the order they are shown in, and PostgreSQL's jsonb would sort them
    schema_json = models.TextField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["document_type", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["document_type", "version"], name="one_document_type_version")
        ]

    def __str__(self) -> str:
        return f"{self.document_type.name} v{self.version}"

    @property
    def schema(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.schema_json)
        return loaded


class DocumentTypeReading(models.Model):
    """The version of a tenant's type a document is read with (pinned when it is first read)."""

    document = models.OneToOneField(
        "documents.Document", on_delete=models.CASCADE, primary_key=True, related_name="custom_type"
    )
    version = models.ForeignKey(DocumentTypeVersion, on_delete=models.PROTECT, related_name="readings")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.document_id} read as {self.version}"


class AuthenticityPolicy(models.Model):
    """The document types whose photographed or scanned pages get the advisory authenticity
    signals, for one tenant; a tenant without one gets the default of
    ``knowledge/authenticity.toml`` (identity documents and proofs of address). Written through
    ``apps.doctypes.services.authenticity_policy_set`` (checked against the catalogue and the
    tenant's own types, audited)."""

    tenant = models.OneToOneField(
        "tenants.Tenant", on_delete=models.CASCADE, related_name="authenticity_policy"
    )
    document_types = models.JSONField(
        default=list,
        blank=True,
        help_text='document types, built-in or the tenant\'s own: ["passport", "id_card", "receipt"]; '
        "an empty list turns the signals off for the tenant",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "authenticity policies"

    def __str__(self) -> str:
        return f"authenticity policy of {self.tenant_id}"
