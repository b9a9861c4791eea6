from django.apps import AppConfig


class IngestionConfig(AppConfig):
    name = "apps.ingestion"
    label = "ingestion"
    default_auto_field = "django.db.models.BigAutoField"
