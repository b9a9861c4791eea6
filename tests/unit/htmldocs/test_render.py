"""Rendering the independent family with Debian's Chromium: files, truth.json and text layers.

One document of each kind is printed through Playwright (``page.pdf()`` / ``page.screenshot()``)
into a temporary folder, the way ``python -m htmldocs.generate`` writes an evaluation set. The
tests skip where ``/usr/bin/chromium`` is missing (``make test-packages`` installs it).
"""

from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image
from pypdf import PdfReader

from engines.spec import FIELDS
from htmldocs import KINDS
from htmldocs.generate import compose, main
from htmldocs.render import CHROMIUM

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (make test-packages installs it)"
    ),
]

MAGIC = {"pdf": b"%PDF-", "png": b"\x89PNG\r\n\x1a\n", "jpg": b"\xff\xd8\xff"}


def _seed_with_mixed_forms() -> int:
    """A seed whose first four documents (one per kind) include PDFs and images: found by composing
    (cheap), so the rendering test always sees both forms."""
    for seed in range(1, 200):
        forms = {compose(seed, i, kind).output.form for i, kind in enumerate(KINDS)}
        if "pdf" in forms and len(forms) > 1:
            return seed
    raise AssertionError("no seed with both PDFs and images")


def _normal(text: str) -> str:
    """Text with every kind of space (PDF text layers keep no-break ones) as one plain space."""
    return re.sub(r"[\s\u00a0\u202f]+", " ", text)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("independent")
    seed = _seed_with_mixed_forms()
    assert main([str(folder), "--count", "4", "--seed", str(seed)]) == 0
    return folder, seed


def test_generate_writes_one_file_per_document_and_a_truth_file(generated):
    folder, seed = generated
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    assert sorted(p.name for p in folder.iterdir() if p.name != "truth.json") == sorted(truth)
    for index, (name, entry) in enumerate(sorted(truth.items())):
        assert set(entry) == {"document_type", "fields", "meta"}
        assert entry["document_type"] == KINDS[index]
        assert list(entry["fields"]) == list(FIELDS[entry["document_type"]])
        assert entry["meta"]["family"] == "htmldocs" and entry["meta"]["seed"] == seed
        content = (folder / name).read_bytes()
        assert content.startswith(MAGIC[name.rsplit(".", 1)[1]]), name


def test_pdfs_have_a_text_layer_with_the_printed_total(generated):
    folder, seed = generated
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    pdfs = [name for name in truth if name.endswith(".pdf")]
    assert pdfs
    for name in pdfs:
        entry = truth[name]
        doc = compose(seed, entry["meta"]["index"], entry["document_type"])
        text = " ".join(page.extract_text() for page in PdfReader(folder / name).pages)
        assert _normal(doc.printed_total) in _normal(text), name
        if entry["document_type"] == "invoice":
            assert entry["fields"]["invoice_number"] in text


def test_images_are_whole_pages_or_receipt_strips(generated):
    folder, _ = generated
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    images = [name for name in truth if not name.endswith(".pdf")]
    assert images
    for name in images:
        with Image.open(io.BytesIO((folder / name).read_bytes())) as image:
            width, height = image.size
        if truth[name]["document_type"] == "receipt":
            assert height > width  # a strip, longer than wide
        else:
            assert 1300 <= width <= 2400 and height >= width  # an A4 page at scan resolution


def test_rendering_does_not_change_the_truth(generated, tmp_path):
    """Truth comes from the composition alone: a run without the browser writes the same file."""
    folder, seed = generated
    main([str(tmp_path), "--count", "4", "--seed", str(seed), "--truth-only"])
    assert (tmp_path / "truth.json").read_text() == (folder / "truth.json").read_text()
