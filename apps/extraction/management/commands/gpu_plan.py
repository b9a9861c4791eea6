"""``manage.py gpu_plan`` — does the Gemma 4 stack fit on these GPUs, and how many documents can
each one hold at once? A thin adapter over :mod:`engines.llm.gpu_plan`."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from engines.llm import gpu_plan


class Command(BaseCommand):
    help = "Weights, KV cache, activations and headroom of the Gemma 4 models per GPU type; the concurrency each holds."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--gpu", nargs="+", choices=sorted(gpu_plan.GPUS), default=["b200", "rtx-pro-6000", "h100"]
        )
        parser.add_argument(
            "--models",
            nargs="+",
            choices=sorted(gpu_plan.MODELS),
            default=["gemma4-e4b", "gemma4-26b-a4b"],
            help="the stack on one GPU, in load order",
        )
        parser.add_argument(
            "--concurrency", type=int, default=64, help="target documents in flight per model"
        )
        parser.add_argument(
            "--pages", type=int, default=1, help="pages (1120 image tokens each) per model call"
        )
        parser.add_argument(
            "--precision",
            choices=["auto", *gpu_plan.PRECISIONS],
            default="auto",
            help="auto: nvfp4_mlp_only on Blackwell (scripts/gpu/quantize.sh's default), fp8 on Hopper",
        )
        parser.add_argument("--kv-dtype", choices=sorted(gpu_plan.KV_BYTES), default="fp8")
        parser.add_argument(
            "--window-aware", action="store_true", help="sliding-window layers keep only their window of KV"
        )
        parser.add_argument("--format", choices=["table", "json"], default="table")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["concurrency"] < 1 or options["pages"] < 1:
            raise CommandError("--concurrency and --pages must be at least 1")
        settings = gpu_plan.Settings(
            concurrency=options["concurrency"],
            pages=options["pages"],
            precision=options["precision"],
            kv_dtype=options["kv_dtype"],
            window_aware=options["window_aware"],
        )
        try:
            plans = [gpu_plan.plan(gpu, options["models"], settings) for gpu in options["gpu"]]
        except ValueError as error:
            raise CommandError(str(error)) from None
        output = gpu_plan.to_json(plans) if options["format"] == "json" else gpu_plan.render(plans, settings)
        self.stdout.write(output)
