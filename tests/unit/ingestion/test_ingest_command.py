"""``manage.py ingest DIR --tenant NAME``: walks the folder, uploads through the web's service
(zips unpacked), records a batch, and reports progress and a summary on stderr."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.batches.models import Batch
from apps.documents.models import Document
from tests.support.uploads import png_bytes

pytestmark = pytest.mark.django_db


def test_ingest_walks_subfolders_and_reports_a_summary(tenant, tmp_path, capsys):
    (tmp_path / "scans" / "2024").mkdir(parents=True)
    (tmp_path / "a.png").write_bytes(png_bytes(1))
    (tmp_path / "scans" / "2024" / "b.png").write_bytes(png_bytes(2))
    (tmp_path / "scans" / "again.png").write_bytes(png_bytes(1))
    (tmp_path / "notes.txt").write_text("not a document")
    (tmp_path / ".hidden.png").write_bytes(png_bytes(3))
    (tmp_path / "truth.json").write_text("{}")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("c.png", png_bytes(4))
    (tmp_path / "more.zip").write_bytes(buffer.getvalue())

    call_command("ingest", str(tmp_path), "--tenant", tenant.name)

    err = capsys.readouterr().err
    assert Document.objects.filter(tenant=tenant).count() == 3
    assert (
        "5 files" in err and "3 new documents, 1 already uploaded, 1 refused (unsupported_file_type 1)" in err
    )
    assert "docs/s" in err and "documents/s" in err
    batch = Batch.objects.get(tenant=tenant)
    assert batch.source == "cli" and batch.items.count() == 4
    assert sorted(batch.items.values_list("file", flat=True)) == [
        "a.png", "more.zip/c.png", "scans/2024/b.png", "scans/again.png",
    ]  # fmt: skip


def test_ingest_needs_an_existing_tenant(tmp_path):
    with pytest.raises(CommandError, match="no tenant"):
        call_command("ingest", str(tmp_path), "--tenant", "Nobody")
