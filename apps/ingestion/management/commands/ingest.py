"""``manage.py ingest DIR --tenant NAME [--type TYPE] [--wait SECONDS] [--format table|jsonl] [--cases]``.

``--type`` (or ``--document-type``): a built-in type or one of the tenant's own (apps.doctypes).

Walks a folder (and its subfolders) and uploads every file through the same service as the web
page and the API (``apps.ingestion.services.file_upload``: zips are unpacked member by member,
bombs refused), as one batch that the API can count and export (``/api/v1/batches/ID``). A
progress bar on stderr shows files, documents per second and megabytes per second; the summary
at the end counts documents made, duplicates and refusals by reason. With ``--wait`` it then
follows the documents through the pipeline and prints their results. With ``--cases`` each
subfolder is one applicant whose files open one KYC case (``apps.cases``).
"""

from __future__ import annotations

import json
import os
import sys
import time
from argparse import ArgumentParser
from collections import Counter
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.batches.models import Batch, BatchSource
from apps.batches.services import batch_open, batch_record
from apps.doctypes.selectors import document_type_names
from apps.documents.models import Document
from apps.documents.selectors import document_result_get
from apps.documents.state import IN_FLIGHT
from apps.extraction.formatting import result_table
from apps.ingestion.services import file_upload
from apps.tenants.selectors import tenant_get_by_name
from engines.spec import DOCUMENT_TYPES

# Beside the documents of a labelled folder: its truth and notes, not documents.
_SKIPPED_SUFFIXES = (".json", ".md")
_BAR = 30


def walk(directory: Path) -> list[Path]:
    """Every file under ``directory``, in a stable order, leaving out hidden files and folders."""
    found: list[Path] = []
    for root, folders, files in os.walk(directory):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        found.extend(
            Path(root) / name
            for name in sorted(files)
            if not name.startswith(".") and not name.endswith(_SKIPPED_SUFFIXES)
        )
    return found


class Progress:
    def __init__(self, total_files: int, total_bytes: int) -> None:
        self.total_files = total_files
        self.total_bytes = total_bytes
        self.started = time.monotonic()

    def elapsed(self) -> float:
        return max(time.monotonic() - self.started, 1e-6)

    def show(self, files: int, size: int, documents: int) -> None:
        filled = int(_BAR * size / max(self.total_bytes, 1))
        elapsed = self.elapsed()
        sys.stderr.write(
            f"\ruploading [{'#' * filled}{'.' * (_BAR - filled)}] {files}/{self.total_files} files, "
            f"{documents} documents, {documents / elapsed:.1f} docs/s, {size / elapsed / 1e6:.1f} MB/s "
        )
        sys.stderr.flush()


