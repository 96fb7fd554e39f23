"""Build the demo sources: real PDFs from the illustrative corpus, a scenario workbook, a manifest.

The corpus (``aieco/demo/corpus/*.md``) is illustrative text written for aieco's demo:
each file has TOML front matter (title, publisher, publication_date, role, jurisdiction,
optional ``[[role_override]]``) between ``+++`` lines, then paragraphs separated by blank
lines, ``#``/``##`` headings and ``\\pagebreak`` lines. Every source built from it is
marked ``illustrative = true``. The build is deterministic: the same corpus gives the
same bytes (reportlab ``invariant=1``; fixed workbook properties and zip timestamps), so
the same source ids.
"""

from __future__ import annotations

import io
import re
import tomllib
import zipfile
from datetime import date, datetime
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from openpyxl import Workbook
from openpyxl.styles import Font
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer

from aieco.errors import InputError
from aieco.records import canonical_json

CORPUS_DIR = Path(__file__).with_name("corpus")
ILLUSTRATIVE_NOTE = (
    "Illustrative text written for the aieco demo; not a publication of the institution "
    "it imitates. Its statements and numbers are invented for demonstration."
)
WORKBOOK_NAME = "demo-scenarios-2025.xlsx"
PAGE_BREAK = "\\pagebreak"
#: Zip timestamp of every workbook member (the zip format cannot store earlier dates).
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
#: Creation and modification time written into the workbook's properties.
WORKBOOK_STAMP = datetime(2025, 1, 20, 0, 0, 0)


def read_corpus_file(path: Path) -> tuple[dict[str, Any], str]:
    """Split a corpus file into its front matter (dict) and body text."""
    text = path.read_text(encoding="utf-8")
    parts = text.split("+++\n", 2)
    if len(parts) != 3 or parts[0].strip():
        raise InputError(
            f"{path} has no +++ front matter", where=str(path), fix="start the file with +++, the TOML fields, and +++"
        )
    try:
        meta = tomllib.loads(parts[1])
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: front matter is not valid TOML ({exc})", where=str(path)) from exc
    return meta, parts[2]


def render_pdf(meta: dict[str, Any], body: str, target: Path) -> None:
    """Typeset one corpus document as a PDF; a paragraph never breaks across pages."""
    styles = getSampleStyleSheet()
    story: list[Any] = [
        Paragraph(escape(meta["title"]), styles["Title"]),
        Paragraph(escape(f"{meta['publisher']} · published {meta['publication_date']}"), styles["Italic"]),
        Paragraph(escape("Illustrative text written for the aieco demo."), styles["Italic"]),
        Spacer(1, 0.4 * cm),
    ]
    body = "\n".join(f"\n{PAGE_BREAK}\n" if ln.strip() == PAGE_BREAK else ln for ln in body.splitlines())
    for block in (b.strip() for b in body.split("\n\n")):
        if not block:
            continue
        if block == PAGE_BREAK:
            story.append(PageBreak())
        elif block.startswith("## "):
            story.append(Paragraph(escape(block[3:]), styles["Heading2"]))
        elif block.startswith("# "):
            story.append(Paragraph(escape(block[2:]), styles["Heading1"]))
        else:
            story.append(
                KeepTogether([Paragraph(escape(" ".join(block.split())), styles["BodyText"]), Spacer(1, 0.15 * cm)])
            )

    def footer(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(2 * cm, 1.2 * cm, f"Illustrative demo document · page {doc.page}")
        canvas.restoreState()

    doc = SimpleDocTemplate(
        str(target),
        pagesize=A4,
        invariant=1,
        title=meta["title"],
        author=meta["publisher"],
        subject="Illustrative text written for the aieco demo",
        creator="aieco demo builder",
        leftMargin=2.2 * cm,
        rightMargin=2.2 * cm,
        topMargin=2 * cm,
        bottomMargin=2 * cm,
    )
    doc.build(story, onFirstPage=footer, onLaterPages=footer)


#: The illustrative scenario workbook: annual values by variable (units in the second column).
WORKBOOK_VARIABLES: tuple[tuple[str, str], ...] = (
    ("Real GDP growth", "% y-o-y"),
    ("HICP inflation", "% y-o-y"),
    ("Unemployment rate", "% of labour force"),
    ("Long-term interest rate", "% p.a."),
    ("House prices", "% y-o-y"),
    ("Equity prices", "% y-o-y"),
)
WORKBOOK_SHEETS: dict[str, tuple[list[int], list[list[float]]]] = {
    "History": (
        [2019, 2020, 2021, 2022, 2023, 2024],
        [
            [1.6, -6.1, 5.9, 3.5, 0.4, 0.8],
            [1.2, 0.3, 2.6, 8.4, 5.4, 2.4],
            [7.6, 8.0, 7.7, 6.8, 6.6, 6.4],
            [0.3, 0.1, 0.2, 2.1, 3.2, 2.9],
            [4.3, 5.2, 7.9, 6.5, -1.1, 1.2],
            [24.8, -5.1, 21.0, -11.7, 19.2, 8.3],
        ],
    ),
    "Baseline": (
        [2025, 2026, 2027],
        [
            [0.9, 1.2, 1.3],
            [2.1, 1.9, 2.0],
            [6.3, 6.2, 6.1],
            [2.8, 2.9, 3.0],
            [2.0, 2.5, 2.8],
            [4.0, 4.5, 4.5],
        ],
    ),
    "Adverse": (
        [2025, 2026, 2027],
        [
            [-2.1, -1.4, 0.3],
            [3.4, 2.6, 1.7],
            [7.9, 9.1, 9.5],
            [4.1, 3.9, 3.6],
            [-7.5, -6.2, -2.9],
            [-28.0, -9.5, 3.0],
        ],
    ),
}


def build_workbook(target: Path) -> None:
    """The illustrative 2025 scenario workbook (history, baseline, adverse), byte-for-byte reproducible."""
    wb = Workbook()
    wb.remove(wb.active)
    for sheet, (years, rows) in WORKBOOK_SHEETS.items():
        ws = wb.create_sheet(sheet)
        ws["A1"] = f"Illustrative euro area scenario for the aieco demo: {sheet.lower()}"
        ws["A1"].font = Font(bold=True)
        ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=2 + len(years))
        ws.append(["Variable", "Unit", *years])
        for (name, unit), values in zip(WORKBOOK_VARIABLES, rows, strict=True):
            ws.append([name, unit, *values])
        ws.append([])
        ws.append(["Note: illustrative numbers written for the aieco demo; not an official scenario."])
    wb.properties.created = WORKBOOK_STAMP
    wb.properties.modified = WORKBOOK_STAMP
    wb.properties.creator = "aieco demo builder"
    buf = io.BytesIO()
    wb.save(buf)
    target.write_bytes(_fixed_zip_times(buf.getvalue()))


