"""The operators' web in a real browser: log in, upload, watch documents get decided, open one.

GIVEN the live server, Chromium, and (for uploads) the real Celery worker and Triton server,
WHEN an operator drops files on the upload page, THEN each file shows its own progress and then
its document's status live until it is decided, unsupported files are refused with a readable
reason, and the document page shows the page image with field boxes, the field table and checks.
Another tenant's operator, and anyone logged out, gets 404 for the document and its images.
"""

from __future__ import annotations

import base64
import io
import json
import re
import zipfile

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.conftest import SAMPLES
from tests.e2e.conftest import log_in, screenshot
from tests.factories import make_read_document, member

# a function, not an expression: Playwright polls an expression with eval, which the pages' CSP
# (script-src 'self') refuses whenever the image is not loaded at the first look
PAGE_IMAGE_LOADED = """() => {
  const image = document.querySelector(".page-canvas img");
  return image !== null && image.complete && image.naturalWidth > 0;
}"""
pytestmark = pytest.mark.e2e

DECIDED = re.compile(r"^(auto_approved|needs_review|resubmission_requested)$")
SETTLED = re.compile(r"^(auto_approved|needs_review|resubmission_requested|approved|rejected|failed)$")
# The worker reads documents one page of OCR at a time on a small shared CPU machine.
PROCESSING_TIMEOUT_MS = 240_000
# Records every status each upload row shows, so the test can tell the status really changed live.
_RECORD_STATUSES = """() => {
  window.seenStatuses = {};
  const record = () => {
    for (const row of document.querySelectorAll(".upload-item")) {
      const status = row.querySelector(".status").dataset.status;
      const seen = (window.seenStatuses[row.dataset.file] ||= []);
      if (seen[seen.length - 1] !== status) seen.push(status);
    }
  };
  new MutationObserver(record).observe(document.getElementById("upload-list"),
    {subtree: true, childList: true, attributes: true, characterData: true});
}"""
_DROP_FILE = """([name, type, encoded]) => {
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], name, {type}));
  const zone = document.getElementById("dropzone");
  for (const kind of ["dragenter", "dragover", "drop"]) {
    zone.dispatchEvent(new DragEvent(kind, {bubbles: true, cancelable: true, dataTransfer: transfer}));
  }
}"""


@pytest.fixture
def acme(transactional_db):  # type: ignore[no-untyped-def]
    from apps.tenants.services import tenant_create

    return tenant_create(name="Acme Bank")


@pytest.fixture
def olivia(acme, django_user_model):  # type: ignore[no-untyped-def]
    return member(acme, username="olivia", role="operator")


def _row(page, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f'.upload-item[data-file="{name}"]')


