"""Who may call which REST operation: roles for members, scopes for API keys (issue 48, item 9).

GIVEN every operation of /api/v1, read from the URLconf (not from the table, so that a new endpoint
without a declared role fails here), WHEN a member one role below the one ``ACCESS`` names and a
key holding every scope but the one it names call it, THEN both are refused with 403 before the
view runs; a member with exactly that role and a key with only that scope get past the check (to
the view's own 400/404/415). Also: an uploader can neither define a document type nor open a case;
``create_api_key --scopes`` and ``api_key_scopes`` give a key what it may do, and keys made before
scopes keep what an integration did, less ``types:admin``.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.core.management import CommandError, call_command
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter, UUIDConverter
from rest_framework.test import APIClient

from apps.api.permissions import ACCESS, PUBLIC, ROLE_ORDER, access_for
from apps.tenants.models import DEFAULT_API_SCOPES, ApiKey, ApiScope
from apps.tenants.services import api_key_create
from tests.factories import api_key_client, member_client
from tests.support.payslip import PAYSLIP_SCHEMA

pytestmark = pytest.mark.django_db
HANDLERS = ("get", "post", "put", "patch", "delete")


def _api_patterns(patterns: list[Any], namespace: str = "") -> list[tuple[str, URLPattern]]:
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}:{pattern.namespace}".strip(":") if pattern.namespace else namespace
            found += _api_patterns(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name and namespace == "api":
            found.append((f"api:{pattern.name}", pattern))
    return found


API_PATTERNS = dict(_api_patterns(get_resolver().url_patterns))


def _operations() -> list[tuple[str, str]]:
    """Every (URL name, method) the API's views handle, from the URLconf."""
    operations = []
    for name, pattern in API_PATTERNS.items():
        if name in PUBLIC:
            continue
        view = pattern.callback.cls  # type: ignore[attr-defined]
        operations += [(name, m.upper()) for m in HANDLERS if hasattr(view, m)]
    return sorted(operations)


OPERATIONS = _operations()


def _url(name: str) -> str:
    """The URL with made-up arguments: no object exists, so a caller let through gets a 404 (or
    the view's 400), never the object."""
    values = {}
    for argument, converter in API_PATTERNS[name].pattern.converters.items():  # type: ignore[attr-defined]
        if isinstance(converter, UUIDConverter):
            values[argument] = uuid.uuid4()
        elif isinstance(converter, IntConverter):
            values[argument] = 1
        else:
            values[argument] = "no_such_thing"
    return reverse(name, kwargs=values)


def _call(client: APIClient, name: str, method: str) -> Any:
    return getattr(client, method.lower())(_url(name), {}, format="multipart" if method == "POST" else None)


def test_every_api_operation_in_the_urlconf_declares_a_role_and_a_scope():
    undeclared = [op for op in OPERATIONS if access_for(*op) is None]
    assert not undeclared, f"add these operations to apps.api.permissions.ACCESS: {undeclared}"
    stale = {(n, m) for n, methods in ACCESS.items() for m in methods} - set(OPERATIONS)
    assert not stale, f"ACCESS names operations the URLconf does not have: {sorted(stale)}"


@pytest.mark.parametrize(("name", "method"), OPERATIONS)
def test_a_member_below_the_role_and_a_key_without_the_scope_are_refused(
    name, method, tenant, django_user_model
):
    access = access_for(name, method)
    assert access is not None
    least = ROLE_ORDER.index(access.role)
    for role in ROLE_ORDER:
        response = _call(member_client(tenant, username=f"member-{role}", role=role), name, method)
        if ROLE_ORDER.index(role) < least:
            assert response.status_code == 403, (role, response.status_code)
            assert response.json()["code"] == "insufficient_role"
        else:
            assert response.status_code != 403, (role, response.content[:200])

    under_scoped = _call(
        api_key_client(tenant, name="scoped", scopes=[s for s in ApiScope.values if s != access.scope]),
        name,
        method,
    )
    assert under_scoped.status_code == 403 and under_scoped.json()["code"] == "insufficient_scope"
    just_enough = _call(api_key_client(tenant, name="scoped", scopes=[access.scope]), name, method)
    assert just_enough.status_code != 403, just_enough.content[:200]


