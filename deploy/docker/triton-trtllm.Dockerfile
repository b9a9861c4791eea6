# syntax=docker/dockerfile:1
# The serving image of the TensorRT-LLM path: Triton 2.71 (NGC 26.07) with its Python backend,
# TensorRT-LLM 1.3.0rc29 (PyTorch backend, Gemma 4), and this project (doc_pipeline and the Gemma
# models' model.py import it). No published NGC Triton image ships TensorRT-LLM 1.3 (the
# *-trtllm-python-py3 images follow triton-inference-server/tensorrtllm_backend, whose Dockerfile
# builds 1.2.1), so Triton's files are copied into NVIDIA's TensorRT-LLM release image, which
# carries the CUDA toolkit, PyTorch, MPI and FlashInfer's JIT that TensorRT-LLM was built against.
# The stock llmapi model (triton_backend/all_models/llmapi) is not needed: model_repo/gemma4_e4b
# is its extended copy. Built from the repository root:
#
#   docker build -f deploy/docker/triton-trtllm.Dockerfile -t docintel-triton-trtllm .
#
# Not built or run in CI (no Docker engine, no GPU): tests/unit/deploy/test_dockerfiles.py checks
# the pins only. Record the digests of both base images when you first build it.
ARG TRTLLM_IMAGE=nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc29
ARG TRITON_IMAGE=nvcr.io/nvidia/tritonserver:26.07-py3

FROM ${TRITON_IMAGE} AS triton

FROM ${TRTLLM_IMAGE}
# The image's Python is Ubuntu's (PEP 668): installing into it is the intent here.
ENV DEBIAN_FRONTEND=noninteractive PIP_NO_CACHE_DIR=1 PIP_BREAK_SYSTEM_PACKAGES=1
# Triton's runtime libraries (Ubuntu 24.04 names; Triton's build.py lists them for its own image)
# and, for the Python backend, libarchive and libpython.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libb64-0d libcurl4t64 libgoogle-perftools4t64 libjemalloc2 libnuma1 libssl3t64 \
        libarchive13t64 libpython3.12t64 curl \
    && rm -rf /var/lib/apt/lists/*
COPY --from=triton /opt/tritonserver /opt/tritonserver
ENV PATH=/opt/tritonserver/bin:${PATH} \
    LD_LIBRARY_PATH=/opt/tritonserver/lib:${LD_LIBRARY_PATH}

# The project itself, resolved together with the TensorRT-LLM already in the image: pip keeps every
# shared dependency within TensorRT-LLM's own pins, or fails the build.
WORKDIR /opt/docintel
COPY . /opt/docintel
RUN python3 -m pip install "tensorrt_llm==1.3.0rc29" -e . \
    && python3 -c "import sys, tensorrt_llm; sys.exit(tensorrt_llm.__version__ != '1.3.0rc29')"

EXPOSE 8100 8101 8102
CMD ["scripts/gpu/serve.sh"]
