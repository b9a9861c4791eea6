"""REST API v1 for tenants' own document types (ARCHITECTURE §3.4): ``/api/v1/document-types``,
and the types that get the advisory authenticity signals: ``/api/v1/policies/authenticity``.
Thin, with ``apps.api.views``' conventions (Api-Key or session, the caller's tenant only: another
tenant's type is a 404; errors as ``{"code", "message"}``): validate, call one service or
selector, shape the answer."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.authentication import tenant_of
from apps.api.errors import ApiError
from apps.api.schema import errors
from apps.doctypes.errors import AuthenticityPolicyInvalidError, DocumentTypeInvalidError
from apps.doctypes.models import DocumentType, DocumentTypeVersion
from apps.doctypes.selectors import (
    authenticity_policy_get,
    authenticity_types_of,
    document_type_get,
    document_type_latest,
    document_type_version_get,
    document_types_of_tenant,
)
from apps.doctypes.services import authenticity_policy_set, document_type_define
from engines.custom_types import MAX_DESCRIPTION, TYPE_NAME, parse_schema
from engines.spec import DOCUMENT_TYPES

# --- shapes -------------------------------------------------------------------------------------


class DocumentTypeInput(serializers.Serializer):
    name = serializers.RegexField(
        TYPE_NAME.pattern, help_text="lower_snake_case, not a built-in type (passport, invoice, ...)"
    )
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_DESCRIPTION, default="",
        help_text="what the document is (shown to reviewers, and to the model's classifier)",
    )  # fmt: skip
    schema = serializers.JSONField(
        help_text='a JSON Schema: {"type": "object", "properties": {...}, "required": [...]} '
        "(docs/custom-document-types.md)"
    )


class DocumentTypeCreated(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.IntegerField(help_text="1 for a new type; one more each time its schema changes")


class VersionSummary(serializers.Serializer):
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class DocumentTypeDetail(serializers.Serializer):
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField()
    schema = serializers.JSONField(help_text="the version's schema as stored (defaults filled in)")
    bounds = serializers.DictField(
        child=serializers.CharField(),
        help_text="per field, how the model's value is bounded: a free text's length, a pattern's + and * "
        "bounded for guided decoding (by its maxLength, or the default), lengths checked on the value",
    )
    url = serializers.URLField()
    versions = VersionSummary(many=True)


class VersionQuery(serializers.Serializer):
    version = serializers.IntegerField(required=False, min_value=1, help_text="an older version's schema")


def _detail(request: Request, document_type: DocumentType, version: DocumentTypeVersion) -> dict[str, Any]:
    return {
        "name": document_type.name,
        "description": document_type.description,
        "version": version.version,
        "schema": version.schema,
        "bounds": parse_schema(version.schema).bounds,
        "url": request.build_absolute_uri(reverse("api:document_type", kwargs={"name": document_type.name})),
        "versions": [
            {"version": v.version, "created_at": v.created_at.isoformat()}
            for v in sorted(document_type.versions.all(), key=lambda v: -v.version)
        ],
    }


def _validated(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ApiError(400, "invalid_request", "send a JSON object: {name, description, schema}")
    unknown = sorted(set(data) - set(DocumentTypeInput().fields))
    if unknown:
        raise ApiError(400, "invalid_request", f"unknown fields: {', '.join(unknown)}")
    serializer = DocumentTypeInput(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# --- views --------------------------------------------------------------------------------------


class DocumentTypesApi(GenericAPIView):
    @extend_schema(
        operation_id="document_types_list",
        summary="The tenant's own document types, each at its latest version",
        responses={200: DocumentTypeDetail(many=True), **errors()},
    )
    def get(self, request: Request) -> Response:
        answer = []
        for document_type in document_types_of_tenant(tenant=tenant_of(request)):
            latest = document_type_latest(document_type=document_type)
            if latest is not None:
                answer.append(_detail(request, document_type, latest))
        return Response(answer)

    @extend_schema(
        operation_id="document_types_create",
        summary="Define a document type, or a new version of one (a changed schema)",
        description=(
            "The schema is checked before it is saved: a flat object of string fields, each with a "
            "title, a description and a format (date, amount, currency, name, address, code with a "
            "pattern, enum, text), no references, bounded lengths; the name must not be a "
            "built-in type. Patterns are matched in linear time (RE2) and followed by the model "
            "engine's grammar compiler (xgrammar): lookaround, backreferences, \\b, \\p{..}, "
            "inline flags and atomic groups are refused. A pattern's + and * are bounded for the "
            "model by the field's maxLength (or a default); the type's detail says so in `bounds`. "
            "Refusals are 400 `invalid_document_type` with every problem in `errors`. "
            "The same schema again answers 200 with the version it already is."
        ),
        request=DocumentTypeInput,
        responses={
            201: OpenApiResponse(DocumentTypeCreated, description="a new type, or a new version of it"),
            200: OpenApiResponse(DocumentTypeCreated, description="the schema was already this version"),
            **errors(),
        },
    )
    def post(self, request: Request) -> Response:
        tenant = tenant_of(request)
        data = _validated(request.data)
        try:
            definition = document_type_define(
                tenant=tenant, name=data["name"], description=data["description"], schema=data["schema"]
            )
        except DocumentTypeInvalidError as error:
            raise ApiError(400, "invalid_document_type", str(error), errors=error.problems) from error
        version = definition.version
        return Response(
            {"name": version.document_type.name, "version": version.version},
            status=201 if definition.created else 200,
        )


class DocumentTypeApi(GenericAPIView):
    @extend_schema(
        operation_id="document_types_retrieve",
        summary="One of the tenant's document types: its latest version, or ?version=N",
        parameters=[VersionQuery],
        responses={200: DocumentTypeDetail, **errors()},
    )
    def get(self, request: Request, name: str) -> Response:
        document_type = document_type_get(tenant=tenant_of(request), name=name)
        if document_type is None:
            raise ApiError(404, "not_found", "no such document type")
        query = VersionQuery(data=dict(request.query_params.items()))
        query.is_valid(raise_exception=True)
        wanted = query.validated_data.get("version")
        version = (
            document_type_version_get(document_type=document_type, version=wanted)
            if wanted is not None
            else document_type_latest(document_type=document_type)
        )
        if version is None:
            raise ApiError(404, "not_found", "no such version of the document type")
        return Response(_detail(request, document_type, version))


# --- the authenticity policy --------------------------------------------------------------------


class AuthenticityPolicyInput(serializers.Serializer):
    document_types = serializers.ListField(
        child=serializers.CharField(),
        allow_empty=True,
        help_text='built-in types or the tenant\'s own, e.g. ["passport", "id_card", "driver_license", '
        '"proof_of_address", "receipt"]; [] turns the signals off for the tenant',
    )


class AuthenticityPolicyDetail(serializers.Serializer):
    document_types = serializers.ListField(
        child=serializers.CharField(), help_text="the types whose photos and scans get the signals"
    )
    default = serializers.BooleanField(
        help_text="true: the tenant has no policy of its own, these are the default's types"
    )
    updated_at = serializers.DateTimeField(allow_null=True)


def _policy_detail(tenant: Any) -> dict[str, Any]:
    policy = authenticity_policy_get(tenant=tenant)
    types = authenticity_types_of(policy=policy)
    return {
        "document_types": [t for t in DOCUMENT_TYPES if t in types] + sorted(types - set(DOCUMENT_TYPES)),
        "default": policy is None,
        "updated_at": policy.updated_at.isoformat() if policy is not None else None,
    }


class AuthenticityPolicyApi(GenericAPIView):
    @extend_schema(
        operation_id="authenticity_policy_retrieve",
        summary="The document types whose photos and scans get the advisory authenticity signals",
        responses={200: AuthenticityPolicyDetail, **errors()},
    )
    def get(self, request: Request) -> Response:
        return Response(_policy_detail(tenant_of(request)))

    @extend_schema(
        operation_id="authenticity_policy_update",
        summary="Set the document types whose photos and scans get the advisory authenticity signals",
        description=(
            "Replaces the list (audited). Each type is built-in or one of the tenant's own; an "
            "unknown one is refused with 400 `invalid_policy`. Applies to documents decided from "
            "then on. Signals never change a decision, and a digital PDF never gets them "
            "(docs/authenticity-policy.md)."
        ),
        request=AuthenticityPolicyInput,
        responses={200: AuthenticityPolicyDetail, **errors()},
    )
    def put(self, request: Request) -> Response:
        tenant = tenant_of(request)
        data = request.data
        if not isinstance(data, dict) or set(data) - {"document_types"}:
            raise ApiError(400, "invalid_request", 'send a JSON object: {"document_types": [...]}')
        serializer = AuthenticityPolicyInput(data=data)
        serializer.is_valid(raise_exception=True)
        actor = request.user if request.user is not None and request.user.is_authenticated else None
        try:
            authenticity_policy_set(
                tenant=tenant,
                document_types=list(serializer.validated_data["document_types"]),
                actor=actor,
            )
        except AuthenticityPolicyInvalidError as error:
            raise ApiError(400, "invalid_policy", str(error)) from error
        return Response(_policy_detail(tenant))
