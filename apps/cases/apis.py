"""REST API v1 for KYC cases (ARCHITECTURE §3.4): ``/api/v1/cases``. Thin, like ``apps.api.views``
whose conventions it shares (Api-Key or session, the caller's tenant only, errors as
``{"code", "message"}``, uploads read in memory within the batch limits): validate, call one
service or selector, shape the answer."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.authentication import tenant_of
from apps.api.errors import ApiError
from apps.api.schema import errors
from apps.api.selectors import documents_of_tenant
from apps.api.serializers import CallbackUrlField, DocumentResult
from apps.api.services import refusal_status
from apps.api.views import UploadApi
from apps.cases.models import Case, CaseStatus
from apps.cases.selectors import case_get_for_tenant, case_result_get, case_url
from apps.cases.services import (
    DECLARED_FIELDS,
    CaseClosedError,
    SubmittedFile,
    case_create,
    case_documents_add,
)
from apps.documents.models import Document
from apps.documents.services import UploadRejectedError
from apps.tenants.models import Tenant

DECISIONS = ("approved", "rejected", "resubmission_requested", "needs_review")


# --- inputs -------------------------------------------------------------------------------------


class _BlankIsInvalid:
    """A form field sent empty is an invalid value, not an absent one (DRF's default for forms),
    as in ``apps.api.serializers``."""

    def get_value(self, dictionary: Any) -> Any:
        name = getattr(self, "field_name", None)
        if name in dictionary and dictionary.get(name) == "":
            return ""
        return super().get_value(dictionary)  # type: ignore[misc]


class TextInput(_BlankIsInvalid, serializers.CharField):
    pass


class DateInput(_BlankIsInvalid, serializers.DateField):
    pass


class CaseDocumentsInput(serializers.Serializer):
    files = serializers.ListField(
        child=serializers.FileField(), required=False, help_text="the applicant's documents (§4 limits)"
    )
    document_ids = serializers.ListField(
        child=serializers.UUIDField(), required=False, max_length=100, help_text="documents already uploaded"
    )


class CaseCreateInput(CaseDocumentsInput):
    external_reference = TextInput(
        required=False, max_length=200, help_text="your id of the applicant: two cases with the same "
        "one are one applicant's (never each other's duplicates)"
    )  # fmt: skip
    full_name = TextInput(required=False, max_length=200, help_text="declared by the applicant")
    date_of_birth = DateInput(required=False, help_text="declared, YYYY-MM-DD")
    address_street = TextInput(required=False, max_length=200)
    address_street_2 = TextInput(required=False, max_length=200)
    address_city = TextInput(required=False, max_length=200)
    address_region = TextInput(required=False, max_length=100)
    address_postal_code = TextInput(required=False, max_length=32)
    callback_url = CallbackUrlField()


# --- outputs ------------------------------------------------------------------------------------


# Plain strings, their values in the description: an enum named "status" or "decision" would
# collide with the documents' own in the schema's components.
class CaseStatusField(serializers.CharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(help_text=f"one of {', '.join(CaseStatus.values)}", **kwargs)


class CaseDecisionField(serializers.CharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            allow_null=True,
            help_text=f"one of {', '.join(DECISIONS)} (needs_review while in_review); null while open",
            **kwargs,
        )


class CaseAccepted(serializers.Serializer):
    id = serializers.UUIDField()
    status = CaseStatusField()
    url = serializers.URLField(help_text="GET it for the case, its checks and its decision")


class CaseCheck(serializers.Serializer):
    name = serializers.CharField()
    passed = serializers.BooleanField()
    detail = serializers.CharField(allow_blank=True, help_text="names fields and documents, never values")
    links = serializers.ListField(
        child=serializers.URLField(), help_text="other applicants' cases to look at"
    )
    score = serializers.FloatField(
        required=False, help_text="the check's measure (the lowest name-match score)"
    )


class CaseDetail(serializers.Serializer):
    id = serializers.UUIDField()
    url = serializers.URLField()
    external_reference = serializers.CharField(allow_blank=True)
    status = CaseStatusField()
    decision = CaseDecisionField()
    decision_rule = serializers.CharField(allow_null=True, help_text="the check whose policy rule decided")
    reasons = serializers.ListField(child=serializers.CharField())
    case_date = serializers.DateField(help_text="the day dates are judged on")
    checks = CaseCheck(many=True)
    documents = DocumentResult(many=True)
    advisory_pending = serializers.IntegerField(
        help_text="documents whose advisory authenticity signals are still being computed "
        "(after their decision; they never change it)"
    )
    created_at = serializers.DateTimeField()


# --- views --------------------------------------------------------------------------------------


def _validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    unknown = sorted(set(data.keys()) - set(serializer_class().fields))
    if unknown:
        raise ApiError(400, "invalid_request", f"unknown fields: {', '.join(unknown)}")
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _case_or_404(tenant: Tenant, case_id: Any) -> Case:
    case = case_get_for_tenant(tenant=tenant, case_id=case_id)
    if case is None:
        raise ApiError(404, "not_found", "no such case")
    return case


def _documents(tenant: Tenant, data: dict[str, Any]) -> tuple[list[Document], list[SubmittedFile]]:
    """The request's documents by id (the caller's own, else 404) and its files: at least one."""
    if not data.get("files") and not data.get("document_ids"):
        raise ApiError(
            400, "invalid_request", "send the applicant's documents as `files` and/or `document_ids`"
        )
    ids = list(dict.fromkeys(data.get("document_ids", [])))
    found = {d.pk: d for d in documents_of_tenant(tenant=tenant).filter(pk__in=ids)}
    if len(found) != len(ids):
        raise ApiError(404, "not_found", "no such document among document_ids")
    files = [SubmittedFile(f.name or f"file-{i + 1}", f.read()) for i, f in enumerate(data.get("files", []))]
    if len(files) > settings.DOCINTEL_BATCH_MAX_FILES:
        raise ApiError(
            413, "too_many_files", f"a case takes at most {settings.DOCINTEL_BATCH_MAX_FILES} files at once"
        )
    return [found[i] for i in ids], files


def _refused(exc: UploadRejectedError) -> ApiError:
    return ApiError(refusal_status(exc.code), exc.code, exc.message)


def _accepted(request: Request, case: Case) -> dict[str, Any]:
    return {"id": str(case.pk), "status": case.status, "url": request.build_absolute_uri(case_url(case.pk))}


class CaseUploadApi(UploadApi):
    upload_what = "the case's files"

    def upload_limit(self) -> int:
        return int(settings.DOCINTEL_BATCH_MAX_BYTES)


class CasesApi(CaseUploadApi):
    @extend_schema(
        operation_id="cases_create",
        summary="Open a KYC case for one applicant: files and/or document ids, and declared data",
        description=(
            "The case is evaluated once all its documents are read: cross-document checks and the "
            "tenant's case policy decide it, and `callback_url` receives `case.decided`."
        ),
        request={"multipart/form-data": CaseCreateInput},
        responses={202: OpenApiResponse(CaseAccepted, description="accepted"), **errors(413, 422)},
    )
    def post(self, request: Request) -> Response:
        tenant = tenant_of(request)
        data = _validated(CaseCreateInput, request.data)
        documents, files = _documents(tenant, data)
        declared = {k: str(data[k]) for k in DECLARED_FIELDS if k in data}
        try:
            case = case_create(
                tenant=tenant, external_reference=data.get("external_reference", ""), declared=declared,
                documents=documents, files=files, callback_url=data.get("callback_url", ""),
            )  # fmt: skip
        except UploadRejectedError as exc:
            raise _refused(exc) from exc
        return Response(_accepted(request, case), status=202)


class CaseApi(GenericAPIView):
    @extend_schema(
        operation_id="cases_retrieve",
        summary="The case: its status, decision, checks and each document's §3.1 result",
        responses={200: CaseDetail, **errors()},
    )
    def get(self, request: Request, case_id: Any) -> Response:
        result = case_result_get(case=_case_or_404(tenant_of(request), case_id))
        result["url"] = request.build_absolute_uri(result["url"])
        for check in result["checks"]:
            check["links"] = [request.build_absolute_uri(link) for link in check["links"]]
        return Response(result)


class CaseDocumentsApi(CaseUploadApi):
    @extend_schema(
        operation_id="cases_documents_add",
        summary="Add documents to a case (files and/or document ids); it is evaluated again",
        request={"multipart/form-data": CaseDocumentsInput},
        responses={202: OpenApiResponse(CaseAccepted, description="accepted"), **errors(413, 422)},
    )
    def post(self, request: Request, case_id: Any) -> Response:
        tenant = tenant_of(request)
        case = _case_or_404(tenant, case_id)
        documents, files = _documents(tenant, _validated(CaseDocumentsInput, request.data))
        try:
            case = case_documents_add(case=case, documents=documents, files=files)
        except UploadRejectedError as exc:
            raise _refused(exc) from exc
        except CaseClosedError as exc:
            raise ApiError(422, "case_closed", f"the case is {case.status}; open a new one") from exc
        return Response(_accepted(request, case), status=202)
