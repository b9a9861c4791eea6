"""Files a real upload endpoint meets, made on the fly (no large binaries in the repository).

Each entry says how it must end: refused at upload with an HTTP status and code (``Refused``), or
accepted and then ``FAILED`` by the worker with a code (``Fails``). Zips go to the batch endpoint,
everything else to ``POST /api/v1/documents``. Builders are cached: a few (the decompression bombs)
take a second to make.
"""

from __future__ import annotations

import functools
import io
import struct
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, PngImagePlugin

from tests.hostile.pdfbuild import one_page_pdf, pdf_objects, stream


@dataclass(frozen=True)
class Refused:
    status: int
    code: str


@dataclass(frozen=True)
class Fails:
    code: str


@dataclass(frozen=True)
class Hostile:
    name: str
    build: Callable[[], bytes]
    expected: Refused | Fails
    batch: bool = False  # a zip: sent to /api/v1/batches

    @property
    def content(self) -> bytes:
        return self.build()


# --- builders -------------------------------------------------------------------------------------


def _png(size: tuple[int, int] = (320, 200), **kwargs: object) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, "white").save(buffer, format="PNG", **kwargs)
    return buffer.getvalue()


def _jpeg(size: tuple[int, int] = (640, 480)) -> bytes:
    buffer = io.BytesIO()
    Image.effect_noise(size, 60).convert("RGB").save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_declaring(width: int, height: int) -> bytes:
    """A valid PNG header declaring ``width`` x ``height`` pixels, with one tiny compressed row."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" + b"\xff" * 3 * 16)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")


def jpeg_declaring(width: int, height: int) -> bytes:
    """A real JPEG whose frame header (SOF0) is rewritten to declare ``width`` x ``height``."""
    data = bytearray(_jpeg((64, 48)))
    sof = data.index(b"\xff\xc0")
    data[sof + 5 : sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def png_with_html() -> bytes:
    """An image/HTML polyglot: a valid PNG whose text chunk is a page a sniffing browser would run."""
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "<html><body><script>fetch('/api/v1/documents')</script></body></html>")
    return _png(pnginfo=info)


def html_then_pdf() -> bytes:
    """An HTML page with a PDF after it, within the 1 KB in which readers look for the header."""
    return b"<!DOCTYPE html><html><script>alert(document.cookie)</script></html>\n" + one_page_pdf()


def jpeg_with_trailing_html() -> bytes:
    return _jpeg() + b"<html><script>alert(1)</script></html>"


def windows_executable() -> bytes:
    return (
        b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff"
        + b"\x00" * 48
        + b"This program cannot be run in DOS mode"
    )


def elf_executable() -> bytes:
    return b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x02\x00\x3e\x00" + b"\x00" * 200


def truncated_png() -> bytes:
    return _png((800, 600))[:60]


def truncated_jpeg() -> bytes:
    data = _jpeg()
    return data[: len(data) * 2 // 5]


def truncated_pdf() -> bytes:
    data = one_page_pdf()
    return data[: len(data) // 2]


def pdf_xref_offsets_wrong() -> bytes:
    """Every cross-reference offset points 7 bytes off: readers must rebuild the table by scanning."""
    data = one_page_pdf()
    head, _, tail = data.partition(b"xref\n")
    table, _, trailer = tail.partition(b"trailer")
    lines = [
        b"%010d 00000 n " % (int(line[:10]) + 7) if line.endswith(b" n ") else line
        for line in table.split(b"\n")
    ]
    return head + b"xref\n" + b"\n".join(lines) + b"trailer" + trailer


def pdf_xref_loop() -> bytes:
    """The trailer's /Prev points back at its own cross-reference section: an endless chain."""
    data = one_page_pdf()
    xref_at = int(data.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    return data.replace(b"/Root 1 0 R ", b"/Root 1 0 R /Prev %d " % xref_at)


def pdf_deep_page_tree(depth: int = 5000) -> bytes:
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    objects += [b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % (i + 3) for i in range(depth)]
    objects.append(b"<< /Type /Page /MediaBox [0 0 612 792] >>")
    return pdf_objects(objects)


def pdf_deep_arrays(depth: int = 100_000) -> bytes:
    nested = b"[" * depth + b"]" * depth
    return one_page_pdf(catalog_extra=b"/Nest " + nested + b" ")


def _deflated_spaces(megabytes: int) -> bytes:
    compressor = zlib.compressobj(9)
    block = b" " * (1024 * 1024)
    return b"".join(compressor.compress(block) for _ in range(megabytes)) + compressor.flush()


def _page_with_content(content_stream: bytes) -> bytes:
    return pdf_objects(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            content_stream,
        ]
    )


