"""A tiny PDF writer for hostile test files: objects in order, a correct (or deliberately broken)
cross-reference table, nothing else. Real writers (fpdf2, Pillow) refuse to write broken files."""

from __future__ import annotations

from collections.abc import Sequence


def pdf_objects(objects: Sequence[bytes], *, root: int = 1, trailer_extra: bytes = b"") -> bytes:
    """A PDF whose object ``i + 1`` is ``objects[i]`` (the body between ``obj`` and ``endobj``)."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref_at = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root %d 0 R %s>>\n" % (len(objects) + 1, root, trailer_extra)
    out += b"startxref\n%d\n%%%%EOF\n" % xref_at
    return bytes(out)


def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def one_page_pdf(
    content: bytes = b"BT /F1 24 Tf 72 720 Td (Hello) Tj ET", *, catalog_extra: bytes = b""
) -> bytes:
    """A valid one-page PDF with a text line (a Helvetica base font, no embedding)."""
    return pdf_objects(
        [
            b"<< /Type /Catalog /Pages 2 0 R " + catalog_extra + b">>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>",
            stream(content),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
    )
