from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.tenants.models import ApiKey, Membership, SsoIdentity, Tenant, new_webhook_secret
from apps.tenants.services import api_key_revoke
from apps.tenants.webhook_secrets import webhook_secret_seal


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = ("name", "retention_days", "created_at")
    search_fields = ("name",)
    exclude = ("webhook_secret_encrypted",)  # printed by `manage.py webhook_secret`, not shown in pages
    inlines = [MembershipInline]

    def save_model(self, request: HttpRequest, obj: Tenant, form: Any, change: bool) -> None:
        if not change:  # a tenant added here gets its webhook secret as `tenant_create` gives one
            obj.webhook_secret_encrypted = webhook_secret_seal(tenant_id=obj.pk, secret=new_webhook_secret())
        super().save_model(request, obj, form, change)


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    """Keys are made with ``manage.py create_api_key`` (the key is shown once there); here they
    are listed, rate-limited and revoked. Their scopes are shown, and changed with the audited
    ``manage.py api_key_scopes``."""

    list_display = (
        "name",
        "prefix",
        "tenant",
        "scopes",
        "rate_limit",
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    list_filter = ("tenant",)
    search_fields = ("name", "prefix")
    readonly_fields = ("tenant", "prefix", "key_hash", "scopes", "created_at", "last_used_at", "revoked_at")
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Revoke the selected API keys")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> None:
        for api_key in queryset:
            api_key_revoke(api_key=api_key, actor=request.user)  # type: ignore[arg-type]
        self.message_user(request, f"revoked {queryset.count()} keys", messages.SUCCESS)


@admin.register(SsoIdentity)
class SsoIdentityAdmin(admin.ModelAdmin):
    """Who signs in through the identity provider, as which user: read only (made and kept by
    ``apps.accounts.sso`` at each sign-in; deleting one unlinks the user from the provider)."""

    list_display = ("user", "issuer", "subject", "created_at")
    search_fields = ("user__username", "subject")
    readonly_fields = ("user", "issuer", "subject", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
