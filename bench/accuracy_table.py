"""Print an accuracy record (``manage.py evaluate --record``) as the markdown table the README shows.

    python bench/accuracy_table.py bench/results/accuracy-0.2.144.json [--per-field] [--readme]
    python bench/accuracy_table.py --latest [--per-field] [--gate FILE | --no-gate]

The README shows the table of the latest record only; older engines' figures stay in their
records under bench/results/, so nothing is copied by hand and every figure can be traced to the
engine, calibration, date and machine that produced it. ``--latest`` picks the record of the
highest engine version. ``--readme`` prints only the README's compact table (per set: documents,
fields, types, ECE, the decision's automation and precision, the capture gate's false
resubmissions). The capture gate's rates (``bench/capture_gate.py``) come from ``--gate FILE``,
by default ``bench/results/capture-gate.json`` (or else the newest ``capture-gate-<date>.json``)
when there is one: they are measured by another tool on its own documents, so they are shown
beside the accuracy record and never written into it. ``--coverage-plot PNG`` redraws the
coverage-accuracy plot from the record (``manage.py evaluate --coverage-plot`` draws the same at
evaluation time). Needs no Django settings and no database.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from apps.extraction.accuracy_record import AccuracyRecord, GateRate, gate_rates, markdown, readme_table
from apps.extraction.reliability import draw_coverage_accuracy

RESULTS = Path(__file__).resolve().parent / "results"
_RECORD_NAME = re.compile(r"accuracy-(\d+(?:\.\d+)*)\.json")


def latest_record(folder: Path = RESULTS) -> Path:
    """The record of the highest engine version (compared as numbers: 0.2.144 after 0.2.99)."""
    found = [
        (tuple(int(part) for part in match.group(1).split(".")), path)
        for path in folder.glob("accuracy-*.json")
        if (match := _RECORD_NAME.fullmatch(path.name))
    ]
    if not found:
        raise FileNotFoundError(f"no accuracy-<engine version>.json in {folder}")
    return max(found)[1]


def gate_file(folder: Path = RESULTS) -> Path | None:
    """The capture gate's result to show: capture-gate.json, else the newest dated one, else none."""
    fixed = folder / "capture-gate.json"
    if fixed.exists():
        return fixed
    dated = sorted(folder.glob("capture-gate-*.json"))
    return dated[-1] if dated else None


def load_gate(path: Path | None) -> tuple[GateRate, ...]:
    """The gate's per-family rates, or none when there is no file or it does not parse."""
    if path is None:
        return ()
    try:
        return gate_rates(json.loads(path.read_text()))
    except (OSError, ValueError) as exc:
        sys.stderr.write(f"capture gate results {path} not read: {exc}\n")
        return ()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("record", nargs="?", type=Path, help="an accuracy-<engine version>.json")
    which.add_argument("--latest", action="store_true", help="the highest engine version in bench/results")
    parser.add_argument("--per-field", action="store_true", help="add a table of every field per set")
    parser.add_argument("--readme", action="store_true", help="only the README's compact table")
    parser.add_argument("--coverage-plot", type=Path, default=None, metavar="PNG", help="redraw the plot")
    gate = parser.add_mutually_exclusive_group()
    gate.add_argument("--gate", type=Path, default=None, help="bench/capture_gate.py's JSON to show beside")
    gate.add_argument("--no-gate", action="store_true", help="show no capture gate rates")
    args = parser.parse_args(argv)
    path = latest_record() if args.latest else args.record
    record = AccuracyRecord.load(path)
    rates = () if args.no_gate else load_gate(args.gate or gate_file())
    if args.coverage_plot:
        draw_coverage_accuracy(
            record.sets,
            title=f"coverage and accuracy by document confidence ({record.calibration_version})",
            path=args.coverage_plot,
        )
    if args.readme:
        sys.stdout.write(readme_table(record, rates))
    else:
        sys.stdout.write(markdown(record, per_field=args.per_field, gate=rates))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
