"""Server-rendered upload and result pages. Thin: validate, call one service or selector, render."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import filesizeformat
from django.views.decorators.http import require_GET, require_http_methods

from apps.documents.selectors import document_get_for_user, document_result_get, documents_visible_to
from apps.documents.services import UploadRejectedError, document_upload
from apps.documents.state import IN_FLIGHT
from apps.ingestion.forms import UploadForm
from apps.tenants.models import Tenant
from apps.tenants.selectors import tenants_for_user

# HTTP status for each reason an upload is refused.
_REJECTION_STATUS = {"file_too_large": 413, "unsupported_file_type": 415}


@login_required
@require_http_methods(["GET", "POST"])
def document_list(request: HttpRequest) -> HttpResponse:
    tenant = tenants_for_user(user=request.user).first()
    if request.method == "POST" and _body_too_large(request):
        # Checked before touching request.FILES, so an oversized body is never read.
        return _render_list(request, UploadForm(), tenant, status=413, error=_too_large_message())
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method != "POST":
        return _render_list(request, form, tenant, status=200)
    if tenant is None:
        return _render_list(
            request, form, tenant, status=403, error="Your account belongs to no organisation yet."
        )
    if not form.is_valid():
        return _render_list(request, form, tenant, status=400)
    upload = form.cleaned_data["file"]
    try:
        outcome = document_upload(
            tenant=tenant,
            content=upload.read(),
            original_name=upload.name or "upload",
            uploaded_by=request.user,  # type: ignore[arg-type]
            document_type_hint=form.cleaned_data["document_type"] or "",
        )
    except UploadRejectedError as exc:
        form.add_error("file", exc.message)
        return _render_list(request, form, tenant, status=_REJECTION_STATUS.get(exc.code, 400))
    return redirect("ingestion:document_detail", document_id=outcome.document.pk)


def _body_too_large(request: HttpRequest) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > settings.FILE_UPLOAD_MAX_MEMORY_SIZE


def _too_large_message() -> str:
    return f"The file is larger than the {filesizeformat(settings.DOCINTEL_MAX_UPLOAD_BYTES)} limit."


def _render_list(
    request: HttpRequest, form: UploadForm, tenant: Tenant | None, *, status: int, error: str = ""
) -> HttpResponse:
    documents = documents_visible_to(user=request.user).order_by("-created_at")[:50]
    context = {"form": form, "documents": documents, "tenant": tenant, "upload_error": error}
    return render(request, "ingestion/document_list.html", context, status=status)


@login_required
@require_GET
def document_detail(request: HttpRequest, document_id: str) -> HttpResponse:
    document = document_get_for_user(user=request.user, document_id=document_id)
    if document is None:
        raise Http404("No such document")
    result = document_result_get(document=document)
    return render(
        request,
        "ingestion/document_detail.html",
        {"document": document, "result": result, "in_flight": document.status in IN_FLIGHT},
    )


@login_required
@require_GET
def document_result_json(request: HttpRequest, document_id: str) -> JsonResponse:
    document = document_get_for_user(user=request.user, document_id=document_id)
    if document is None:
        raise Http404("No such document")
    return JsonResponse(document_result_get(document=document))
