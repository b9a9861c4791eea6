"""``manage.py recalibrate [--out PATH] [--name VERSION] [--tenant NAME] [--min-labels N] [--document-type T]``.

Refits the field-confidence calibration on the fields operators confirmed or corrected in review
(``apps.review.models.FieldLabel``) and writes a versioned artefact, by default over the one
``apps.extraction.calibration.current()`` loads. Running workers pick it up when restarted.
``--document-type``: only that type's maps, fitted on its labels and merged into the artefact (a
tenant's own type routes to review until they exist, and needs ``--tenant``: its maps are that
tenant's alone; apps.doctypes.calibration).
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.doctypes.errors import DocumentTypeTenantRequiredError
from apps.extraction import calibration
from apps.review.errors import NotEnoughLabelsError
from apps.review.services import calibration_refit
from apps.tenants.selectors import tenant_get_by_name


class Command(BaseCommand):
    help = "Refit the field-confidence calibration on operators' review labels and write the artefact."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--out", type=Path, default=calibration.ARTEFACT_PATH)
        parser.add_argument("--name", dest="version_name", default=None, help="version name of the artefact")
        parser.add_argument("--tenant", default=None, help="only this tenant's labels (default: all tenants)")
        parser.add_argument(
            "--min-labels",
            type=int,
            default=settings.DOCINTEL_RECALIBRATE_MIN_LABELS,
            help="refuse to fit on fewer labels than this",
        )
        parser.add_argument(
            "--document-type", default=None, help="fit only this type's maps and merge them into the artefact"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tenant = None
        if options["tenant"]:
            tenant = tenant_get_by_name(name=options["tenant"])
            if tenant is None:
                raise CommandError(f"no tenant named {options['tenant']!r}")
        try:
            if options["document_type"]:
                from apps.doctypes.calibration import document_type_recalibrate

                outcome = document_type_recalibrate(
                    document_type=options["document_type"],
                    out=options["out"],
                    min_labels=options["min_labels"],
                    version=options["version_name"],
                    tenant=tenant,
                )
            else:
                outcome = calibration_refit(
                    out=options["out"],
                    min_labels=options["min_labels"],
                    version=options["version_name"],
                    tenant=tenant,
                )
        except (NotEnoughLabelsError, DocumentTypeTenantRequiredError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"fitted {outcome.maps} maps on {outcome.labels} operator labels "
            f"({outcome.right} right, {outcome.labels - outcome.right} wrong); "
            f"wrote {outcome.path} ({outcome.version})"
        )
