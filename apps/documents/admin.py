from django.contrib import admin

from apps.documents.models import Document


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    """Metadata only: field values and images are shown in the app behind tenant checks."""

    list_display = ("id", "tenant", "status", "document_type", "error_code", "attempt_count", "created_at")
    list_filter = ("status", "document_type", "error_code")
    readonly_fields = [f.name for f in Document._meta.fields if f.name != "wrapped_key"]
    exclude = ("wrapped_key",)
