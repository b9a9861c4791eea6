"""The hostile corpus through the real upload endpoint and the prepare step, in process.

GIVEN each file of ``tests.hostile.corpus``
WHEN it is posted to ``/api/v1/documents`` (zips to ``/api/v1/batches``) and, if accepted, prepared
THEN it is refused with its status and code and nothing is stored, or it ends FAILED with its code,
within a time bound. The same corpus runs through the real worker in
``tests/integration/test_hostile_corpus.py``, which also measures the worker's memory.
"""

from __future__ import annotations

import time

import pytest

from apps.documents.models import Document
from apps.documents.models import DocumentStatus as S
from apps.documents.pipeline import document_prepare
from tests.hostile.corpus import CORPUS, Fails, Hostile, Refused
from tests.support.uploads import upload

pytestmark = pytest.mark.django_db
# Generous for a shared 2-core machine; the slowest file (a decompression bomb) takes about 0.3 s.
PREPARE_BOUND_S = 10.0


def post(api, hostile: Hostile):
    if hostile.batch:
        return api.post(
            "/api/v1/batches", {"files": [upload(hostile.content, hostile.name)]}, format="multipart"
        )
    return api.post("/api/v1/documents", {"file": upload(hostile.content, hostile.name)}, format="multipart")


@pytest.mark.parametrize(
    "hostile", [h for h in CORPUS if isinstance(h.expected, Refused)], ids=lambda h: h.name
)
def test_hostile_file_is_refused_at_upload_with_its_code(api, hostile):
    response = post(api, hostile)
    assert (response.status_code, response.json()["code"]) == (hostile.expected.status, hostile.expected.code)
    assert not Document.objects.exists()


@pytest.mark.parametrize(
    "hostile", [h for h in CORPUS if isinstance(h.expected, Fails)], ids=lambda h: h.name
)
def test_hostile_file_accepted_at_upload_fails_in_prepare_with_its_code(api, hostile):
    response = post(api, hostile)
    assert response.status_code == 202, response.json()
    started = time.monotonic()
    document_prepare(document_id=response.json()["id"])
    elapsed = time.monotonic() - started
    document = Document.objects.get(pk=response.json()["id"])
    assert isinstance(hostile.expected, Fails)
    assert (document.status, document.error_code) == (S.FAILED, hostile.expected.code)
    assert document.error_message and not document.pages.exists()
    assert elapsed < PREPARE_BOUND_S
