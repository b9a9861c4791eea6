"""Downloads: only through authorised views, as attachments the browser never sniffs or caches,
and a batch's export links expire.

GIVEN a tenant's document in a batch WHEN its original, a page, or the batch's exports are
downloaded THEN each answer is ``Content-Disposition: attachment``, ``X-Content-Type-Options:
nosniff`` and ``Cache-Control: private, no-store``; the export links in the batch open without a
key until they expire, and any change to them (path, tenant, expiry, signature) refuses them.
"""

from __future__ import annotations

import io
import time
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from apps.api.signed_urls import signed_url_make
from apps.batches.models import Batch, BatchDocument
from apps.documents import blobs
from apps.documents.models import Document
from apps.tenants.services import api_key_create, tenant_create
from tests.support.review_documents import document_for_review, passport_page_png

pytestmark = pytest.mark.django_db


@pytest.fixture
def batch(tenant):
    document = document_for_review(tenant, name="passport.jpg")
    blobs.blob_write(document=document, name=document.blob_name, plaintext=passport_page_png())
    batch = Batch.objects.create(tenant=tenant)
    BatchDocument.objects.create(batch=batch, document=document, position=0, file="passport.jpg")
    return batch


@pytest.fixture
def api(tenant) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {api_key_create(tenant=tenant, name='t').raw_key}")
    return client


def _assert_download(response, filename: str) -> None:
    assert response.status_code == 200
    assert (
        response["Content-Disposition"].startswith("attachment")
        and filename in response["Content-Disposition"]
    )
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


def _path_and_query(url: str) -> tuple[str, dict[str, str]]:
    parts = urlsplit(url)
    return parts.path, {k: v[0] for k, v in parse_qs(parts.query).items()}


def test_api_downloads_are_private_attachments(api, batch):
    document = batch.items.get().document
    _assert_download(api.get(f"/api/v1/documents/{document.pk}/original"), "passport.jpg")
    page = api.get(f"/api/v1/documents/{document.pk}/pages/1")
    _assert_download(page, "page-1.png")
    assert page["Content-Type"] == "image/png"
    _assert_download(api.get(f"/api/v1/batches/{batch.pk}/results.csv"), f"batch-{batch.pk}.csv")


def test_page_images_of_the_web_pages_are_never_sniffed_or_cached(operator_client, batch):
    document = batch.items.get().document
    response = operator_client.get(reverse("ingestion:page_image", args=[document.pk, 1]))
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response["X-Content-Type-Options"] == "nosniff" and "no-store" in response["Cache-Control"]


def test_a_batchs_export_links_open_without_a_key_until_they_expire(api, batch, settings):
    exports = api.get(f"/api/v1/batches/{batch.pk}").json()["exports"]
    anonymous = Client()
    for kind, url in exports.items():
        path, query = _path_and_query(url)
        assert set(query) == {"tenant", "expires", "signature"}
        assert 0 < int(query["expires"]) - time.time() <= settings.DOCINTEL_SIGNED_URL_TTL_S
        response = anonymous.get(path, query)
        _assert_download(response, f"batch-{batch.pk}.{kind}")
        assert (
            b"passport.jpg" in b"".join(response) if kind == "jsonl" else b"passport.jpg" in response.content
        )
    assert anonymous.get(_path_and_query(exports["csv"])[0]).status_code == 401  # the bare path needs a key


def test_an_expired_or_altered_link_is_refused(tenant, batch):
    csv_path = f"/api/v1/batches/{batch.pk}/results.csv"
    jsonl_path = f"/api/v1/batches/{batch.pk}/results.jsonl"
    anonymous = Client()

    def query(url: str) -> dict[str, str]:
        return _path_and_query(url)[1]

    expired = query(signed_url_make(path=csv_path, tenant=tenant, ttl_s=60, now=time.time() - 120))
    valid = query(signed_url_make(path=csv_path, tenant=tenant))
    other = tenant_create(name="Other Bank")
    other_batch = Batch.objects.create(tenant=other)
    cases = {
        "expired": (csv_path, expired),
        "later expiry": (csv_path, {**valid, "expires": str(int(valid["expires"]) + 3600)}),
        "another tenant": (csv_path, {**valid, "tenant": str(other.pk)}),
        "another path": (jsonl_path, valid),
        "another batch": (f"/api/v1/batches/{other_batch.pk}/results.csv", valid),
        "flipped signature": (csv_path, {**valid, "signature": valid["signature"][::-1]}),
        "no tenant": (csv_path, {k: v for k, v in valid.items() if k != "tenant"}),
        "malformed tenant": (csv_path, {**valid, "tenant": "x"}),
    }
    for case, (path, params) in cases.items():
        response = anonymous.get(f"{path}?{urlencode(params)}")
        assert response.status_code == 401, case
        assert b"passport.jpg" not in response.content, case
    assert anonymous.get(f"{csv_path}?{urlencode(valid)}").status_code == 200  # the control


def test_a_link_does_not_open_another_tenants_batch_even_when_signed_for_its_path(tenant, batch):
    """A link names its tenant: a signature made for another tenant's batch path (which the server
    never issues) still finds no batch of that tenant there."""
    intruder = tenant_create(name="Intruder")
    path = f"/api/v1/batches/{batch.pk}/results.csv"
    response = Client().get(signed_url_make(path=path, tenant=intruder))
    assert response.status_code == 404 and b"passport.jpg" not in response.content


def test_a_signed_link_cannot_write(tenant):
    url = signed_url_make(path="/api/v1/documents", tenant=tenant)
    upload = io.BytesIO(passport_page_png())
    upload.name = "p.png"
    response = Client().post(url, {"file": upload})
    assert response.status_code in {401, 403}
    assert not Document.objects.exists()
