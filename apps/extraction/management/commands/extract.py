"""``manage.py extract PATH [PATH ...] [--engine local|triton] [--type TYPE] [--format jsonl|table]``."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.extraction.extract import extract_file
from apps.extraction.formatting import result_table
from apps.extraction.readers import ENGINE_CHOICES, reader_for
from engines.spec import DOCUMENT_TYPES
from media.triton_client import TritonUnavailableError


class Command(BaseCommand):
    help = "Run the extraction pipeline synchronously on files and print one result per file."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("paths", nargs="+", type=Path)
        parser.add_argument("--engine", choices=ENGINE_CHOICES, default="local")
        parser.add_argument("--type", dest="document_type", choices=DOCUMENT_TYPES, default=None)
        parser.add_argument("--format", choices=("jsonl", "table"), default="jsonl")

    def handle(self, *args: Any, **options: Any) -> None:
        reader = reader_for(options["engine"])
        files: list[Path] = []
        for path in options["paths"]:
            if path.is_dir():
                files.extend(sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith(".")))
            else:
                files.append(path)
        for path in files:
            try:
                result = extract_file(path=path, reader=reader, document_type_hint=options["document_type"])
            except TritonUnavailableError as exc:
                raise CommandError(
                    f"Triton is not reachable ({exc}); start it with `manage.py serve_models`"
                ) from exc
            if options["format"] == "jsonl":
                self.stdout.write(json.dumps(result, ensure_ascii=False))
            else:
                self.stdout.write(result_table(result) + "\n")
