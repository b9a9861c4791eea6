"""The capture gate lets good pages through on the real stack (issue 47, item 4).

GIVEN a Triton server and a Celery worker process (session fixtures), WHEN an operator uploads
pages the gate used to send back wrongly (a utility bill with a coloured heading band and ruled
lines, scanned into an image-only PDF and photographed; a digital invoice with a blank last page;
a receipt scan cropped to its paper, generated and, where ../shared/realdata is present, a real
SROIE one), THEN every one is read and decided (auto_approved or needs_review), none is sent back
for a new photo. The inputs are drawn here (tests/support/capture_pages.py); no real data is committed.
"""

from __future__ import annotations

import pytest

from apps.documents.models import DocumentStatus as S
from tests.conftest import REALDATA
from tests.support.capture_pages import (
    as_photo,
    as_scan,
    digital_invoice_with_blank_last_page,
    encode_jpeg,
    image_pdf,
    receipt_cropped_to_paper,
    utility_bill,
)
from tests.support.live_stack import wait_until_settled, web_upload

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
READ = {S.AUTO_APPROVED, S.NEEDS_REVIEW}
# SROIE receipts the old gate sent back as "cropped": scans cropped to the paper, whole (a fourth
# it sent back, X51007103599, does have its logo and the top of its address cut by the frame)
SROIE_CROPPED_TO_PAPER = ("sroie_X51005447853.jpg", "sroie_X51005719883.jpg", "sroie_X51006557184.jpg")


@pytest.fixture
def worker(celery_worker_process):
    return celery_worker_process


def _inputs() -> dict[str, bytes]:
    bill = utility_bill()
    return {
        "bill-scan.pdf": image_pdf([as_scan(bill)]),
        "bill-photo.jpg": encode_jpeg(as_photo(bill)),
        "invoice-blank-last-page.pdf": digital_invoice_with_blank_last_page(),
        "receipt-cropped-to-paper.jpg": encode_jpeg(receipt_cropped_to_paper()),
    }


@pytest.mark.parametrize("name", sorted(_inputs()))
def test_a_good_page_is_read_not_sent_back(worker, operator_client, name):
    document = wait_until_settled(web_upload(operator_client, _inputs()[name], name), timeout_s=180)
    failed = [c["detail"] for c in document.page_checks if c.get("kind") == "capture" and not c["passed"]]
    assert document.status in READ, (document.status, document.error_code, failed)
    assert not failed


@pytest.mark.parametrize("name", SROIE_CROPPED_TO_PAPER)
def test_a_real_receipt_scan_cropped_to_its_paper_is_read(worker, operator_client, name):
    path = REALDATA / "receipts_sroie" / name
    if not path.exists():
        pytest.skip("../shared/realdata/receipts_sroie is not beside the checkout")
    document = wait_until_settled(web_upload(operator_client, path.read_bytes(), name), timeout_s=180)
    failed = [c["detail"] for c in document.page_checks if c.get("kind") == "capture" and not c["passed"]]
    assert document.status in READ, (document.status, document.error_code, failed)
