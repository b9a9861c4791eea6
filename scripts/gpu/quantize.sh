#!/usr/bin/env bash
# Quantise a Gemma 4 Hugging Face checkpoint with NVIDIA Model Optimizer (examples/hf_ptq/hf_ptq.py)
# for the TensorRT-LLM path, and give it the document page budget. Blackwell only (B200,
# RTX PRO 6000): TensorRT-LLM does not serve Gemma 4 on Hopper (model_repo/TENSORRT_LLM.md).
#
#   scripts/gpu/quantize.sh SRC_HF_DIR OUT_DIR [nvfp4_mlp_only|nvfp4|fp8]
#
# nvfp4_mlp_only (default) is Model Optimizer's NVFP4 recommendation for accuracy: MLP and expert
# layers in NVFP4, attention in BF16. The KV cache is FP8 (calibrated). Only the language model is
# quantised: hf_ptq.py quantises the language model of a vision-language model, and TensorRT-LLM's
# Gemma 4 wrapper gives the vision tower no quantisation config. Gemma 4 is not in Model
# Optimizer's support matrix: this recipe has not been run (TENSORRT_LLM.md, "Untested").
#
# Needs a GPU, `pip install "nvidia-modelopt[hf]==0.46.0"` with transformers >= 5.5 (Gemma 4),
# and NVIDIA/Model-Optimizer checked out at tag 0.46.0 (MODELOPT_DIR, default ./Model-Optimizer).
# Calibration: hf_ptq.py's default text datasets, CALIB_SIZE samples (default 512), CALIB_BATCH a
# batch (0: hf_ptq.py sizes it). CALIB_WITH_IMAGES=1 passes --calib_with_images (image-text pairs
# from nvidia/nemotron_vlm_dataset_v2; built and tested for Nemotron VL only).
#
# Then the page budget: TensorRT-LLM's Gemma 4 input processor ignores mm_processor_kwargs and
# reads max_soft_tokens from the checkpoint's processor files, so it is written there (1120, the
# max_soft_tokens parameter of model_repo/gemma4_*/config.pbtxt; model.py refuses another).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SRC="${1:?source checkpoint directory}"
OUT="${2:?output directory}"
QFORMAT="${3:-nvfp4_mlp_only}"
MODELOPT_DIR="${MODELOPT_DIR:-./Model-Optimizer}"
PTQ="$MODELOPT_DIR/examples/hf_ptq/hf_ptq.py"
SOFT_TOKENS=1120

case "$QFORMAT" in nvfp4_mlp_only|nvfp4|fp8) ;; *) echo "quantize.sh: format must be nvfp4_mlp_only, nvfp4 or fp8" >&2; exit 2 ;; esac
[ -f "$SRC/config.json" ] || { echo "quantize.sh: $SRC has no config.json" >&2; exit 1; }
[ -f "$PTQ" ] || { echo "quantize.sh: $PTQ not found (Model-Optimizer 0.46.0 renamed examples/llm_ptq to examples/hf_ptq; set MODELOPT_DIR)" >&2; exit 1; }
python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['model_type']; sys.exit(0 if t.startswith('gemma4') else 'not a Gemma 4 checkpoint: '+t)" "$SRC/config.json"

images=()
[ "${CALIB_WITH_IMAGES:-0}" = 1 ] && images=(--calib_with_images)
python3 "$PTQ" \
  --pyt_ckpt_path "$SRC" \
  --qformat "$QFORMAT" \
  --kv_cache_qformat fp8 \
  --calib_size "${CALIB_SIZE:-512}" \
  --batch_size "${CALIB_BATCH:-0}" \
  "${images[@]}" \
  --export_path "$OUT"

# The processor's files (chat template, image processor) travel with the weights.
for f in processor_config.json preprocessor_config.json chat_template.jinja chat_template.json \
         tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json; do
  if [ -f "$SRC/$f" ] && [ ! -f "$OUT/$f" ]; then cp "$SRC/$f" "$OUT/$f"; fi
done
python3 "$ROOT/model_repo/gemma4_e4b/1/gemma4_support.py" set-max-soft-tokens "$OUT" "$SOFT_TOKENS"

python3 - "$OUT" "$QFORMAT" <<'PY'
import json, sys
out, qformat = sys.argv[1], sys.argv[2]
config = json.load(open(f"{out}/hf_quant_config.json"))["quantization"]
algo = str(config.get("quant_algo", "")).upper()
expected = "FP8" if qformat == "fp8" else "NVFP4"
assert algo == expected, f"quant_algo {algo}, expected {expected}"
assert str(config.get("kv_cache_quant_algo", "")).upper() == "FP8", "KV cache is not FP8"
excluded = config.get("exclude_modules") or []
if qformat == "nvfp4_mlp_only":
    assert any("attn" in pattern for pattern in excluded), "attention is not excluded from NVFP4"
print(f"{out}: {algo} weights ({qformat}), FP8 KV cache, {len(excluded)} module patterns kept unquantised")
PY