def pdf_flate_bomb() -> bytes:
    """A page whose content stream is 300 KB that inflate to 300 MB (PDFium holds it all)."""
    return _page_with_content(stream(_deflated_spaces(300), b"/Filter /FlateDecode "))


def pdf_double_flate_bomb() -> bytes:
    """Two FlateDecode stages: a 1 KB stream → 300 KB → 300 MB."""
    return _page_with_content(
        stream(zlib.compress(_deflated_spaces(300), 9), b"/Filter [/FlateDecode /FlateDecode] ")
    )


def _lzw_run(megabytes: int, byte: int = 0x20) -> bytes:
    """PDF LZW (EarlyChange 1) coding ``megabytes`` MB of one repeated byte: each code stands for
    one byte more than the last, so a table's worth of 12-bit codes (about 5 KB) spells 7 MB."""
    codes: list[tuple[int, int]] = []  # (code, width in bits)
    remaining = megabytes * 1024 * 1024
    clear, first_free = 256, 258
    width, next_code, run = 9, first_free, 1
    codes.append((clear, width))
    while remaining > 0:
        length = min(run, remaining)
        codes.append((byte if length == 1 else first_free + length - 2, width))
        remaining -= length
        run = length + 1
        next_code += 1
        if next_code >= 1 << width:  # EarlyChange: the decoder, one entry behind, widens one early
            width += 1
        if next_code >= 4094:
            codes.append((clear, width))
            width, next_code, run = 9, first_free, 1
    codes.append((257, width))  # end of data
    bits, count, out = 0, 0, bytearray()
    for code, size in codes:
        bits, count = (bits << size) | code, count + size
        while count >= 8:
            count -= 8
            out.append((bits >> count) & 0xFF)
        bits &= (1 << count) - 1
    if count:
        out.append((bits << (8 - count)) & 0xFF)
    return bytes(out)


def pdf_lzw_bomb() -> bytes:
    """A page whose content stream is 1.5 GB of spaces in about 1 MB of LZW, which the zlib check
    cannot see: the renderer's memory allowance stops it."""
    return _page_with_content(stream(_lzw_run(1536), b"/Filter /LZWDecode "))


def pdf_javascript_and_attachment() -> bytes:
    return pdf_objects(
        [
            b"<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R /Names << /JavaScript << /Names [(run) 6 0 R] >> "
            b"/EmbeddedFiles << /Names [(invoice.exe) 7 0 R] >> >> >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>",
            stream(b"BT /F1 24 Tf 72 720 Td (Invoice) Tj ET"),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /S /JavaScript /JS (app.launchURL\\('https://evil.example'\\)) >>",
            b"<< /Type /Filespec /F (invoice.exe) /EF << /F 8 0 R >> >>",
            stream(windows_executable(), b"/Type /EmbeddedFile "),
        ]
    )


