"""Dead letters (issue 48): a delivery is retried for a time window, not a number of attempts, and
what is undelivered when the window closes waits, per tenant, to be redriven."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("webhooks", "0002_case_deliveries"),
    ]

    operations = [
        migrations.AddField(
            model_name="webhookdelivery",
            name="redriven_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="webhookdelivery",
            name="dead_lettered_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="webhookdelivery",
            index=models.Index(fields=["tenant", "status", "created_at"], name="webhooks_dead_letters_idx"),
        ),
    ]