def test_an_uploader_can_upload_and_read_but_not_define_types_or_open_cases(tenant, django_user_model):
    uploader = member_client(tenant, username="member-uploader", role="uploader")
    assert uploader.get("/api/v1/documents").status_code == 200
    assert uploader.get("/api/v1/document-types").status_code == 200
    body = {"name": "payslip", "description": "A monthly payslip", "schema": PAYSLIP_SCHEMA}
    defined = uploader.post("/api/v1/document-types", body, format="json")
    assert defined.status_code == 403 and defined.json()["code"] == "insufficient_role"
    case = uploader.post("/api/v1/cases", {"external_reference": "A-1"}, format="multipart")
    assert case.status_code == 403
    admin = member_client(tenant, username="member-admin", role="admin")
    assert admin.post("/api/v1/document-types", body, format="json").status_code == 201


def test_a_default_key_integrates_but_does_not_configure_the_tenant(tenant):
    key = api_key_client(tenant, name="scoped", scopes=list(DEFAULT_API_SCOPES))
    assert key.get("/api/v1/documents").status_code == 200
    body = {"name": "payslip", "description": "A monthly payslip", "schema": PAYSLIP_SCHEMA}
    refused = key.post("/api/v1/document-types", body, format="json")
    assert refused.status_code == 403 and "types:admin" in refused.json()["message"]
    assert ApiScope.TYPES_ADMIN not in DEFAULT_API_SCOPES


def test_create_api_key_takes_scopes_and_refuses_unknown_ones(tenant, capsys):
    call_command("create_api_key", "--tenant", tenant.name, "--name", "reader", "--scopes", "documents:read")
    raw = capsys.readouterr().out.strip().splitlines()[-1]
    assert ApiKey.objects.get(tenant=tenant, name="reader").scopes == ["documents:read"]
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    assert reader.get("/api/v1/documents").status_code == 200
    upload = reader.post("/api/v1/documents", {}, format="multipart")
    assert upload.status_code == 403 and upload.json()["code"] == "insufficient_scope"
    with pytest.raises(CommandError, match="unknown scopes: documents:delete"):
        call_command("create_api_key", "--tenant", tenant.name, "--scopes", "documents:read,documents:delete")
    call_command("create_api_key", "--tenant", tenant.name, "--name", "plain")
    assert ApiKey.objects.get(tenant=tenant, name="plain").scopes == list(DEFAULT_API_SCOPES)


def test_api_key_scopes_adds_and_removes_scopes_of_an_existing_key(tenant, capsys):
    new = api_key_create(tenant=tenant, name="erp")
    call_command("api_key_scopes", new.api_key.prefix, "--add", "types:admin", "--remove", "cases:write")
    new.api_key.refresh_from_db()
    assert "types:admin" in new.api_key.scopes and "cases:write" not in new.api_key.scopes
    assert "types:admin" in capsys.readouterr().out
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {new.raw_key}")
    body = {"name": "payslip", "description": "A monthly payslip", "schema": PAYSLIP_SCHEMA}
    assert client.post("/api/v1/document-types", body, format="json").status_code == 201


def test_keys_made_before_scopes_keep_an_integrations_scopes_without_types_admin(tenant):
    import importlib

    migration = importlib.import_module("apps.tenants.migrations.0005_api_scopes")
    old = api_key_create(tenant=tenant, name="from-before", scopes=[]).api_key
    migration._earlier_keys_keep_their_integration_scopes(django_apps, None)
    old.refresh_from_db()
    assert old.scopes == list(DEFAULT_API_SCOPES) == migration.SCOPES_OF_EARLIER_KEYS
    assert "types:admin" not in old.scopes


def test_the_api_page_shows_every_row_of_the_table():
    page = (Path(__file__).resolve().parents[3] / "docs" / "api.md").read_text()
    for name, methods in ACCESS.items():
        path = "/api/v1/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(API_PATTERNS[name].pattern))
        for method, access in methods.items():
            row = f"| `{method} {path}` | {access.role} | `{access.scope}` |"
            assert row in page, f"docs/api.md lacks: {row}"


def test_the_schema_states_each_operations_role_and_scope():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = [op for path in schema["paths"].values() for op in path.values()]
    assert operations
    for operation in operations:
        assert operation["x-docintel-role"] in ROLE_ORDER, operation["operationId"]
        assert operation["x-docintel-scope"] in ApiScope.values, operation["operationId"]
        assert f"`{operation['x-docintel-scope']}`" in operation["description"]
    create_type = next(op for op in operations if op["operationId"] == "document_types_create")
    assert (create_type["x-docintel-role"], create_type["x-docintel-scope"]) == ("admin", "types:admin")
