"""Input and output shapes of the API. Outputs follow ARCHITECTURE §3.1 and §3.4 exactly; they
document the schema (responses are built by the selectors' own functions)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.doctypes.selectors import document_type_exists
from apps.documents.models import DocumentStatus
from apps.webhooks import destinations
from engines.evidence import RULES as EVIDENCE_RULES
from engines.spec import DOCUMENT_TYPES

DECISIONS = ("auto_approved", "needs_review", "resubmission_requested", "rejected")
SOURCES = ("mrz", "barcode", "text_layer", "ocr", "model")


class _BlankIsInvalid:
    """A form field sent empty is an invalid value, not an absent one (DRF's default for forms)."""

    def get_value(self, dictionary: Any) -> Any:
        name = getattr(self, "field_name", None)
        if name in dictionary and dictionary.get(name) == "":
            return ""
        return super().get_value(dictionary)  # type: ignore[misc]


class TypeHintField(_BlankIsInvalid, serializers.CharField):
    """A §3.2 type, or one of the caller's tenant's own (``context["tenant"]``; apps.doctypes)."""

    def __init__(self, help_text: str = "a hint") -> None:
        super().__init__(
            required=False,
            max_length=49,
            help_text=f"{help_text}: one of {', '.join(DOCUMENT_TYPES)}, or one of the tenant's own "
            "document types (GET /api/v1/document-types), read with that type's schema",
        )

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        tenant = self.context.get("tenant")
        if value in DOCUMENT_TYPES or (
            tenant is not None and document_type_exists(tenant=tenant, name=value)
        ):
            return value
        raise serializers.ValidationError(
            f'"{value}" is neither a built-in document type nor one of this tenant\'s document types'
        )


class CallbackUrlField(_BlankIsInvalid, serializers.URLField):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(
            required=False,
            max_length=2000,
            help_text="the document's result is POSTed here, signed, when it is decided, reviewed or fails",
            **kwargs,  # type: ignore[arg-type]
        )

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        refusal = destinations.url_refusal(value)
        if refusal:
            raise serializers.ValidationError(refusal)
        return value


# --- inputs -------------------------------------------------------------------------------------


class DocumentUploadInput(serializers.Serializer):
    file = serializers.FileField(help_text="a JPEG, PNG, TIFF, WebP image or a PDF (§4 limits)")
    document_type = TypeHintField()
    callback_url = CallbackUrlField()


class BatchUploadInput(serializers.Serializer):
    files = serializers.ListField(
        child=serializers.FileField(), min_length=1, help_text="many documents, or one zip of them"
    )
    document_type = TypeHintField(help_text="a hint for every file")
    callback_url = CallbackUrlField()


class DocumentListQuery(serializers.Serializer):
    # "?status=&document_type=" (ARCHITECTURE §3.4's own example) means any status, any type
    status = serializers.ChoiceField(choices=DocumentStatus.values, required=False, allow_blank=True)
    document_type = serializers.CharField(
        required=False, allow_blank=True, max_length=49, help_text="a §3.2 type or one of the tenant's own"
    )
    created_after = serializers.DateTimeField(required=False, help_text="uploaded at or after (ISO 8601)")
    created_before = serializers.DateTimeField(required=False, help_text="uploaded before (ISO 8601)")


# --- outputs ------------------------------------------------------------------------------------


class DocumentAccepted(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=DocumentStatus.values)
    url = serializers.URLField(help_text="GET it for the §3.1 result")
    file = serializers.CharField()
    duplicate = serializers.BooleanField(help_text="the same bytes were already a document: this is it")


class DocumentReprocessed(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=DocumentStatus.values, help_text="`queued`: on its way again")
    url = serializers.URLField(help_text="GET it for the §3.1 result")
    reprocess_count = serializers.IntegerField(help_text="times the document was processed again")


class FieldResult(serializers.Serializer):
    value = serializers.CharField(allow_null=True)
    confidence = serializers.FloatField(allow_null=True, min_value=0, max_value=1)
    page = serializers.IntegerField()
    bbox = serializers.ListField(child=serializers.FloatField(), allow_null=True, min_length=4, max_length=4)
    source = serializers.CharField(help_text=f"one of {', '.join(SOURCES)}")  # type: ignore[assignment]
    valid = serializers.BooleanField(allow_null=True)
    evidence = serializers.ListField(
        child=serializers.ChoiceField(choices=[(k.name, k.means) for k in EVIDENCE_RULES.kinds.values()]),
        help_text="what supports the value independently of its confidence, in a fixed order, possibly "
        "empty: a field without enough evidence for its kind is never auto-approved, whatever its "
        "confidence (docs/decisions.md)",
    )
    title = serializers.CharField(required=False, help_text="a tenant's own type's field: its title")


class CheckResult(serializers.Serializer):
    name = serializers.CharField()
    passed = serializers.BooleanField()
    detail = serializers.CharField(allow_blank=True)


class EngineInfo(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.CharField()


class ErrorInfo(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField(allow_blank=True)


class ResubmissionInfo(serializers.Serializer):
    reasons = serializers.ListField(
        child=serializers.ChoiceField(choices=("blurred", "glare", "cropped", "low_resolution", "too_dark"))
    )
    message = serializers.CharField(help_text="what to tell the applicant")


class WaitingInfo(serializers.Serializer):
    on = serializers.ChoiceField(choices=("triton", "model_engine", "database", "key_not_loaded"))
    since = serializers.DateTimeField()


class DocumentResult(serializers.Serializer):
    """ARCHITECTURE §3.1."""

    id = serializers.UUIDField()
    file = serializers.CharField()
    sha256 = serializers.CharField()
    status = serializers.ChoiceField(choices=DocumentStatus.values)
    document_type = serializers.CharField(allow_null=True)
    document_type_confidence = serializers.FloatField(allow_null=True)
    pages = serializers.IntegerField()
    fields = serializers.DictField(child=FieldResult())  # type: ignore[assignment]  # a field, popped by DRF
    checks = CheckResult(many=True)
    decision = serializers.ChoiceField(choices=DECISIONS, allow_null=True)
    engine = EngineInfo(allow_null=True)
    timings_ms = serializers.DictField(child=serializers.IntegerField())
    error = ErrorInfo(allow_null=True)
    resubmission = ResubmissionInfo(
        allow_null=True, help_text="why a better photo is needed (decision resubmission_requested), else null"
    )
    document_type_version = serializers.IntegerField(
        required=False, help_text="a tenant's own type: the version of its schema the document was read with"
    )
    waiting = WaitingInfo(
        required=False,
        help_text="only while the document waits out an outage (it is still processing, never failed "
        "for it): what is unavailable and since when",
    )


class DocumentSummary(serializers.Serializer):
    id = serializers.UUIDField()
    file = serializers.CharField()
    sha256 = serializers.CharField()
    status = serializers.ChoiceField(choices=DocumentStatus.values)
    document_type = serializers.CharField(allow_null=True)
    decision = serializers.ChoiceField(choices=DECISIONS, allow_null=True)
    created_at = serializers.DateTimeField()
    url = serializers.URLField()


class Refusal(serializers.Serializer):
    file = serializers.CharField(allow_blank=True)
    code = serializers.CharField()
    message = serializers.CharField()


class BatchAccepted(serializers.Serializer):
    id = serializers.UUIDField()
    url = serializers.URLField()
    documents = DocumentAccepted(many=True)
    refused = Refusal(many=True)


class BatchExports(serializers.Serializer):
    jsonl = serializers.URLField()
    csv = serializers.URLField()


class BatchDetail(serializers.Serializer):
    id = serializers.UUIDField()
    created_at = serializers.DateTimeField()
    total = serializers.IntegerField(help_text="documents in the batch")
    counts = serializers.DictField(child=serializers.IntegerField(), help_text="documents per status")
    documents = DocumentAccepted(many=True)
    refused = Refusal(many=True)
    exports = BatchExports()


class BatchSummary(serializers.Serializer):
    id = serializers.UUIDField()
    created_at = serializers.DateTimeField()
    url = serializers.URLField()


class RefusedBatch(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    refused = Refusal(many=True)
