"""Pages the capture gate must let through, drawn for tests (no real data): a utility bill with a
coloured heading band and ruled lines, a receipt cropped to its paper, a digital PDF with a blank
last page, and an image-only PDF of a scan. Used by tests/unit/media and tests/integration."""

from __future__ import annotations

import io

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

# A4 at 150 dpi, as a flatbed scanner saves a page
BILL_SIZE = (1240, 1754)


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(f"/usr/share/fonts/truetype/dejavu/{name}", size)
    except OSError:
        return ImageFont.load_default(size=size)


def utility_bill() -> Image.Image:
    """A clean electricity bill (RGB): a coloured heading band with the supplier's name in white,
    the holder's name and address, a statement date, an account number, an amount due and a few
    ruled lines across the page, the way every such bill is laid out, with a lot of white paper."""
    width = BILL_SIZE[0]
    page = Image.new("RGB", BILL_SIZE, "white")
    draw = ImageDraw.Draw(page)
    draw.rectangle((0, 0, width, 190), fill=(22, 92, 160))
    draw.text((90, 60), "NORTHGRID ENERGY", font=_font(56, bold=True), fill="white")
    draw.text((90, 135), "Customer service 0800 123 456  -  northgrid.example", font=_font(24), fill="white")
    body = _font(28)
    lines = [
        (90, 280, "Ms Jane Holloway"),
        (90, 322, "14 Elm Tree Road"),
        (90, 364, "Bristol BS8 2QT"),
        (680, 280, "Statement date: 03 November 2026"),
        (680, 322, "Account number: 7731 0420 5518"),
        (680, 364, "Billing period: 01 Oct - 31 Oct 2026"),
    ]
    for x, y, text in lines:
        draw.text((x, y), text, font=body, fill=(20, 20, 20))
    rule = (60, 60, 60)
    for y in (460, 1180, 1500):
        draw.line((60, y, width - 60, y), fill=rule, width=3)
    draw.text((90, 500), "Your charges", font=_font(34, bold=True), fill=(22, 92, 160))
    # a ruled table whose labels sit at the left and amounts at the right: the middle of the page
    # is rules on white paper (what an isotropy read over the page's centre took for a smear)
    rows = [
        ("Standing", "16.54"),
        ("Day units", "100.94"),
        ("Night units", "24.82"),
        ("Discount", "-5.00"),
        ("Subtotal", "137.30"),
        ("VAT 5%", "6.87"),
        ("Credit", "0.00"),
        ("Adjust.", "5.25"),
        ("Total", "149.42"),
    ]
    for i, (label, amount) in enumerate(rows):
        y = 590 + 62 * i
        draw.text((90, y), label, font=body, fill=(20, 20, 20))
        draw.text((width - 200, y), amount, font=body, fill=(20, 20, 20))
        draw.line((60, y + 48, width - 60, y + 48), fill=(110, 110, 110), width=2)
    draw.text((90, 1220), "Amount due", font=_font(40, bold=True), fill=(20, 20, 20))
    draw.text((width - 330, 1220), "GBP 149.42", font=_font(40, bold=True), fill=(20, 20, 20))
    draw.text((90, 1290), "Please pay by 24 November 2026.", font=body, fill=(20, 20, 20))
    draw.text(
        (90, 1540), "NorthGrid Energy Ltd, 1 Harbour Way, Bristol BS1 5TT.", font=_font(22), fill=(90, 90, 90)
    )
    return page


def as_scan(page: Image.Image, seed: int = 0) -> np.ndarray:
    """``page`` as a flatbed scanner returns it (BGR): paper a little off-white, slight blur from
    the optics, sensor noise."""
    rng = np.random.default_rng(seed)
    bgr = cv2.cvtColor(np.asarray(page), cv2.COLOR_RGB2BGR).astype(np.float32)
    bgr = cv2.GaussianBlur(bgr * 0.96 + 6, (0, 0), 0.6) + rng.normal(0, 1.5, bgr.shape)
    return np.clip(bgr, 0, 255).astype(np.uint8)


