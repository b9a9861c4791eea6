"""``manage.py evaluate DIR [DIR ...]``: accuracy, calibration and straight-through rate on labelled folders.

Prints per-type and per-field exact-match accuracy, document-type accuracy, expected calibration
error (ECE) of the calibrated field confidences, the straight-through-processing rate and the
precision of auto-approved documents, and writes the reliability diagram as a PNG. Field values
never appear in the output: only names, counts and rates.
"""

from __future__ import annotations

import json
import statistics
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.extraction import calibration as calibration_maps
from apps.extraction.evaluation import Report, run_engine, score
from apps.extraction.readers import ENGINE_CHOICES, reader_for
from apps.extraction.reliability import draw_reliability
from workers.triton_client import TritonUnavailableError


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
            "--json", dest="json_out", type=Path, default=None, help="also write the numbers as JSON"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        for folder in options["dirs"]:
            if not (folder / "truth.json").exists():
                raise CommandError(f"{folder} has no truth.json")
        calibration = (
            calibration_maps.load(options["calibration"])
            if options["calibration"]
            else calibration_maps.current()
        )
        try:
            samples = run_engine(
                options["dirs"],
                reader_for(options["engine"]),
                cache_dir=None if options["no_cache"] else options["cache"],
                progress=_progress,
                partial_labels=options["partial_labels"],
            )
        except TritonUnavailableError as exc:
            raise CommandError(
                f"Triton is not reachable ({exc}); start it with `manage.py serve_models`"
            ) from exc
        report = score(samples, calibration=calibration)
        self.stdout.write(render(report, calibration.version))
        draw_reliability(
            report.reliability(),
            title=f"ECE {report.expected_calibration_error:.3f} over {len(report.outcomes)} fields ({calibration.version})",
            path=options["plot"],
        )
        self.stdout.write(f"reliability diagram: {options['plot']}")
        if options["json_out"]:
            options["json_out"].write_text(json.dumps(summary(report), indent=1))


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
    lines += [
        "",
        f"documents                      {report.documents} ({report.failed} failed)",
        f"field accuracy (all types)     {report.field_accuracy:6.1%}",
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
    if report.type_confusions:
        lines.append("type confusions (truth -> read as: count)")
        for (truth, got), count in sorted(report.type_confusions.items(), key=lambda kv: -kv[1]):
            lines.append(f"  {truth} -> {got}: {count}")
    return "\n".join(lines)
