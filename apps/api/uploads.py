"""Reading uploaded files for the API: in memory only (no plaintext document may touch the disk),
and never more than the endpoint's limit, whatever the client declared."""

from __future__ import annotations

import io
from typing import Any

from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopFutureHandlers
from django.http import HttpRequest

from apps.api.errors import ApiError


def too_large(limit: int, what: str) -> ApiError:
    return ApiError(413, "request_too_large", f"{what} is larger than the {limit // (1024 * 1024)} MB limit")


class BoundedMemoryUploadHandler(FileUploadHandler):
    """Like Django's ``MemoryFileUploadHandler``, but for any request size up to ``limit`` bytes in
    all (counted as they arrive, so a missing or false Content-Length changes nothing)."""

    def __init__(self, request: HttpRequest, *, limit: int, what: str) -> None:
        super().__init__(request)
        self.limit = limit
        self.what = what
        self.received = 0

    def handle_raw_input(
        self, input_data: Any, META: Any, content_length: int, boundary: Any, encoding: Any = None
    ) -> None:
        if content_length > self.limit:
            raise too_large(self.limit, self.what)

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.file = io.BytesIO()
        raise StopFutureHandlers()

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        self.received += len(raw_data)
        if self.received > self.limit:
            raise too_large(self.limit, self.what)
        self.file.write(raw_data)

    def file_complete(self, file_size: int) -> InMemoryUploadedFile:
        self.file.seek(0)
        return InMemoryUploadedFile(
            file=self.file,
            field_name=self.field_name,
            name=self.file_name,
            content_type=self.content_type,
            size=file_size,
            charset=self.charset,
            content_type_extra=self.content_type_extra,
        )


def declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0
