"""``manage.py verify_audit [--anchor FILE] [--save-anchor FILE]``: check the audit trail's hash chain.

Names every edited event and every gap left by deleted ones, and exits 1 if there is any. The
chain alone cannot show that its newest events were cut off; ``--save-anchor`` writes the current
head (id and hash) to a file kept outside the database (a SIEM, a ticket, a WORM bucket), and
``--anchor`` checks later that the chain still holds that very event, unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.audit.models import AuditEvent
from apps.audit.services import audit_chain_head, audit_chain_problems


class Command(BaseCommand):
    help = "Verify the audit trail's hash chain; name every edited or deleted event."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--anchor", type=Path, help="a head saved earlier: the chain must still hold it")
        parser.add_argument("--save-anchor", type=Path, help="write the current head to this file")

    def handle(self, *args: Any, **options: Any) -> None:
        checked, problems = audit_chain_problems()
        messages = [p.message for p in problems]
        anchor: Path | None = options["anchor"]
        if anchor is not None:
            saved = json.loads(anchor.read_text())
            event = AuditEvent.objects.filter(pk=saved["id"]).only("hash").first()
            if event is None:
                messages.append(f"event {saved['id']}, the head recorded in {anchor}, was deleted")
            elif event.hash != saved["hash"]:
                messages.append(f"event {saved['id']}, the head recorded in {anchor}, was rewritten")
        for message in messages:
            self.stderr.write(message)
        if messages:
            raise CommandError(
                f"the audit trail was tampered with: {len(messages)} problems in {checked} events"
            )
        head = audit_chain_head()
        if options["save_anchor"] is not None and head is not None:
            options["save_anchor"].write_text(json.dumps({"id": head[0], "hash": head[1]}))
        self.stdout.write(
            f"audit trail intact: {checked} events" + (f", head {head[0]} {head[1]}" if head else "")
        )
