"""Server-rendered upload and result pages. Thin: validate, call one service or selector, render."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from apps.documents.selectors import document_get_for_user, document_result_get, documents_visible_to
from apps.documents.services import UploadRejectedError, document_upload
from apps.documents.state import IN_FLIGHT
from apps.ingestion.forms import UploadForm
from apps.tenants.selectors import tenants_for_user


@login_required
@require_http_methods(["GET", "POST"])
def document_list(request: HttpRequest) -> HttpResponse:
    tenant = tenants_for_user(user=request.user).first()
    form = UploadForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        if tenant is None:
            form.add_error(None, "Your account belongs to no organisation yet; ask an administrator.")
            status = 403
        elif form.is_valid():
            upload = form.cleaned_data["file"]
            if upload.size > settings.DOCINTEL_MAX_UPLOAD_BYTES:
                form.add_error(
                    "file", f"The file is larger than {settings.DOCINTEL_MAX_UPLOAD_BYTES // 2**20} MB."
                )
                status = 413
            else:
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
                    status = (
                        413
                        if exc.code == "file_too_large"
                        else 415
                        if exc.code == "unsupported_file_type"
                        else 400
                    )
                else:
                    return redirect("ingestion:document_detail", document_id=outcome.document.pk)
        else:
            status = 400
    documents = documents_visible_to(user=request.user).order_by("-created_at")[:50]
    return render(
        request,
        "ingestion/document_list.html",
        {"form": form, "documents": documents, "tenant": tenant},
        status=status,
    )


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
