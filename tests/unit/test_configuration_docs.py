"""docs/configuration.md is generated from one registry of settings (config/settings_registry.py).

Fails when the page differs from what scripts/gen_config_docs.py writes, when the code reads a
``DOCINTEL_*`` variable the registry does not list, or when an entry's ``source`` file no longer
names it (the setting moved or is gone).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

from config.settings_registry import PROCESSES, SECTIONS, SETTINGS

REPO_ROOT = Path(__file__).resolve().parents[2]
# Where settings are read: the code, its scripts and manifests, the tests and the benchmarks.
SCANNED_DIRS = (
    "apps",
    "workers",
    "engines",
    "media",
    "config",
    "model_repo",
    "scripts",
    "deploy",
    "bench",
    "synth",
    "tests",
)
SCANNED_FILES = ("Makefile", "manage.py")
SCANNED_SUFFIXES = frozenset({".py", ".sh", ".pbtxt", ".yaml", ".yml", ".toml", ".cfg", ".ini"})
NAME = re.compile(r"\bDOCINTEL_[A-Z0-9_]*[A-Z0-9]\b")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_config_docs", REPO_ROOT / "scripts" / "gen_config_docs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _scanned_files() -> list[Path]:
    files = [REPO_ROOT / name for name in SCANNED_FILES if (REPO_ROOT / name).is_file()]
    for folder in SCANNED_DIRS:
        root = REPO_ROOT / folder
        if not root.is_dir():
            continue  # media/ is being created
        for path in root.rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix in SCANNED_SUFFIXES or path.name.startswith(("Dockerfile", "Makefile")):
                files.append(path)
    return files


def names_in_code() -> dict[str, str]:
    """Every DOCINTEL_* name the scanned files mention, with one file that does."""
    found: dict[str, str] = {}
    for path in _scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for name in NAME.findall(text):
            found.setdefault(name, str(path.relative_to(REPO_ROOT)))
    return found


def test_the_page_is_what_the_generator_writes() -> None:
    page = (REPO_ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert page == _generator().render(), (
        "docs/configuration.md is out of date: run .venv/bin/python scripts/gen_config_docs.py"
    )


def test_every_docintel_variable_the_code_reads_is_registered() -> None:
    registered = {setting.name for setting in SETTINGS}
    missing = {name: where for name, where in names_in_code().items() if name not in registered}
    assert not missing, (
        "add these to config/settings_registry.py (then run scripts/gen_config_docs.py): "
        + ", ".join(f"{name} (in {where})" for name, where in sorted(missing.items()))
    )


def test_each_entry_names_a_file_that_reads_it() -> None:
    stale = []
    for setting in SETTINGS:
        source = REPO_ROOT / setting.source
        if not source.is_file() or setting.name not in source.read_text(encoding="utf-8", errors="replace"):
            stale.append(f"{setting.name} (source {setting.source})")
    assert not stale, "registry entries whose source no longer names them: " + ", ".join(stale)


def test_entries_are_well_formed() -> None:
    names = [setting.name for setting in SETTINGS]
    assert len(names) == len(set(names)), "a setting is registered twice"
    for setting in SETTINGS:
        assert setting.section in SECTIONS, setting.name
        assert setting.read_by and set(setting.read_by) <= set(PROCESSES), setting.name
        assert setting.kind in {"env", "setting"}, setting.name
        assert setting.type and setting.description, setting.name
