"""A tenant's webhook secret is encrypted at rest under the master key, and rotates with it
(issue 48, item 8). Real PostgreSQL: the tenant's row is read as stored.

GIVEN a tenant WHEN its row is read straight from the database THEN the secret that
``manage.py webhook_secret`` prints (and deliveries are signed with) is nowhere in it, and the
sealed value does not open as another tenant's.
GIVEN secrets sealed under an old master key WHEN ``manage.py rotate_keys`` runs with a new key
THEN each is re-sealed under the new key alone, unchanged, and a secret no configured key opens
makes the command fail.
GIVEN a database with plaintext secrets (the schema before) WHEN the migration runs THEN each is
sealed, and migrating back opens them again.
"""

from __future__ import annotations

import base64
import os

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from apps.documents import crypto
from apps.tenants.models import Tenant
from apps.tenants.services import tenant_create, tenant_webhook_secret_rotate
from apps.tenants.webhook_secrets import webhook_secret_of, webhook_secret_open

BEFORE = ("tenants", "0003_tenant_retention_days")
SEALED = ("tenants", "0004_webhook_secret_encrypted")


def _key() -> str:
    return base64.b64encode(os.urandom(32)).decode()


def _printed_secret(name: str, capsys) -> str:
    call_command("webhook_secret", "--tenant", name)
    return capsys.readouterr().out.strip().splitlines()[-1]


def _stored_row(tenant_id) -> bytes:
    """Every column of the tenant's row as the database holds it, as bytes."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM tenants_tenant WHERE id = %s", [tenant_id])
        row = cursor.fetchone()
    return b"|".join(bytes(value) if isinstance(value, memoryview) else str(value).encode() for value in row)


@pytest.mark.django_db
def test_the_stored_row_holds_no_webhook_secret_and_its_seal_is_bound_to_the_tenant(
    tenant, other_tenant, capsys
):
    secret = _printed_secret(tenant.name, capsys)
    assert len(secret) == 64
    stored = _stored_row(tenant.pk)
    assert secret.encode() not in stored and bytes.fromhex(secret) not in stored
    assert webhook_secret_of(tenant=Tenant.objects.get(pk=tenant.pk)) == secret

    sealed = bytes(Tenant.objects.get(pk=tenant.pk).webhook_secret_encrypted)
    with pytest.raises(crypto.DecryptionError):
        webhook_secret_open(tenant_id=other_tenant.pk, sealed=sealed)  # copied onto another tenant

    rotated = tenant_webhook_secret_rotate(tenant=tenant)
    assert webhook_secret_of(tenant=rotated) == _printed_secret(tenant.name, capsys) != secret


@pytest.mark.django_db
def test_rotate_keys_reseals_webhook_secrets_under_the_new_master_key(settings, capsys):
    old, new = _key(), _key()
    settings.DOCINTEL_MASTER_KEY, settings.DOCINTEL_OLD_MASTER_KEYS = old, []
    tenants = [tenant_create(name=f"Bank {i}") for i in range(2)]
    secrets = {t.pk: webhook_secret_of(tenant=t) for t in tenants}
    sealed_before = {t.pk: bytes(t.webhook_secret_encrypted) for t in tenants}

    settings.DOCINTEL_MASTER_KEY, settings.DOCINTEL_OLD_MASTER_KEYS = new, [old]
    call_command("rotate_keys")
    assert "re-wrapped 2 webhook secrets" in capsys.readouterr().out

    settings.DOCINTEL_OLD_MASTER_KEYS = []  # the old key is gone
    for tenant in Tenant.objects.filter(pk__in=secrets):
        assert bytes(tenant.webhook_secret_encrypted) != sealed_before[tenant.pk]
        assert webhook_secret_of(tenant=tenant) == secrets[tenant.pk]
    settings.DOCINTEL_MASTER_KEY = old
    with pytest.raises(crypto.DecryptionError):
        webhook_secret_of(tenant=Tenant.objects.get(pk=tenants[0].pk))
    with pytest.raises(CommandError, match="2 tenants have a webhook secret no configured master key"):
        call_command("rotate_keys")


@pytest.mark.django_db(transaction=True)
def test_the_migration_seals_plaintext_secrets_and_going_back_opens_them():
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([BEFORE])
        before = executor.loader.project_state([BEFORE]).apps.get_model("tenants", "Tenant")
        before.objects.create(name="Old Bank", webhook_secret="ab" * 32)

        executor = MigrationExecutor(connection)
        executor.migrate([SEALED])
        sealed = executor.loader.project_state([SEALED]).apps.get_model("tenants", "Tenant")
        tenant = sealed.objects.get(name="Old Bank")
        assert b"ab" * 32 not in bytes(tenant.webhook_secret_encrypted)
        assert webhook_secret_open(tenant_id=tenant.pk, sealed=bytes(tenant.webhook_secret_encrypted)) == (
            "ab" * 32,
            0,
        )

        executor = MigrationExecutor(connection)
        executor.migrate([BEFORE])
        assert before.objects.get(name="Old Bank").webhook_secret == "ab" * 32
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
