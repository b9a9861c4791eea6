"""The Triton model repository as files: every config parses, every model.yaml says what the
llmapi model reads, and the GPU variant of doc_pipeline keeps the CPU one's contract."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
MODEL_REPO = REPO_ROOT / "model_repo"
CONFIGS = sorted(MODEL_REPO.rglob("*.pbtxt"))
MODEL_YAMLS = sorted(MODEL_REPO.rglob("model.yaml"))


def _config(path: Path):
    from google.protobuf import text_format
    from tritonclient.grpc import model_config_pb2

    return text_format.Parse(path.read_text(), model_config_pb2.ModelConfig())


def test_the_repository_has_the_models_this_release_ships():
    names = {p.relative_to(MODEL_REPO).as_posix() for p in CONFIGS}
    assert {"doc_pipeline/config.pbtxt", "doc_pipeline/configs/gpu.pbtxt"} <= names
    assert {"gemma4_e4b/config.pbtxt", "gemma4_26b_a4b/config.pbtxt"} <= names
    assert len(MODEL_YAMLS) >= 2


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.relative_to(MODEL_REPO).as_posix())
def test_every_config_parses_as_a_triton_model_config(path):
    config = _config(path)
    folder = path.parent.parent if path.parent.name == "configs" else path.parent
    assert config.name == folder.name
    if config.backend == "python":
        model_file = config.default_model_filename or "model.py"
        assert (folder / "1" / model_file).is_file()


@pytest.mark.parametrize("path", MODEL_YAMLS, ids=lambda p: p.relative_to(MODEL_REPO).as_posix())
def test_every_model_yaml_has_what_the_llmapi_model_reads(path):
    data = yaml.safe_load(path.read_text())
    assert isinstance(data["model"], str) and data["model"].startswith("${")  # set at deployment
    assert data["backend"] == "pytorch"
    assert data["guided_decoding_backend"] == "xgrammar"
    triton = data["triton_config"]
    assert triton["multimodal"] is True
    assert set(triton) >= {"max_batch_size", "decoupled"}
    assert data["kv_cache_config"]["enable_block_reuse"] is False
    assert 0 < data["kv_cache_config"]["free_gpu_memory_fraction"] < 1
    # Our launcher disables auto-complete: config.pbtxt must already say what triton_config says.
    config = _config(path.parent.parent / "config.pbtxt")
    assert config.max_batch_size == triton["max_batch_size"]
    assert config.model_transaction_policy.decoupled == triton["decoupled"]


def test_gemma_models_have_the_extended_llmapi_tensors():
    for name in ("gemma4_e4b", "gemma4_26b_a4b"):
        config = _config(MODEL_REPO / name / "config.pbtxt")
        inputs = {i.name: i for i in config.input}
        outputs = {o.name for o in config.output}
        assert {"text_input", "image_url", "guided_json", "return_token_logprobs"} <= set(inputs)
        assert {"text_output", "output_token_ids", "output_log_probs", "output_token_offsets"} <= outputs
        assert inputs["guided_json"].optional and inputs["image_url"].optional
    linked = MODEL_REPO / "gemma4_26b_a4b" / "1" / "model.py"
    assert linked.resolve() == (MODEL_REPO / "gemma4_e4b" / "1" / "model.py").resolve()


def test_gpu_doc_pipeline_keeps_the_cpu_contract():
    from google.protobuf.json_format import MessageToDict

    cpu = _config(MODEL_REPO / "doc_pipeline" / "config.pbtxt")
    gpu = _config(MODEL_REPO / "doc_pipeline" / "configs" / "gpu.pbtxt")
    assert gpu.name == cpu.name == "doc_pipeline"
    assert [MessageToDict(i) for i in gpu.input] == [MessageToDict(i) for i in cpu.input]
    assert [MessageToDict(o) for o in gpu.output] == [MessageToDict(o) for o in cpu.output]
    assert gpu.default_model_filename == "gpu_model.py"
    assert gpu.parameters["engine"].string_value == "gemma4"


@pytest.mark.parametrize(
    ("value", "models", "config_name"),
    [
        ("", ("doc_pipeline",), None),
        ("cpu", ("doc_pipeline",), None),
        ("GPU", ("gemma4_e4b", "gemma4_26b_a4b", "doc_pipeline"), "gpu"),
    ],
)
def test_pipeline_variant_is_one_setting(value, models, config_name):
    from workers import triton_server

    assert triton_server.pipeline_variant({"DOCINTEL_PIPELINE_VARIANT": value}) == (models, config_name)
    installation = triton_server.TritonInstallation(
        binary=Path("/bin/tritonserver"), bundled=False, backend_directory=None
    )
    command = triton_server.build_command(
        installation,
        model_repository=MODEL_REPO,
        http_port=1,
        grpc_port=2,
        metrics_port=3,
        models=models,
        config_name=config_name,
    )
    assert ("--model-config-name=gpu" in command) == (config_name == "gpu")
    assert [c for c in command if c.startswith("--load-model=")] == [f"--load-model={m}" for m in models]


def test_unknown_pipeline_variant_is_refused():
    from workers import triton_server

    with pytest.raises(ValueError, match="DOCINTEL_PIPELINE_VARIANT"):
        triton_server.pipeline_variant({"DOCINTEL_PIPELINE_VARIANT": "tpu"})
