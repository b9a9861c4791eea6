from django.apps import AppConfig


class ObservabilityConfig(AppConfig):
    name = "apps.observability"
    label = "observability"

    def ready(self) -> None:
        # Celery workers measure queue waits and carry the upload's request id into their logs.
        from apps.observability import celery_signals  # noqa: F401
