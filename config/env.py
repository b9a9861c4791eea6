"""Typed readers for environment variables.

Every setting that differs between a laptop, CI and production comes from the environment, so
that production values never live in the repository. Each helper has a safe development default.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_optional(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ValueError(f"environment variable {name} must be an integer, got {raw!r}") from exc


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError as exc:
        raise ValueError(f"environment variable {name} must be a number, got {raw!r}") from exc


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_path(name: str, default: Path) -> Path:
    raw = os.environ.get(name)
    return Path(raw) if raw else default


def env_json(name: str, default: object) -> object:
    """A JSON value (an object, a list): structured settings such as a mapping, checked at start."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise ValueError(f"environment variable {name} must be JSON: {exc}") from exc
