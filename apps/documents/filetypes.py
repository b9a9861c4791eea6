"""Recognising what an upload is from its bytes, never from its name or the client's claim."""

from __future__ import annotations

SUPPORTED_MIME_TYPES = ("image/jpeg", "image/png", "image/tiff", "image/webp", "application/pdf")


def sniff_mime_type(head: bytes) -> str | None:
    """The MIME type of a supported format from its magic bytes, or None when unsupported."""
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return "image/tiff"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if b"%PDF-" in head[:1024]:
        return "application/pdf"
    return None