def as_photo(page: Image.Image, seed: int = 0) -> np.ndarray:
    """``page`` photographed by a phone held steady (BGR): the sheet on a darker table, a little
    rotated and perspective-skewed, uneven light, noise."""
    rng = np.random.default_rng(seed)
    src = cv2.cvtColor(np.asarray(page), cv2.COLOR_RGB2BGR)
    h, w = src.shape[:2]
    out_w, out_h = 1500, 2000
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    target = np.float32([[150, 120], [out_w - 130, 150], [out_w - 160, out_h - 110], [140, out_h - 140]])
    matrix = cv2.getPerspectiveTransform(corners, target)
    photo = cv2.warpPerspective(src, matrix, (out_w, out_h), borderValue=(70, 80, 95))
    ys, xs = np.mgrid[0:out_h, 0:out_w].astype(np.float32)
    light = 0.85 + 0.15 * (xs / out_w) * (1 - 0.3 * ys / out_h)
    noisy = photo.astype(np.float32) * light[..., None] + rng.normal(0, 2.5, photo.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def encode_jpeg(bgr: np.ndarray, quality: int = 90) -> bytes:
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return data.tobytes()


def image_pdf(pages: list[np.ndarray], dpi: int = 150) -> bytes:
    """An image-only PDF (what a scanner writes): each BGR page one JPEG over the whole page."""
    images = [Image.fromarray(cv2.cvtColor(p, cv2.COLOR_BGR2RGB)) for p in pages]
    buffer = io.BytesIO()
    images[0].save(buffer, format="PDF", save_all=True, append_images=images[1:], resolution=dpi)
    return buffer.getvalue()


def digital_invoice_with_blank_last_page() -> bytes:
    """A three-page digital invoice (fpdf2: a text layer and vector rules), its last page blank,
    as accounting software exports one."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_fill_color(22, 92, 160)
    pdf.rect(0, 0, 210, 30, style="F")
    pdf.set_font("Helvetica", "B", 20)
    pdf.set_text_color(255, 255, 255)
    pdf.text(15, 19, "ACME SUPPLIES GMBH")
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 11)
    for i, line in enumerate(
        [
            "Invoice number: INV-2026-0412",
            "Invoice date: 2026-11-03",
            "Due date: 2026-12-03",
            "Bill to: Holloway Trading Ltd, 14 Elm Tree Road, Bristol",
        ]
    ):
        pdf.text(15, 45 + 7 * i, line)
    pdf.line(15, 80, 195, 80)
    for i in range(12):
        pdf.text(15, 90 + 8 * i, f"Item {i + 1:02d}  Widget type {chr(65 + i)}")
        pdf.text(170, 90 + 8 * i, f"{10 + i}.00")
    pdf.line(15, 190, 195, 190)
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    pdf.text(15, 20, "Subtotal: 186.00")
    pdf.text(15, 28, "VAT 19%: 35.34")
    pdf.set_font("Helvetica", "B", 12)
    pdf.text(15, 38, "Total due: EUR 221.34")
    pdf.add_page()  # the blank last page
    return bytes(pdf.output())


def receipt_cropped_to_paper(seed: int = 3) -> np.ndarray:
    """A generated receipt scanned and cropped to its paper (BGR), its text close to the paper's
    edges as a till prints it: the crop every receipt scanner makes."""
    from media.preprocessing import PageLimits, prepare_pages
    from synth.documents import document_rng, generate_document

    doc = generate_document(document_rng(seed, 0), kind="receipt", profile="clean")
    data = doc.image
    if doc.extension == "pdf":  # a till receipt drawn as a PDF: its page as the scanner sees it
        data = prepare_pages(data, "application/pdf", PageLimits(pdf_sandbox=False, max_side=1600))[0].image
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    ink = np.argwhere(gray < 160)
    (top, left), (bottom, right) = ink.min(axis=0), ink.max(axis=0)
    margin = 6  # a till leaves a few pixels of paper beside its longest lines
    return image[
        max(0, top - margin) : bottom + margin + 1, max(0, left - margin) : right + margin + 1
    ].copy()
