from django.contrib import admin

from apps.cases.models import BlockedDocumentNumber, Case, CasePolicy


@admin.register(CasePolicy)
class CasePolicyAdmin(admin.ModelAdmin):
    """A tenant's case policy; a tenant without one is decided by knowledge/rules.toml's defaults."""

    list_display = (
        "tenant",
        "recency_days",
        "minimum_age",
        "accept_expired",
        "name_match_threshold",
        "maker_checker",
        "updated_at",
    )
    search_fields = ("tenant__name",)


@admin.register(BlockedDocumentNumber)
class BlockedDocumentNumberAdmin(admin.ModelAdmin):
    list_display = ("tenant", "document_type", "issuing_country", "reason", "created_at")
    list_filter = ("tenant", "document_type")
    search_fields = ("document_number",)  # an operator looks one up; the list does not show them


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin):
    """Metadata and the decision only: the declared data and the documents' fields are shown in the
    app behind tenant checks."""

    list_display = ("id", "tenant", "status", "decision", "decision_rule", "case_date", "created_at")
    list_filter = ("status", "decision", "tenant")
    search_fields = ("id", "external_reference")
    exclude = ("declared", "documents")
    readonly_fields = (
        "tenant", "external_reference", "status", "decision", "decision_rule", "reasons", "checks",
        "case_date", "callback_url", "evaluated_at", "decided_at", "created_at", "updated_at",
    )  # fmt: skip

    def has_add_permission(self, request: object) -> bool:
        return False
