"""The GPU path's model-facing logic: prompts, per-type JSON Schemas, tolerant parsing of what the
model wrote, and value confidences from its per-token log-probabilities.

Pure Python (no Django, no Triton, no torch), so it runs in ``doc_pipeline``'s stub process on a
GPU host and in the unit tests here alike. ``model_repo/doc_pipeline/1/gemma4_model.py`` calls it.
"""

ENGINE_NAME = "gemma4"
# Bumped with any change to a prompt or a schema: results record which wording produced them.
PROMPTS_VERSION = "3"
ENGINE_VERSION = f"0.1.0+prompts{PROMPTS_VERSION}"
