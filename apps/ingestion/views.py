"""The operators' web: upload, the documents list, a document's page, and the JSON the pages poll.

Thin: validate, call one service or selector, shape the answer. Every document read goes
through ``document_get_for_user`` / ``documents_visible_to``, which scope by tenant membership;
another tenant's document, a malformed id and a missing one all answer 404, so ids cannot be
probed. Page images are decrypted per request and never cached by browsers or proxies.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.doctypes.selectors import document_custom_schema, document_type_names
from apps.documents import error_codes as document_errors
from apps.documents.images import InvalidBoxError, box_parse, page_image_type, png_crop
from apps.documents.models import AdvisoryState, Document
from apps.documents.reprocess import REPROCESSABLE, NotReprocessableError, ReprocessVia, document_reprocess
from apps.documents.selectors import (
    document_audit_history,
    document_field_get,
    document_get_for_user,
    document_page_image,
    document_result_get,
    documents_filtered,
    documents_get_many_for_user,
)
from apps.documents.state import IN_FLIGHT
from apps.ingestion import error_codes
from apps.ingestion.forms import IN_FLIGHT_FILTER, DocumentFilterForm, UploadForm, UploadOneForm
from apps.ingestion.presentation import (
    MEDIUM_CONFIDENCE,
    check_groups,
    check_regions,
    field_rows,
    history_rows,
    status_label,
    status_payload,
)
from apps.ingestion.services import FileUploadOutcome, UploadRefusal, file_upload
from apps.review.permissions import is_reviewer
from apps.tenants.models import Tenant
from apps.tenants.selectors import tenants_for_user

# HTTP status for each reason a whole file is refused; anything else is 422 (understood, refused).
_REFUSAL_STATUS = {
    document_errors.FILE_TOO_LARGE: 413,
    error_codes.ARCHIVE_TOO_LARGE: 413,
    document_errors.UNSUPPORTED_FILE_TYPE: 415,
    error_codes.NO_TENANT: 403,
}
DOCUMENTS_PER_PAGE = 50
# The status endpoint answers for at most this many documents per poll.
STATUS_IDS_MAX = 200
# Page images hold PII: only this session may see them, and nothing may keep a copy.
_PRIVATE = "private, no-store, max-age=0"


# --- Upload -------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def upload(request: HttpRequest) -> HttpResponse:
    """The upload page. Its drop zone posts each file to ``upload_json``; without JavaScript the
    form posts here, many files at once, and gets the same outcomes as a page."""
    tenant = tenants_for_user(user=request.user).first()
    if request.method == "POST" and _body_too_large(request):
        # Checked before touching request.FILES, so an oversized body is never read.
        return _render_upload(request, UploadForm(), tenant, status=413, error=_too_large_message())
    form = UploadForm(request.POST or None, request.FILES or None, own_types=_own_types(tenant))
    if request.method != "POST":
        return _render_upload(request, form, tenant, status=200)
    if tenant is None:
        return _render_upload(request, form, tenant, status=403, error=_no_tenant().message)
    if not form.is_valid():
        return _render_upload(request, form, tenant, status=400)
    outcomes = [
        file_upload(
            tenant=tenant,
            content=upload.read(),
            original_name=upload.name or "upload",
            uploaded_by=request.user,  # type: ignore[arg-type]
            document_type_hint=form.cleaned_data["document_type"] or "",
        )
        for upload in form.cleaned_data["file"]
    ]
    documents = [d for o in outcomes for d in o.documents]
    refusals = [r for o in outcomes for r in ([o.error] if o.error else []) + o.refused]
    if len(documents) == 1 and not refusals:
        return redirect("ingestion:document_detail", document_id=documents[0].document.pk)
    status = 200 if documents else _REFUSAL_STATUS.get(refusals[0].code, 422)
    for refusal in refusals:
        form.add_error("file", f"{refusal.name}: {refusal.message}")
    return _render_upload(request, form, tenant, status=status, outcomes=outcomes)


@require_POST
def upload_json(request: HttpRequest) -> JsonResponse:
    """One file per request (session + CSRF): 202 with its document(s), or 4xx with the reason.

    A zip answers for each member: the documents made and the members refused. A file whose
    bytes were already uploaded answers 409 with the existing document, so the page can still
    follow it. Duplicates are not errors for the data, but an operator needs to know. The bytes of
    a failed document make it try again: 202, ``reprocessed``.
    """
    if not request.user.is_authenticated:
        return _json_refusal(UploadRefusal("", "not_authenticated", "log in again to upload"), 401)
    name = "upload"
    if _body_too_large(request):
        return _json_refusal(UploadRefusal(name, document_errors.FILE_TOO_LARGE, _too_large_message()), 413)
    tenant = tenants_for_user(user=request.user).first()
    if tenant is None:
        return _json_refusal(_no_tenant(), 403)
    form = UploadOneForm(request.POST, request.FILES, own_types=_own_types(tenant))
    if not form.is_valid():
        message = "; ".join(f"{k}: {' '.join(str(e) for e in v)}" for k, v in form.errors.items())
        return _json_refusal(UploadRefusal(name, "invalid_request", message), 400)
    file = form.cleaned_data["file"]
    outcome = file_upload(
        tenant=tenant,
        content=file.read(),
        original_name=file.name or name,
        uploaded_by=request.user,
        document_type_hint=form.cleaned_data["document_type"] or "",
    )
    return JsonResponse(_outcome_json(outcome), status=_outcome_status(outcome))


def _outcome_status(outcome: FileUploadOutcome) -> int:
    if outcome.error is not None:
        return _REFUSAL_STATUS.get(outcome.error.code, 422)
    if outcome.created_any or any(d.reprocessed for d in outcome.documents):
        return 202  # queued: new, or a failed document's bytes tried again
    if outcome.documents:
        return 409  # every document it held was already uploaded
    return 422  # a zip none of whose members could be taken


def _outcome_json(outcome: FileUploadOutcome) -> dict[str, Any]:
    return {
        "file": outcome.name,
        "documents": [
            {
                **_status_json(d.document),
                "file": d.name,
                "duplicate": not d.created,
                "reprocessed": d.reprocessed,  # a failed document's bytes: it is tried again
                "existing_file": d.document.original_name,
                "uploaded_at": d.document.created_at.isoformat(),
            }
            for d in outcome.documents
        ],
        "refused": [_refusal_json(r) for r in outcome.refused],
        "error": _refusal_json(outcome.error) if outcome.error else None,
    }


def _refusal_json(refusal: UploadRefusal) -> dict[str, str]:
    return {"file": refusal.name, "code": refusal.code, "message": refusal.message}


def _json_refusal(refusal: UploadRefusal, status: int) -> JsonResponse:
    body = {"file": refusal.name, "documents": [], "refused": [], "error": _refusal_json(refusal)}
    return JsonResponse(body, status=status)


def _no_tenant() -> UploadRefusal:
    return UploadRefusal("", error_codes.NO_TENANT, "your account belongs to no organisation yet")


def _body_too_large(request: HttpRequest) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > settings.FILE_UPLOAD_MAX_MEMORY_SIZE


def _too_large_message() -> str:
    return f"the file is larger than the {filesizeformat(settings.DOCINTEL_MAX_UPLOAD_BYTES)} limit"


def _own_types(tenant: Tenant | None) -> list[str]:
    """The names of the tenant's own document types, offered beside the §3.2 ones."""
    return document_type_names(tenant=tenant) if tenant is not None else []


