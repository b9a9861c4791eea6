from django.urls import path

from apps.ingestion import views

app_name = "ingestion"

urlpatterns = [
    path("", views.document_list, name="document_list"),
    path("documents/<str:document_id>/", views.document_detail, name="document_detail"),
    path("documents/<str:document_id>/result.json", views.document_result_json, name="document_result_json"),
]
