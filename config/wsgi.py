"""WSGI entry point. Production settings unless told otherwise: they refuse to start without
their secrets (config/settings/prod.py); development is opt-in
(``DJANGO_SETTINGS_MODULE=config.settings.dev``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")
application = get_wsgi_application()
