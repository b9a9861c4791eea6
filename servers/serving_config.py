"""The Gemma 4 engines' serving configuration (``deploy/serving/gemma4.toml``), rendered per engine.

One file holds what every engine must be started with — the structured-output backend and its
options, the media one request may carry, each model's maximum length — and each engine's flags
for them; everything that starts or documents an engine renders its command from here:

* ``servers/vllm_server.py`` (CI, ``make up``, the benchmarks): :func:`engine_flags` for vLLM;
* ``deploy/k8s/gemma4/engines.yaml``: :func:`command` per model, written by
  ``python -m servers.serving_config k8s``;
* docs/gemma4.md's serving table: ``python -m servers.serving_config table``.

``tests/unit/deploy/test_serving_config.py`` fails when a rendered copy drifts from this file, or
this file from ``engines.llm.gpu_plan`` and the in-Triton models' ``model.yaml``. Standard library
only, so an engine's image can run it too.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
CONFIG_PATH = REPO_ROOT / "deploy" / "serving" / "gemma4.toml"
NAMES = "{names}"  # a flag list item standing for the served names, one item each


@dataclass(frozen=True)
class Model:
    name: str  # the served name doc_pipeline asks for
    role: str  # classify or extract
    checkpoint: str
    max_model_len: int


@dataclass(frozen=True)
class Engine:
    key: str
    title: str
    version: str
    checked: str
    image: str
    command: tuple[str, ...]
    flags: tuple[str, ...]
    config: dict[str, str]  # a YAML file of options the engine reads (trtllm-serve's --config)


@dataclass(frozen=True)
class ServingConfig:
    structured_outputs: dict[str, Any]
    limit_mm_per_prompt: dict[str, int]
    models: dict[str, Model]
    engines: dict[str, Engine]

    def values(self, names: Sequence[str]) -> dict[str, str]:
        """What the placeholders of an engine's command stand for, serving ``names``."""
        models = [self.models[name] for name in names]
        lengths = {model.max_model_len for model in models}
        if len(lengths) != 1:
            raise ValueError(f"one server cannot serve {', '.join(names)}: their max_model_len differ")
        return {
            "checkpoint": models[0].checkpoint,
            "max_model_len": str(lengths.pop()),
            "limit_mm_per_prompt": _compact(self.limit_mm_per_prompt),
            "structured_outputs": _compact(self.structured_outputs),
            "structured_backend": str(self.structured_outputs["backend"]),
        }


def _compact(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"))


def load(path: Path = CONFIG_PATH) -> ServingConfig:
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    return ServingConfig(
        structured_outputs=dict(raw["structured_outputs"]),
        limit_mm_per_prompt={kind: int(count) for kind, count in raw["limit_mm_per_prompt"].items()},
        models={name: Model(name=name, **fields) for name, fields in raw["models"].items()},
        engines={
            key: Engine(
                key=key,
                title=fields["title"],
                version=fields["version"],
                checked=fields["checked"],
                image=fields["image"],
                command=tuple(fields["command"]),
                flags=tuple(fields["flags"]),
                config=dict(fields.get("config", {})),
            )
            for key, fields in raw["engines"].items()
        },
    )


def _render(items: Sequence[str], names: Sequence[str], values: dict[str, str]) -> list[str]:
    rendered: list[str] = []
    for item in items:
        rendered.extend(names if item == NAMES else [item.format(**values)])
    return rendered


def engine_flags(engine: str, names: Sequence[str], config: ServingConfig | None = None) -> list[str]:
    """``engine``'s flags serving the models ``names`` (one server, one checkpoint)."""
    config = config or load()
    return _render(config.engines[engine].flags, names, config.values(names))


def command(engine: str, names: Sequence[str], config: ServingConfig | None = None) -> list[str]:
    """``engine``'s whole command line serving ``names`` from the first one's checkpoint."""
    config = config or load()
    values = config.values(names)
    spec = config.engines[engine]
    return [*_render(spec.command, names, values), *_render(spec.flags, names, values)]


def engine_config(engine: str, config: ServingConfig | None = None) -> dict[str, str]:
    """The options file an engine reads beside its flags (trtllm-serve's ``--config``), rendered."""
    config = config or load()
    values = config.values(list(config.models)[:1])
    return {key: value.format(**values) for key, value in config.engines[engine].config.items()}


def _shell(words: Sequence[str]) -> str:
    import shlex

    return " ".join(shlex.quote(word) for word in words)


def markdown_table(config: ServingConfig | None = None) -> str:
    """docs/gemma4.md's serving table: one line per engine, the classifier's command."""
    config = config or load()
    classifier = next(m.name for m in config.models.values() if m.role == "classify")
    lines = [
        "| engine | version checked | command (the classifier; the extractor likewise) | checked against |",
        "| --- | --- | --- | --- |",
    ]
    for key, engine in config.engines.items():
        rendered = f"`{_shell(command(key, [classifier], config))}`"
        options = engine_config(key, config)
        if options:
            rendered += " with " + ", ".join(f"`{k}: {v}`" for k, v in options.items())
        lines.append(f"| {engine.title} | {engine.version} | {rendered} | {engine.checked} |")
    return "\n".join(lines)


def k8s_args(config: ServingConfig | None = None) -> dict[str, list[str]]:
    """Per served model, the container command of its vLLM Deployment (one model a server)."""
    config = config or load()
    return {name: [*command("vllm", [name], config), "--port", "8000"] for name in config.models}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("what", choices=("table", "k8s", "command"))
    parser.add_argument("--engine", default="vllm")
    parser.add_argument("names", nargs="*", help="served names (command)")
    args = parser.parse_args(argv)
    if args.what == "table":
        print(markdown_table())
    elif args.what == "k8s":
        print(json.dumps(k8s_args(), indent=2))
    else:
        print(_shell(command(args.engine, args.names)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
