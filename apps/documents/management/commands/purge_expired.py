"""``manage.py purge_expired [--dry-run]``: erase documents past their tenant's retention period.

The same job runs every ``DOCINTEL_PURGE_EVERY_S`` from Celery beat; this is for operators (and
for a first run after lowering a retention period).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from apps.documents.retention import documents_purge_expired


class Command(BaseCommand):
    help = "Erase every document older than its tenant's retention period, with everything made from it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="list what would be erased")

    def handle(self, *args: Any, **options: Any) -> None:
        ids = documents_purge_expired(dry_run=options["dry_run"])
        for document_id in ids:
            self.stdout.write(document_id)
        verb = "would erase" if options["dry_run"] else "erased"
        self.stdout.write(f"{verb} {len(ids)} expired documents")
