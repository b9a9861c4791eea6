"""deploy/serving/gemma4.toml is the one serving configuration of the Gemma 4 engines (issue 50
item 9): everything that starts or documents an engine renders it, and it agrees with the memory
plan and the in-Triton models. Each test fails when one copy drifts."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from engines.llm import gpu_plan
from engines.llm.model_client import ModelSettings
from servers import serving_config, vllm_server

REPO_ROOT = Path(__file__).resolve().parents[3]
CONFIG = serving_config.load()


def _flag(command: list[str], flag: str) -> str:
    return command[command.index(flag) + 1]


def test_each_models_maximum_length_is_gpu_plans() -> None:
    limits = gpu_plan.engine_limits()
    assert {m.max_model_len for m in CONFIG.models.values()} == {limits.max_seq_len}
    assert limits.max_seq_len >= gpu_plan.sequence_tokens(CONFIG.limit_mm_per_prompt["image"])


def test_the_media_per_request_are_doc_pipelines_pages_and_nothing_else() -> None:
    assert CONFIG.limit_mm_per_prompt == {"image": gpu_plan.MAX_IMAGES_PER_CALL, "video": 0, "audio": 0}
    pbtxt = (REPO_ROOT / "model_repo" / "doc_pipeline" / "configs" / "gemma4.pbtxt").read_text()
    block = pbtxt[pbtxt.index('key: "max_images_per_call"') :]
    assert f'string_value: "{gpu_plan.MAX_IMAGES_PER_CALL}"' in block.split("}")[0] + "}"


def test_the_structured_output_backend_is_pinned_and_the_in_triton_models_agree() -> None:
    assert CONFIG.structured_outputs == {"backend": "xgrammar", "disable_any_whitespace": True}
    for name in ("gemma4_e4b", "gemma4_26b_a4b"):
        model_yaml = yaml.safe_load((REPO_ROOT / "model_repo" / name / "1" / "model.yaml").read_text())
        assert model_yaml["guided_decoding_backend"] == CONFIG.structured_outputs["backend"], name
        assert {model_yaml["max_seq_len"]} == {m.max_model_len for m in CONFIG.models.values()}, name


def test_the_served_names_are_the_ones_doc_pipeline_asks_for() -> None:
    settings = ModelSettings.from_sources({}, {})
    roles = {model.role: name for name, model in CONFIG.models.items()}
    assert roles == {"classify": settings.classify_model, "extract": settings.extract_model}
    assert set(vllm_server.SERVED_NAMES) == set(CONFIG.models)


def test_the_cpu_engine_runs_the_serving_configurations_vllm_flags() -> None:
    """CI's vLLM (servers/vllm_server.py) is started with the flags production is told to use."""
    command = vllm_server.build_command(vllm_server.DEFAULT_CHECKPOINT)
    flags = serving_config.engine_flags("vllm", vllm_server.SERVED_NAMES)
    start = command.index(flags[0])
    assert command[start : start + len(flags)] == flags
    assert _flag(command, "--max-model-len") == str(gpu_plan.engine_limits().max_seq_len)
    assert json.loads(_flag(command, "--limit-mm-per-prompt")) == {"image": 4, "video": 0, "audio": 0}
    assert json.loads(_flag(command, "--structured-outputs-config")) == CONFIG.structured_outputs
    assert "--trust-request-mm-kwargs" in command


def test_the_kubernetes_engines_are_rendered_from_it() -> None:
    """deploy/k8s/gemma4/engines.yaml: one vLLM Deployment per model, its command the rendered one,
    its image the version the vLLM line was checked against; Triton points each role at its own."""
    documents = list(
        yaml.safe_load_all((REPO_ROOT / "deploy" / "k8s" / "gemma4" / "engines.yaml").read_text())
    )
    deployments = {d["metadata"]["name"]: d for d in documents if d and d["kind"] == "Deployment"}
    assert set(deployments) == set(CONFIG.models)
    for name, expected in serving_config.k8s_args().items():
        (container,) = deployments[name]["spec"]["template"]["spec"]["containers"]
        assert container["command"] == expected, (
            f"engines.yaml {name}: run python -m servers.serving_config k8s"
        )
        assert container["image"] == CONFIG.engines["vllm"].image
        assert container["image"].endswith(CONFIG.engines["vllm"].version)
    kustomization = (REPO_ROOT / "deploy" / "k8s" / "gemma4" / "kustomization.yaml").read_text()
    for name, model in CONFIG.models.items():
        assert f'DOCINTEL_{model.role.upper()}_MODEL_URL, value: "http://{name}:8000/v1"' in kustomization


def test_docs_carry_the_serving_table() -> None:
    page = (REPO_ROOT / "docs" / "gemma4.md").read_text(encoding="utf-8")
    assert serving_config.markdown_table() in page, (
        "docs/gemma4.md: run python -m servers.serving_config table"
    )
