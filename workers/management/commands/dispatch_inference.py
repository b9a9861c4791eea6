"""``manage.py dispatch_inference`` — the inference queue's consumer, many documents in flight."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from workers.dispatcher import DispatcherSettings, RetryPolicy, main


class Command(BaseCommand):
    help = (
        "Consume the inference queue and keep many documents in flight to Triton (by default twice "
        "the model's batch capacity), so its batches are full. Stops cleanly on SIGTERM."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--queue", default=settings.DOCINTEL_INFER_QUEUE)
        parser.add_argument("--url", default=settings.DOCINTEL_TRITON_URL, help="Triton gRPC host:port")
        parser.add_argument("--model", default=settings.DOCINTEL_TRITON_MODEL)
        parser.add_argument(
            "--max-in-flight",
            type=int,
            default=settings.DOCINTEL_DISPATCH_MAX_IN_FLIGHT or None,
            help="requests in flight (default: the model's max batch size x instances x 4)",
        )
        parser.add_argument("--db-threads", type=int, default=settings.DOCINTEL_DISPATCH_DB_THREADS)
        parser.add_argument(
            "--metrics-port",
            type=int,
            default=settings.DOCINTEL_METRICS_PORT,
            help="serve /metrics, /healthz, /readyz here (0: none)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        main(
            DispatcherSettings(
                url=options["url"],
                model=options["model"],
                queue_name=options["queue"],
                timeout_s=settings.DOCINTEL_TRITON_TIMEOUT_S,
                max_in_flight=options["max_in_flight"],
                db_threads=options["db_threads"],
                metrics_port=options["metrics_port"],
                retry=RetryPolicy(
                    max_retries=settings.DOCINTEL_TRITON_RETRIES,
                    base_s=settings.DOCINTEL_TRITON_RETRY_BASE_S,
                    max_s=settings.DOCINTEL_TRITON_RETRY_MAX_S,
                ),
            )
        )
