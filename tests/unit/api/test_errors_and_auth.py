"""Authentication by API key, and errors that are always JSON with a code and a message."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from apps.tenants.models import ApiKey
from apps.tenants.selectors import api_key_hash

pytestmark = pytest.mark.django_db


def test_no_key_is_401_with_the_scheme_named():
    response = APIClient().get("/api/v1/documents")
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"
    assert response["WWW-Authenticate"].startswith("Api-Key")


def test_a_wrong_or_revoked_key_is_401(api_key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Api-Key dik_nothing_here")
    assert client.get("/api/v1/documents").json()["code"] == "authentication_failed"
    call_command("revoke_api_key", api_key.split("_")[1])
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {api_key}")
    assert client.get("/api/v1/documents").status_code == 401


def test_create_api_key_prints_the_key_once_on_its_last_line_and_stores_only_its_hash(tenant, capsys):
    call_command("create_api_key", "--tenant", tenant.name, "--name", "erp")
    key = capsys.readouterr().out.strip().splitlines()[-1]
    stored = ApiKey.objects.get(tenant=tenant, name="erp")
    assert key.startswith(f"dik_{stored.prefix}_") and stored.key_hash == api_key_hash(key)
    assert key not in {v for v in stored.__dict__.values() if isinstance(v, str)}
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {key}")
    assert client.get("/api/v1/documents").status_code == 200
    stored.refresh_from_db()
    assert stored.last_used_at is not None


def test_a_logged_in_operator_uses_the_api_for_their_tenant(operator_client):
    assert operator_client.get("/api/v1/documents").status_code == 200


def test_unknown_paths_methods_and_media_types_are_json(api):
    missing = api.get("/api/v1/nothing-here")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert api.get("/api/v1/documents/not-a-uuid").json()["code"] == "not_found"
    method = api.delete("/api/v1/documents")
    assert method.status_code == 405 and method.json()["code"] == "method_not_allowed"
    media = api.post("/api/v1/documents", {"file": "x"}, format="json")
    assert media.status_code == 415 and media.json()["code"] == "unsupported_media_type"


def test_rate_limit_answers_429_with_retry_after(api, settings):
    settings.DOCINTEL_API_RATE_LIMIT = "3/min"
    statuses = [api.get("/api/v1/documents").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    limited = api.get("/api/v1/documents")
    assert limited.json()["code"] == "rate_limited" and 1 <= int(limited["Retry-After"]) <= 60


def test_a_key_with_its_own_rate_limit(tenant, settings):
    from apps.tenants.services import api_key_create

    settings.DOCINTEL_API_RATE_LIMIT = "1000/min"
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Api-Key {api_key_create(tenant=tenant, name='slow', rate_limit='1/h').raw_key}"
    )
    assert [client.get("/api/v1/documents").status_code for _ in range(2)] == [200, 429]


def test_schema_and_docs_are_served_without_a_cdn(client):
    schema = client.get("/api/v1/schema", {"format": "json"})
    assert schema.status_code == 200 and schema.json()["openapi"].startswith("3.")
    assert "/api/v1/documents" in schema.json()["paths"]
    docs = client.get("/api/v1/docs")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist" in html and "cdn" not in html.lower()
    bundle = html.split('src="')[1].split('"')[0]
    assert client.get(bundle).status_code == 200


def test_openapi_document_validates():
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")


def test_the_schema_documents_each_fields_evidence_as_the_known_kinds():
    from drf_spectacular.generators import SchemaGenerator

    from engines.evidence import RULES

    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    evidence = schemas["FieldResult"]["properties"]["evidence"]
    assert evidence["type"] == "array" and "evidence" in schemas["FieldResult"]["required"]
    kinds = schemas[evidence["items"]["$ref"].rsplit("/", 1)[1]]
    assert kinds["enum"] == list(RULES.kinds)
    assert RULES.kinds["grounded"].means in kinds["description"]  # each kind says what it means
