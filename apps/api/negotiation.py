"""The API answers JSON (or the file asked for) whatever the Accept header says, instead of 406."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class LenientContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> Any:
        candidates = list(renderers)
        try:
            return super().select_renderer(request, candidates, format_suffix)
        except NotAcceptable:
            return candidates[0], candidates[0].media_type
