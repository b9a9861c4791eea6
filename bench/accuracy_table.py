"""Print an accuracy record (``manage.py evaluate --record``) as the markdown table the README shows.

    python bench/accuracy_table.py bench/results/accuracy-0.2.144.json [--per-field]
    python bench/accuracy_table.py --latest [--per-field]

The README shows the table of the latest record only; older engines' figures stay in their
records under bench/results/, so nothing is copied by hand and every figure can be traced to the
engine, calibration, date and machine that produced it. ``--latest`` picks the record of the
highest engine version. Needs no Django settings and no database.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from apps.extraction.accuracy_record import AccuracyRecord, markdown

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("record", nargs="?", type=Path, help="an accuracy-<engine version>.json")
    which.add_argument("--latest", action="store_true", help="the highest engine version in bench/results")
    parser.add_argument("--per-field", action="store_true", help="add a table of every field per set")
    args = parser.parse_args(argv)
    path = latest_record() if args.latest else args.record
    sys.stdout.write(markdown(AccuracyRecord.load(path), per_field=args.per_field))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
