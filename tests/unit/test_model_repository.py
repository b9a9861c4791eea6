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
    assert {"doc_pipeline/config.pbtxt", "doc_pipeline/configs/gemma4.pbtxt"} <= names
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
        assert {
            "text_input",
            "image_url",
            "guided_json",
            "return_token_logprobs",
            "return_token_alternatives",
        } <= set(inputs)
        assert {
            "text_output",
            "output_token_ids",
            "output_log_probs",
            "output_token_offsets",
            "output_token_choices",
        } <= outputs
        assert inputs["guided_json"].optional and inputs["image_url"].optional
    linked = MODEL_REPO / "gemma4_26b_a4b" / "1" / "model.py"
    assert linked.resolve() == (MODEL_REPO / "gemma4_e4b" / "1" / "model.py").resolve()


def test_gemma4_doc_pipeline_keeps_the_reference_contract():
    from google.protobuf.json_format import MessageToDict

    cpu = _config(MODEL_REPO / "doc_pipeline" / "config.pbtxt")
    gpu = _config(MODEL_REPO / "doc_pipeline" / "configs" / "gemma4.pbtxt")
    assert gpu.name == cpu.name == "doc_pipeline"
    assert [MessageToDict(i) for i in gpu.input] == [MessageToDict(i) for i in cpu.input]
    assert [MessageToDict(o) for o in gpu.output] == [MessageToDict(o) for o in cpu.output]
    assert gpu.default_model_filename == "gemma4_model.py"
    assert gpu.parameters["engine"].string_value == "gemma4"


@pytest.mark.parametrize(
    ("value", "backend", "models", "config_name"),
    [
        ("", "", ("doc_pipeline",), None),
        ("reference", "openai", ("doc_pipeline",), None),
        ("cpu", "", ("doc_pipeline",), None),
        ("gemma4", "", ("doc_pipeline",), "gemma4"),
        ("gemma4", "openai", ("doc_pipeline",), "gemma4"),
        ("GPU", "tensorrt_llm", ("gemma4_e4b", "gemma4_26b_a4b", "doc_pipeline"), "gemma4"),
    ],
)
def test_pipeline_variant_is_one_setting(value, backend, models, config_name):
    from servers import triton_server

    environ = {"DOCINTEL_PIPELINE_VARIANT": value, "DOCINTEL_MODEL_BACKEND": backend}
    assert triton_server.pipeline_variant(environ) == (models, config_name)
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
    assert ("--model-config-name=gemma4" in command) == (config_name == "gemma4")
    assert [c for c in command if c.startswith("--load-model=")] == [f"--load-model={m}" for m in models]


def test_unknown_pipeline_variant_is_refused():
    from servers import triton_server

    with pytest.raises(ValueError, match="DOCINTEL_PIPELINE_VARIANT"):
        triton_server.pipeline_variant({"DOCINTEL_PIPELINE_VARIANT": "tpu"})


# --- gemma4_e4b / gemma4_26b_a4b: the TensorRT-LLM path (model_repo/TENSORRT_LLM.md) -------------

GEMMA_MODELS = ("gemma4_e4b", "gemma4_26b_a4b")