def pdf_encrypted() -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(one_page_pdf())))
    writer.encrypt(user_password="s3cret", owner_password="owner", algorithm="AES-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def pdf_pages(count: int) -> bytes:
    kids = b" ".join(b"%d 0 R" % (i + 3) for i in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % count,
    ]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"] * count
    return pdf_objects(objects)


def pdf_no_pages() -> bytes:
    return pdf_objects([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"])


def tiff_frames(count: int) -> bytes:
    buffer = io.BytesIO()
    frames = [Image.new("1", (8, 8)) for _ in range(count)]
    frames[0].save(buffer, format="TIFF", save_all=True, append_images=frames[1:])
    return buffer.getvalue()


def tiff_second_frame_without_width() -> bytes:
    """Two frames, the second one's width tag renamed: Pillow raises TypeError, not OSError, on it
    (found by the fuzz target)."""
    data = tiff_frames(2)
    tag = data.rfind(b"\x00\x01\x04\x00")  # ImageWidth (256), LONG, of the last directory
    return data[:tag] + b"\x00\x7f" + data[tag + 2 :]


def png_text_bomb() -> bytes:
    """A small PNG with a compressed text chunk that inflates to 64 MB."""
    compressed = zlib.compress(b"A" * (64 * 1024 * 1024), 9)
    image = _png((32, 32))
    iend = image.rindex(b"IEND") - 4
    return image[:iend] + _chunk(b"zTXt", b"Comment\x00\x00" + compressed) + image[iend:]


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def zip_bomb() -> bytes:
    return _zip({"scan.png": b"\x00" * (20 * 1024 * 1024)})


def zip_path_traversal() -> bytes:
    return _zip({"../../etc/cron.d/evil.png": _png((20, 20)), "ok.png": _png((21, 20))})


def zip_absolute_path() -> bytes:
    return _zip({"/tmp/evil.png": _png((22, 20))})


def zip_nested() -> bytes:
    inner = _zip({f"{i}.png": b"\x00" * (1024 * 1024) for i in range(16)})
    return _zip({"inner.zip": inner})


def zip_truncated() -> bytes:
    data = _zip({"a.png": _png((40, 30)), "b.png": _png((41, 30))})
    return data[: len(data) // 2]


# --- the corpus -----------------------------------------------------------------------------------


def _cached(build: Callable[[], bytes]) -> Callable[[], bytes]:
    return functools.cache(build)


CORPUS: tuple[Hostile, ...] = (
    Hostile("empty.pdf", lambda: b"", Refused(400, "invalid_request")),
    Hostile("one-byte.pdf", lambda: b"%", Refused(415, "unsupported_file_type")),
    Hostile("truncated.png", truncated_png, Fails("unreadable_image")),
    Hostile("truncated.jpg", _cached(truncated_jpeg), Fails("unreadable_image")),
    Hostile("truncated.pdf", truncated_pdf, Fails("corrupt_pdf")),
    Hostile("30000x30000.png", lambda: png_declaring(30_000, 30_000), Refused(422, "image_too_large")),
    Hostile(
        "65000x65000.jpg", _cached(lambda: jpeg_declaring(65_000, 65_000)), Refused(422, "image_too_large")
    ),
    Hostile("png-html-polyglot.png", _cached(png_with_html), Refused(422, "polyglot_file")),
    Hostile("jpeg-html-polyglot.jpg", _cached(jpeg_with_trailing_html), Refused(422, "polyglot_file")),
    Hostile("html-pdf-polyglot.pdf", html_then_pdf, Refused(422, "polyglot_file")),
    Hostile("setup.exe.pdf", windows_executable, Refused(415, "unsupported_file_type")),
    Hostile("linux-binary.pdf", elf_executable, Refused(415, "unsupported_file_type")),
    Hostile(
        "page.html.png",
        lambda: b"<html><script>alert(1)</script></html>",
        Refused(415, "unsupported_file_type"),
    ),
    Hostile("xref-offsets-wrong.pdf", pdf_xref_offsets_wrong, Fails("corrupt_pdf")),
    Hostile("xref-loop.pdf", pdf_xref_loop, Fails("corrupt_pdf")),
    Hostile("deep-page-tree.pdf", _cached(pdf_deep_page_tree), Fails("corrupt_pdf")),
    Hostile("deep-arrays.pdf", _cached(pdf_deep_arrays), Fails("pdf_too_deeply_nested")),
    Hostile("flate-bomb.pdf", _cached(pdf_flate_bomb), Fails("pdf_decompression_bomb")),
    Hostile("double-flate-bomb.pdf", _cached(pdf_double_flate_bomb), Fails("pdf_decompression_bomb")),
    Hostile("lzw-bomb.pdf", _cached(pdf_lzw_bomb), Fails("pdf_render_crashed")),
    Hostile("javascript-attachment.pdf", pdf_javascript_and_attachment, Refused(422, "pdf_active_content")),
    Hostile("encrypted.pdf", _cached(pdf_encrypted), Fails("encrypted_pdf")),
    Hostile("5000-pages.pdf", _cached(lambda: pdf_pages(5000)), Refused(422, "too_many_pages")),
    Hostile("no-pages.pdf", pdf_no_pages, Fails("corrupt_pdf")),
    Hostile("1000-frames.tiff", _cached(lambda: tiff_frames(1000)), Refused(422, "too_many_pages")),
    Hostile("tiff-frame-without-width.tiff", tiff_second_frame_without_width, Fails("unreadable_image")),
    Hostile("png-text-bomb.png", _cached(png_text_bomb), Fails("unreadable_image")),
    Hostile("zip-bomb.zip", _cached(zip_bomb), Refused(413, "suspicious_compression"), batch=True),
    Hostile("zip-traversal.zip", zip_path_traversal, Refused(422, "unsafe_member_path"), batch=True),
    Hostile("zip-absolute.zip", zip_absolute_path, Refused(422, "unsafe_member_path"), batch=True),
    Hostile("zip-nested.zip", _cached(zip_nested), Refused(422, "nested_archive"), batch=True),
    Hostile("zip-truncated.zip", zip_truncated, Refused(422, "corrupt_archive"), batch=True),
)


def good_document() -> bytes:
    """A plain printed page the pipeline reads end to end, after the corpus (black lines of text on
    white, so the capture gate lets it through: a blank page is sent back for a new photo)."""
    from PIL import ImageDraw, ImageFont

    image = Image.new("RGB", (900, 600), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=32)
    for row, text in enumerate(("Dear Ms Smith,", "Thank you for your letter.", "Yours sincerely")):
        draw.text((60, 80 + 90 * row), text, fill="black", font=font)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