def _fixed_zip_times(data: bytes) -> bytes:
    """Rewrite a zip with every member dated ZIP_EPOCH (openpyxl stamps the current time)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            member = zipfile.ZipInfo(info.filename, date_time=ZIP_EPOCH)
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = info.external_attr
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps the save time as "modified"
                data = re.sub(
                    rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                    rb"\g<1>" + WORKBOOK_STAMP.isoformat().encode() + rb"Z\g<2>",
                    data,
                )
            dst.writestr(member, data)
    return out.getvalue()


def _toml_value(value: Any) -> str:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    return canonical_json(value)  # strings and lists of strings are valid TOML when JSON-quoted


def build_demo_sources(target_dir: Path) -> Path:
    """Write the demo PDFs, the scenario workbook and ``manifest.toml`` to ``target_dir``; return the manifest."""
    target_dir = Path(target_dir)
    target_dir.mkdir(parents=True, exist_ok=True)
    entries: list[str] = []
    for path in sorted(CORPUS_DIR.glob("*.md")):
        meta, body = read_corpus_file(path)
        pdf_name = path.with_suffix(".pdf").name
        render_pdf(meta, body, target_dir / pdf_name)
        entries.append(_manifest_entry(pdf_name, meta))
    build_workbook(target_dir / WORKBOOK_NAME)
    entries.append(
        _manifest_entry(
            WORKBOOK_NAME,
            {
                "title": "Illustrative euro area stress-test scenario workbook 2025 (history, baseline, adverse)",
                "publisher": "Illustrative ESRB-style Adverse Scenario",
                "publication_date": date(2025, 1, 20),
                "role": "evaluation",
                "jurisdiction": "EA",
            },
        )
    )
    manifest = target_dir / "manifest.toml"
    manifest.write_text(
        "# The aieco demo sources: illustrative documents written for the demo.\n\n" + "\n".join(entries),
        encoding="utf-8",
    )
    return manifest


def _manifest_entry(file_name: str, meta: dict[str, Any]) -> str:
    lines = ["[[source]]", f"path = {_toml_value(file_name)}"]
    for key in ("title", "publisher", "publication_date", "role", "jurisdiction"):
        lines.append(f"{key} = {_toml_value(meta[key])}")
    lines += ["illustrative = true", f"note = {_toml_value(ILLUSTRATIVE_NOTE)}"]
    for override in meta.get("role_override", []):
        lines.append("  [[source.role_override]]")
        lines += [f"  {k} = {_toml_value(v)}" for k, v in override.items()]
    return "\n".join(lines) + "\n"
