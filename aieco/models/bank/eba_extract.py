"""Compact extracts of the EBA stress-test files shipped with aieco, so a fresh clone validates on real data.

An extract keeps, byte for byte and in the file's own encoding, the header and every line of
the published CSV whose item is one of :data:`~aieco.models.bank.eba_items.CONCEPTS` (resolved
through the dictionary), the dictionary rows of the templates those items come from (as CSV),
the scenario labels, and a PROVENANCE.md naming the source files and the release date stamp
of the dictionary workbook. ``bundled_exercises()`` lists the extracts in the package.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pandas as pd

from aieco.errors import InputError
from aieco.models.bank.eba_items import CONCEPTS, read_dictionary, read_scenarios, read_text

BUNDLED = Path(__file__).with_name("eba_data")
ITEM_COLUMN = "Item"


def write_extract(
    source: Path, dictionary: Path, scenarios: Path, out_dir: Path, *, title: str, publisher_note: str
) -> Path:
    """Write the extract of ``source`` into ``out_dir``; returns the extract CSV path."""
    source, dictionary = Path(source), Path(dictionary)
    book = read_dictionary(dictionary)
    codes, templates = set(), set()
    for c in CONCEPTS:
        try:
            terms = book.resolve(c)
        except InputError:
            continue
        codes |= {t.code for t in terms}
        templates |= {book.items[t.code].template for t in terms}
    raw = source.read_bytes()
    _, encoding = read_text(source)
    lines = raw.splitlines(keepends=True)
    header = next(csv.reader([lines[0].decode(encoding)]))
    k = header.index(ITEM_COLUMN)
    keep = [lines[0]]
    for line in lines[1:]:
        cells = next(csv.reader([line.decode(encoding)]), [])
        if len(cells) > k and cells[k].strip().isdigit() and book.current(int(cells[k])) in codes:
            keep.append(line)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / source.name
    target.write_bytes(b"".join(keep))
    table = (
        pd.read_excel(dictionary, header=None, dtype=str)
        if dictionary.suffix == ".xlsx"
        else pd.read_csv(dictionary, header=None, dtype=str)
    )
    head = next(i for i in range(6) if {"Item", "Label"} <= {str(c).strip() for c in table.iloc[i]})
    cols = [str(c).strip() for c in table.iloc[head]]
    body = table.iloc[head + 1 :]
    tcol = next(i for i, c in enumerate(cols) if c in ("Template", "Template No#"))
    body = body[body.iloc[:, tcol].isin(templates)]
    pd.DataFrame(body.values, columns=cols).to_csv(out_dir / "data_dictionary_extract.csv", index=False)
    labels = read_scenarios(scenarios)
    pd.DataFrame({"Scenario": list(labels), "Label": list(labels.values())}).to_csv(
        out_dir / "lookup_scenarios.csv", index=False
    )
    (out_dir / "PROVENANCE.md").write_text(
        f"# {title}\n\n"
        f"publisher: European Banking Authority (EBA); reuse with attribution.\n"
        f"source files: {source.name} ({len(lines) - 1} data lines), {dictionary.name}, {Path(scenarios).name}\n"
        f"extract: the header and the {len(keep) - 1} lines whose Item is one of {sorted(codes)} "
        f"(resolved by label through the dictionary), byte for byte in the source encoding ({encoding}); "
        f"dictionary rows of templates {sorted(templates)}; scenario labels.\n"
        f"release_date: {book.release_date}\n"
        f"release rule: file — the last-modified stamp of {dictionary.name}. The files state no "
        f"publication date; the results cannot have been published before this stamp's content was final, "
        f"but may have been published some days later.\n"
        f"{publisher_note}\n"
        f"Built by aieco.models.bank.eba_extract.write_extract; tests/test_bank_eba.py re-reads the source "
        f"when ../shared/data is present and checks the extract against it.\n",
        encoding="utf-8",
    )
    return target


def bundled_exercises() -> dict[str, Path]:
    """Exercise name → extract CSV shipped in the package (``st2016``, ``st2021``)."""
    out = {}
    for folder in sorted(p for p in BUNDLED.glob("*") if p.is_dir()):
        csvs = [p for p in folder.glob("*.csv") if not re.search(r"dictionary|lookup", p.name)]
        if csvs:
            out[folder.name] = csvs[0]
    return out


def dump_lines(path: Path) -> list[str]:
    """The decoded lines of an extract (for tests)."""
    text, _ = read_text(path)
    return io.StringIO(text).read().splitlines()


def rebuild_bundled(banks: Path) -> dict[str, Path]:
    """Rebuild the shipped extracts from the shared data folder ``banks`` (``…/shared/data/banks``)."""
    banks = Path(banks)
    return {
        "st2016": write_extract(
            banks / "eba_2016_stress_test_TR_OTH.csv",
            banks / "eba_2016_data_dictionary.xlsx",
            banks / "eba_2016_lookup_scenarios.csv",
            BUNDLED / "st2016",
            title="EBA 2016 EU-wide stress test — bank-level results (extract)",
            publisher_note="Obtained via github.com/Martin-Summer-1090/syslosseval (see the shared data README).",
        ),
        "st2021": write_extract(
            banks / "eba_2021_stress_test" / "TRA_OTH.csv",
            banks / "eba_2021_stress_test" / "Data_Dictionary.xlsx",
            banks / "eba_2021_stress_test" / "Metadata_TR.xlsx",
            BUNDLED / "st2021",
            title="EBA 2021 EU-wide stress test — bank-level results (extract)",
            publisher_note="Obtained via github.com/at621/eba_stresstest (see the shared data README). The CSV is "
            "Windows-1252 (Latin-1 plus e.g. the 0x97 em dash) as published.",
        ),
    }
