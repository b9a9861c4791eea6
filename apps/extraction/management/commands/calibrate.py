"""``manage.py calibrate DIR [DIR ...]``: fit the confidence calibration on labelled folders.

Runs the engine on every labelled document (cached like ``evaluate``), labels each returned field
right or wrong, fits one isotonic map per evidence class and writes the versioned artefact that
``apps.extraction.calibration.current()`` loads. Fit on one generated set, evaluate on another.
"""

from __future__ import annotations

import datetime as dt
from argparse import ArgumentParser
from collections import Counter
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.extraction import calibration as calibration_maps
from apps.extraction.evaluation import calibration_examples, run_engine, type_examples
from apps.extraction.management.commands.evaluate import _progress
from apps.extraction.readers import ENGINE_CHOICES, reader_for


class Command(BaseCommand):
    help = "Fit the field-confidence calibration on labelled folders and write the artefact."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("dirs", nargs="+", type=Path)
        parser.add_argument("--engine", choices=ENGINE_CHOICES, default="local")
        parser.add_argument("--out", type=Path, default=calibration_maps.ARTEFACT_PATH)
        parser.add_argument("--name", dest="version_name", default=None, help="version name of the artefact")
        parser.add_argument("--cache", type=Path, default=Path("var/eval-cache"))

    def handle(self, *args: Any, **options: Any) -> None:
        for folder in options["dirs"]:
            if not (folder / "truth.json").exists():
                raise CommandError(f"{folder} has no truth.json")
        samples = run_engine(
            options["dirs"], reader_for(options["engine"]), cache_dir=options["cache"], progress=_progress
        )
        examples = calibration_examples(samples)
        if not examples:
            raise CommandError("the engine returned no fields on these folders: nothing to fit")
        version = options["version_name"] or f"isotonic-{dt.datetime.now(dt.UTC):%Y%m%d-%H%M}"
        engine_versions = sorted({s.result.engine_version for s in samples if s.result is not None})
        if len(engine_versions) != 1:
            raise CommandError(f"the folders were read by engine versions {engine_versions}: fit on one")
        fitted = calibration_maps.fit(
            examples, version=version, types=type_examples(samples), engine_version=engine_versions[0]
        )
        calibration_maps.save(fitted, options["out"])
        right = Counter(e.correct for e in examples)
        self.stdout.write(
            f"fitted {len(fitted.maps)} maps on {len(examples)} fields from {len(samples)} documents "
            f"({right[True]} right, {right[False]} wrong) read by engine {engine_versions[0]}; "
            f"wrote {options['out']} ({version})"
        )