def _support():
    """The Gemma model's Triton-free helpers (``gemma4_support.py`` beside its model.py)."""
    import importlib.util

    path = MODEL_REPO / "gemma4_e4b" / "1" / "gemma4_support.py"
    spec = importlib.util.spec_from_file_location("gemma4_support", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _parameter(config, key: str) -> str:
    return config.parameters[key].string_value


@pytest.mark.parametrize("name", GEMMA_MODELS)
def test_gemma_engine_limits_are_the_memory_plans(name):
    """One source of truth: model.yaml's sequence and step sizes, the page limit and the page
    budget are engines.llm.gpu_plan's, and doc_pipeline sends no more pages than that."""
    from engines.llm import gpu_plan

    data = yaml.safe_load((MODEL_REPO / name / "1" / "model.yaml").read_text())
    limits = gpu_plan.engine_limits()
    assert (data["max_seq_len"], data["max_num_tokens"], data["max_batch_size"]) == (
        limits.max_seq_len,
        limits.max_num_tokens,
        limits.max_batch_size,
    )
    assert data["max_seq_len"] >= gpu_plan.MAX_IMAGES_PER_CALL * (1120 + 2) + 900 + 512
    assert data["tensor_parallel_size"] == data["pipeline_parallel_size"] == 1  # one process per model
    config = _config(MODEL_REPO / name / "config.pbtxt")
    assert int(_parameter(config, "max_images")) == gpu_plan.MAX_IMAGES_PER_CALL
    assert int(_parameter(config, "max_soft_tokens")) == gpu_plan.IMAGE_TOKENS
    pipelines = [_config(p) for p in sorted((MODEL_REPO / "doc_pipeline" / "configs").glob("*.pbtxt"))]
    sent = [
        int(_parameter(c, "max_images_per_call")) for c in pipelines if "max_images_per_call" in c.parameters
    ]
    assert sent and all(pages <= gpu_plan.MAX_IMAGES_PER_CALL for pages in sent)


def test_gemma_kv_fractions_are_the_rtx_pro_6000_plan_and_leave_the_b200_its_headroom():
    from engines.llm import gpu_plan

    committed = [
        yaml.safe_load((MODEL_REPO / name / "1" / "model.yaml").read_text())["kv_cache_config"][
            "free_gpu_memory_fraction"
        ]
        for name in GEMMA_MODELS
    ]
    stack = [gpu_plan.MODELS[n].name for n in ("gemma4-e4b", "gemma4-26b-a4b")]
    for gpu in ("rtx-pro-6000", "b200"):
        planned = [m.free_gpu_memory_fraction for m in gpu_plan.plan(gpu, stack).models]
        assert all(c <= p for c, p in zip(committed, planned, strict=True)), gpu
    assert committed == [m.free_gpu_memory_fraction for m in gpu_plan.plan("rtx-pro-6000", stack).models]


def test_processor_config_rewriting_sets_the_image_budget_and_leaves_video_alone(tmp_path):
    import json

    support = _support()
    (tmp_path / "processor_config.json").write_text(
        json.dumps(
            {
                "processor_class": "Gemma4Processor",
                "image_seq_length": 280,
                "image_processor": {"image_processor_type": "Gemma4ImageProcessor", "max_soft_tokens": 280},
                "video_processor": {"max_soft_tokens": 70},
            }
        )
    )
    (tmp_path / "preprocessor_config.json").write_text(
        json.dumps({"image_processor_type": "Gemma4ImageProcessor", "patch_size": 16})  # default 280
    )
    assert support.read_max_soft_tokens(tmp_path) == 280
    assert support.main(["set-max-soft-tokens", str(tmp_path), "1120"]) == 0
    assert support.read_max_soft_tokens(tmp_path) == 1120
    unified = json.loads((tmp_path / "processor_config.json").read_text())
    assert unified["image_processor"]["max_soft_tokens"] == unified["image_seq_length"] == 1120
    assert unified["video_processor"]["max_soft_tokens"] == 70
    assert json.loads((tmp_path / "preprocessor_config.json").read_text())["max_soft_tokens"] == 1120

    with pytest.raises(support.ModelConfigError, match="one of"):
        support.write_max_soft_tokens(tmp_path, 1000)
    (tmp_path / "preprocessor_config.json").write_text(json.dumps({"max_soft_tokens": 560}))
    with pytest.raises(support.ModelConfigError, match="disagree"):
        support.read_max_soft_tokens(tmp_path)
    with pytest.raises(support.ModelConfigError, match="no image processor"):
        support.read_max_soft_tokens(tmp_path / "missing")


def test_the_model_refuses_a_checkpoint_at_another_budget_or_more_than_one_gpu(tmp_path):
    import json

    support = _support()
    (tmp_path / "processor_config.json").write_text(json.dumps({"image_processor": {"max_soft_tokens": 280}}))
    args = {"model": str(tmp_path), "tensor_parallel_size": 1, "pipeline_parallel_size": 1}
    with pytest.raises(support.ModelConfigError, match="280 soft tokens"):
        support.check_engine_args(args, {"multimodal": True}, 1120)
    support.write_max_soft_tokens(tmp_path, 1120)
    support.check_engine_args(args, {"multimodal": True}, 1120)
    with pytest.raises(support.ModelConfigError, match="parallel"):
        support.check_engine_args({**args, "tensor_parallel_size": 2}, {"multimodal": True}, 1120)
    with pytest.raises(support.ModelConfigError, match="multimodal"):
        support.check_engine_args(args, {}, 1120)


@pytest.mark.parametrize("name", GEMMA_MODELS)
def test_gemma_model_yaml_expands_the_checkpoint_from_the_environment(name, tmp_path):
    support = _support()
    path = MODEL_REPO / name / "1" / "model.yaml"
    variable = yaml.safe_load(path.read_text())["model"].strip("${}")
    engine_args, triton_config = support.load_model_yaml(path, {variable: str(tmp_path)})
    assert engine_args["model"] == str(tmp_path) and "triton_config" not in engine_args
    assert triton_config["multimodal"] is True
    with pytest.raises(support.ModelConfigError, match=variable):
        support.load_model_yaml(path, {})  # comments naming ${VARS} are not values


def test_inherited_mpi_job_variables_are_cleared_and_configuration_kept():
    support = _support()
    environ = {
        "OMPI_COMM_WORLD_RANK": "0",
        "PMIX_NAMESPACE": "job",
        "PMI_SIZE": "1",
        "OMPI_MCA_orte_hnp_uri": "x",
        "ORTE_SOMETHING": "y",
        "OMPI_MCA_btl": "self",
        "PMIX_MCA_gds": "hash",
        "PATH": "/bin",
    }
    removed = support.scrub_inherited_mpi_env(environ)
    assert removed == sorted(
        ["OMPI_COMM_WORLD_RANK", "PMIX_NAMESPACE", "PMI_SIZE", "OMPI_MCA_orte_hnp_uri", "ORTE_SOMETHING"]
    )
    assert environ == {"OMPI_MCA_btl": "self", "PMIX_MCA_gds": "hash", "PATH": "/bin"}
    assert support.launched_with_spawn_proxy({"TLLM_SPAWN_PROXY_PROCESS": "1"})
    assert not support.launched_with_spawn_proxy({})


def _bpe_tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    corpus = ['{"name": "Zoë Müller", "city": "Zürich", "total": "12.50"}'] * 20 + ["plain ascii text"] * 5
    trainer = trainers.BpeTrainer(vocab_size=300, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(corpus, trainer)
    return tokenizer


@pytest.mark.parametrize(
    "text", ['{"name": "Zoë Müller", "city": "Zürich"}', '{"note": "€ 5 — ok ✓", "emoji": "🙂"}', ""]
)
def test_incremental_offsets_decode_short_windows_to_the_whole_text(text):
    """decode_with_offsets (what model.py uses, from engines.llm.confidence) decodes short windows
    only and gives the text decoding everything at once gives, with contiguous spans."""
    support = _support()
    tokenizer = _bpe_tokenizer()
    ids = tokenizer.encode(text).ids
    calls = []

    def decode(window: list[int]) -> str:
        calls.append(len(window))
        return tokenizer.decode(window)

    decoded, offsets = support.decode_with_offsets(ids, decode)
    assert decoded == tokenizer.decode(ids)
    assert all(offsets[i][1] == offsets[i + 1][0] for i in range(len(offsets) - 1))
    assert (offsets[-1][1] if offsets else 0) == len(decoded)
    assert max(calls, default=0) <= 8  # windows, not prefixes


def test_incremental_offsets_give_a_split_character_to_the_token_that_completes_it():
    """A byte-fallback tokenizer (SentencePiece, Gemma) writes one U+FFFD per pending byte; the
    bytes of a character split over three tokens still go to the third token, and a decoder that
    drops the leading space of a text (like SentencePiece's) gives the in-context text."""
    support = _support()
    pieces = {1: b" total", 2: b"\xe2", 3: b"\x82", 4: b"\xac", 5: b" 5"}

    def decode(window: list[int]) -> str:
        raw = b"".join(pieces[t] for t in window)
        cut = len(raw)
        while True:  # the longest prefix that is whole characters, then one U+FFFD per byte
            try:
                head = raw[:cut].decode("utf-8")
                break
            except UnicodeDecodeError:
                cut -= 1
        return (head + "\ufffd" * (len(raw) - cut)).removeprefix(" ")

    text, offsets = support.decode_with_offsets([1, 2, 3, 4, 5], decode)
    assert text == "total€ 5"
    assert offsets == [(0, 5), (5, 5), (5, 5), (5, 6), (6, 8)]


def test_pages_are_png_or_jpeg_data_uris_and_come_before_the_instruction():
    import base64
    import io

    from PIL import Image

    support = _support()
    buffer = io.BytesIO()
    Image.new("L", (48, 96), 255).save(buffer, format="PNG")
    page = support.page_image("data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode())
    assert page.mode == "RGB" and page.size == (48, 96)
    for uri in (
        "https://example.com/page.png",
        "data:image/png;base64,!!",
        "data:image/jpeg;base64,aGVsbG8=",
    ):
        with pytest.raises(support.RequestError):
            support.page_image(uri)
    (turn,) = support.page_conversation("Read it.", 2)
    assert [part["type"] for part in turn["content"]] == ["image", "image", "text"]


def test_serve_script_runs_plain_tritonserver_with_a_config_doc_pipeline_has():
    script = (REPO_ROOT / "scripts" / "gpu" / "serve.sh").read_text()
    commands = [line.strip() for line in script.splitlines() if not line.lstrip().startswith("#")]
    assert "tritonserver \\" in commands and not any(c.startswith("trtllm-llmapi-launch") for c in commands)
    (name,) = [c.split("=", 1)[1].rstrip(" \\") for c in commands if c.startswith("--model-config-name=")]
    assert (MODEL_REPO / "doc_pipeline" / "configs" / f"{name}.pbtxt").is_file()


def test_tensorrt_llm_alternatives_say_how_many_texts_the_grammar_left():
    """TensorRT-LLM's logprobs entries (token id -> Logprob over the top alternatives; a token the
    grammar ruled out at -inf) become engines.llm.confidence's choices per step, decoded one token
    at a time with a real tokenizer; bare floats (no alternatives asked) give none."""
    from dataclasses import dataclass

    from engines.llm.confidence import ALTERNATIVES

    @dataclass
    class Logprob:  # the shape of tensorrt_llm.executor.result.Logprob: logprob and rank
        logprob: float
        rank: int

    support = _support()
    tokenizer = _bpe_tokenizer()
    ids = {text: tokenizer.token_to_id(text) for text in ("a", "e", "n", "m", "t")}
    assert None not in ids.values()
    masked = float("-inf")
    free = {token: Logprob(-1.0 - rank, rank) for rank, token in enumerate(range(ALTERNATIVES))}
    forced = {ids["a"]: Logprob(0.0, 1), **{ids[t]: Logprob(masked, 2) for t in "enmt"}}
    two = {
        ids["e"]: Logprob(-0.1, 1),
        ids["n"]: Logprob(-2.4, 2),
        **{ids[t]: Logprob(masked, 3) for t in "amt"},
    }
    choices = support.step_choices([free, forced, two], lambda token: tokenizer.decode([token]))
    assert choices == [ALTERNATIVES, 1, 2]
    assert support.step_choices([-0.1, -0.3], lambda token: "") is None