class Command(BaseCommand):
    help = "Upload every file under a folder for a tenant, as a batch, and optionally wait for the results."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("directory", type=Path)
        parser.add_argument("--tenant", required=True)
        parser.add_argument(
            "--type",
            "--document-type",
            dest="type",
            default="",
            help="a document type hint for every file: a built-in type or one of the tenant's own",
        )
        parser.add_argument(
            "--wait", type=float, default=0.0, help="seconds to wait for the results (0: don't)"
        )
        parser.add_argument("--format", choices=("jsonl", "table"), default="table")
        parser.add_argument(
            "--cases",
            action="store_true",
            help="each subfolder is one applicant: its files open one KYC case (external reference: "
            "the folder's name; declared data from its declared.json, if any)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tenant = tenant_get_by_name(name=options["tenant"])
        if tenant is None:
            raise CommandError(
                f"no tenant named {options['tenant']!r}; create it with `manage.py create_tenant`"
            )
        own_types = document_type_names(tenant=tenant)
        if options["type"] and options["type"] not in (*DOCUMENT_TYPES, *own_types):
            raise CommandError(
                f"unknown document type {options['type']!r}; choose a built-in type "
                f"({', '.join(DOCUMENT_TYPES)})"
                + (f" or one of {tenant.name}'s own ({', '.join(own_types)})" if own_types else "")
            )
        directory: Path = options["directory"]
        if not directory.is_dir():
            raise CommandError(f"{directory} is not a folder")
        if options["cases"]:
            self._cases(tenant, directory, options["wait"])
            return
        files = walk(directory)
        progress = Progress(len(files), sum(p.stat().st_size for p in files))
        batch: Batch | None = None
        ids: list[str] = []
        created = duplicates = size = 0
        refused: Counter[str] = Counter()
        for index, path in enumerate(files, start=1):
            content = path.read_bytes()
            size += len(content)
            outcome = file_upload(
                tenant=tenant,
                content=content,
                original_name=str(path.relative_to(directory)),
                uploaded_by=None,
                document_type_hint=options["type"],
            )
            if outcome.documents and batch is None:
                batch = batch_open(tenant=tenant, source=BatchSource.CLI)
            if batch is not None:
                batch_record(batch=batch, outcome=outcome)
            for uploaded in outcome.documents:
                ids.append(str(uploaded.document.pk))
                created += uploaded.created
                duplicates += not uploaded.created
            for refusal in ([outcome.error] if outcome.error else []) + outcome.refused:
                refused[refusal.code] += 1
                sys.stderr.write(f"\n{refusal.name}: refused ({refusal.code}: {refusal.message})\n")
            progress.show(index, size, len(ids))
        elapsed = progress.elapsed()
        sys.stderr.write(
            f"\n{len(files)} files ({size / 1e6:.1f} MB) in {elapsed:.1f} s: {created} new documents, "
            f"{duplicates} already uploaded, {sum(refused.values())} refused"
            + (f" ({', '.join(f'{code} {n}' for code, n in sorted(refused.items()))})" if refused else "")
            + f"; {len(ids) / elapsed:.1f} documents/s\n"
        )
        if batch is not None:
            sys.stderr.write(f"batch {batch.pk} (GET /api/v1/batches/{batch.pk})\n")
        if options["wait"] > 0:
            self._wait_and_print(ids, options["wait"], options["format"])

    def _cases(self, tenant: Any, directory: Path, wait_s: float) -> None:
        """One case per applicant folder (``apps.cases.ingest``), then, with ``--wait``, each
        case's decision once its documents are read."""
        from apps.cases.ingest import applicant_folders, case_from_folder, cases_wait

        opened = []
        for folder in applicant_folders(directory):
            try:
                case = case_from_folder(tenant=tenant, folder=folder, files=walk(folder))
            except ValueError as exc:
                sys.stderr.write(f"{folder.name}: not opened ({exc})\n")
                continue
            opened.append(case)
            sys.stderr.write(f"{folder.name}: case {case.pk} ({case.documents.count()} documents)\n")
        sys.stderr.write(f"{len(opened)} cases opened\n")
        if wait_s > 0:
            for case in cases_wait([c.pk for c in opened], wait_s):
                self.stdout.write(
                    f"{case.external_reference}\t{case.pk}\t{case.status}\t{case.decision_rule or '-'}"
                )

    def _wait_and_print(self, ids: list[str], wait_s: float, output: str) -> None:
        deadline = time.monotonic() + wait_s
        started = time.monotonic()
        unique = list(dict.fromkeys(ids))
        while True:
            pending = Document.objects.filter(pk__in=unique, status__in=IN_FLIGHT).count()
            done = len(unique) - pending
            filled = int(_BAR * done / max(len(unique), 1))
            rate = done / max(time.monotonic() - started, 1e-6)
            sys.stderr.write(
                f"\rprocessing [{'#' * filled}{'.' * (_BAR - filled)}] {done}/{len(unique)} {rate:.1f}/s "
            )
            sys.stderr.flush()
            if pending == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        sys.stderr.write("\n")
        for document in Document.objects.filter(pk__in=unique).order_by("original_name"):
            result = document_result_get(document=document)
            if output == "jsonl":
                self.stdout.write(json.dumps(result, ensure_ascii=False))
            else:
                self.stdout.write(result_table(result) + "\n")
        if pending:
            raise CommandError(f"{pending} documents were still processing after {wait_s:.0f} s")
