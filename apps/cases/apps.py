from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "apps.cases"
    label = "cases"
    default_auto_field = "django.db.models.BigAutoField"
