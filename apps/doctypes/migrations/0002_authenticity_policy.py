# A tenant's authenticity policy: the document types that get the advisory authenticity signals.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("doctypes", "0001_initial"),
        ("tenants", "0006_sso"),
    ]

    operations = [
        migrations.CreateModel(
            name="AuthenticityPolicy",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "document_types",
                    models.JSONField(
                        blank=True,
                        default=list,
                        help_text='document types, built-in or the tenant\'s own: ["passport", "id_card", '
                        '"receipt"]; an empty list turns the signals off for the tenant',
                    ),
                ),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "tenant",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="authenticity_policy",
                        to="tenants.tenant",
                    ),
                ),
            ],
            options={"verbose_name_plural": "authenticity policies"},
        ),
    ]
