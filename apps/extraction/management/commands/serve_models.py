"""``manage.py serve_models`` — Triton over model_repo/, in the foreground."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from servers.triton_server import MODELS_ENV, configured_models, serve


class Command(BaseCommand):
    help = (
        "Start Triton Inference Server over model_repo/ (the bundled CPU server where no system one exists)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--http-port", type=int, default=8100)
        parser.add_argument("--grpc-port", type=int, default=8101)
        parser.add_argument("--metrics-port", type=int, default=8102)
        parser.add_argument(
            "--model",
            action="append",
            dest="models",
            help=f"a model to load (repeatable); default ${MODELS_ENV} or doc_pipeline",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        code = serve(
            http_port=options["http_port"],
            grpc_port=options["grpc_port"],
            metrics_port=options["metrics_port"],
            models=tuple(options["models"] or configured_models()),
        )
        if code:
            raise SystemExit(code)
