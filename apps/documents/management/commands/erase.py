"""``manage.py erase``: a data subject's erasure request, for one document or everything about a person.

    manage.py erase --document ID
    manage.py erase --tenant NAME --person "ANNA MARIA ERIKSSON" [--date-of-birth 1985-04-12]
                    [--document-number X1234567] [--dry-run]

A person is matched on the name fields the engine read (surname and given names, full name, account
holder, customer), narrowed by date of birth and document number; their KYC cases (holding those
documents, or declaring the name) go whole, with every document of theirs no other case holds
(``apps.documents.retention``). Run with ``--dry-run`` first and check the documents and cases
listed. The audit trail records the erasure without the name or date searched.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.documents.models import Document
from apps.documents.retention import REQUEST, document_erase, person_erase
from apps.tenants.models import Tenant


class Command(BaseCommand):
    help = "Erase one document, or everything about one person, with everything made from them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--document", help="the id of one document")
        parser.add_argument("--tenant", help="the tenant whose documents name the person")
        parser.add_argument("--person", help="the person's name, as on their documents")
        parser.add_argument("--date-of-birth", default="", help="YYYY-MM-DD, to tell namesakes apart")
        parser.add_argument("--document-number", default="", help="to tell namesakes apart")
        parser.add_argument("--dry-run", action="store_true", help="list the documents, erase nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["document"]:
            self._one(options["document"], dry_run=options["dry_run"])
        elif options["tenant"] and options["person"]:
            self._person(options)
        else:
            raise CommandError("give --document ID, or --tenant NAME and --person NAME")

    def _one(self, document_id: str, *, dry_run: bool) -> None:
        try:
            document = Document.objects.filter(pk=uuid.UUID(document_id)).first()
        except ValueError:
            document = None
        if document is None:
            raise CommandError("no such document")
        if not dry_run:
            document_erase(document=document, reason=REQUEST)
        self.stdout.write(f"{'would erase' if dry_run else 'erased'} document {document_id}")

    def _person(self, options: dict[str, Any]) -> None:
        tenant = Tenant.objects.filter(name=options["tenant"]).first()
        if tenant is None:
            raise CommandError("no such tenant")
        erasure = person_erase(
            tenant=tenant,
            name=options["person"],
            date_of_birth=options["date_of_birth"],
            document_number=options["document_number"],
            dry_run=options["dry_run"],
        )
        for document_id in erasure.document_ids:
            self.stdout.write(document_id)
        for case_id in erasure.case_ids:
            self.stdout.write(f"case {case_id}")
        verb = "would erase" if options["dry_run"] else "erased"
        self.stdout.write(
            f"{verb} {len(erasure.document_ids)} documents and {len(erasure.case_ids)} cases "
            f"(request {erasure.request_id})"
        )
