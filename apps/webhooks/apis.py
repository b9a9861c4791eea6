"""REST API v1 for a tenant's webhook dead letters: ``/api/v1/webhooks/dead-letters`` lists the
events whose retry window closed undelivered, ``.../redrive`` sends them again.

Thin, like ``apps.api.views`` whose conventions it shares (Api-Key or session, the caller's tenant
only, errors as ``{"code", "message"}``). Who may call: ``apps.api.permissions.ACCESS`` (an
operator or above; a key with ``webhooks:read`` / ``webhooks:write``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.authentication import tenant_of
from apps.api.errors import ApiError
from apps.api.schema import errors
from apps.api.views import CursorPage
from apps.tenants.models import ApiKey
from apps.webhooks.models import WebhookDelivery
from apps.webhooks.selectors import webhook_dead_letters_of
from apps.webhooks.services import REDRIVE_BATCH, webhook_dead_letters_redrive


class DeadLetter(serializers.Serializer):
    id = serializers.UUIDField(help_text="the delivery's id: its X-DocIntel-Delivery header, on every try")
    event = serializers.CharField()
    document = serializers.UUIDField(allow_null=True, source="document_id")
    case = serializers.UUIDField(allow_null=True, source="case_id")
    url = serializers.URLField(help_text="where it was sent")
    attempts = serializers.IntegerField()
    last_status_code = serializers.IntegerField(allow_null=True, help_text="null: no answer at all")
    last_error = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField(help_text="when the event happened")
    dead_lettered_at = serializers.DateTimeField(allow_null=True, help_text="when its retry window closed")
    redriven_at = serializers.DateTimeField(allow_null=True, help_text="its last redrive, if any")


class UuidText(serializers.UUIDField):
    """A UUID written as text only (DRF's own also takes an integer, and so ``false``)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return super().to_internal_value(data)


class RedriveInput(serializers.Serializer):
    ids = serializers.ListField(
        child=UuidText(),
        required=False,
        max_length=REDRIVE_BATCH,
        help_text=f"the dead letters to send again; without it, all of them (the oldest {REDRIVE_BATCH})",
    )


class Redriven(serializers.Serializer):
    redriven = serializers.ListField(
        child=serializers.UUIDField(), help_text="sent again, each in a new retry window"
    )


class DeadLetterPage(CursorPage):
    ordering = "created_at"  # the oldest event first


class DeadLettersApi(GenericAPIView):
    pagination_class = DeadLetterPage
    queryset = WebhookDelivery.objects.none()  # for the schema; the tenant's come from the selector

    @extend_schema(
        operation_id="webhook_dead_letters_list",
        summary="The webhook events whose retry window closed undelivered (the tenant's dead letters)",
        responses={200: DeadLetter(many=True), **errors()},
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(webhook_dead_letters_of(tenant=tenant_of(request)))
        return self.get_paginated_response(DeadLetter(page or [], many=True).data)


class DeadLettersRedriveApi(GenericAPIView):
    parser_classes = [JSONParser, FormParser, MultiPartParser]

    @extend_schema(
        operation_id="webhook_dead_letters_redrive",
        summary="Send dead letters again: each is the same delivery (same id) in a new retry window",
        description=(
            "Each redriven event is retried with backoff for `DOCINTEL_WEBHOOK_RETRY_WINDOW_S` again, "
            "under its own delivery id, so a receiver that keeps the ids it processed sees any copy it "
            "already has. Ids that are not the tenant's dead letters are left out. Audited."
        ),
        request=RedriveInput,
        responses={200: Redriven, **errors()},
    )
    def post(self, request: Request) -> Response:
        if not hasattr(request.data, "keys"):
            raise ApiError(400, "invalid_request", 'send an object: {"ids": [...]}, or nothing')
        unknown = sorted(set(request.data.keys()) - {"ids"})
        if unknown:
            raise ApiError(400, "invalid_request", f"unknown fields: {', '.join(unknown)}")
        data = RedriveInput(data=request.data)
        data.is_valid(raise_exception=True)
        key = request.auth if isinstance(request.auth, ApiKey) else None
        redriven = webhook_dead_letters_redrive(
            tenant=tenant_of(request),
            actor=request.user if request.user.is_authenticated else None,
            via=f"api key {key.prefix}" if key is not None else "api",
            delivery_ids=data.validated_data.get("ids"),
        )
        return Response({"redriven": redriven})
