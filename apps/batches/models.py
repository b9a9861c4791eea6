"""A batch: many files (or one zip) submitted together, and the documents they became.

A document belongs to its tenant, not to a batch: the same bytes submitted in two batches are one
document (deduplicated by content), listed in both.
"""

from __future__ import annotations

import uuid

from django.db import models


class BatchSource(models.TextChoices):
    API = "api"
    CLI = "cli"


class Batch(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.PROTECT, related_name="batches")
    source = models.CharField(max_length=10, choices=BatchSource.choices, default=BatchSource.API)
    # Files (or zip members) refused at submission: [{"file", "code", "message"}], never their bytes.
    refused = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "batches"
        indexes = [models.Index(fields=["tenant", "created_at"])]

    def __str__(self) -> str:
        return f"Batch {self.id}"


class BatchDocument(models.Model):
    batch = models.ForeignKey(Batch, on_delete=models.CASCADE, related_name="items")
    document = models.ForeignKey("documents.Document", on_delete=models.PROTECT, related_name="batch_items")
    position = models.PositiveIntegerField()  # the order the files came in
    file = models.CharField(max_length=255)  # as submitted: "scan.jpg" or "archive.zip/member.jpg"
    duplicate = models.BooleanField(default=False)  # the bytes were already a document of the tenant

    class Meta:
        ordering = ["position"]
        constraints = [models.UniqueConstraint(fields=["batch", "position"], name="one_item_per_position")]

    def __str__(self) -> str:
        return f"{self.file} in {self.batch_id}"
