"""``workers`` as a Django app, so that ``manage.py dispatch_inference`` lives beside the dispatcher.

No models: the app exists for its management command. The dispatcher is a worker (it consumes the
inference queue), and ``apps`` must not import ``workers`` (tests/unit/test_layering.py).
"""

from django.apps import AppConfig


class WorkersConfig(AppConfig):
    name = "workers"
    label = "workers"
