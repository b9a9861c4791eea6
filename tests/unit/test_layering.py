"""The import rules between the top-level packages, read from the source with ``ast``.

    engines   the reference engine: no Django, nothing of the application (it runs inside Triton)
    media     PDF guard, sandbox and rendering, preprocessing, the Triton client: no Django, no apps
    servers   the Triton and vLLM launchers: no Django, nothing of the application
    apps      the Django apps: may use media, servers and engines, never workers
    workers   Celery tasks and the dispatcher: adapters over apps' services, on top of everything

Every import counts, also one inside a function: a deferred import is still a dependency.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# package -> the top-level names its modules must not import
FORBIDDEN: dict[str, frozenset[str]] = {
    "apps": frozenset({"workers"}),
    "media": frozenset({"django", "apps", "workers", "servers"}),
    "servers": frozenset({"django", "apps", "workers", "media"}),
    "engines": frozenset({"django", "apps", "workers", "media", "servers"}),
}


def imported_names(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, dotted module name) of every absolute import in ``tree``; relative imports stay
    inside their own package and cannot cross a layer."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module


def violations(package: str, forbidden: frozenset[str], root: Path = ROOT) -> list[str]:
    """``path:line imports name`` for each import in ``package`` of a forbidden top-level name."""
    found = []
    for path in sorted((root / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, name in sorted(imported_names(tree)):
            if name.split(".")[0] in forbidden:
                found.append(f"{path.relative_to(root)}:{line} imports {name}")
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_only_what_its_layer_allows(package: str) -> None:
    assert (ROOT / package / "__init__.py").exists(), f"{package}/ is not a package here"
    assert violations(package, FORBIDDEN[package]) == []


def test_a_forbidden_import_is_found_wherever_it_hides(tmp_path: Path) -> None:
    """The check itself: top level, inside a function, ``from x import y`` and ``import x.y``."""
    package = tmp_path / "media"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "clean.py").write_text(
        "import numpy\nfrom engines.types import EngineError\nfrom . import x\n"
    )
    (package / "bad.py").write_text(
        "import django.conf\n\n"
        "def later():\n"
        "    from workers.tasks import prepare\n\n"
        "from apps import documents\n"
    )
    assert violations("media", FORBIDDEN["media"], root=tmp_path) == [
        "media/bad.py:1 imports django.conf",
        "media/bad.py:4 imports workers.tasks",
        "media/bad.py:6 imports apps",
    ]
