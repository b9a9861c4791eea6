"""Command line: build the document-type classifier's training texts, fit it, and measure it.

It lives above the engine (it prepares files as the app does, media/, then reads them with the
engine's first stage), so the engine itself never imports the media code.

    python -m apps.extraction.doctype_fit build TEXTS.jsonl --seeds 3000-3019 --count 68 [--kinds ...]
    python -m apps.extraction.doctype_fit texts TEXTS.jsonl DIR [DIR ...]     (labelled folders, evaluation)
    python -m apps.extraction.doctype_fit fit TEXTS.jsonl [...] [--out PATH] [--holdout-seeds 3018-3019]
    python -m apps.extraction.doctype_fit evaluate TEXTS.jsonl [...] [--model PATH]

``build`` generates synthetic documents (synth/) of the given seeds and runs the engine's page-text
stage on each (a digital PDF's text layer, else OCR of the page as the pipeline does it first),
appending one JSON record per document to TEXTS.jsonl: its labelled type and its pages' lines with
their boxes. It resumes where a previous run stopped (a (seed, index) already written is skipped),
so a long build can be interrupted. ``texts`` does the same for labelled folders (truth.json), such
as an independent family's evaluation set. OCR is the slow part (about a second a page); fitting on
the cached texts takes seconds.

Seeds. The classifier is fitted on synth seeds 3000 to 3099 only (``TRAINING_SEEDS``): the
calibration uses 11 to 17, the accuracy measurements 86 to 128 and up, the benchmarks 4242 and
9090, the tests small seeds, and the independent family ``htmldocs`` seeds 900000 and up, which
``fit`` refuses outright (its records say ``"family": "htmldocs"``).

``fit`` writes the artefact ``engines/models/doctype-<engine version>.npz`` that
:func:`engines.doctype_model.current` loads, with its temperature chosen on the held-out seeds;
``evaluate`` prints the accuracy, the wrong decisions made with high confidence and the confusion
of :func:`engines.classify.classify_text` with a given artefact.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from engines import ENGINE_VERSION
from engines.layout import Line, PageText

TRAINING_SEEDS = range(3000, 3100)
_MIME = {"pdf": "application/pdf", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg"}


# ---------------------------------------------------------------------------------------- texts


def page_texts(content: bytes, extension: str) -> list[PageText]:
    """The pages of a file as the pipeline first reads them: each page's text layer where it is
    usable, else OCR of the page (upright, straightened). No MRZ, deblurring or second look."""
    from engines.images import decode_image
    from engines.page_text import ocr_page_text
    from engines.stages.decode import usable_text_layer
    from media.preprocessing import PageLimits, prepare_pages

    prepared = prepare_pages(content, _MIME[extension.lower()], PageLimits())
    pages = []
    for number, page in enumerate(prepared, start=1):
        layer = usable_text_layer(page.text_layer, number)
        if layer is None:
            layer, _ = ocr_page_text(decode_image(page.image), page=number)
        pages.append(layer)
    return pages


def pages_to_json(pages: Sequence[PageText]) -> list[dict[str, Any]]:
    return [
        {
            "page": p.page,
            "source": p.source,
            "lines": [[line.text, round(line.score, 3), *line.bbox] for line in p.lines],
        }
        for p in pages
    ]


def pages_from_json(data: Sequence[dict[str, Any]]) -> list[PageText]:
    return [
        PageText(
            page=int(p["page"]),
            lines=tuple(
                Line(
                    text=str(t),
                    score=float(s),
                    bbox=(float(a), float(b), float(c), float(d)),
                    page=int(p["page"]),
                )
                for t, s, a, b, c, d in p["lines"]
            ),
            source=str(p["source"]),
        )
        for p in data
    ]


def read_records(paths: Iterable[Path]) -> Iterator[dict[str, Any]]:
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    yield json.loads(line)


def _seed_range(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        seeds.extend(range(int(low), int(high or low) + 1))
    return seeds


def build(out: Path, seeds: Sequence[int], count: int, kinds: Sequence[str] | None, profile: str) -> int:
    from synth.documents import available_kinds, document_rng, generate_document

    for seed in seeds:
        if seed not in TRAINING_SEEDS:
            raise SystemExit(f"seed {seed} is outside the classifier's training seeds {TRAINING_SEEDS}")
    kinds = list(kinds or available_kinds())
    done = {(r["seed"], r["index"]) for r in read_records([out])} if out.exists() else set()
    out.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    started = time.perf_counter()
    with out.open("a", encoding="utf-8") as handle:
        for seed in seeds:
            for index in range(count):
                if (seed, index) in done:
                    continue
                kind = kinds[index % len(kinds)]
                t0 = time.perf_counter()
                doc = generate_document(document_rng(seed, index), kind=kind, profile=profile)
                t1 = time.perf_counter()
                pages = page_texts(doc.image, doc.extension)
                record = {
                    "family": "synth",
                    "seed": seed,
                    "index": index,
                    "kind": kind,
                    "profile": doc.profile,
                    "extension": doc.extension,
                    "document_type": doc.truth.document_type,
                    "generate_s": round(t1 - t0, 3),
                    "text_s": round(time.perf_counter() - t1, 3),
                    "pages": pages_to_json(pages),
                }
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
                handle.flush()
                written += 1
                if written % 10 == 0:
                    rate = (time.perf_counter() - started) / written
                    print(f"{written} documents ({rate:.2f} s each), last seed {seed}", file=sys.stderr)
    return written


def texts_of_folders(out: Path, folders: Sequence[Path]) -> int:
    """Page texts of labelled folders (``truth.json``), for evaluation."""
    done = {(r["folder"], r["name"]) for r in read_records([out])} if out.exists() else set()
    written = 0
    with out.open("a", encoding="utf-8") as handle:
        for folder in folders:
            truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
            for name, spec in sorted(truth.items()):
                if (str(folder), name) in done:
                    continue
                t0 = time.perf_counter()
                pages = page_texts((folder / name).read_bytes(), name.rsplit(".", 1)[-1])
                meta = spec.get("meta") or {}
                record = {
                    "family": meta.get("family", "synth"),
                    "folder": str(folder),
                    "name": name,
                    "document_type": spec["document_type"],
                    "text_s": round(time.perf_counter() - t0, 3),
                    "pages": pages_to_json(pages),
                }
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
                handle.flush()
                written += 1
    return written


# ------------------------------------------------------------------------------- fit, evaluate


def _split(
    records: Iterable[dict[str, Any]], holdout: set[int]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    train: list[dict[str, Any]] = []
    held: list[dict[str, Any]] = []
    for record in records:
        if record.get("family", "synth") != "synth":
            raise SystemExit(f"refusing to fit on a document of family {record.get('family')!r} (held out)")
        (held if record.get("seed") in holdout else train).append(record)
    return train, held


def fit_command(args: argparse.Namespace) -> int:
    from engines import doctype_model as dm

    holdout = set(_seed_range(args.holdout_seeds)) if args.holdout_seeds else set()
    train, held = _split(read_records(args.texts), holdout)
    started = time.perf_counter()
    model = dm.fit(
        [pages_from_json(r["pages"]) for r in train],
        [r["document_type"] for r in train],
        l2=args.l2,
        iterations=args.iterations,
        config={"layout_weight": args.layout_weight, "cue_weight": args.cue_weight},
    )
    fit_s = time.perf_counter() - started
    held_accuracy = None
    if held:
        model = dm.tempered(
            model, [pages_from_json(r["pages"]) for r in held], [r["document_type"] for r in held]
        )
        right = sum(
            model.predict(pages_from_json(r["pages"])).document_type == r["document_type"] for r in held
        )
        held_accuracy = round(right / len(held), 4)
    seeds = sorted({r["seed"] for r in train if "seed" in r})
    model = model.with_meta(
        engine_version=ENGINE_VERSION,
        fitted_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        training_seeds=_ranges(seeds),
        training_documents=len(train),
        heldout_seeds=_ranges(sorted(holdout)),
        heldout_documents=len(held),
        heldout_accuracy=held_accuracy,
    )
    out = args.out or dm.artefact_path()
    dm.save(model, out)
    print(
        f"fitted on {len(train)} documents in {fit_s:.1f} s; held-out accuracy {held_accuracy} on "
        f"{len(held)}; wrote {out} ({out.stat().st_size / 1024:.0f} KiB)"
    )
    return 0


def _ranges(values: Sequence[int]) -> str:
    out: list[str] = []
    for v in values:
        if out and (last := out[-1].split("-"))[-1] == str(v - 1):
            out[-1] = f"{last[0]}-{v}"
        else:
            out.append(str(v))
    return ",".join(out)


def evaluate_command(args: argparse.Namespace) -> int:
    from engines import classify
    from engines import doctype_model as dm

    model = dm.load(args.model, engine_version=None) if args.model else dm.current()
    if model is None:
        raise SystemExit("no fitted model for this engine version: run fit first")
    records = list(read_records(args.texts))
    if args.seeds:
        wanted = set(_seed_range(args.seeds))
        records = [r for r in records if r.get("seed") in wanted]
    pairs: list[tuple[str, str, float]] = []
    started = time.perf_counter()
    for record in records:
        got = classify.classify_with_model(pages_from_json(record["pages"]), model)
        pairs.append((record["document_type"], got.document_type, got.confidence))
    elapsed = time.perf_counter() - started
    n = max(len(records), 1)
    right = sum(truth == got for truth, got, _ in pairs)
    sure_wrong = sum(truth != got and confidence >= args.sure for truth, got, confidence in pairs)
    print(f"{len(records)} documents from {', '.join(str(p) for p in args.texts)}")
    print(
        f"  right {right}/{len(pairs)} = {100 * right / n:.1f} %; wrong at confidence >= {args.sure}: "
        f"{sure_wrong}; {1000 * elapsed / n:.2f} ms/doc"
    )
    print("confusion (row: truth, column: predicted; only non-zero off-diagonal listed)")
    wrong = Counter((t, g) for t, g, _ in pairs if t != g)
    for (t, g), k in sorted(wrong.items()):
        print(f"    {t:17s} -> {g:17s} {k}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m apps.extraction.doctype_fit", description=__doc__.split("\n\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build", help="generate synth documents and cache their page texts")
    p.add_argument("out", type=Path)
    p.add_argument("--seeds", required=True, help="e.g. 3000-3019 (within 3000-3099)")
    p.add_argument("--count", type=int, default=68, help="documents per seed")
    p.add_argument("--kinds", default=None, help="round-robin kinds (default: every available kind)")
    p.add_argument("--profile", default="mixed")
    p = sub.add_parser("texts", help="cache the page texts of labelled folders (evaluation)")
    p.add_argument("out", type=Path)
    p.add_argument("folders", nargs="+", type=Path)
    p = sub.add_parser("fit", help="fit the classifier and write its artefact")
    p.add_argument("texts", nargs="+", type=Path)
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--holdout-seeds", default=None, help="seeds kept out of the fit and measured")
    p.add_argument("--l2", type=float, default=1e-4)
    p.add_argument("--iterations", type=int, default=300)
    p.add_argument(
        "--layout-weight",
        type=float,
        default=0.1,
        help="scale of the layout measures (0.1: chosen on seeds 3004-3006)",
    )
    p.add_argument("--cue-weight", type=float, default=1.0, help="scale of the type cues' measures")
    p = sub.add_parser("evaluate", help="the classifier with an artefact on cached texts")
    p.add_argument("texts", nargs="+", type=Path)
    p.add_argument("--model", type=Path, default=None, help="an artefact (default: this engine version's)")
    p.add_argument("--seeds", default=None, help="only records of these seeds")
    p.add_argument(
        "--sure", type=float, default=0.9, help="a wrong type at this confidence or more is counted"
    )
    args = parser.parse_args(argv)
    if args.command == "build":
        kinds = args.kinds.split(",") if args.kinds else None
        n = build(args.out, _seed_range(args.seeds), args.count, kinds, args.profile)
        print(f"wrote {n} documents to {args.out}", file=sys.stderr)
        return 0
    if args.command == "texts":
        n = texts_of_folders(args.out, args.folders)
        print(f"wrote {n} documents to {args.out}", file=sys.stderr)
        return 0
    if args.command == "fit":
        return fit_command(args)
    return evaluate_command(args)


if __name__ == "__main__":
    raise SystemExit(main())
