from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "apps.documents"
    label = "documents"
    default_auto_field = "django.db.models.BigAutoField"
