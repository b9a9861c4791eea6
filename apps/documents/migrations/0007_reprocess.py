# A failed document sent through the pipeline again (apps.documents.reprocess) is counted.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0006_unavailability"),
    ]

    operations = [
        migrations.AddField(
            model_name="document",
            name="reprocess_count",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
