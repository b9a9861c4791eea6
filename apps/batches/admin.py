from django.contrib import admin

from apps.batches.models import Batch


@admin.register(Batch)
class BatchAdmin(admin.ModelAdmin):
    list_display = ("id", "tenant", "source", "created_at")
    list_filter = ("tenant", "source")
    readonly_fields = ("tenant", "source", "refused", "created_at")