@pytest.mark.integration
def test_operator_uploads_files_watches_them_get_decided_and_opens_the_result(
    celery_worker_process, new_page, olivia, tmp_path
):
    page = new_page()
    log_in(page, "olivia")
    expect(page.locator("h1")).to_have_text("Documents")
    page.get_by_role("link", name="Upload", exact=True).click()
    expect(page.locator("#upload-form")).to_have_class(re.compile(r"\benhanced\b"))
    screenshot(page, "01-upload-page")

    notes = tmp_path / "notes.txt"
    notes.write_text("minutes of the meeting: not a document we read")
    bundle = tmp_path / "more-scans.zip"
    blank = io.BytesIO()  # a blank scan: cheap; no capture check fails on it, it is read and decided
    Image.new("RGB", (600, 400), "white").save(blank, format="PNG")
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.writestr("blank-page.png", blank.getvalue())
        archive.writestr("readme.txt", "scanned on the third floor")
    page.evaluate(_RECORD_STATUSES)
    page.set_input_files("#id_file", [SAMPLES / "00000-passport.jpg", notes, bundle])
    receipt = SAMPLES / "00005-receipt.jpg"
    page.evaluate(_DROP_FILE, [receipt.name, "image/jpeg", base64.b64encode(receipt.read_bytes()).decode()])

    # Refusals are immediate and say why, per file and per zip member.
    for refused in ("notes.txt", "more-scans.zip/readme.txt"):
        expect(_row(page, refused)).to_have_attribute("data-refusal", "unsupported_file_type")
        expect(_row(page, refused)).to_contain_text("unsupported file type")
    expect(_row(page, "more-scans.zip")).to_contain_text("1 document, 1 file refused")
    expect(_row(page, "00000-passport.jpg").locator(".open a")).to_be_visible()
    screenshot(page, "02-upload-in-progress")

    documents = ("00000-passport.jpg", "00005-receipt.jpg", "more-scans.zip/blank-page.png")
    for name in documents:
        status = _row(page, name).locator(".status")
        expect(status).to_have_attribute("data-status", SETTLED, timeout=PROCESSING_TIMEOUT_MS)
        expect(status).to_have_attribute("data-status", DECIDED, timeout=1)  # decided, not failed
    expect(page.locator("#queue-summary")).to_contain_text("3 of 3 documents decided")
    screenshot(page, "03-upload-decided")
    seen = page.evaluate("window.seenStatuses")
    for name in documents:  # each row showed the pipeline's states live before the decision
        assert {"queued", "processing", "extracted"} & set(seen[name]), seen[name]
        assert DECIDED.match(seen[name][-1]), seen[name]

    # The passport: page image, boxes over the MRZ fields, the field table and the MRZ checks.
    _row(page, "00000-passport.jpg").locator(".open a").click()
    expect(page).to_have_url(re.compile(r"/documents/[0-9a-f-]{36}/$"))
    expect(page.locator("#document-type")).to_have_text("Passport")
    image = page.locator(".page-canvas img").first
    expect(image).to_be_visible()
    page.wait_for_function(PAGE_IMAGE_LOADED)
    truth = json.loads((SAMPLES / "truth.json").read_text())["00000-passport.jpg"]["fields"]
    for name, value in truth.items():  # every field the sample holds, read and shown
        expect(page.locator(f'#fields tr[data-field="{name}"] .value')).to_have_text(value)
    boxed = page.locator("#fields tr[data-has-box]").count()
    assert boxed >= len(truth) - 1
    expect(page.locator(".page-canvas .box")).to_have_count(boxed)
    surname = page.locator('#fields tr[data-field="surname"]')
    expect(page.locator('[data-check="mrz_check_digits"]')).to_have_class(re.compile("check-pass"))
    expect(page.locator("#history")).to_contain_text("Uploaded")
    surname.hover()
    expect(page.locator('.box[data-field="surname"]')).to_have_class(re.compile(r"\bis-active\b"))
    page.mouse.move(0, 0)
    page.keyboard.press("j")
    expect(page.locator("#fields tbody tr").first).to_have_class(re.compile(r"\bis-active\b"))
    screenshot(page, "04-document-passport")

    served = page.request.get(image.get_attribute("src") or "")
    assert served.status == 200 and served.headers["content-type"] == "image/jpeg"
    assert "no-store" in served.headers["cache-control"]

    # The list, filtered by type, leads to the receipt.
    page.get_by_role("link", name="Documents", exact=True).click()
    expect(page.locator("#documents tbody tr")).to_have_count(3)
    screenshot(page, "05-documents-list")
    page.select_option("#id_document_type", "receipt")  # applies at once
    expect(page.locator("#documents tbody tr")).to_have_count(1)
    page.locator("#documents tbody tr").first.locator("a").click()
    expect(page.locator("#document-type")).to_have_text("Receipt")
    expect(page.locator('[data-check="totals_arithmetic"]')).to_be_visible()
    page.wait_for_function(PAGE_IMAGE_LOADED)
    screenshot(page, "06-document-receipt")


def test_another_tenants_operator_and_anonymous_visitors_get_404(new_page, acme, olivia, django_user_model):
    from apps.tenants.services import tenant_create

    member(tenant_create(name="Globex Credit"), username="oscar", role="operator")
    document = make_read_document(acme)
    detail = f"/documents/{document.pk}/"
    image = f"/documents/{document.pk}/pages/1.png"
    crop = f"/documents/{document.pk}/fields/surname/crop.png"

    owner = new_page()
    log_in(owner, "olivia")
    assert owner.goto(detail).status == 200
    expect(owner.locator(".page-canvas .box")).to_have_count(2)
    assert owner.request.get(image).status == 200 and owner.request.get(crop).status == 200

    stranger = new_page()
    log_in(stranger, "oscar")
    expect(stranger.locator("#documents")).to_have_count(0)  # nothing of Acme's in Globex's list
    assert stranger.goto(detail).status == 404
    expect(stranger.locator("#not-found")).to_be_visible()
    screenshot(stranger, "07-other-tenant-404")
    for url in (image, crop, f"/documents/{document.pk}/result.json"):
        assert stranger.request.get(url).status == 404, url

    anonymous = new_page()
    for url in (image, crop):
        response = anonymous.request.get(url, max_redirects=0)
        assert response.status == 404, url
        assert io.BytesIO(response.body()).read(8) != b"\x89PNG\r\n\x1a\n"
