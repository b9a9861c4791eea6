from django.urls import path

from apps.ingestion import views

app_name = "ingestion"

urlpatterns = [
    path("", views.document_list, name="document_list"),
    path("upload/", views.upload, name="upload"),
    path("upload/file.json", views.upload_json, name="upload_json"),
    path("documents/status.json", views.documents_status_json, name="documents_status_json"),
    path("documents/<str:document_id>/", views.document_detail, name="document_detail"),
    path("documents/<str:document_id>/reprocess/", views.document_reprocess_view, name="document_reprocess"),
    path("documents/<str:document_id>/result.json", views.document_result_json, name="document_result_json"),
    path("documents/<str:document_id>/pages/<int:number>.png", views.page_image, name="page_image"),
    path("documents/<str:document_id>/pages/<int:number>/crop.png", views.page_crop, name="page_crop"),
    path("documents/<str:document_id>/fields/<str:name>/crop.png", views.field_crop, name="field_crop"),
]
