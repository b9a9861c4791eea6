"""``manage.py calibrate DIR [DIR ...]``: fit the confidence calibration on labelled folders.

Runs the engine on every labelled document (cached like ``evaluate``), labels each returned field
right or wrong, fits one isotonic map per evidence class and writes the versioned artefact that
``apps.extraction.calibration.current()`` loads, with the layouts of the documents fitted on
(``familiar_layout`` evidence) and the auto-approval threshold per type, chosen out of fold at
``--target-precision`` (apps.extraction.thresholds). Fit on generated sets, the independent
family and part of each real set (``--held-out-in``: that folder's held-out files, by
apps.extraction.holdout, are left out of every fit); evaluate on what was left out.
"""

from __future__ import annotations

import datetime as dt
import json
from argparse import ArgumentParser
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

import htmldocs
from apps.extraction import calibration as calibration_maps
from apps.extraction.calibration import Calibration
from apps.extraction.evaluation import Sample, run_engine
from apps.extraction.fitting import fit_calibration, supported_examples
from apps.extraction.holdout import HELD_OUT_SHARE, held_out
from apps.extraction.management.commands.evaluate import _progress
from apps.extraction.readers import ENGINE_CHOICES, reader_for
from apps.extraction.thresholds import choose, out_of_fold


def evaluation_seeds_in(folder: Path) -> bool:
    """Does the folder hold documents of the independent family's evaluation seeds?"""
    truth = json.loads((folder / "truth.json").read_text())
    return any(
        (meta := entry.get("meta") or {}).get("family") == htmldocs.FAMILY
        and htmldocs.is_evaluation_seed(int(meta.get("seed", -1)))
        for entry in truth.values()
    )


class Command(BaseCommand):
    help = "Fit the field-confidence calibration on labelled folders and write the artefact."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("dirs", nargs="+", type=Path)
        parser.add_argument("--engine", choices=ENGINE_CHOICES, default="local")
        parser.add_argument("--out", type=Path, default=calibration_maps.ARTEFACT_PATH)
        parser.add_argument("--name", dest="version_name", default=None, help="version name of the artefact")
        parser.add_argument("--cache", type=Path, default=Path("var/eval-cache"))
        parser.add_argument(
            "--held-out-in",
            dest="held_out_in",
            action="append",
            type=Path,
            default=[],
            metavar="DIR",
            help="fit only on this folder's files outside its held-out part (repeatable)",
        )
        parser.add_argument(
            "--partial-labels-in",
            dest="partial_labels_in",
            action="append",
            type=Path,
            default=[],
            metavar="DIR",
            help="this folder's labels name some fields only: fit on those (repeatable)",
        )
        parser.add_argument("--target-precision", type=float, default=0.99)

    def handle(self, *args: Any, **options: Any) -> None:
        for folder in options["dirs"]:
            if not (folder / "truth.json").exists():
                raise CommandError(f"{folder} has no truth.json")
            if evaluation_seeds_in(folder):
                raise CommandError(
                    f"{folder} holds the independent family's evaluation seeds: they are measured, never "
                    "fitted on (docs/engine/independent-documents.md; fit on htmldocs.CALIBRATION_SEEDS)"
                )
        held_in = {folder.resolve() for folder in options["held_out_in"]}
        partial_in = {folder.resolve() for folder in options["partial_labels_in"]}
        samples: list[Sample] = []
        fitted_on = []
        for folder in options["dirs"]:
            read = run_engine(
                [folder],
                reader_for(options["engine"]),
                cache_dir=options["cache"],
                progress=_progress,
                partial_labels=folder.resolve() in partial_in,
            )
            part = "all"
            if folder.resolve() in held_in:
                read = [s for s in read if not held_out(s.file)]
                part = f"all but the held-out {HELD_OUT_SHARE:.0%} (apps.extraction.holdout)"
            samples.extend(read)
            fitted_on.append({"path": str(folder), "documents": len(read), "part": part})
        examples = supported_examples(samples)
        if not examples:
            raise CommandError("the engine returned no fields on these folders: nothing to fit")
        version = options["version_name"] or f"isotonic-{dt.datetime.now(dt.UTC):%Y%m%d-%H%M}"
        engine_versions = sorted({s.result.engine_version for s in samples if s.result is not None})
        if len(engine_versions) != 1:
            raise CommandError(f"the folders were read by engine versions {engine_versions}: fit on one")

        def fit(part: Sequence[Sample]) -> Calibration:
            return fit_calibration(part, version=version, engine_version=engine_versions[0])

        target = options["target_precision"]
        thresholds = choose(out_of_fold(samples, fit, dt.date.today()), target=target)
        fitted = replace(
            fit(samples), thresholds=thresholds, target_precision=target, fitted_on=tuple(fitted_on)
        )
        calibration_maps.save(fitted, options["out"])
        right = Counter(e.correct for e in examples)
        self.stdout.write(
            f"fitted {len(fitted.maps)} maps and {len(fitted.layouts)} layouts on {len(examples)} fields from "
            f"{len(samples)} documents ({right[True]} right, {right[False]} wrong) read by engine "
            f"{engine_versions[0]}; thresholds at precision {target}: {thresholds}; wrote {options['out']} ({version})"
        )
