"""REST API v1 (ARCHITECTURE §3.4). Thin: authenticate, validate, call one service or selector,
shape the answer. Every read is scoped to the caller's tenant (another tenant's id is a 404), and
every error is ``{"code", "message"}`` (``apps.api.errors``)."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import NotFound
from rest_framework.generics import GenericAPIView
from rest_framework.pagination import CursorPagination
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from apps.api import serializers as s
from apps.api.authentication import tenant_of
from apps.api.errors import ApiError
from apps.api.idempotency import (
    HEADER as IDEMPOTENCY_HEADER,
)
from apps.api.idempotency import (
    Claim,
    idempotency_claim,
    idempotency_complete,
    idempotency_key_read,
    idempotency_release,
    request_fingerprint,
)
from apps.api.schema import ErrorSerializer, errors
from apps.api.selectors import document_get_for_tenant, documents_filtered_for_tenant
from apps.api.services import SubmittedFile, batch_submit, document_submit, refusal_status
from apps.api.signed_urls import SignedUrlAuthentication, signed_url_make
from apps.api.uploads import BoundedMemoryUploadHandler, declared_length, too_large
from apps.batches.exports import batch_export_csv, batch_export_jsonl
from apps.batches.models import Batch, BatchDocument
from apps.batches.selectors import batch_get, batch_items, batch_status_counts, batches_of_tenant
from apps.documents import blobs
from apps.documents.filetypes import SUPPORTED_MIME_TYPES
from apps.documents.images import page_image_type
from apps.documents.models import Document
from apps.documents.reprocess import NotReprocessableError, ReprocessVia, document_reprocess
from apps.documents.selectors import document_page_image, document_result_get
from apps.tenants.models import Tenant

# Downloads hold personal data: only this caller may see them, and nothing may keep a copy.
PRIVATE = "private, no-store, max-age=0"
# Downloads also open by an expiring signed link (apps.api.signed_urls), before the key or session.
DOWNLOAD_AUTHENTICATION: list[type[BaseAuthentication]] = [
    SignedUrlAuthentication,
    *api_settings.DEFAULT_AUTHENTICATION_CLASSES,
]
# Room for the multipart framing and form fields around a single file.
MULTIPART_OVERHEAD = 1024 * 1024
REPLAYED_HEADER = "Idempotent-Replayed"

IDEMPOTENCY_PARAMETER = OpenApiParameter(
    IDEMPOTENCY_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "Makes the POST safe to retry: the same key with the same request answers with the same "
        "resource (header Idempotent-Replayed: true); with a different request, 422; while the first "
        "is still running, 409. Keys are per tenant and kept 24 h."
    ),
)


class CursorPage(CursorPagination):
    ordering = "-created_at"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not raw.isdigit() or not 1 <= int(raw) <= self.max_page_size:
            raise ApiError(
                400, "invalid_request", f"page_size must be a whole number from 1 to {self.max_page_size}"
            )
        return int(raw)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_page_size}
        return parameters

    def decode_cursor(self, request: Request) -> Any:
        try:
            return super().decode_cursor(request)
        except NotFound as exc:
            raise ApiError(400, "invalid_cursor", "the cursor is not one this API gave out") from exc


class UploadApi(GenericAPIView):
    """A view whose POST takes files: read in memory, never past ``upload_limit`` bytes."""

    parser_classes = [MultiPartParser]
    upload_what = "the request"

    def upload_limit(self) -> int:
        raise NotImplementedError

    def initialize_request(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Request:
        if request.method == "POST":
            request.upload_handlers = [
                BoundedMemoryUploadHandler(request, limit=self.upload_limit(), what=self.upload_what)
            ]
        return super().initialize_request(request, *args, **kwargs)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # authentication, tenant, rate limit first
        if request.method == "POST" and declared_length(request._request) > self.upload_limit():
            raise too_large(self.upload_limit(), self.upload_what)  # refused before the body is read


def _validated(serializer_class: type[Any], data: Any, tenant: Tenant | None = None) -> dict[str, Any]:
    """The request's fields through ``serializer_class``; a field it does not know is an error too
    (a misspelt ``callback_url`` must not be silently dropped). ``tenant``: whose own document
    types a ``document_type`` may name."""
    unknown = sorted(set(data.keys()) - set(serializer_class().fields))
    if unknown:
        raise ApiError(400, "invalid_request", f"unknown fields: {', '.join(unknown)}")
    serializer = serializer_class(data=data, context={"tenant": tenant})
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _url(request: Request, name: str, **kwargs: Any) -> str:
    return request.build_absolute_uri(reverse(name, kwargs=kwargs))


def _accepted(request: Request, document: Document, file: str, duplicate: bool) -> dict[str, Any]:
    return {
        "id": str(document.pk),
        "status": document.status,
        "url": _url(request, "api:document", document_id=document.pk),
        "file": file,
        "duplicate": duplicate,
    }


def _summary(request: Request, document: Document) -> dict[str, Any]:
    return {
        "id": str(document.pk),
        "file": document.original_name,
        "sha256": document.sha256,
        "status": document.status,
        "document_type": document.document_type or None,
        "decision": document.decision or None,
        "created_at": document.created_at.isoformat(),
        "url": _url(request, "api:document", document_id=document.pk),
    }


def _claim(request: Request, tenant: Tenant, operation: str, **parts: Any) -> Claim | None:
    key = idempotency_key_read(request.headers.get(IDEMPOTENCY_HEADER))
    if key is None:
        return None
    fingerprint = request_fingerprint(operation=operation, **parts)
    return idempotency_claim(tenant=tenant, key=key, operation=operation, fingerprint=fingerprint)


def _signed_url(request: Request, name: str, batch: Batch) -> str:
    path = reverse(name, kwargs={"batch_id": batch.pk})
    return request.build_absolute_uri(signed_url_make(path=path, tenant=batch.tenant))


def _document_or_404(tenant: Tenant, document_id: Any) -> Document:
    document = document_get_for_tenant(tenant=tenant, document_id=document_id)
    if document is None:
        raise ApiError(404, "not_found", "no such document")
    return document


def _batch_or_404(tenant: Tenant, batch_id: Any) -> Batch:
    batch = batch_get(tenant=tenant, batch_id=str(batch_id))
    if batch is None:
        raise ApiError(404, "not_found", "no such batch")
    return batch


# --- documents ----------------------------------------------------------------------------------


class DocumentsApi(UploadApi):
    pagination_class = CursorPage
    upload_what = "the file"

    def upload_limit(self) -> int:
        return int(settings.DOCINTEL_MAX_UPLOAD_BYTES) + MULTIPART_OVERHEAD

    @extend_schema(
        operation_id="documents_list",
        summary="The tenant's documents, newest first (cursor pagination)",
        parameters=[s.DocumentListQuery],
        responses={200: s.DocumentSummary(many=True), **errors()},
    )
    def get(self, request: Request) -> Response:
        tenant = tenant_of(request)
        query = s.DocumentListQuery(data=dict(request.query_params.items()))  # "status=" is not "no status"
        query.is_valid(raise_exception=True)
        page = self.paginate_queryset(documents_filtered_for_tenant(tenant=tenant, **query.validated_data))
        return self.get_paginated_response([_summary(request, d) for d in page or []])

    @extend_schema(
        operation_id="documents_create",
        summary="Upload one document; its result follows at `url` (and at `callback_url`)",
        request={"multipart/form-data": s.DocumentUploadInput},
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={
            202: OpenApiResponse(s.DocumentAccepted, description="accepted: queued for processing"),
            200: OpenApiResponse(s.DocumentAccepted, description="the same bytes were already a document"),
            **errors(409, 413, 422),
        },
    )
    def post(self, request: Request) -> Response:
        tenant = tenant_of(request)
        data = _validated(s.DocumentUploadInput, request.data, tenant)
        upload = data["file"]
        content = upload.read()
        name = upload.name or "upload"
        hint = data.get("document_type", "")
        callback_url = data.get("callback_url", "")
        claim = _claim(
            request, tenant, "documents.create",
            file=name, sha256=hashlib.sha256(content).hexdigest(), document_type=hint, callback_url=callback_url,
        )  # fmt: skip
        if claim is not None and claim.replay:
            document = _document_or_404(tenant, claim.record.resource_id)
            status = claim.record.response_status or 202
            return Response(
                _accepted(request, document, name, duplicate=status == 200),
                status=status,
                headers={REPLAYED_HEADER: "true"},
            )
        try:
            outcome = document_submit(
                tenant=tenant,
                content=content,
                original_name=name,
                document_type_hint=hint,
                callback_url=callback_url,
            )
        except BaseException:
            idempotency_release(claim=claim)
            raise
        status = 202 if outcome.created else 200
        idempotency_complete(claim=claim, response_status=status, resource_id=outcome.document.pk)
        return Response(
            _accepted(request, outcome.document, name, duplicate=not outcome.created), status=status
        )


class DocumentApi(GenericAPIView):
    @extend_schema(
        operation_id="documents_retrieve",
        summary="The document's result (ARCHITECTURE §3.1)",
        responses={200: s.DocumentResult, **errors()},
    )
    def get(self, request: Request, document_id: Any) -> Response:
        document = _document_or_404(tenant_of(request), document_id)
        return Response(document_result_get(document=document))


class DocumentOriginalApi(GenericAPIView):
    authentication_classes = DOWNLOAD_AUTHENTICATION

    @extend_schema(
        operation_id="documents_original",
        summary="The uploaded file, as it was uploaded",
        responses={**{(200, mime): OpenApiTypes.BINARY for mime in SUPPORTED_MIME_TYPES}, **errors()},
    )
    def get(self, request: Request, document_id: Any) -> HttpResponse:
        document = _document_or_404(tenant_of(request), document_id)
        try:
            content = blobs.blob_read(document=document, name=document.blob_name)
        except blobs.BlobMissingError as exc:
            raise ApiError(404, "not_found", "the stored original is missing") from exc
        response = HttpResponse(content, content_type=document.mime_type)
        response["Content-Disposition"] = content_disposition_header(
            True, document.original_name.split("/")[-1]
        )
        response["Cache-Control"] = PRIVATE
        return response


class DocumentPageApi(GenericAPIView):
    authentication_classes = DOWNLOAD_AUTHENTICATION

    @extend_schema(
        operation_id="documents_page",
        summary="A page image (JPEG; PNG for older documents) as the engine read it; pages are "
        "numbered from 1",
        responses={
            (200, "image/jpeg"): OpenApiTypes.BINARY,
            (200, "image/png"): OpenApiTypes.BINARY,
            **errors(),
        },
    )
    def get(self, request: Request, document_id: Any, number: int) -> HttpResponse:
        document = _document_or_404(tenant_of(request), document_id)
        image = document_page_image(document=document, number=number)
        if image is None:
            raise ApiError(404, "not_found", "no such page (yet)")
        mime_type, extension = page_image_type(image)
        response = HttpResponse(image, content_type=mime_type)
        response["Content-Disposition"] = content_disposition_header(True, f"page-{number}.{extension}")
        response["Cache-Control"] = PRIVATE
        return response


class DocumentReprocessApi(GenericAPIView):
    """Who may: ``apps.api.permissions.ACCESS`` (an operator or above; a key with ``reviews:write``)."""

    @extend_schema(
        operation_id="documents_reprocess",
        summary="Process a failed document again, from the start of the pipeline",
        description=(
            "Clears the failed run (its error, pages and readings; the audit trail keeps the "
            "failure) and queues the document as an upload would: its result follows at `url` (and "
            "at its `callback_url`). Audited with who asked. Uploading the same bytes again does "
            "the same."
        ),
        request=None,
        responses={
            202: OpenApiResponse(s.DocumentReprocessed, description="queued again"),
            **errors(),
            409: OpenApiResponse(
                ErrorSerializer, description="the document is not failed (`not_reprocessable`)"
            ),
        },
    )
    def post(self, request: Request, document_id: Any) -> Response:
        document = _document_or_404(tenant_of(request), document_id)
        user = request.user if request.user.is_authenticated else None
        try:
            document = document_reprocess(
                document=document,
                actor=user,
                via=ReprocessVia.API,
            )
        except NotReprocessableError as exc:
            raise ApiError(409, exc.code, str(exc)) from exc
        body = {
            "id": str(document.pk),
            "status": document.status,
            "url": _url(request, "api:document", document_id=document.pk),
            "reprocess_count": document.reprocess_count,
        }
        return Response(body, status=202)


# --- batches ------------------------------------------------------------------------------------


def _batch_documents(request: Request, batch: Batch) -> list[dict[str, Any]]:
    return [_accepted(request, i.document, i.file, i.duplicate) for i in batch_items(batch=batch)]


def _batch_accepted(
    request: Request, batch: Batch, items: list[BatchDocument] | None = None
) -> dict[str, Any]:
    """The answer to a batch upload; ``items``: the batch's documents as just stored (else read)."""
    documents = (
        [_accepted(request, i.document, i.file, i.duplicate) for i in items]
        if items is not None
        else _batch_documents(request, batch)
    )
    return {
        "id": str(batch.pk),
        "url": _url(request, "api:batch", batch_id=batch.pk),
        "documents": documents,
        "refused": batch.refused,
    }


