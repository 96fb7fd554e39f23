"""Builders of small test files (PDF, workbook, CSV) for the source tests."""

from __future__ import annotations

import io
from pathlib import Path

from openpyxl import Workbook
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle


def text_pdf(path: Path, pages: list[list[str]], **kwargs) -> Path:
    """A PDF with one paragraph per string, each page given as a list of paragraphs."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1, **kwargs)
    for paragraphs in pages:
        y = 800
        for para in paragraphs:
            for line in para.split("\n"):
                c.drawString(72, y, line)
                y -= 14
            y -= 20  # paragraph gap
        c.showPage()
    c.save()
    return path


def image_only_pdf(path: Path) -> Path:
    """Page 1 has text; page 2 holds only an image (a scanned page without a text layer)."""
    from PIL import Image

    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.drawString(72, 800, "Higher tariffs reduce trade volumes.")
    c.showPage()
    img = Image.new("RGB", (40, 40), (200, 30, 30))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    buf.seek(0)
    from reportlab.lib.utils import ImageReader

    c.drawImage(ImageReader(buf), 100, 500, width=200, height=200)
    c.showPage()
    c.save()
    return path


def table_pdf(path: Path) -> Path:
    data = [["Variable", "2025", "2026"], ["Real GDP", "-2.1", "-1.4"], ["Unemployment", "7.9", "9.1"]]
    t = Table(data)
    t.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, (0, 0, 0))]))
    SimpleDocTemplate(str(path), pagesize=A4, invariant=1).build([t])
    return path


def zero_page_pdf(path: Path) -> Path:
    """A well-formed PDF whose page tree is empty."""
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return path


def merged_formula_xlsx(path: Path) -> Path:
    """A workbook with a merged header over two scenario columns and a formula cell."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Paths"
    ws["A1"] = "Stress paths"
    ws.merge_cells("B1:C1")
    ws["B1"] = "Adverse projection"
    ws.append(["Variable", 2025, 2026])  # row 2
    ws.append(["Real GDP", -2.1, -1.4])  # row 3
    ws.append(["Unemployment", 7.9, "=B4+1.2"])  # row 4: C4 is a formula
    wb.save(path)
    return path


def manifest(path: Path, entries: list[dict]) -> Path:
    """Write a manifest TOML from dicts (values already TOML literals where not strings)."""
    lines = []
    for e in entries:
        lines.append("[[source]]")
        overrides = e.pop("role_override", [])
        for k, v in e.items():
            lines.append(f"{k} = {v if k == 'publication_date' else repr_toml(v)}")
        for o in overrides:
            lines.append("  [[source.role_override]]")
            lines += [f"  {k} = {repr_toml(v)}" for k, v in o.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def repr_toml(v) -> str:
    import json

    if isinstance(v, bool):
        return "true" if v else "false"
    return json.dumps(v)
