"""API keys get scopes (issue 48). The keys made before keep what an integration did with them —
upload, read results, open cases, read the tenant's document types — and may read and redrive its
own undelivered webhooks (new in the same release); they lose what configures the tenant (defining
document types: ``types:admin``), which now has to be granted on purpose
(``manage.py api_key_scopes PREFIX --add types:admin``; docs/security.md "Roles and API scopes")."""

from django.db import migrations, models

import apps.tenants.models

# Frozen here, not read from the model: what a key made before scopes existed receives.
SCOPES_OF_EARLIER_KEYS = [
    "documents:read",
    "documents:write",
    "cases:read",
    "cases:write",
    "types:read",
    "webhooks:read",
    "webhooks:write",
]


def _earlier_keys_keep_their_integration_scopes(apps, schema_editor):
    ApiKey = apps.get_model("tenants", "ApiKey")
    ApiKey.objects.update(scopes=SCOPES_OF_EARLIER_KEYS)


class Migration(migrations.Migration):
    dependencies = [
        ("tenants", "0004_webhook_secret_encrypted"),
    ]

    operations = [
        migrations.AddField(
            model_name="apikey",
            name="scopes",
            field=models.JSONField(default=apps.tenants.models.default_api_scopes),
        ),
        migrations.RunPython(_earlier_keys_keep_their_integration_scopes, migrations.RunPython.noop),
    ]
