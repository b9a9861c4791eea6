from django.apps import AppConfig


class ExtractionConfig(AppConfig):
    name = "apps.extraction"
    label = "extraction"
    default_auto_field = "django.db.models.BigAutoField"
