from django.apps import AppConfig


class DoctypesConfig(AppConfig):
    name = "apps.doctypes"
    label = "doctypes"
    verbose_name = "Tenant document types"
    default_auto_field = "django.db.models.BigAutoField"
