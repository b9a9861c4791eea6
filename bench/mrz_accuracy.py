"""MRZ reading accuracy of the CPU reference engine on labelled folders.

    python bench/mrz_accuracy.py DIR [DIR ...]

Each DIR holds images and a truth.json: {file: {"document_type": ..., "fields": {name: value}}}.
Prints exact-match accuracy per field and overall, document-type accuracy and seconds per
document, all measured in this one run. Field values are compared exactly (no normalisation) and
a missing field counts as wrong. Mismatches are listed by file and field name only (no values:
even specimen data is treated as personal data in logs).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.pipeline import read_document
from engines.types import EngineError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--show-values", action="store_true", help="print wrong values (specimen data only!)")
    args = parser.parse_args(argv)

    right: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    type_right = documents = 0
    seconds: list[float] = []
    mistakes: list[str] = []

    for folder in args.dirs:
        truth = json.loads((folder / "truth.json").read_text())
        for name, expected in sorted(truth.items()):
            data = (folder / name).read_bytes()
            started = time.perf_counter()
            try:
                result = read_document([data])
                got = {k: f.value for k, f in result.fields.items()}
                doc_type = result.document_type
            except EngineError as exc:
                got, doc_type = {}, f"error:{exc.code}"
            seconds.append(time.perf_counter() - started)
            documents += 1
            type_right += doc_type == expected["document_type"]
            wrong = []
            for field, value in expected["fields"].items():
                total[field] += 1
                if got.get(field) == value:
                    right[field] += 1
                else:
                    wrong.append(f"{field}={got.get(field)!r} want {value!r}" if args.show_values else field)
            if wrong or doc_type != expected["document_type"]:
                mistakes.append(f"  {folder.name}/{name}: type={doc_type} wrong: {', '.join(wrong) or '-'}")

    if not documents:
        print("no documents")
        return 1
    print(f"{'field':<18} accuracy")
    for field in sorted(total):
        print(f"{field:<18} {right[field] / total[field]:7.1%}  ({right[field]}/{total[field]})")
    all_right, all_total = sum(right.values()), sum(total.values())
    print(f"{'OVERALL fields':<18} {all_right / all_total:7.1%}  ({all_right}/{all_total})")
    print(f"{'document_type':<18} {type_right / documents:7.1%}  ({type_right}/{documents})")
    print(f"seconds/document   mean {statistics.mean(seconds):.2f}  median {statistics.median(seconds):.2f}")
    if mistakes:
        print("mistakes:")
        print("\n".join(mistakes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