def _render_upload(
    request: HttpRequest,
    form: UploadForm,
    tenant: Tenant | None,
    *,
    status: int,
    error: str = "",
    outcomes: list[FileUploadOutcome] | None = None,
) -> HttpResponse:
    context = {
        "form": form,
        "tenant": tenant,
        "upload_error": error,
        "outcomes": outcomes or [],
        "max_upload_bytes": settings.DOCINTEL_MAX_UPLOAD_BYTES,
        "max_pages": settings.DOCINTEL_MAX_PAGES,
        "zip_max_members": settings.DOCINTEL_ZIP_MAX_MEMBERS,
    }
    return render(request, "ingestion/upload.html", context, status=status)


# --- Status -------------------------------------------------------------------------------------


@require_GET
def documents_status_json(request: HttpRequest) -> JsonResponse:
    """``?ids=a,b,c`` → the status of each of the caller's documents among them, in one answer, so
    a page following many uploads polls once per tick rather than once per document."""
    if not request.user.is_authenticated:
        return JsonResponse({"documents": [], "error": {"code": "not_authenticated"}}, status=401)
    ids = [i for i in request.GET.get("ids", "").split(",") if i][:STATUS_IDS_MAX]
    documents = documents_get_many_for_user(user=request.user, document_ids=ids)
    return JsonResponse({"documents": [_status_json(d) for d in documents]})


def _status_json(document: Document) -> dict[str, Any]:
    return status_payload(document, url=reverse("ingestion:document_detail", args=[document.pk]))


# --- Documents ----------------------------------------------------------------------------------


@login_required
@require_GET
def document_list(request: HttpRequest) -> HttpResponse:
    form = DocumentFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    status = filters.get("status") or ""
    documents = documents_filtered(
        user=request.user,
        statuses=list(IN_FLIGHT) if status == IN_FLIGHT_FILTER else [status] if status else None,
        document_type=filters.get("document_type") or "",
        name=filters.get("q") or "",
    ).select_related("uploaded_by")
    page = Paginator(documents, DOCUMENTS_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "page": page,
        "documents": [(d, status_label(d.status), d.status in IN_FLIGHT) for d in page.object_list],
        "filtered": any(filters.values()),
        "query": query.urlencode(),
    }
    return render(request, "ingestion/document_list.html", context)


