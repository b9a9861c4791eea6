# The outage a document is waiting out (issue 48): apps.documents.unavailability.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0005_field_evidence"),
    ]

    operations = [
        migrations.AddField(
            model_name="document",
            name="unavailable_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="document",
            name="unavailable_reason",
            field=models.CharField(blank=True, max_length=32),
        ),
    ]
