"""Ingest the real documents and scenario workbooks of ../shared/data (skipped when absent)."""

from datetime import date

import pytest
from sources_files import manifest

from aieco.records import ExclusionReason, Source, SourceLocation
from aieco.retrieval import search
from aieco.sources.eligibility import eligible_locations
from aieco.sources.registry import ingest

# Publication dates as the data README gives them; where it gives only a month or year the
# last day is used (never earlier than the true date), and "unknown" where it gives none.
REAL = [
    ("docs/esrb-2018-adverse-scenario.pdf", "ESRB", "2018-01-16", "generation", "EU"),
    ("docs/eba-transparency-2024-csv-guide.pdf", "EBA", '"unknown"', "methods", "EU"),
    ("scenarios/boe-2022-23-stress-test-scenarios.xlsx", "Bank of England", '"unknown"', "evaluation", "UK"),
    ("scenarios/boe-2025-bank-capital-stress-test-scenarios.xlsx", "Bank of England", "2025-12-31", "evaluation", "UK"),
]
#: The two long PDFs (148 pages) take 16–30 s on the shared 2-core machine, depending on its load: marked slow.
REAL_LONG = [
    ("docs/bis-quarterly-review-2024.pdf", "BIS", "2024-03-31", "generation", "GLOBAL"),
    ("docs/boe-2022-23-stress-test-results-annex.pdf", "Bank of England", '"unknown"', "generation", "UK"),
]


def real_manifest(path, data, rows):
    entries = [
        {
            "path": str(data / p),
            "title": p.split("/")[-1],
            "publisher": pub,
            "publication_date": d,
            "role": role,
            "jurisdiction": j,
        }
        for p, pub, d, role, j in rows
    ]
    return manifest(path, entries)


@pytest.fixture(scope="module")
def real_ws(tmp_path_factory):
    from tests_shared import shared_data_dir

    from aieco.store import Store

    data = shared_data_dir()
    tmp = tmp_path_factory.mktemp("real")
    m = real_manifest(tmp / "manifest.toml", data, REAL)
    m.write_text(
        m.read_text().replace(
            'jurisdiction = "EU"\n',
            'jurisdiction = "EU"\n  [[source.role_override]]\n  pages = "20-22"\n  role = "development"\n',
            1,
        )
    )
    store = Store(tmp / "ws")
    report = ingest(store, m, allow_outside=[data])
    yield store, report
    store.close()


def test_every_real_file_is_registered(real_ws):
    store, report = real_ws
    assert report.ok, [f.reason for f in report.failures]
    pages = [f.pages for f in report.files]
    assert pages == [22, 9, 9, 5]  # PDF pages, then worksheets
    assert store.count(Source) == 4


@pytest.mark.slow
def test_long_real_pdfs_are_registered(tmp_path, shared_data):
    from aieco.store import Store

    with Store(tmp_path / "ws") as store:
        report = ingest(store, real_manifest(tmp_path / "m.toml", shared_data, REAL_LONG), allow_outside=[shared_data])
        assert report.ok and [f.pages for f in report.files] == [102, 46]
        assert store.count(SourceLocation, source_id=report.files[1].source_id, kind="table_cell") > 100


def test_real_pdf_passages_are_page_located_and_overridden(real_ws):
    store, report = real_ws
    esrb = report.files[0].source_id
    passages = store.find(SourceLocation, source_id=esrb, kind="passage")
    assert {p.page for p in passages} == set(range(1, 23))
    assert all(p.role_override is not None for p in passages if p.page >= 20)
    assert all(p.role_override is None for p in passages if p.page < 20)
    assert all(len(p.text) <= 1200 for p in passages)
    cells = store.find(SourceLocation, source_id=esrb, kind="table_cell")
    assert len(cells) > 20 and all(c.page and c.cell.startswith("t") for c in cells)


def test_real_workbook_cells_keep_labels_formulas_and_scenarios(real_ws):
    store, report = real_ws
    boe22 = report.files[2].source_id
    cells = store.find(SourceLocation, source_id=boe22, kind="sheet_cell")
    scenarios = {c.sheet: c.scenario_label for c in cells if c.sheet.startswith("Macroeconomic variables")}
    assert scenarios == {"Macroeconomic variables (Base) ": "baseline", "Macroeconomic variables(Stress)": "stress"}
    numeric = [c for c in cells if isinstance(c.value, float) and c.sheet.startswith("Macroeconomic")]
    assert numeric and sum(c.row_label is not None for c in numeric) / len(numeric) > 0.9
    assert sum(c.column_label is not None for c in numeric) / len(numeric) > 0.9


def test_real_search_respects_the_cutoff_and_unknown_dates(real_ws):
    store, report = real_ws
    hits = search(store, "house prices financing costs", as_of=date(2024, 12, 31), roles=["generation"])
    assert hits and all(h.publication_date is not None and h.publication_date <= date(2024, 12, 31) for h in hits)
    assert all(h.page is not None for h in hits)
    _, exclusions = eligible_locations(store, cutoff=date(2024, 12, 31), roles=["generation"])
    reasons = {(e.source_id, e.reason) for e in exclusions}
    assert (report.files[1].source_id, ExclusionReason.unknown_date) in reasons
    assert (report.files[3].source_id, ExclusionReason.after_cutoff) in reasons
    assert (report.files[0].source_id, ExclusionReason.role) in reasons  # pages 20-22 are development
