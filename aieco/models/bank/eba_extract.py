"""Compact extracts of the EBA stress-test files shipped with aieco, so a fresh clone validates on real data.

An extract keeps, byte for byte and in the file's own encoding, the header and every line of
the published CSV whose item is one of :data:`~aieco.models.bank.eba_items.CONCEPTS` (resolved
through the dictionary), the dictionary rows of the templates those items come from (as CSV),
the scenario labels, and a PROVENANCE.md naming the source files and the release date stamp
of the dictionary workbook. ``bundled_exercises()`` lists the stress-test extracts in the package.

The transparency-exercise extract (``eba_data/tr2024``) is different: no byte-identical copy of
the EBA's ``tr_oth.csv`` was found in any public repository, so it is a *reconstruction* in the
published layout, written by :func:`write_transparency_extract` from the derived CSVs of a public
repository that reshaped the EBA files (its rows kept verbatim under ``tr2024/source``); see that
folder's PROVENANCE.md. ``bundled_transparency()`` lists it.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta
from pathlib import Path

import pandas as pd

from aieco.errors import InputError
from aieco.models.bank.eba_items import (
    CONCEPTS,
    CORE_CONCEPTS,
    normalise_label,
    read_dictionary,
    read_scenarios,
    read_text,
)

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
    """Stress-test name → extract CSV shipped in the package (``st2016``, ``st2021``)."""
    out = {}
    for folder in sorted(p for p in BUNDLED.glob("st*") if p.is_dir()):
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


# ----------------------------------------------------------------------------- transparency exercise 2024

#: The transparency extract: the EBA 2024 EU-wide transparency exercise at December 2023.
TR2024 = BUNDLED / "tr2024"
#: Public repository whose derived CSVs (the EBA files reshaped) the extract is rebuilt from.
TR2024_SOURCE = {
    "repository": "github.com/owilliams84/powerbi-bank-capital",
    "commit": "7153a366bfaf443521b217291b0ae850f3bec3ee",
    "files": ("data/fact_prudential_2024.csv", "data/dim_item.csv", "data/dim_bank.csv"),
}
TR2024_PERIOD = 202312
#: The banks kept: those whose whole December 2023 capital and P&L block could be read in the
#: source (see PROVENANCE.md for the selection).
TR2024_BANKS = (
    "213800HDJ876ACJXXD05",
    "213800X3Q9LSAKRUWY91",
    "2W8N8UU78PMDQKZENC08",
    "391200EEGLNXBBCVKC73",
    "3M5E1GQGKL17HI6CPN30",
    "529900GGYMNGRQTDOO93",
    "529900HNOAA1KXQJUQ27",
    "529900JG015JC10LED24",
    "529900ODI3047E2LIV03",
    "529900OE1FOAM50XLP72",
)
#: Concepts the extract keeps (the issue's eight items plus the two the start state needs).
TR2024_CONCEPTS = (*CORE_CONCEPTS, "total_operating_income", "profit_before_tax")
#: EBA transparency publications whose date and latest reference period a cited page states:
#: (publication date, end of the latest reference period, source). The publication lag of the
#: 2024 exercise is bounded by the longest of these delays (release rule ``lag``).
TRANSPARENCY_PUBLICATIONS = (
    (
        date(2015, 11, 24),
        date(2015, 6, 30),
        "eba.europa.eu/-/correction-statement-on-2015-eu-wide-transparency-data ('The transparency exercise data "
        "published by the European Banking Authority (EBA) on 24 November 2015'); reference dates December 2014 "
        "and June 2015 per regulationtomorrow.com/eu/eba-updates-on-upcoming-transparency-exercise-and-on-key-"
        "features-of-2016-eu-wide-stress-test (EBA announcement of 15 July 2015)",
    ),
    (
        date(2022, 12, 9),
        date(2022, 6, 30),
        "eba.europa.eu/eba-risk-assessment-warns-about-impact-deteriorating-macroeconomic-environment "
        "(dated 09 December 2022: 'The report is accompanied by the publication of the 2022 EU-wide "
        "transparency exercise'; key figures for Q2 2022)",
    ),
)
#: End of the latest reference period of the 2024 exercise: the shared guide
#: (eba-transparency-2024-csv-guide.pdf, page 4) lists periods 202309, 202312, 202403 and 202406.
TR2024_LATEST_PERIOD_END = date(2024, 6, 30)
TR_COLUMNS = (
    "LEI_Code",
    "NSA",
    "Period",
    "Item",
    "Label",
    "ASSETS_FV",
    "ASSETS_Stages",
    "Exposure",
    "Financial_instruments",
    "n_quarters",
    "Amount",
)


def transparency_lag_days() -> int:
    """The longest publication delay of the cited transparency exercises (days after the latest period end)."""
    return max((pub - end).days for pub, end, _ in TRANSPARENCY_PUBLICATIONS)


def transparency_release_date(latest_period_end: date = TR2024_LATEST_PERIOD_END) -> date:
    """Release date the ``lag`` rule gives an exercise: its latest period end + :func:`transparency_lag_days`."""
    return latest_period_end + timedelta(days=transparency_lag_days())


def write_transparency_extract(source: Path, sdd: Path, out_dir: Path = TR2024) -> Path:
    """Rebuild the 2024 transparency extract from the source repository's ``data`` folder (or the
    verbatim subset kept in ``out_dir/source``) and the transparency SDD; returns ``tr_oth.csv``.

    Each source item (keyed by its 2025 code) is matched to the SDD's 2024 code by template and
    label; a label the SDD lacks, or matches twice, is an :class:`InputError`. Amounts are copied
    as written in the source (no re-formatting).
    """
    source, out_dir = Path(source), Path(out_dir)
    book = read_dictionary(sdd)
    names = {c.name: c for c in CONCEPTS}
    wanted: dict[int, str] = {}
    for name in TR2024_CONCEPTS:
        for t in book.resolve(names[name]):
            wanted[t.code] = book.items[t.code].template
    items = pd.read_csv(source / "dim_item.csv", dtype=str, keep_default_na=False)
    banks = pd.read_csv(source / "dim_bank.csv", dtype=str, keep_default_na=False)
    fact = pd.read_csv(source / "fact_prudential_2024.csv", dtype=str, keep_default_na=False)
    by_label = {}
    for code, template in wanted.items():
        key = (normalise_label(template), normalise_label(book.items[code].label))
        hits = items[
            (items["Template"].map(normalise_label) == key[0]) & (items["Label"].map(normalise_label) == key[1])
        ]
        if len(hits) != 1:
            raise InputError(
                f"source dim_item.csv has {len(hits)} rows labelled {book.items[code].label!r} in {template}",
                where=str(source / "dim_item.csv"),
                fix="use the source repository's data folder at the recorded commit",
            )
        by_label[hits["ItemKey"].iloc[0]] = code
    keep = fact[
        (fact["Period"] == str(TR2024_PERIOD))
        & (fact["StageKey"] == "0")
        & fact["LEI"].isin(TR2024_BANKS)
        & fact["ItemKey"].isin(by_label)
    ].sort_values(["LEI", "ItemKey"], kind="stable")
    missing = sorted(set(TR2024_BANKS) - set(keep["LEI"]))
    if missing or len(keep) != len(TR2024_BANKS) * len(by_label):
        raise InputError(
            f"source holds {len(keep)} of the {len(TR2024_BANKS) * len(by_label)} rows (missing banks {missing})",
            where=str(source),
        )
    country = dict(zip(banks["LEI"], banks["CountryCode"], strict=True))
    out = pd.DataFrame(
        {
            "LEI_Code": keep["LEI"],
            "NSA": keep["LEI"].map(country),
            "Period": keep["Period"],
            "Item": keep["ItemKey"].map(by_label).astype(int),
            "Label": keep["ItemKey"].map(lambda k: book.items[by_label[k]].label),
            "ASSETS_FV": "0",
            "ASSETS_Stages": keep["StageKey"],
            "Exposure": "0",
            "Financial_instruments": "0",
            "n_quarters": keep["QuartersInYTD"],
            "Amount": keep["Amount"],
        }
    ).sort_values(["LEI_Code", "Item"], kind="stable")
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / "tr_oth.csv"
    out.to_csv(target, index=False, columns=list(TR_COLUMNS), lineterminator="\n")
    sub = out_dir / "source"
    sub.mkdir(exist_ok=True)
    keep.to_csv(sub / "fact_prudential_2024.csv", index=False, lineterminator="\n")
    items[items["ItemKey"].isin(by_label)].sort_values("ItemKey", kind="stable").to_csv(
        sub / "dim_item.csv", index=False, lineterminator="\n"
    )
    kept_banks = banks[banks["LEI"].isin(TR2024_BANKS)].sort_values("LEI", kind="stable")
    kept_banks.to_csv(sub / "dim_bank.csv", index=False, lineterminator="\n")
    xlsx = Path(sdd).suffix == ".xlsx"
    table = pd.read_excel(sdd, header=None, dtype=str) if xlsx else pd.read_csv(sdd, header=None, dtype=str)
    head = next(i for i in range(6) if {"Item", "Label"} <= {str(c).strip() for c in table.iloc[i]})
    cols = [str(c).strip() for c in table.iloc[head]]
    body = table.iloc[head + 1 :]
    body = body[body.iloc[:, cols.index("Template")].isin(set(wanted.values()))]
    pd.DataFrame(body.values, columns=cols).to_csv(
        out_dir / "data_dictionary_extract.csv", index=False, lineterminator="\n"
    )
    names = dict(zip(kept_banks["LEI"], kept_banks["Bank"], strict=True))
    (out_dir / "PROVENANCE.md").write_text(_transparency_provenance(len(out), sorted(wanted), Path(sdd).name, names))
    repo, commit = TR2024_SOURCE["repository"], TR2024_SOURCE["commit"]
    (sub / "PROVENANCE.md").write_text(
        "# Source rows of the 2024 transparency extract\n\n"
        "publisher: European Banking Authority (EBA), EU-wide transparency exercise 2024 (values); reshaped by "
        f"{repo} (commit {commit}); reuse with attribution.\n"
        "extract: the header and the lines used of that repository's data/fact_prudential_2024.csv, "
        "data/dim_item.csv and data/dim_bank.csv (fact_prudential_2024.csv, dim_item.csv, dim_bank.csv here), "
        "transcribed verbatim; see ../PROVENANCE.md.\n"
    )
    return target


def _stress_test_2021_banks() -> set[str]:
    """LEIs of the bundled 2021 stress-test extract (to say which transparency banks are in it)."""
    path = bundled_exercises().get("st2021")
    if path is None:
        return set()
    text, _ = read_text(path)
    return {row["LEI_Code"] for row in csv.DictReader(io.StringIO(text))}


def _transparency_provenance(rows: int, codes: list[int], sdd_name: str, names: dict[str, str]) -> str:
    pubs = "\n".join(
        f"- published {pub.isoformat()}; latest reference period ends {end.isoformat()}; "
        f"delay {(pub - end).days} days. Source: {src}"
        for pub, end, src in TRANSPARENCY_PUBLICATIONS
    )
    repo, commit = TR2024_SOURCE["repository"], TR2024_SOURCE["commit"]
    st21 = _stress_test_2021_banks()
    in_st = {lei: ", also in the 2021 EU-wide stress test" for lei in names if lei in st21}
    return (
        f"# EBA 2024 EU-wide transparency exercise — December 2023 capital and P&L of {len(names)} banks "
        "(reconstruction)\n\n"
        "publisher: European Banking Authority (EBA), EU-wide transparency exercise 2024, full database "
        "(tr_oth.csv, 'Other templates'); reuse with attribution (reproduction of EBA material is authorised "
        "provided the source is acknowledged): source EBA.\n\n"
        "**This file is not the EBA's bytes.** No public repository in reach holds a byte-identical copy of "
        "the EBA's tr_oth.csv (copies found: athtareq/xorinvdea_dataset stores it as an absent large file; "
        "apmantza/eba-benchmarking stores its database as a Git LFS pointer). The values were taken from "
        f"{repo} at commit {commit}, whose data/fact_prudential_2024.csv holds the EBA's 2024 exercise "
        "reshaped (one row per bank, period, item, IFRS 9 stage; items renumbered to the 2025 codes; amounts "
        "rounded to 6 decimals; 'Amount' is the published year-to-date value). The rows used are kept "
        "verbatim in source/ (fact_prudential_2024.csv, dim_item.csv, dim_bank.csv: the header and the "
        "matching lines of the repository's data/ files, read through a read-only code index and "
        "transcribed; the repository could not be cloned here). tr_oth.csv is rebuilt from them by "
        "aieco.models.bank.eba_extract.write_transparency_extract: period 202312, stage 0, each 2025 item "
        f"matched to the 2024 code of {sdd_name} by template and label, country (NSA) from dim_bank.csv.\n\n"
        f"extract: {rows} rows = {len(names)} banks x {len(codes)} items {codes} (CET1 capital, total risk exposure "
        "amount, CET1 ratio, interest income and expenses, net fee and commission income, impairment on "
        "financial assets not at fair value, administrative expenses and depreciation, profit for the year, "
        "plus total operating income and profit before tax for the starting state of the bank model).\n"
        "columns: Lei_code/NSA/Period/Item/Label/Amount as described in the EBA's guide "
        "(eba-transparency-2024-csv-guide.pdf); ASSETS_FV, ASSETS_Stages, Exposure, Financial_instruments "
        "and n_quarters as named in the source repository's build script; the EBA's Footnote, Row, Column "
        "and Sheet columns are not reproduced.\n"
        f"banks: {'; '.join(f'{n} ({lei}{st})' for lei, n in names.items() for st in [in_st.get(lei, '')])} — "
        "the banks whose whole December 2023 capital and P&L block was read (the 4.3 MB source was read in "
        "16,000-character pages, so not every bank could be read in the time available; banks whose block "
        "has no P&L rows were passed over).\n"
        "checks (tests/test_bank_transparency.py): CET1 ratio = CET1 capital / total risk exposure amount "
        "within the source's 6-decimal rounding for every bank; rebuilding from source/ gives this tr_oth.csv "
        "byte for byte; with AIECO_TR2024_SOURCE naming a clone's data/ folder, the rebuild from the full "
        "files gives it too. No cross-check against the 2021 stress test is possible: its actual figures are "
        "for December 2020, this extract's for December 2023.\n\n"
        f"release_date: {transparency_release_date().isoformat()}\n"
        "release_rule: lag\n"
        "The EBA's publication date of the 2024 exercise is not stated in any file here (the guide's PDF "
        "stamp, 2024-11-25, and the SDD's workbook stamp, 2024-10-01, only show when those documents were "
        "last edited). The date above is the end of the exercise's latest reference period "
        f"({TR2024_LATEST_PERIOD_END.isoformat()}, June 2024, per the guide) plus {transparency_lag_days()} "
        "days, the longest delay between a cited transparency publication and the end of its latest "
        "reference period:\n"
        f"{pubs}\n"
        "Under the strict vintage policy (true vintages only) these values are refused; under the "
        "approximate policy they are admitted from the date above.\n"
    )


def bundled_transparency() -> dict[str, Path]:
    """Transparency-exercise name → extract CSV shipped in the package (``tr2024``)."""
    path = TR2024 / "tr_oth.csv"
    return {"tr2024": path} if path.is_file() else {}
