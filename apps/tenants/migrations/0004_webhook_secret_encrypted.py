"""Tenants' webhook secrets encrypted at rest (issue 48): each secret is sealed under the master key
(``apps.tenants.webhook_secrets``) and the plaintext column dropped. Reversible: going back opens
every secret into the plaintext column again (the master key it was sealed under must be
configured)."""

from django.db import migrations, models

from apps.tenants.webhook_secrets import webhook_secret_open, webhook_secret_seal


def _seal_every_secret(apps, schema_editor):
    Tenant = apps.get_model("tenants", "Tenant")
    for tenant in Tenant.objects.all():
        tenant.webhook_secret_encrypted = webhook_secret_seal(
            tenant_id=tenant.pk, secret=tenant.webhook_secret
        )
        tenant.save(update_fields=["webhook_secret_encrypted"])


def _open_every_secret(apps, schema_editor):
    Tenant = apps.get_model("tenants", "Tenant")
    for tenant in Tenant.objects.all():
        secret, _ = webhook_secret_open(tenant_id=tenant.pk, sealed=bytes(tenant.webhook_secret_encrypted))
        tenant.webhook_secret = secret
        tenant.save(update_fields=["webhook_secret"])


class Migration(migrations.Migration):
    dependencies = [
        ("tenants", "0003_tenant_retention_days"),
    ]

    operations = [
        migrations.AddField(
            model_name="tenant",
            name="webhook_secret_encrypted",
            field=models.BinaryField(default=b""),
            preserve_default=False,
        ),
        migrations.RunPython(_seal_every_secret, _open_every_secret),
        migrations.RemoveField(model_name="tenant", name="webhook_secret"),
    ]
