"""Command line: write N synthetic documents and their ground truth to a folder.

    python -m synth.generate OUT_DIR --count N --seed S [--kinds KIND[,KIND...]]
                             [--profile mixed|clean|scan|photo[,...]] [--severity 0..1] [--jobs J]

Kinds: passport, id_card, td2 (MRZ documents), driver_license (when synth/driver_license.py is
there), receipt, invoice, proof_of_address, bank_statement and other; the default is every
available kind. Kinds and profiles are assigned round-robin: document i gets
kinds[i % len(kinds)], so "passport,passport,id_card" makes two passports for each ID card,
and "--profile scan,photo" alternates the two. For business documents a profile narrows the
form drawn: "clean" gives digital PDFs (with a text layer) or clean images, "scan" scanned
images or image-only PDFs, "photo" phone photos; "mixed" draws per type (receipts mostly
photos, statements mostly PDFs). Files are named ``00000-passport.jpg``, ``00004-invoice.pdf``;
``OUT_DIR/truth.json`` maps each file name to {"document_type", "fields", "meta"} plus "mrz"
for MRZ documents. The same arguments write the same bytes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from synth.documents import (
    ALL_KINDS,
    PROFILES,
    KindUnavailable,
    available_kinds,
    document_rng,
    driver_license_module,
    generate_document,
)


def _choices(allowed: Sequence[str]) -> Callable[[str], list[str]]:
    """An argparse type for a comma-separated list of ``allowed`` values (repeats allowed)."""

    def parse(value: str) -> list[str]:
        items = [item.strip() for item in value.split(",") if item.strip()]
        if not items or any(item not in allowed for item in items):
            raise argparse.ArgumentTypeError(f"expected a comma-separated list of {', '.join(allowed)}")
        return items

    return parse


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m synth.generate", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("out_dir", type=Path, help="folder for the images and truth.json (created)")
    parser.add_argument("--count", type=int, default=20, help="number of documents (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--kinds",
        type=_choices(list(ALL_KINDS)),
        default=None,
        help="round-robin kinds (default: every available kind)",
    )
    parser.add_argument(
        "--profile", type=_choices(PROFILES), default=["mixed"], help="round-robin profiles (default mixed)"
    )
    parser.add_argument("--severity", type=float, default=1.0, help="degradation strength 0..1 (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    if args.kinds is None:
        args.kinds = list(available_kinds())
    elif "driver_license" in args.kinds:
        try:
            driver_license_module()
        except KindUnavailable as exc:
            parser.error(str(exc))
    return args


def _one(job: tuple[int, int, str, str, float]) -> tuple[str, bytes, dict[str, Any]]:
    seed, index, kind, profile, severity = job
    doc = generate_document(document_rng(seed, index), kind=kind, profile=profile, severity=severity)
    return f"{index:05d}-{kind}.{doc.extension}", doc.image, doc.truth.to_json()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    jobs = [
        (args.seed, i, args.kinds[i % len(args.kinds)], args.profile[i % len(args.profile)], args.severity)
        for i in range(args.count)
    ]
    started = time.perf_counter()
    truth: dict[str, dict[str, Any]] = {}
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(_one, jobs, chunksize=4))
    else:
        results = [_one(job) for job in jobs]
    for name, image, doc_truth in results:
        (args.out_dir / name).write_bytes(image)
        truth[name] = doc_truth
    (args.out_dir / "truth.json").write_text(
        json.dumps(truth, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    elapsed = time.perf_counter() - started
    per_doc = elapsed / max(1, args.count)
    print(
        f"wrote {args.count} documents to {args.out_dir} in {elapsed:.1f} s ({per_doc:.3f} s each)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
