from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from apps.api import views
from apps.api.docs import SwaggerUiView
from apps.cases import apis as cases
from apps.doctypes import apis as doctypes
from apps.webhooks import apis as webhooks

app_name = "api"

urlpatterns = [
    path("documents", views.DocumentsApi.as_view(), name="documents"),
    path("documents/<uuid:document_id>", views.DocumentApi.as_view(), name="document"),
    path(
        "documents/<uuid:document_id>/original", views.DocumentOriginalApi.as_view(), name="document_original"
    ),
    path(
        "documents/<uuid:document_id>/reprocess",
        views.DocumentReprocessApi.as_view(),
        name="document_reprocess",
    ),
    path(
        "documents/<uuid:document_id>/pages/<int:number>",
        views.DocumentPageApi.as_view(),
        name="document_page",
    ),
    path("batches", views.BatchesApi.as_view(), name="batches"),
    path("batches/<uuid:batch_id>", views.BatchApi.as_view(), name="batch"),
    path(
        "batches/<uuid:batch_id>/results.jsonl",
        views.BatchExportJsonlApi.as_view(),
        name="batch_export_jsonl",
    ),
    path("batches/<uuid:batch_id>/results.csv", views.BatchExportCsvApi.as_view(), name="batch_export_csv"),
    path("cases", cases.CasesApi.as_view(), name="cases"),
    path("cases/<uuid:case_id>", cases.CaseApi.as_view(), name="case"),
    path("cases/<uuid:case_id>/documents", cases.CaseDocumentsApi.as_view(), name="case_documents"),
    path("document-types", doctypes.DocumentTypesApi.as_view(), name="document_types"),
    path("document-types/<str:name>", doctypes.DocumentTypeApi.as_view(), name="document_type"),
    path(
        "policies/authenticity",
        doctypes.AuthenticityPolicyApi.as_view(),
        name="authenticity_policy",
    ),
    path("webhooks/dead-letters", webhooks.DeadLettersApi.as_view(), name="webhook_dead_letters"),
    path(
        "webhooks/dead-letters/redrive",
        webhooks.DeadLettersRedriveApi.as_view(),
        name="webhook_dead_letters_redrive",
    ),
    path("schema", SpectacularAPIView.as_view(throttle_classes=[]), name="schema"),
    path("docs", SwaggerUiView.as_view(url_name="api:schema", throttle_classes=[]), name="docs"),
]