class BatchesApi(UploadApi):
    pagination_class = CursorPage
    upload_what = "the batch"

    def upload_limit(self) -> int:
        return int(settings.DOCINTEL_BATCH_MAX_BYTES)

    @extend_schema(
        operation_id="batches_list",
        summary="The tenant's batches, newest first (cursor pagination)",
        responses={200: s.BatchSummary(many=True), **errors()},
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(batches_of_tenant(tenant=tenant_of(request)))
        return self.get_paginated_response(
            [
                {
                    "id": str(b.pk),
                    "created_at": b.created_at.isoformat(),
                    "url": _url(request, "api:batch", batch_id=b.pk),
                }
                for b in page or []
            ]
        )

    @extend_schema(
        operation_id="batches_create",
        summary="Upload many documents, or one zip of them, as a batch",
        description=(
            "Each file (or zip member) becomes a document; files that cannot are listed in `refused` "
            "with their reason. The request as a whole is refused before anything is stored when it "
            "breaks a §4 limit (too many files or bytes; a zip with too many entries, too many "
            "declared bytes, a bomb's compression ratio or a path leaving the archive), or when no "
            "file could be taken."
        ),
        request={"multipart/form-data": s.BatchUploadInput},
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={
            202: s.BatchAccepted,
            **errors(409, 413, 422),
        },
    )
    def post(self, request: Request) -> Response:
        tenant = tenant_of(request)
        data = s.BatchUploadInput(data=request.data, context={"tenant": tenant})
        data.is_valid(raise_exception=True)
        files = [
            SubmittedFile(f.name or f"file-{i + 1}", f.read())
            for i, f in enumerate(data.validated_data["files"])
        ]
        hint = data.validated_data.get("document_type", "")
        callback_url = data.validated_data.get("callback_url", "")
        claim = _claim(
            request, tenant, "batches.create",
            files=[(f.name, hashlib.sha256(f.content).hexdigest()) for f in files],
            document_type=hint, callback_url=callback_url,
        )  # fmt: skip
        if claim is not None and claim.replay:
            batch = _batch_or_404(tenant, claim.record.resource_id)
            return Response(_batch_accepted(request, batch), status=202, headers={REPLAYED_HEADER: "true"})
        try:
            submission = batch_submit(
                tenant=tenant, files=files, document_type_hint=hint, callback_url=callback_url
            )
            if submission.batch is None:
                first = submission.refused[0]
                raise ApiError(
                    refusal_status(first.code),
                    first.code,
                    f"no file of the batch could be taken; {first.name}: {first.message}",
                    refused=[
                        {"file": r.name, "code": r.code, "message": r.message} for r in submission.refused
                    ],
                )
        except BaseException:
            idempotency_release(claim=claim)
            raise
        idempotency_complete(claim=claim, response_status=202, resource_id=submission.batch.pk)
        return Response(_batch_accepted(request, submission.batch, submission.items), status=202)


class BatchApi(GenericAPIView):
    @extend_schema(
        operation_id="batches_retrieve",
        summary="The batch: its documents, how many are in each status, and what was refused",
        responses={200: s.BatchDetail, **errors()},
    )
    def get(self, request: Request, batch_id: Any) -> Response:
        batch = _batch_or_404(tenant_of(request), batch_id)
        documents = _batch_documents(request, batch)
        return Response(
            {
                "id": str(batch.pk),
                "created_at": batch.created_at.isoformat(),
                "total": len({d["id"] for d in documents}),
                "counts": batch_status_counts(batch=batch),
                "documents": documents,
                "refused": batch.refused,
                # expiring signed links: they may be handed to a system that holds no key
                "exports": {
                    "jsonl": _signed_url(request, "api:batch_export_jsonl", batch),
                    "csv": _signed_url(request, "api:batch_export_csv", batch),
                },
            }
        )


class BatchExportJsonlApi(GenericAPIView):
    authentication_classes = DOWNLOAD_AUTHENTICATION

    @extend_schema(
        operation_id="batches_export_jsonl",
        summary="The batch's results, one §3.1 result per line (JSON Lines)",
        responses={(200, "application/jsonl"): OpenApiTypes.STR, **errors()},
    )
    def get(self, request: Request, batch_id: Any) -> StreamingHttpResponse:
        batch = _batch_or_404(tenant_of(request), batch_id)
        response = StreamingHttpResponse(batch_export_jsonl(batch=batch), content_type="application/jsonl")
        response["Content-Disposition"] = content_disposition_header(True, f"batch-{batch.pk}.jsonl")
        response["Cache-Control"] = PRIVATE
        return response


class BatchExportCsvApi(GenericAPIView):
    authentication_classes = DOWNLOAD_AUTHENTICATION

    @extend_schema(
        operation_id="batches_export_csv",
        summary="The batch's results as CSV: one row per document, each field's value and confidence",
        responses={(200, "text/csv"): OpenApiTypes.STR, **errors()},
    )
    def get(self, request: Request, batch_id: Any) -> HttpResponse:
        batch = _batch_or_404(tenant_of(request), batch_id)
        response = HttpResponse(batch_export_csv(batch=batch), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = content_disposition_header(True, f"batch-{batch.pk}.csv")
        response["Cache-Control"] = PRIVATE
        return response
