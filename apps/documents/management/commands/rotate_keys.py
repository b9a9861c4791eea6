"""``manage.py rotate_keys [--dry-run]``: re-wrap every data key, and re-seal every tenant's webhook
secret, under the current master key.

See ``apps.documents.keys`` for the procedure. Exits 1 when a document's key, or a tenant's webhook
secret, cannot be unwrapped by any configured master key (its blobs are unreadable, its webhooks
cannot be signed, until that key is configured again).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.documents.keys import documents_rewrap_keys


class Command(BaseCommand):
    help = (
        "Re-wrap every document's data key and re-seal every webhook secret under DOCINTEL_MASTER_KEY "
        "(blobs are not re-encrypted)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="count what would be re-wrapped")

    def handle(self, *args: Any, **options: Any) -> None:
        report = documents_rewrap_keys(dry_run=options["dry_run"])
        verb = "would re-wrap" if options["dry_run"] else "re-wrapped"
        self.stdout.write(f"{report.checked} documents checked, {verb} {report.rewrapped} data keys")
        self.stdout.write(f"{verb} {report.webhook_secrets_resealed} webhook secrets")
        problems = []
        if report.unreadable:
            problems.append(
                f"{len(report.unreadable)} documents have a data key no configured master key unwraps "
                f"(add the key to DOCINTEL_OLD_MASTER_KEYS): {', '.join(report.unreadable[:20])}"
            )
        if report.unreadable_webhook_secrets:
            problems.append(
                f"{len(report.unreadable_webhook_secrets)} tenants have a webhook secret no configured master "
                "key opens (add the key to DOCINTEL_OLD_MASTER_KEYS, or give them a new secret with "
                f"manage.py webhook_secret --rotate): {', '.join(report.unreadable_webhook_secrets[:20])}"
            )
        if problems:
            raise CommandError("; ".join(problems))
