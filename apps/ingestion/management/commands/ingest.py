"""``manage.py ingest DIR --tenant NAME [--wait SECONDS] [--format table|jsonl]``.

Uploads every file of a folder through the same service as the web and API, then (with
``--wait``) follows the documents through the pipeline and prints their results.
"""

from __future__ import annotations

import json
import sys
import time
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.documents.models import Document
from apps.documents.selectors import document_result_get
from apps.documents.services import UploadRejectedError, document_upload
from apps.documents.state import IN_FLIGHT
from apps.extraction.formatting import result_table
from apps.tenants.selectors import tenant_get_by_name


class Command(BaseCommand):
    help = "Upload every file of a folder for a tenant and optionally wait for the results."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("directory", type=Path)
        parser.add_argument("--tenant", required=True)
        parser.add_argument(
            "--wait", type=float, default=0.0, help="seconds to wait for the results (0: don't)"
        )
        parser.add_argument("--format", choices=("jsonl", "table"), default="table")

    def _progress(self, done: int, total: int, started: float, label: str) -> None:
        width = 30
        filled = int(width * done / max(total, 1))
        rate = done / max(time.monotonic() - started, 1e-6)
        sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {rate:.1f}/s")
        sys.stderr.flush()

    def handle(self, *args: Any, **options: Any) -> None:
        tenant = tenant_get_by_name(name=options["tenant"])
        if tenant is None:
            raise CommandError(
                f"no tenant named {options['tenant']!r}; create it with `manage.py create_tenant`"
            )
        directory: Path = options["directory"]
        if not directory.is_dir():
            raise CommandError(f"{directory} is not a folder")
        files = sorted(
            p
            for p in directory.iterdir()
            if p.is_file() and not p.name.startswith(".") and p.suffix != ".json" and p.suffix != ".md"
        )
        started = time.monotonic()
        ids: list[str] = []
        rejected = 0
        for index, path in enumerate(files, start=1):
            try:
                outcome = document_upload(
                    tenant=tenant, content=path.read_bytes(), original_name=path.name, uploaded_by=None
                )
                ids.append(str(outcome.document.pk))
            except UploadRejectedError as exc:
                rejected += 1
                sys.stderr.write(f"\n{path.name}: rejected ({exc.code}: {exc.message})\n")
            self._progress(index, len(files), started, "uploading")
        sys.stderr.write(f"\nuploaded {len(ids)} documents, rejected {rejected}\n")
        if options["wait"] <= 0:
            return

        deadline = time.monotonic() + options["wait"]
        started = time.monotonic()
        while True:
            pending = Document.objects.filter(pk__in=ids, status__in=IN_FLIGHT).count()
            self._progress(len(ids) - pending, len(ids), started, "processing")
            if pending == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        sys.stderr.write("\n")
        for document in Document.objects.filter(pk__in=ids).order_by("original_name"):
            result = document_result_get(document=document)
            if options["format"] == "jsonl":
                self.stdout.write(json.dumps(result, ensure_ascii=False))
            else:
                self.stdout.write(result_table(result) + "\n")
        if pending:
            raise CommandError(f"{pending} documents were still processing after {options['wait']:.0f} s")
