from django.contrib import admin

from apps.review.models import ReviewQueue


@admin.register(ReviewQueue)
class ReviewQueueAdmin(admin.ModelAdmin):
    """Queue settings for site administrators. Supervisors use the review services (audited);
    changes made here are not in the audit trail, and tasks are not shown: they name documents."""

    list_display = ("name", "tenant", "is_default", "priority", "sla", "qa_sample_rate", "created_at")
    list_filter = ("tenant", "is_default")
    search_fields = ("name", "tenant__name")
    readonly_fields = ("is_default", "created_at", "updated_at")