@login_required
@require_GET
def document_detail(request: HttpRequest, document_id: str) -> HttpResponse:
    document = document_get_for_user(user=request.user, document_id=document_id)
    if document is None:
        raise Http404("No such document")
    result = document_result_get(document=document)
    rows = field_rows(result, custom=document_custom_schema(document=document))
    # the result's checks carry no regions: the page images' own checks do
    regions = check_regions(document.page_checks)
    pages = [
        {
            "number": p.number,
            "width": p.width,
            "height": p.height,
            "url": reverse("ingestion:page_image", args=[document.pk, p.number]),
            "fields": [r for r in rows if r.page == p.number and r.bbox is not None],
            "regions": [r for r in regions if r.page == p.number],
        }
        for p in document.pages.all()
    ]
    context = {
        "document": document,
        "result": result,
        "status_label": status_label(document.status),
        "in_flight": document.status in IN_FLIGHT,
        "fields": rows,
        "pages": pages,
        "check_groups": check_groups(result),
        # the advisory authenticity signals, computed after the decision (apps.documents.advisory)
        "advisory_pending": document.advisory_state == AdvisoryState.PENDING,
        "history": history_rows(document_audit_history(document=document)),
        # operators and above may send a failed document through the pipeline again
        "can_reprocess": document.status in REPROCESSABLE
        and is_reviewer(user=request.user, tenant=document.tenant),
        "high_confidence": settings.DOCINTEL_AUTO_APPROVE_MIN_CONFIDENCE,
        "medium_confidence": MEDIUM_CONFIDENCE,
    }
    return render(request, "ingestion/document_detail.html", context)


@login_required
@require_POST
def document_reprocess_view(request: HttpRequest, document_id: str) -> HttpResponse:
    """The document page's "Process again" (operators and above): a failed document back to the
    start of the pipeline (``apps.documents.reprocess``), audited with who asked."""
    document = document_get_for_user(user=request.user, document_id=document_id)
    if document is None:
        raise Http404("No such document")
    if not is_reviewer(user=request.user, tenant=document.tenant):
        raise PermissionDenied("processing a document again needs the role operator or above")
    try:
        document_reprocess(
            document=document,
            actor=request.user,  # type: ignore[arg-type]
            via=ReprocessVia.WEB,
        )
    except NotReprocessableError as exc:
        messages.error(request, f"Not processed again: {exc}.", extra_tags=exc.code)
    else:
        messages.success(request, "Sent to be processed again.", extra_tags="reprocessed")
    return redirect("ingestion:document_detail", document_id=document.pk)


@login_required
@require_GET
def document_result_json(request: HttpRequest, document_id: str) -> JsonResponse:
    document = document_get_for_user(user=request.user, document_id=document_id)
    if document is None:
        raise Http404("No such document")
    response = JsonResponse(document_result_get(document=document))
    response["Cache-Control"] = _PRIVATE
    return response


# --- Page images (PII: authorised per request, never cached) -------------------------------------


@require_GET
def page_image(request: HttpRequest, document_id: str, number: int) -> HttpResponse:
    """A page image, decrypted for a member of the document's tenant. Anonymous callers get 404
    like everyone else who may not see it, rather than a login redirect that confirms it exists."""
    document = document_get_for_user(user=request.user, document_id=document_id)
    image = document_page_image(document=document, number=number) if document is not None else None
    if image is None:
        raise Http404("No such page")
    return _private_image(image, page_image_type(image)[0])


@require_GET
def page_crop(request: HttpRequest, document_id: str, number: int) -> HttpResponse:
    """``?box=x0,y0,x1,y1`` (page fractions) → that region of the page, padded a little."""
    document = document_get_for_user(user=request.user, document_id=document_id)
    png = document_page_image(document=document, number=number) if document is not None else None
    if png is None:
        raise Http404("No such page")
    try:
        box = box_parse(request.GET.get("box", ""))
    except InvalidBoxError as exc:
        return JsonResponse({"error": {"code": "invalid_box", "message": str(exc)}}, status=400)
    return _private_png(png_crop(png, box))


@require_GET
def field_crop(request: HttpRequest, document_id: str, name: str) -> HttpResponse:
    """The close-up of a field's box on its page, for the review screen."""
    document = document_get_for_user(user=request.user, document_id=document_id)
    field = document_field_get(document=document, name=name) if document is not None else None
    if document is None or field is None or not field.bbox:
        raise Http404("No such field box")
    png = document_page_image(document=document, number=field.page)
    if png is None:
        raise Http404("No such page")
    try:
        return _private_png(png_crop(png, field.bbox))
    except InvalidBoxError as exc:
        raise Http404("The field's box is empty") from exc


def _private_png(png: bytes) -> HttpResponse:
    return _private_image(png, "image/png")


def _private_image(image: bytes, mime_type: str) -> HttpResponse:
    response = HttpResponse(image, content_type=mime_type)
    response["Cache-Control"] = _PRIVATE
    response["Content-Disposition"] = "inline"
    response["Vary"] = "Cookie"
    return response
