"""``manage.py rotate_keys [--dry-run]``: re-wrap every data key under the current master key.

See ``apps.documents.keys`` for the procedure. Exits 1 when a document's key cannot be unwrapped by
any configured master key (its blobs are unreadable until that key is configured again).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.documents.keys import documents_rewrap_keys


class Command(BaseCommand):
    help = "Re-wrap every document's data key under DOCINTEL_MASTER_KEY (blobs are not re-encrypted)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="count what would be re-wrapped")

    def handle(self, *args: Any, **options: Any) -> None:
        report = documents_rewrap_keys(dry_run=options["dry_run"])
        verb = "would re-wrap" if options["dry_run"] else "re-wrapped"
        self.stdout.write(f"{report.checked} documents checked, {verb} {report.rewrapped} data keys")
        if report.unreadable:
            raise CommandError(
                f"{len(report.unreadable)} documents have a data key no configured master key unwraps "
                f"(add the key to DOCINTEL_OLD_MASTER_KEYS): {', '.join(report.unreadable[:20])}"
            )
