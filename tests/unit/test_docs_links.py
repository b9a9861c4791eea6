"""Every relative link in README.md and docs/**/*.md resolves: the file exists inside the
repository, and a ``#fragment`` into a Markdown file names one of its headings (GitHub's anchors).

Links to web addresses (``https:``, ``mailto:``) are not followed; links inside code blocks and
code spans are not links.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def markdown_files() -> list[Path]:
    return [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").rglob("*.md"))]


def _prose_lines(text: str, *, blank_code: bool = True) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks, with code spans blanked unless told not to."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, _CODE_SPAN.sub("", line) if blank_code else line))
    return lines


def links(path: Path) -> list[tuple[int, str]]:
    """(line number, target) of every link in a Markdown file."""
    found = []
    for number, line in _prose_lines(path.read_text(encoding="utf-8")):
        found.extend((number, m.group(1)) for m in _INLINE_LINK.finditer(line))
        reference = _REFERENCE.match(line)
        if reference:
            found.append((number, reference.group(1)))
    return found


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text in lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    kept = "".join(
        c
        for c in text
        if c in " -_" or unicodedata.category(c)[0] in "LNM" or unicodedata.category(c) == "Pc"
    )
    return kept.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    seen: dict[str, int] = {}
    result = set()
    for _, line in _prose_lines(path.read_text(encoding="utf-8"), blank_code=False):
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return frozenset(result)


def broken_links(path: Path) -> list[str]:
    problems = []
    for number, target in links(path):
        if _SCHEME.match(target) or target.startswith("//"):
            continue  # a web address
        file_part, _, fragment = target.partition("#")
        where = f"{path.relative_to(REPO_ROOT)}:{number}: {target}"
        resolved = (path.parent / file_part).resolve() if file_part else path
        if not resolved.is_relative_to(REPO_ROOT):
            problems.append(f"{where} (outside the repository)")
        elif not resolved.exists():
            problems.append(f"{where} (no such file)")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            problems.append(f"{where} (no heading #{fragment} in {resolved.relative_to(REPO_ROOT)})")
    return problems


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_relative_links_resolve(path: Path) -> None:
    problems = broken_links(path)
    assert not problems, "broken links:\n" + "\n".join(problems)


def test_the_checker_sees_links_and_headings() -> None:
    assert slug("What is untested: the GPU") == "what-is-untested-the-gpu"
    assert slug("`make bench`") == "make-bench"
    readme = REPO_ROOT / "README.md"
    assert any(target.startswith("docs/") for _, target in links(readme))
