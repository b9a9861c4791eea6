#!/usr/bin/env bash
# Quantise a Gemma 4 Hugging Face checkpoint with TensorRT Model Optimizer (hf_ptq.py) for the
# GPU path: NVFP4 weights on Blackwell (B200, RTX PRO 6000), FP8 on Hopper, FP8 KV cache. The
# language model is quantised; the vision (and audio) tower stays BF16: hf_ptq.py quantises the
# language model of a vision-language model only, and this script checks the result says so.
#
#   scripts/gpu/quantize.sh SRC_HF_DIR OUT_DIR [nvfp4|fp8]
#
# Needs a GPU, `pip install nvidia-modelopt[hf]` and a checkout of NVIDIA/Model-Optimizer
# (MODELOPT_DIR, default ./Model-Optimizer) for examples/llm_ptq/hf_ptq.py. Calibration data
# comes from hf_ptq.py's default datasets; set CALIB_SIZE / CALIB_BATCH to change its size.
set -euo pipefail
SRC="${1:?source checkpoint directory}"
OUT="${2:?output directory}"
QFORMAT="${3:-nvfp4}"
MODELOPT_DIR="${MODELOPT_DIR:-./Model-Optimizer}"
PTQ="$MODELOPT_DIR/examples/llm_ptq/hf_ptq.py"

case "$QFORMAT" in nvfp4|fp8) ;; *) echo "quantize.sh: format must be nvfp4 or fp8" >&2; exit 2 ;; esac
[ -f "$SRC/config.json" ] || { echo "quantize.sh: $SRC has no config.json" >&2; exit 1; }
[ -f "$PTQ" ] || { echo "quantize.sh: $PTQ not found (set MODELOPT_DIR)" >&2; exit 1; }
python3 -c "import json,sys; t=json.load(open('$SRC/config.json'))['model_type']; sys.exit(0 if t.startswith('gemma4') else 'not a Gemma 4 checkpoint: '+t)"

python3 "$PTQ" \
  --pyt_ckpt_path "$SRC" \
  --qformat "$QFORMAT" \
  --kv_cache_qformat fp8 \
  --calib_size "${CALIB_SIZE:-512}" \
  --batch_size "${CALIB_BATCH:-8}" \
  --export_path "$OUT"

# The processor's files (chat template, image processor) travel with the weights.
for f in processor_config.json preprocessor_config.json chat_template.jinja chat_template.json \
         tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json; do
  [ -f "$SRC/$f" ] && [ ! -f "$OUT/$f" ] && cp "$SRC/$f" "$OUT/$f"
done

python3 - "$OUT" "$QFORMAT" <<'PY'
import json, sys
out, qformat = sys.argv[1], sys.argv[2]
config = json.load(open(f"{out}/hf_quant_config.json"))["quantization"]
algo = str(config.get("quant_algo", "")).upper()
assert algo.startswith(qformat.upper()), f"quant_algo {algo}, expected {qformat}"
assert str(config.get("kv_cache_quant_algo", "")).upper() == "FP8", "KV cache is not FP8"
excluded = " ".join(config.get("exclude_modules") or [])
assert "vision" in excluded, "the vision tower is not excluded from quantisation"
print(f"{out}: {algo} weights, FP8 KV cache, vision tower kept in BF16")
PY
