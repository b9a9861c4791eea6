"""Launchers of the model servers DocIntel talks to: Triton over ``model_repo/`` and vLLM for Gemma 4.

Process management only (find the binary, set its environment, start it, wait until it answers,
stop it with its parent), shared by ``manage.py serve_models``, ``python -m servers.triton_server``,
``scripts/stack.sh``, the benchmarks and the test fixtures.

Import rule (tests/unit/test_layering.py): ``servers`` imports libraries only, never ``django``,
``apps``, ``workers`` or ``media``: a launcher must start without the application's settings.
"""
