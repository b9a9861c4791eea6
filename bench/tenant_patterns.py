"""What matching tenants' patterns with RE2 costs, against Python's ``re`` (issue 48, item 1).

    python bench/tenant_patterns.py [--python-timeout S] [--runs N]

Two measurements, printed as markdown tables (docs/custom-document-types.md keeps the figures):

1. The audit's catastrophic pattern ``^(a{1,9}){1,12}$`` on the text beside a label,
   ``"a" * n + "1"``, for n = 25, 33, 37: Python's ``re`` as the generic reader used it
   (lookaround around the pattern's body), each run in a child process stopped after
   ``--python-timeout`` seconds, and RE2 as ``engines.tenant_patterns`` runs it now.
2. Realistic patterns (a staff number, an IBAN, a policy number, a tax number, the widest
   case-insensitive class a tenant may define) searched in a line beside their label and checked
   whole against their value: microseconds per match for each engine, and RE2's cold compile.

Needs no Django settings and no database.
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import tenant_patterns

CATASTROPHIC = "^(a{1,9}){1,12}$"
RUNS = (25, 33, 37)
REALISTIC = [
    ("staff number", "^E-[0-9]{4,8}$", " E-20417 (Dublin office)", "E-20417"),
    ("IBAN", "^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$", " DE89370400440532013000  BIC COBADEFFXXX", "DE89370400440532013000"),
    ("policy number", "^[A-Z]{3}-[0-9]{6}(?:-[0-9]{2})?$", " no. ABC-123456-01 valid from 01/01/2026", "ABC-123456-01"),
    ("tax number", "^[0-9]{2,3}/[0-9]{3}/[0-9]{4,5}$", ": 123/456/78901  Finanzamt Mitte", "123/456/78901"),
    ("widest class", "^(?i:[a-zà-ɏ]{1,120})$", " " + "Grüße aus Köln " * 8, "Grüße"),
]  # fmt: skip


def _python_reader_regex(pattern: str) -> re.Pattern[str]:
    """The pattern as the generic reader compiled it before RE2: a token, by lookaround."""
    inner = pattern.removeprefix("^").removesuffix("$")
    return re.compile(rf"(?<![A-Za-z0-9])(?:{inner})(?![A-Za-z0-9])")


def _python_search(pattern: str, text: str, answer: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    regex = _python_reader_regex(pattern)
    started = time.perf_counter()
    regex.search(text)
    answer.put(time.perf_counter() - started)


def python_seconds(pattern: str, text: str, timeout_s: float) -> float | None:
    """Python's search time, or None when it ran past ``timeout_s`` (the child is stopped)."""
    answer: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    child = multiprocessing.Process(target=_python_search, args=(pattern, text, answer))
    child.start()
    child.join(timeout_s)
    if child.is_alive():
        child.terminate()
        child.join()
        return None
    return float(answer.get())


def _per_call_us(call, runs: int) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    for _ in range(runs):
        call()
    return (time.perf_counter() - started) / runs * 1e6


def catastrophic_table(timeout_s: float, runs: int) -> list[str]:
    rows = ["| run of `a` | Python `re` | RE2 |", "| ---: | ---: | ---: |"]
    finder = tenant_patterns.code_finder(CATASTROPHIC)
    for n in RUNS:
        text = " " + "a" * n + "1"
        python = python_seconds(CATASTROPHIC, text, timeout_s)
        re2_us = _per_call_us(lambda text=text: finder.search(text), runs)
        shown = f"{python:.2f} s" if python is not None else f"> {timeout_s:.0f} s (stopped)"
        rows.append(f"| {n} | {shown} | {re2_us:.1f} µs |")
    return rows


def realistic_table(runs: int) -> list[str]:
    rows = [
        "| pattern | search: `re` | search: RE2 | whole value: `re` | whole value: RE2 | RE2 compile |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, pattern, line, value in REALISTIC:
        python_regex, python_whole = _python_reader_regex(pattern), re.compile(pattern)
        tenant_patterns._compiled.cache_clear()
        tenant_patterns.token_finder.cache_clear()
        compile_us = _per_call_us(lambda pattern=pattern: tenant_patterns.pattern_refusal(pattern), 1)
        finder = tenant_patterns.code_finder(pattern)
        found = finder.search(line)
        assert found is not None and python_regex.search(line) is not None, name
        cells = [
            _per_call_us(lambda r=python_regex, line=line: r.search(line), runs),
            _per_call_us(lambda line=line, finder=finder: finder.search(line), runs),
            _per_call_us(lambda r=python_whole, value=value: r.fullmatch(value), runs),
            _per_call_us(lambda p=pattern, value=value: tenant_patterns.fullmatch(p, value), runs),
        ]
        rows.append(
            f"| {name} `{pattern}` | "
            + " | ".join(f"{c:.1f} µs" for c in cells)
            + f" | {compile_us:.0f} µs |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--python-timeout", type=float, default=120.0)
    parser.add_argument("--runs", type=int, default=2000)
    args = parser.parse_args()
    print(f"## `{CATASTROPHIC}` on the text beside its label\n")
    print("\n".join(catastrophic_table(args.python_timeout, args.runs)))
    print("\n## Realistic patterns, per match\n")
    print("\n".join(realistic_table(args.runs)))


if __name__ == "__main__":
    main()
