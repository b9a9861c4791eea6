"""Tenants' document types in the admin: define one, or give it a new version by saving a changed
schema; every save goes through ``document_type_define`` (checked, versioned, audited). And their
authenticity policies, saved through ``authenticity_policy_set`` (checked, audited)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from apps.doctypes.errors import AuthenticityPolicyInvalidError, DocumentTypeInvalidError
from apps.doctypes.models import AuthenticityPolicy, DocumentType, DocumentTypeVersion
from apps.doctypes.selectors import document_type_latest
from apps.doctypes.services import (
    authenticity_policy_check,
    authenticity_policy_set,
    document_type_check,
    document_type_define,
)


class DocumentTypeForm(forms.ModelForm):
    schema = forms.JSONField(
        help_text='A JSON Schema: {"type": "object", "properties": {...}, "required": [...]}; see '
        "docs/custom-document-types.md. Saving a changed schema makes a new version."
    )

    class Meta:
        model = DocumentType
        fields = ["tenant", "name", "description"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            latest = document_type_latest(document_type=self.instance)
            if latest is not None:
                self.initial["schema"] = latest.schema
            self.fields["tenant"].disabled = True
            self.fields["name"].disabled = True

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        try:
            document_type_check(
                name=cleaned.get("name"),
                description=cleaned.get("description", ""),
                schema=cleaned.get("schema"),
            )
        except DocumentTypeInvalidError as error:
            for part, problems in error.problems.items():
                for problem in problems:
                    self.add_error(part if part in self.fields else None, problem)
        return cleaned


class VersionInline(admin.TabularInline):
    model = DocumentTypeVersion
    extra = 0
    can_delete = False
    fields = ("version", "schema_json", "created_by", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(DocumentType)
class DocumentTypeAdmin(admin.ModelAdmin):
    form = DocumentTypeForm
    list_display = ("name", "tenant", "latest_version", "updated_at")
    list_filter = ("tenant",)
    inlines = [VersionInline]

    @admin.display(description="version")
    def latest_version(self, obj: DocumentType) -> int | None:
        latest = document_type_latest(document_type=obj)
        return latest.version if latest is not None else None

    def save_model(self, request: HttpRequest, obj: DocumentType, form: Any, change: bool) -> None:
        definition = document_type_define(
            tenant=form.cleaned_data["tenant"],
            name=form.cleaned_data["name"],
            description=form.cleaned_data.get("description", ""),
            schema=form.cleaned_data["schema"],
            created_by=request.user if request.user.is_authenticated else None,
        )
        obj.pk = definition.version.document_type_id
        obj.refresh_from_db()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # documents keep the version they were read with


class AuthenticityPolicyForm(forms.ModelForm):
    class Meta:
        model = AuthenticityPolicy
        fields = ["tenant", "document_types"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["tenant"].disabled = True

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        tenant = cleaned.get("tenant")
        if tenant is not None:
            try:
                cleaned["document_types"] = authenticity_policy_check(
                    tenant=tenant, document_types=cleaned.get("document_types")
                )
            except AuthenticityPolicyInvalidError as error:
                self.add_error("document_types", str(error))
        return cleaned


@admin.register(AuthenticityPolicy)
class AuthenticityPolicyAdmin(admin.ModelAdmin):
    """Which document types get the advisory authenticity signals, per tenant; a tenant without a
    policy gets knowledge/authenticity.toml's default (identity documents, proofs of address)."""

    form = AuthenticityPolicyForm
    list_display = ("tenant", "document_types", "updated_at")
    search_fields = ("tenant__name",)

    def save_model(self, request: HttpRequest, obj: AuthenticityPolicy, form: Any, change: bool) -> None:
        policy = authenticity_policy_set(
            tenant=form.cleaned_data["tenant"],
            document_types=form.cleaned_data["document_types"],
            actor=request.user if request.user.is_authenticated else None,
        )
        obj.pk = policy.pk
        obj.refresh_from_db()
