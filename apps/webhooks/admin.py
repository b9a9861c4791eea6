from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.webhooks.models import WebhookAttempt, WebhookDelivery
from apps.webhooks.services import webhook_delivery_replay


class WebhookAttemptInline(admin.TabularInline):
    model = WebhookAttempt
    extra = 0
    can_delete = False
    fields = ("number", "started_at", "duration_ms", "status_code", "error", "succeeded")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    """Every delivery with its attempts; finished ones can be replayed (sent again as a new delivery).
    Tenants redrive their own dead letters themselves (``apps.webhooks.views``, ``apps.webhooks.apis``)."""

    list_display = (
        "id",
        "event",
        "tenant",
        "document",
        "status",
        "attempts",
        "last_status_code",
        "created_at",
    )
    list_filter = ("status", "event", "tenant")
    search_fields = ("id", "document__id")
    exclude = ("body",)  # the result holds personal data; the document's own page shows it
    readonly_fields = (
        "tenant", "document", "case", "event", "url", "status", "attempts", "next_attempt_at",
        "last_status_code", "last_error", "replay_of", "created_at", "updated_at", "delivered_at",
        "redriven_at", "dead_lettered_at",
    )  # fmt: skip
    inlines = [WebhookAttemptInline]
    actions = ["replay"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Replay the selected deliveries (send their body again)")
    def replay(self, request: HttpRequest, queryset: QuerySet[WebhookDelivery]) -> None:
        replayed = sum(1 for delivery in queryset if webhook_delivery_replay(delivery=delivery) is not None)
        skipped = queryset.count() - replayed
        self.message_user(
            request,
            f"replaying {replayed} deliveries"
            + (f"; {skipped} still pending were left alone" if skipped else ""),
            messages.SUCCESS,
        )
