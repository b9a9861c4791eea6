"""gunicorn's settings for the web pods (``gunicorn --config python:config.gunicorn``,
deploy/k8s/web.yaml and the app image): an access log of paths only.

gunicorn's default access line holds the whole request line (``%(r)s``) and the referrer
(``%(f)s``), so an export link's signature and an operator's ``?q=`` search (a name, a
document number) would land in every log store the lines are shipped to. The line here keeps
the method, the path (``%(U)s``), the status, the size, the user agent and the time taken; the
filter on gunicorn's loggers cuts any query string a line still holds (an error naming the
request it failed on, or a format changed on the command line).
"""

from __future__ import annotations

import logging
from typing import Any

from apps.observability.logging import PathsOnlyFilter

accesslog = "-"
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s" %(M)sms'


def on_starting(server: Any) -> None:
    """Before the workers fork (they inherit the loggers): every line of gunicorn's own loggers
    through :class:`PathsOnlyFilter`."""
    for name in ("gunicorn.access", "gunicorn.error"):
        logging.getLogger(name).addFilter(PathsOnlyFilter())
