"""Database queries per document, step by step: where the pipeline's CPU goes when the model is
free (bench/pipeline.py's profile puts the ORM and psycopg at about half of it).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/docintel_bench_queries python bench/queries.py

Runs against a scratch database (created and migrated if missing); prints each step's queries,
grouped by statement shape, and their total.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/docintel_bench_queries")


def _shape(sql: str) -> str:
    sql = re.sub(r"'[^']*'", "?", sql)
    sql = re.sub(r"\b\d+\b", "?", sql)
    return sql[:110]


def main() -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from PIL import Image

    from apps.documents import pipeline
    from apps.documents.services import document_upload
    from apps.tenants.services import tenant_create
    from engines.types import EngineResult

    call_command("migrate", verbosity=0)

    class NullReader:
        def read_document(self, pages, *, document_type_hint=None, text_layer=None):  # type: ignore[no-untyped-def]
            return EngineResult(
                document_type="other", document_type_confidence=0.9, pages=len(pages), fields={}
            )

    tenant = tenant_create(name=f"bench-queries-{os.getpid()}")
    buffer = io.BytesIO()
    Image.new("RGB", (640, 400), (int.from_bytes(os.urandom(1), "big"), 80, 90)).save(buffer, "JPEG")
    document_id = ""

    def upload(seed: bytes) -> object:
        return document_upload(
            tenant=tenant, content=buffer.getvalue() + seed, original_name="q.jpg", uploaded_by=None
        )

    # infer also validates and decides, in the same transaction (apps/documents/pipeline.py)
    steps = {
        "upload": upload,
        "prepare": lambda _: pipeline.document_prepare(document_id=document_id),
        "infer": lambda _: pipeline.document_infer(document_id=document_id, reader=NullReader()),
    }
    # the first document of a tenant also creates its default review queue; the second is the steady state
    for label, seed in (("first document", b"1"), ("next document", b"2")):
        total = 0
        print(f"{label}:")
        for name, step in steps.items():
            with CaptureQueriesContext(connection) as captured:
                outcome = step(seed)
            if name == "upload":
                document_id = str(outcome.document.pk)  # type: ignore[attr-defined]
            shapes = Counter(_shape(q["sql"]) for q in captured.captured_queries)
            total += len(captured)
            print(f"{name}: {len(captured)} queries")
            for shape, count in shapes.most_common():
                print(f"  {count:3d}  {shape}")
        print(f"total: {total} queries per document (null result, one page, {label})")


if __name__ == "__main__":
    main()
