"""Command line: write N documents of the independent family and their ground truth to a folder.

    python -m htmldocs.generate OUT_DIR --count N --seed S [--kinds KIND[,KIND...]]

Kinds: invoice, receipt, proof_of_address, bank_statement (default: all four). Document i is of
kind kinds[i % len(kinds)]. Files are named ``00000-invoice.pdf``, ``00001-receipt.jpg``...;
``OUT_DIR/truth.json`` maps each file name to {"document_type", "fields", "meta"} in the format
``manage.py evaluate`` reads (the format of ``python -m synth.generate``): every field of the
type, canonical values, null where the document does not print the field.

The same arguments give the same truth and the same HTML; the bytes may differ between Chromium
versions (PDF creation dates, font rasterisation). Seeds 900000-999999 are reserved for
measurement, and no seed of this family may be used to fit or tune anything
(docs/engine/independent-documents.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from htmldocs import FAMILY, KINDS, is_evaluation_seed
from htmldocs.document import Composed


def _composers() -> dict[str, Callable[[random.Random], Composed]]:
    from htmldocs import bill, invoice, receipt, statement

    return {
        "invoice": invoice.compose,
        "receipt": receipt.compose,
        "proof_of_address": bill.compose,
        "bank_statement": statement.compose,
    }


def document_rng(seed: int, index: int, kind: str) -> random.Random:
    """The random source of document ``index`` of a run: independent of every other document, so
    asking for more documents never changes the first ones."""
    digest = hashlib.sha256(f"{FAMILY}/{seed}/{index}/{kind}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def compose(seed: int, index: int, kind: str) -> Composed:
    """Document ``index`` of the run with ``seed``, of ``kind`` (no rendering)."""
    return _composers()[kind](document_rng(seed, index, kind))


def truth_entry(doc: Composed, *, seed: int, index: int) -> dict[str, Any]:
    return {
        "document_type": doc.document_type,
        "fields": doc.fields,
        "meta": {
            "family": FAMILY,
            "seed": seed,
            "index": index,
            "layout": doc.layout,
            "form": doc.output.form,
            "roughened": doc.output.roughen or doc.output.photo,
            **doc.meta,
        },
    }


def _kinds(value: str) -> list[str]:
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items or any(item not in KINDS for item in items):
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of {', '.join(KINDS)}")
    return items


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m htmldocs.generate", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("out_dir", type=Path, help="folder for the documents and truth.json (created)")
    parser.add_argument("--count", type=int, default=20, help="number of documents (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--kinds", type=_kinds, default=list(KINDS), help="round-robin kinds (default all)")
    parser.add_argument(
        "--truth-only", action="store_true", help="write truth.json (and the HTML) without rendering"
    )
    parser.add_argument("--html", action="store_true", help="also keep each document's HTML beside it")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    docs = [(i, compose(args.seed, i, args.kinds[i % len(args.kinds)])) for i in range(args.count)]
    truth: dict[str, dict[str, Any]] = {}
    for index, doc in docs:
        name = f"{index:05d}-{doc.document_type}.{doc.output.extension}"
        truth[name] = truth_entry(doc, seed=args.seed, index=index)
        if args.html or args.truth_only:
            (args.out_dir / f"{index:05d}-{doc.document_type}.html").write_text(doc.html, encoding="utf-8")
    if not args.truth_only:
        from htmldocs.render import ChromiumMissing, Renderer

        try:
            renderer = Renderer()
        except ChromiumMissing as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        with renderer:
            for index, doc in docs:
                name = f"{index:05d}-{doc.document_type}.{doc.output.extension}"
                (args.out_dir / name).write_bytes(renderer.render(doc))
    (args.out_dir / "truth.json").write_text(
        json.dumps(truth, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    elapsed = time.perf_counter() - started
    note = " (evaluation seed: never fit or tune on these)" if is_evaluation_seed(args.seed) else ""
    print(
        f"wrote {args.count} documents to {args.out_dir} in {elapsed:.1f} s "
        f"({elapsed / max(1, args.count):.3f} s each){note}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
