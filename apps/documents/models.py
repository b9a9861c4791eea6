"""Documents, their pages, the engine's extractions and the resulting fields.

State changes go through ``apps.documents.state`` only; nothing else writes ``status``.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class DocumentStatus(models.TextChoices):
    RECEIVED = "received"
    QUEUED = "queued"
    PROCESSING = "processing"
    EXTRACTED = "extracted"
    AUTO_APPROVED = "auto_approved"
    NEEDS_REVIEW = "needs_review"
    # the capture was not good enough to read: the applicant is asked for a new photo (no inference)
    RESUBMISSION_REQUESTED = "resubmission_requested"
    APPROVED = "approved"
    REJECTED = "rejected"
    FAILED = "failed"


class AdvisoryState(models.TextChoices):
    """The advisory work on a decided document (its authenticity signals), done off the decision's
    path on a queue of its own (``apps.documents.advisory``)."""

    NONE = "", "none"
    PENDING = "pending"
    DONE = "done"


class Document(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.PROTECT, related_name="documents")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    sha256 = models.CharField(max_length=64)
    original_name = models.CharField(max_length=255)
    mime_type = models.CharField(max_length=100)
    size_bytes = models.BigIntegerField()
    blob_name = models.CharField(max_length=255)
    wrapped_key = models.BinaryField()  # the document's data key, encrypted under the master key
    status = models.CharField(max_length=32, choices=DocumentStatus.choices, default=DocumentStatus.RECEIVED)
    document_type_hint = models.CharField(max_length=50, blank=True)
    document_type = models.CharField(max_length=50, blank=True)
    document_type_confidence = models.FloatField(null=True, blank=True)
    decision = models.CharField(max_length=32, blank=True)
    error_code = models.CharField(max_length=64, blank=True)
    error_message = models.TextField(blank=True)
    attempt_count = models.PositiveIntegerField(default=0)  # processing attempts (steps run + re-enqueues)
    # An outage the document is waiting out (apps.documents.unavailability): since when, and what
    # was unavailable (triton, model_engine, database, key_not_loaded); cleared by its next state change
    unavailable_since = models.DateTimeField(null=True, blank=True)
    unavailable_reason = models.CharField(max_length=32, blank=True)
    # times the document was sent through the pipeline again after failing (apps.documents.reprocess)
    reprocess_count = models.PositiveIntegerField(default=0)
    timings_ms = models.JSONField(default=dict, blank=True)
    # Checks of the page images themselves, made by the prepare step before any inference:
    # capture quality (media.capture_quality), and the advisory authenticity signals
    # (media.authenticity) added after the decision by the advisory task (apps.documents.advisory)
    page_checks = models.JSONField(default=list, blank=True)
    # the advisory signals owed to a decided document: "" none owed, pending, done (and when)
    advisory_state = models.CharField(max_length=16, choices=AdvisoryState.choices, default="", blank=True)
    advisory_done_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    status_changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "sha256"], name="one_document_per_content_per_tenant")
        ]
        indexes = [
            models.Index(fields=["status", "updated_at"]),
            # the few documents pending their advisory signals, for the reconciler
            models.Index(
                fields=["updated_at"],
                condition=models.Q(advisory_state="pending"),
                name="documents_advisory_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"Document {self.id} ({self.status})"


class Page(models.Model):
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="pages")
    number = models.PositiveIntegerField()  # 1-based
    blob_name = models.CharField(max_length=255)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    # The digital PDF page's text layer (engines.layout JSON) is document content: it is stored
    # encrypted like the page image, under this blob name ("" for a page without one).
    text_blob_name = models.CharField(max_length=255, blank=True)
    # a photographed or scanned page (media.capture_quality.captured_pages), never one of a
    # digital PDF: the pages the advisory authenticity signals judge
    captured = models.BooleanField(default=False)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["document", "number"], name="one_page_per_number")]

    def __str__(self) -> str:
        return f"page {self.number} of {self.document_id}"


class Extraction(models.Model):
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="extractions")
    engine_name = models.CharField(max_length=100)
    engine_version = models.CharField(max_length=50)
    raw_result = models.JSONField()
    checks = models.JSONField(default=list)
    timings_ms = models.JSONField(default=dict)
    calibration_version = models.CharField(max_length=50, blank=True)
    validated_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        get_latest_by = "created_at"

    def __str__(self) -> str:
        return f"{self.engine_name} {self.engine_version} on {self.document_id}"


class Field(models.Model):
    extraction = models.ForeignKey(Extraction, on_delete=models.CASCADE, related_name="fields")
    name = models.CharField(max_length=100)
    value = models.TextField(null=True, blank=True)  # noqa: DJ001 — "not found" differs from ""
    raw_confidence = models.FloatField()
    confidence = models.FloatField(null=True, blank=True)  # calibrated; set by the validate step
    page = models.PositiveIntegerField(default=1)
    bbox = models.JSONField(null=True, blank=True)
    source = models.CharField(max_length=20)
    valid = models.BooleanField(null=True, blank=True)
    # what supports the value besides its score: evidence kinds of engines/spec/evidence.toml, in
    # that file's order (ARCHITECTURE §3.1 ``evidence``); an operator's correction leaves it as read
    evidence = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["extraction", "name"], name="one_field_per_name")]

    def __str__(self) -> str:
        return f"{self.name} of extraction {self.extraction_id}"


class BrokerEpoch(models.Model):
    """The broker's identity as the reconciler last saw it (one row).

    Redis keeps queued messages in memory: a restart without persistence or a FLUSHALL loses every
    message at once, silently. The reconciler plants a random key in the broker and remembers it
    here, in the database that outlives Redis; a key that is gone means the messages went with it
    (workers.broker_epoch)."""

    value = models.CharField(max_length=64)
    seen_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"broker epoch {self.value[:8]}… (seen {self.seen_at:%Y-%m-%d %H:%M:%S})"
