"""Defences around PDFium for files nobody vouches for.

PDFium renders what it is given and has no memory limit of its own: a 2 MB PDF whose page content
is a FlateDecode stream of 2 GB of spaces took 3 GB of memory and 7 s to "render" a blank page.
Page images are decoded scaled down to the bitmap they land in, but content streams, fonts and
object streams are inflated whole. So before PDFium sees a file, ``pdf_streams_check`` inflates
every zlib stream in it (chained filters included), counting bytes and keeping none, and refuses
the file as soon as one stream would expand past ``max_stream_bytes`` or all of them together past
``max_decoded_bytes`` (which also bounds the time the check itself can take): a specific error
code, at once, for the bombs this check can see. PDFium itself then runs in a limited child
process (media.pdf_sandbox) for the ones it cannot.

PDFium is not thread-safe either: rendering in this process (benchmarks) holds ``PDFIUM_LOCK``.
``pdf_nesting_check`` refuses objects nested thousands deep, which exist only to overflow the stack
of a parser that recurses.
"""

from __future__ import annotations

import re
import threading
import zlib
from collections.abc import Iterable, Iterator

from engines.types import EngineError

PDFIUM_LOCK = threading.Lock()

DECOMPRESSION_BOMB = "pdf_decompression_bomb"
TOO_DEEPLY_NESTED = "pdf_too_deeply_nested"
# 256 arrays or dictionaries opened one inside the other: no writer makes that, parsers that recurse
# overflow their stack on it (PDFium stops at 64 levels and reads the rest as null).
_MAX_NESTING = 256
_NAME = rb"/[^\s/<>\[\]()]*"
# Written to start with a literal run, which the regex engine finds fast: 50 MB of binary
# stream data takes about 0.03 s instead of 1.3 s with a plain repetition.
_DEEP_NESTING = (
    re.compile(rb"\[\s*\[\s*\[\s*\[(?:\s*\[){%d}" % (_MAX_NESTING - 4)),  # [[[[ ...
    re.compile(rb"<<\s*%s\s*<<(?:\s*%s\s*<<){%d}" % (_NAME, _NAME, _MAX_NESTING - 2)),  # << /A << /A ...
)
# "stream" after a dictionary, then the end of line the syntax requires before the data.
_STREAM_START = re.compile(rb">>\s*stream(?:\r\n|\n|\r)")
_IN_CHUNK = 64 * 1024
_OUT_CHUNK = 1024 * 1024
# [/FlateDecode /FlateDecode /FlateDecode] multiplies ratios; more stages than this are inflated
# as far as the last one counted (a deeper chain only makes the count an underestimate of work).
_MAX_CHAIN = 4


def _looks_like_zlib(head: bytes) -> bool:
    return len(head) >= 2 and head[0] & 0x0F == 8 and (head[0] << 8 | head[1]) % 31 == 0


def _raw_chunks(data: bytes, start: int) -> Iterator[bytes]:
    view = memoryview(data)
    for offset in range(start, len(data), _IN_CHUNK):
        yield bytes(view[offset : offset + _IN_CHUNK])


def _inflate(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The inflated bytes of the zlib stream in ``chunks``, at most ``_OUT_CHUNK`` at a time, until
    its end or the first error (PDFium, too, renders what it inflated before an error)."""
    inflater = zlib.decompressobj()
    try:
        for chunk in chunks:
            pending = chunk
            while pending and not inflater.eof:
                out = inflater.decompress(pending, _OUT_CHUNK)
                if out:
                    yield out
                pending = inflater.unconsumed_tail
            if inflater.eof:
                return
    except zlib.error:
        return


def _stages(data: bytes, start: int) -> Iterator[Iterator[bytes]]:
    """The output of each stage of the zlib chain starting at ``start``, one stage after the other:
    a stage whose output is itself zlib data (``[/FlateDecode /FlateDecode]``) is followed by the
    next. Every stage is counted, as PDFium may stop at any of them."""
    for depth in range(1, _MAX_CHAIN + 1):
        chunks: Iterator[bytes] = _raw_chunks(data, start)
        for _ in range(depth):
            chunks = _inflate(chunks)
        first = next(chunks, b"")

        def stage(first: bytes = first, rest: Iterator[bytes] = chunks) -> Iterator[bytes]:
            yield first
            yield from rest

        yield stage()
        if not _looks_like_zlib(first[:2]):
            return


def pdf_nesting_check(data: bytes) -> None:
    """Raise ``EngineError(pdf_too_deeply_nested)`` for a run of arrays or dictionaries opened
    inside each other deeper than any writer goes."""
    if any(pattern.search(data) is not None for pattern in _DEEP_NESTING):
        raise EngineError(TOO_DEEPLY_NESTED, f"the PDF nests objects more than {_MAX_NESTING} levels deep")


def pdf_streams_check(data: bytes, *, max_stream_bytes: int, max_decoded_bytes: int) -> None:
    """Raise ``EngineError(pdf_decompression_bomb)`` when a stream of the PDF ``data`` inflates
    beyond ``max_stream_bytes``, or all of them together beyond ``max_decoded_bytes``."""
    total = 0
    for match in _STREAM_START.finditer(data):
        start = match.end()
        if not _looks_like_zlib(data[start : start + 2]):
            continue
        largest = 0
        for stage in _stages(data, start):
            size = 0
            for chunk in stage:
                size += len(chunk)
                if size > max_stream_bytes:
                    raise EngineError(
                        DECOMPRESSION_BOMB,
                        f"a stream in the PDF expands beyond {max_stream_bytes // (1024 * 1024)} MB "
                        "(a decompression bomb)",
                    )
                if total + size > max_decoded_bytes:
                    raise EngineError(
                        DECOMPRESSION_BOMB,
                        f"the PDF's streams expand beyond {max_decoded_bytes // (1024 * 1024)} MB in "
                        "all (a decompression bomb)",
                    )
            largest = max(largest, size)
        total += largest
