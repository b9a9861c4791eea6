"""``manage.py evaluate DIR [DIR ...]``: accuracy, calibration and straight-through rate on labelled folders.

Prints per-type and per-field exact-match accuracy, document-type accuracy, expected calibration
error (ECE) of the calibrated field confidences, the straight-through-processing rate and the
precision of auto-approved documents, and writes the reliability diagram as a PNG. Field values
never appear in the output: only names, counts and rates.

Given several folders it prints each set's figures and then the figures pooled over all of them
(the diagram and ``--json`` are the pooled ones). ``--record FILE`` writes every figure of every set
and of the pool as one JSON document with the engine and calibration versions, the date and the
machine (apps/extraction/accuracy_record.py): the accuracy of an engine is kept as a record beside
the code (``make bench-accuracy`` writes ``bench/results/accuracy-<engine version>.json``) and
``bench/accuracy_table.py`` renders it as the README's table. Real documents labelled in part are
scored on their labels only with ``--partial-labels-in DIR`` (or every folder with ``--partial-labels``),
so synthetic and real sets are measured correctly in one run.

Real sets are fitted on in part (apps/extraction/holdout.py): ``--held-out-in DIR`` scores only the
held-out files of that folder (the others are not read), and the set's name says "(held out)".
``--note DIR TEXT`` adds a qualifier to a set's name ("page only"). Each set's coverage-accuracy
curve (documents ranked by their document confidence) and the decision's operating point are
printed, recorded, and drawn by ``--coverage-plot PNG``.
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
import sys
from argparse import ArgumentParser
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.extraction import calibration as calibration_maps
from apps.extraction.accuracy_record import (
    AccuracyRecord,
    Machine,
    accuracy_at_coverage,
    coverage_curve,
    utc_now,
)
from apps.extraction.evaluation import (
    MRZ_DOCUMENT_TYPES,
    Report,
    Sample,
    run_engine,
    score,
    set_accuracy,
    truth_digest,
)
from apps.extraction.holdout import held_out
from apps.extraction.readers import ENGINE_CHOICES, reader_for
from apps.extraction.reliability import draw_coverage_accuracy, draw_reliability
from media.triton_client import TritonUnavailableError


class Command(BaseCommand):
    help = "Measure extraction accuracy, calibration and straight-through rate on labelled folders."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("dirs", nargs="+", type=Path, help="folders with documents and a truth.json")
        parser.add_argument("--engine", choices=ENGINE_CHOICES, default="local")
        parser.add_argument(
            "--calibration", type=Path, default=None, help="a calibration artefact (default: shipped)"
        )
        parser.add_argument("--plot", type=Path, default=Path("var/eval/reliability.png"))
        parser.add_argument("--cache", type=Path, default=Path("var/eval-cache"), help="engine output cache")
        parser.add_argument("--no-cache", action="store_true")
        parser.add_argument(
            "--partial-labels",
            action="store_true",
            help="score only the fields each truth entry names (real documents labelled in part)",
        )
        parser.add_argument(
            "--partial-labels-in",
            dest="partial_labels_in",
            action="append",
            type=Path,
            default=[],
            metavar="DIR",
            help="score only the labelled fields in this one of the folders (repeatable)",
        )
        parser.add_argument(
            "--held-out-in",
            dest="held_out_in",
            action="append",
            type=Path,
            default=[],
            metavar="DIR",
            help="score only this folder's files held out of fitting (apps/extraction/holdout.py; repeatable)",
        )
        parser.add_argument(
            "--note",
            dest="notes",
            action="append",
            nargs=2,
            default=[],
            metavar=("DIR", "TEXT"),
            help="a qualifier shown in this folder's set name, e.g. 'page only' (repeatable)",
        )
        parser.add_argument(
            "--coverage-plot",
            type=Path,
            default=None,
            metavar="PNG",
            help="draw every set's coverage-accuracy curve and the decision's operating point",
        )
        parser.add_argument(
            "--json", dest="json_out", type=Path, default=None, help="also write the pooled numbers as JSON"
        )
        parser.add_argument(
            "--record",
            type=Path,
            default=None,
            metavar="FILE",
            help="write the accuracy record (every figure per set and pooled, engine, calibration, "
            "date, machine) as JSON; render it with bench/accuracy_table.py",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        folders: list[Path] = options["dirs"]
        for folder in folders:
            if not (folder / "truth.json").exists():
                raise CommandError(f"{folder} has no truth.json")
        given = [folder.resolve() for folder in folders]
        if len(set(given)) != len(given):
            raise CommandError("a folder is named twice: the pooled figures would count it twice")
        partial_in = {folder.resolve() for folder in options["partial_labels_in"]}
        if not partial_in <= set(given):
            raise CommandError("--partial-labels-in names a folder that is not one of the folders evaluated")
        # a typo must not score a fitted-on set whole, nor a note land on no set
        held_out_in = {folder.resolve() for folder in options["held_out_in"]}
        if not held_out_in <= set(given):
            raise CommandError("--held-out-in names a folder that is not one of the folders evaluated")
        notes: dict[Path, list[str]] = {}
        for folder, text in options["notes"]:
            notes.setdefault(Path(folder).resolve(), []).append(text)
        if not set(notes) <= set(given):
            raise CommandError("--note names a folder that is not one of the folders evaluated")
        calibration = (
            calibration_maps.load(options["calibration"])
            if options["calibration"]
            else calibration_maps.current()
        )
        reader = reader_for(options["engine"])
        sets: list[EvaluatedSet] = []
        try:
            for folder, resolved in zip(folders, given, strict=True):
                partial = options["partial_labels"] or resolved in partial_in
                only_held_out = resolved in held_out_in
                samples = run_engine(
                    [folder],
                    reader,
                    cache_dir=None if options["no_cache"] else options["cache"],
                    progress=_progress,
                    partial_labels=partial,
                    only=held_out if only_held_out else None,
                )
                qualifiers = [*notes.get(resolved, []), *(["held out"] if only_held_out else [])]
                name = folder.name + (f" ({', '.join(qualifiers)})" if qualifiers else "")
                sets.append(EvaluatedSet(folder, name, partial, only_held_out, samples))
        except TritonUnavailableError as exc:
            raise CommandError(
                f"Triton is not reachable ({exc}); start it with `manage.py serve_models`"
            ) from exc
        # one day for every set: expiry rules depend on it, and the pool must be the sets' sum
        today = dt.date.today()
        reports = [score(one.samples, calibration=calibration, today=today) for one in sets]
        report = score([s for one in sets for s in one.samples], calibration=calibration, today=today)
        if len(sets) > 1:
            for one, scored in zip(sets, reports, strict=True):
                qualifiers = [
                    *(["held out"] if one.held_out else []),
                    *(["partial labels"] if one.partial else []),
                ]
                self.stdout.write(f"== {one.folder}" + (f" ({', '.join(qualifiers)})" if qualifiers else ""))
                self.stdout.write(render(scored, calibration.version) + "\n")
            self.stdout.write(f"== pooled over {len(sets)} sets")
        self.stdout.write(render(report, calibration.version))
        draw_reliability(
            report.reliability(),
            title=f"ECE {report.expected_calibration_error:.3f} over {len(report.outcomes)} fields ({calibration.version})",
            path=options["plot"],
        )
        self.stdout.write(f"reliability diagram: {options['plot']}")
        if options["json_out"]:
            options["json_out"].write_text(json.dumps(summary(report), indent=1))
        if options["record"] or options["coverage_plot"]:
            record = accuracy_record(
                sets, reports, report, reader=options["engine"], calibration_version=calibration.version
            )
            if options["record"]:
                record.write(options["record"])
                self.stdout.write(f"accuracy record: {options['record']}")
            if options["coverage_plot"]:
                draw_coverage_accuracy(
                    record.sets,
                    title=f"coverage and accuracy by document confidence ({calibration.version})",
                    path=options["coverage_plot"],
                )
                self.stdout.write(f"coverage-accuracy plot: {options['coverage_plot']}")


@dataclass(frozen=True)
class EvaluatedSet:
    """One folder as evaluated: how it is named and scored, and what the engine read of it."""

    folder: Path  # as given on the command line
    name: str  # the folder's name with its qualifiers: "einvoices (page only, held out)"
    partial: bool  # only the labelled fields are scored
    held_out: bool  # only the files held out of fitting were read
    samples: list[Sample]


def accuracy_record(
    sets: list[EvaluatedSet],
    reports: list[Report],
    pooled: Report,
    *,
    reader: str,
    calibration_version: str,
) -> AccuracyRecord:
    """The run as a record: each set's figures, the pool's, and what produced them."""
    from engines import ENGINE_NAME, ENGINE_VERSION

    engines_read = sorted(
        {
            f"{s.result.engine_name} {s.result.engine_version}".strip()
            for one in sets
            for s in one.samples
            if s.result is not None and s.result.engine_name
        }
    )
    return AccuracyRecord(
        engine=ENGINE_NAME,
        engine_version=ENGINE_VERSION,
        reader=reader,
        engines_read=tuple(engines_read),
        calibration_version=calibration_version,
        date=utc_now(),
        machine=Machine.this(),
        sets=tuple(
            set_accuracy(
                scored,
                name=one.name,
                path=str(one.folder),
                truth_sha256=truth_digest(one.folder),
                partial_labels=one.partial,
                held_out=one.held_out,
            )
            for one, scored in zip(sets, reports, strict=True)
        ),
        pooled=set_accuracy(
            pooled,
            name="pooled",
            partial_labels=any(one.partial for one in sets),
            held_out=any(one.held_out for one in sets),
        ),
    )


def _progress(done: int, total: int) -> None:
    sys.stderr.write(f"\r{done}/{total} documents")
    if done == total:
        sys.stderr.write("\n")


def summary(report: Report) -> dict[str, Any]:
    return {
        "documents": report.documents,
        "fields_scored": len(report.outcomes),
        "field_accuracy": round(report.field_accuracy, 4),
        "type_accuracy": round(report.type_accuracy, 4),
        "expected_calibration_error": round(report.expected_calibration_error, 4),
        "straight_through_rate": round(report.straight_through_rate, 4),
        "auto_approved_precision": round(report.auto_approved_precision, 4),
        "failed": report.failed,
        "median_seconds_per_page": round(statistics.median(report.seconds_per_page), 3)
        if report.seconds_per_page
        else None,
    }


def render(report: Report, calibration_version: str) -> str:
    lines = [f"{'type / field':40} accuracy"]
    types = sorted({t for t, _ in report.field_total})
    for doc_type in types:
        right = sum(n for (t, _), n in report.field_right.items() if t == doc_type)
        total = sum(n for (t, _), n in report.field_total.items() if t == doc_type)
        lines.append(f"{doc_type:40} {report.type_field_accuracy(doc_type):6.1%}  ({right}/{total})")
        for (t, name), total in sorted(report.field_total.items()):
            if t == doc_type:
                right = report.field_right[(t, name)]
                lines.append(f"  {name:38} {right / total:6.1%}  ({right}/{total})")
    numbers = summary(report)
    mrz = report.fields_of(MRZ_DOCUMENT_TYPES)
    lines += [
        "",
        f"documents                      {report.documents} ({report.failed} failed)",
        f"field accuracy (all types)     {report.field_accuracy:6.1%}",
        f"MRZ documents' fields          {mrz.rate:6.1%}  ({mrz.right}/{mrz.total})",
        f"document type accuracy         {report.type_accuracy:6.1%}",
        f"expected calibration error     {report.expected_calibration_error:.4f}  (calibration {calibration_version})",
        f"straight-through rate          {report.straight_through_rate:6.1%}",
        f"auto-approved all right        {report.auto_approved_precision:6.1%}  "
        f"({report.auto_approved_all_right}/{report.auto_approved})",
        f"median seconds per page        {numbers['median_seconds_per_page']}",
        "reliability (confidence bin: mean confidence, accuracy, fields)",
    ]
    for i, (confidence, accuracy, count) in enumerate(report.reliability()):
        if count:
            lines.append(f"  {i / 10:.1f}-{(i + 1) / 10:.1f}: {confidence:.3f} {accuracy:.3f} {count}")
    curve = coverage_curve(report.document_outcomes)
    approved = [d.confidence for d in report.document_outcomes if d.auto_approved]
    lines += [
        f"lowest document confidence approved {min(approved):.4f}"
        if approved
        else "lowest document confidence approved -",
        "coverage-accuracy (coverage: document confidence threshold, documents covered, entirely right)",
    ]
    for tenth in range(1, 11):
        point = accuracy_at_coverage(curve, tenth / 10)
        if point is not None:
            lines.append(
                f"  {tenth / 10:.1f}: {point.threshold:.4f} {point.covered} {point.covered_all_right}"
                f" ({point.accuracy:.1%})"
            )
    if report.type_confusions:
        lines.append("type confusions (truth -> read as: count)")
        for (truth, got), count in sorted(report.type_confusions.items(), key=lambda kv: -kv[1]):
            lines.append(f"  {truth} -> {got}: {count}")
    return "\n".join(lines)
