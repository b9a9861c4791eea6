"""``manage.py reprocess``: failed documents sent through the pipeline again, after what failed
them has gone away (an engine back up, a key loaded, a tenant's type corrected).

    manage.py reprocess --status failed [--error-code max_attempts_exceeded ...]
                        [--since 2026-12-07T08:00 | --since 6h] [--tenant NAME] [--dry-run]

Each document goes back to the start of the pipeline through the normal dispatch path
(``apps.documents.reprocess``), audited as done by the command. Run with ``--dry-run`` first.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from apps.documents.models import DocumentStatus
from apps.documents.reprocess import ReprocessVia, documents_failed, documents_reprocess
from apps.tenants.models import Tenant

_AGO = re.compile(r"^(\d+)([mhd])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


def since_parse(raw: str, *, now: dt.datetime | None = None) -> dt.datetime:
    """``--since``: an ISO 8601 date or date and time (the server's time zone when none is
    given), or a span back from now: ``30m``, ``6h``, ``2d``."""
    ago = _AGO.match(raw.strip())
    if ago:
        return (now or timezone.now()) - dt.timedelta(**{_UNITS[ago.group(2)]: int(ago.group(1))})
    try:
        moment = parse_datetime(raw)
        if moment is None:
            day = parse_date(raw)
            moment = dt.datetime.combine(day, dt.time()) if day is not None else None
    except ValueError:
        moment = None
    if moment is None:
        raise CommandError(f"--since {raw!r}: give an ISO date or time (2026-12-07T08:00), or 30m, 6h, 2d")
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)


class Command(BaseCommand):
    help = "Send failed documents through the pipeline again, from the start."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--status",
            required=True,
            choices=[DocumentStatus.FAILED.value],
            help="which documents: failed ones (the only state a document is processed again from)",
        )
        parser.add_argument(
            "--error-code",
            action="append",
            default=[],
            help="only documents failed with this code (repeat for several)",
        )
        parser.add_argument(
            "--since", help="only documents failed since: an ISO date or time, or 30m, 6h, 2d"
        )
        parser.add_argument("--tenant", help="only this tenant's documents (its name)")
        parser.add_argument("--dry-run", action="store_true", help="list the documents, change nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        tenant = None
        if options["tenant"]:
            tenant = Tenant.objects.filter(name=options["tenant"]).first()
            if tenant is None:
                raise CommandError("no such tenant")
        since = since_parse(options["since"]) if options["since"] else None
        ids = documents_failed(tenant=tenant, error_codes=options["error_code"], since=since)
        if not options["dry_run"]:
            ids = documents_reprocess(document_ids=ids, actor=None, via=ReprocessVia.COMMAND)
        for document_id in ids:
            self.stdout.write(str(document_id))
        verb = "would reprocess" if options["dry_run"] else "reprocessed"
        self.stdout.write(f"{verb} {len(ids)} failed documents")
