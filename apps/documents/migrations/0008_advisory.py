# The advisory authenticity signals run after the decision, on a queue of their own
# (apps.documents.advisory): the document's advisory state, and which pages were captured.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0007_reprocess"),
    ]

    operations = [
        migrations.AddField(
            model_name="document",
            name="advisory_state",
            field=models.CharField(
                blank=True,
                choices=[("", "none"), ("pending", "Pending"), ("done", "Done")],
                default="",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="document",
            name="advisory_done_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="page",
            name="captured",
            field=models.BooleanField(default=False),
        ),
        migrations.AddIndex(
            model_name="document",
            index=models.Index(
                condition=models.Q(("advisory_state", "pending")),
                fields=["updated_at"],
                name="documents_advisory_pending",
            ),
        ),
    ]
