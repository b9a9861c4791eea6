"""The CPU reference engine: pure Python, no Django.

Used by the CPU Triton models (model_repo/doc_pipeline), by ``manage.py extract --engine local``
and by apps/extraction's validators. Nothing here may import Django or touch the network.
"""

ENGINE_NAME = "cpu-reference"
ENGINE_VERSION = "0.6.0"
