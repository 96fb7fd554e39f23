import json

import pytest
from click.testing import CliRunner
from sources_files import image_only_pdf, manifest, merged_formula_xlsx, table_pdf, text_pdf, zero_page_pdf

from aieco.cli import main
from aieco.config import get_settings
from aieco.records import Source, SourceLocation
from aieco.sources.registry import ingest

P1 = [
    "Higher tariffs reduce trade volumes.\nFirms redirect orders to domestic suppliers.",
    "Lower trade volumes weigh on real GDP.",
]
P2 = ["Rising long-term rates push up mortgage rates."]


def entry(path, **kw):
    return {
        "path": path,
        "title": f"T {path}",
        "publisher": "P",
        "publication_date": "2024-01-31",
        "role": "generation",
    } | kw


def test_pdf_passages_keep_page_exact_text_and_parser_version(tmp_path, store):
    text_pdf(tmp_path / "a.pdf", [P1, P2])
    report = ingest(store, manifest(tmp_path / "m.toml", [entry("a.pdf")]))
    assert report.ok and report.files[0].pages == 2
    locs = store.find(SourceLocation, source_id=report.files[0].source_id)
    by_page = {(loc.page, loc.text) for loc in locs}
    assert (1, P1[0]) in by_page and (1, P1[1]) in by_page and (2, P2[0]) in by_page
    assert all(loc.parser_version == get_settings().sources.pdf_parser_version for loc in locs)
    # a passage never crosses a page: no page-1 sentence is in a page-2 location
    assert not any("tariffs" in loc.text for loc in locs if loc.page == 2)


def test_pdf_table_cells_carry_row_and_column_labels(tmp_path, store):
    table_pdf(tmp_path / "t.pdf")
    ingest(store, manifest(tmp_path / "m.toml", [entry("t.pdf")]))
    cells = {loc.text: loc for loc in store.find(SourceLocation, kind="table_cell")}
    assert cells["-1.4"].row_label == "Real GDP" and cells["-1.4"].column_label == "2026"
    assert cells["7.9"].row_label == "Unemployment" and cells["7.9"].column_label == "2025"
    assert cells["7.9"].cell == "t1r3c2" and cells["7.9"].page == 1
    # table text is not repeated as a passage
    assert not any("Unemployment" in loc.text for loc in store.find(SourceLocation, kind="passage"))


def test_image_only_page_is_kept_empty_with_a_warning(tmp_path, store):
    image_only_pdf(tmp_path / "scan.pdf")
    report = ingest(store, manifest(tmp_path / "m.toml", [entry("scan.pdf")]))
    f = report.files[0]
    assert f.status == "registered" and f.pages == 2
    assert any("page 2: image-only page" in w for w in f.warnings)
    (empty,) = store.find(SourceLocation, source_id=f.source_id, page=2)
    assert empty.text == "" and "image-only" in empty.warning


@pytest.mark.parametrize("kind", ["corrupt", "encrypted", "zero_pages", "missing", "truncated"])
def test_bad_pdf_fails_alone_with_its_reason(tmp_path, store, kind):
    text_pdf(tmp_path / "good.pdf", [P1])
    bad = tmp_path / "bad.pdf"
    if kind == "corrupt":
        bad.write_bytes(b"this is not a PDF at all")
    elif kind == "encrypted":
        text_pdf(bad, [P2], encrypt="secret")
    elif kind == "zero_pages":
        zero_page_pdf(bad)
    elif kind == "truncated":
        bad.write_bytes((tmp_path / "good.pdf").read_bytes()[:200])
    report = ingest(store, manifest(tmp_path / "m.toml", [entry("bad.pdf"), entry("good.pdf")]))
    failed, good = report.files
    assert failed.status == "failed" and good.status == "registered"
    expected = {
        "corrupt": "not a readable PDF",
        "encrypted": "encrypted",
        "zero_pages": "has no pages",
        "missing": "not found",
        "truncated": "not a readable PDF",
    }[kind]
    assert expected in failed.reason and "fix" in failed.reason or kind == "missing"
    # nothing of the failed file was registered
    assert store.count(Source) == 1
    assert {loc.source_id for loc in store.all(SourceLocation)} == {good.source_id}


def test_ids_are_stable_and_reingest_is_a_noop(tmp_path, store):
    text_pdf(tmp_path / "a.pdf", [P1, P2])
    m = manifest(tmp_path / "m.toml", [entry("a.pdf")])
    first = ingest(store, m)
    ids = sorted(loc.location_id for loc in store.all(SourceLocation))
    second = ingest(store, m)
    assert second.files[0].status == "unchanged" and second.files[0].source_id == first.files[0].source_id
    assert sorted(loc.location_id for loc in store.all(SourceLocation)) == ids
    # same file and parser in another workspace → the same ids
    from aieco.store import Store

    with Store(tmp_path / "other") as other:
        ingest(other, m)
        assert sorted(loc.location_id for loc in other.all(SourceLocation)) == ids


def test_changed_bytes_get_a_new_source_and_the_old_one_stays(tmp_path, store):
    text_pdf(tmp_path / "a.pdf", [P1])
    m = manifest(tmp_path / "m.toml", [entry("a.pdf")])
    old = ingest(store, m).files[0].source_id
    text_pdf(tmp_path / "a.pdf", [P2])
    new = ingest(store, m).files[0]
    assert new.status == "registered" and new.source_id != old
    assert {s.source_id for s in store.all(Source)} == {old, new.source_id}
    assert store.count(SourceLocation, source_id=old) > 0


def test_a_failing_write_leaves_no_half_registered_source(tmp_path, store, monkeypatch):
    text_pdf(tmp_path / "a.pdf", [P1, P2])
    real = store._execute_insert
    calls = {"n": 0}

    def flaky(table, row):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("disk full")
        return real(table, row)

    monkeypatch.setattr(store, "_execute_insert", flaky)
    with pytest.raises(RuntimeError):
        ingest(store, manifest(tmp_path / "m.toml", [entry("a.pdf")]))
    assert store.count(Source) == 0 and store.count(SourceLocation) == 0


def test_xlsx_cells_with_merged_header_formula_labels_and_scenario(tmp_path, store):
    merged_formula_xlsx(tmp_path / "s.xlsx")
    report = ingest(store, manifest(tmp_path / "m.toml", [entry("s.xlsx")]))
    cells = {loc.cell: loc for loc in store.find(SourceLocation, source_id=report.files[0].source_id)}
    assert set(cells) == {"A1", "B1", "A2", "B2", "C2", "A3", "B3", "C3", "A4", "B4", "C4"}  # C1 is merged
    b3 = cells["B3"]
    assert b3.value == -2.1 and b3.row_label == "Real GDP" and b3.sheet == "Paths"
    assert b3.column_label == "2025" and b3.scenario_label == "adverse" and b3.formula is None
    c3 = cells["C3"]
    assert c3.column_label == "2026"
    assert c3.scenario_label == "adverse"  # the merged B1:C1 header "Adverse projection" covers column C
    assert cells["A3"].scenario_label == "stress" and cells["A3"].column_label == "Variable"  # A1 "Stress paths"
    c4 = cells["C4"]
    assert c4.formula == "=B4+1.2" and c4.value is None and "cached value" in c4.warning
    assert cells["B2"].value == 2025.0


def test_xlsx_formula_keeps_cached_value(tmp_path, store):
    """A workbook calculated by Excel stores the value next to the formula: both are kept."""
    import zipfile

    merged_formula_xlsx(tmp_path / "s.xlsx")
    # write a cached value into the formula cell as Excel would (<f>…</f><v>9.1</v>)
    src = zipfile.ZipFile(tmp_path / "s.xlsx")
    out = zipfile.ZipFile(tmp_path / "c.xlsx", "w")
    for info in src.infolist():
        data = src.read(info.filename)
        if info.filename == "xl/worksheets/sheet1.xml":
            data = data.replace(b"<f>B4+1.2</f><v /></c>", b"<f>B4+1.2</f><v>9.1</v></c>")
            assert b"<v>9.1</v>" in data
        out.writestr(info, data)
    out.close()
    ingest(store, manifest(tmp_path / "m.toml", [entry("c.xlsx")]))
    (c4,) = store.find(SourceLocation, cell="C4")
    assert c4.value == 9.1 and c4.formula == "=B4+1.2" and c4.warning is None


def test_corrupt_xlsx_fails_with_reason(tmp_path, store):
    (tmp_path / "x.xlsx").write_bytes(b"PK\x03\x04 broken")
    report = ingest(store, manifest(tmp_path / "m.toml", [entry("x.xlsx")]))
    assert report.files[0].status == "failed" and "not a readable .xlsx" in report.files[0].reason


def test_csv_utf8_cells_and_non_utf8_error_with_stated_fallback(tmp_path, store):
    (tmp_path / "ok.csv").write_text("variable;2024;2025\nhouse prices;1,5;x\n", encoding="utf-8")
    (tmp_path / "latin.csv").write_bytes("pays,valeur\nZürich,1.5\n".encode("cp1252"))
    m = manifest(tmp_path / "m.toml", [entry("ok.csv"), entry("latin.csv")])
    report = ingest(store, m)
    ok, bad = report.files
    assert ok.status == "registered" and bad.status == "failed"
    assert "not valid utf-8-sig text (byte 0xfc at offset 13)" in bad.reason and 'encoding = "cp1252"' in bad.reason
    cells = {loc.cell: loc for loc in store.find(SourceLocation, source_id=ok.source_id)}
    assert cells["B2"].value == "1,5" and cells["B2"].row_label == "house prices" and cells["B2"].column_label == "2024"
    # with the encoding stated the file is read
    m2 = manifest(tmp_path / "m2.toml", [entry("latin.csv", encoding="cp1252")])
    again = ingest(store, m2).files[0]
    assert again.status == "registered"
    assert {loc.text for loc in store.find(SourceLocation, source_id=again.source_id)} >= {"Zürich", "1.5"}


def test_cli_ingest_lists_each_failure_and_exits_nonzero(tmp_path):
    text_pdf(tmp_path / "good.pdf", [P1])
    (tmp_path / "bad.pdf").write_bytes(b"garbage")
    m = manifest(tmp_path / "m.toml", [entry("good.pdf"), entry("bad.pdf"), entry("gone.pdf")])
    res = CliRunner().invoke(main, ["-w", str(tmp_path / "ws"), "ingest", str(m)])
    assert res.exit_code == 1
    assert "FAILED     bad.pdf: " in res.output and "FAILED     gone.pdf: file " in res.output
    assert "1 registered, 0 unchanged, 2 failed" in res.output
    res = CliRunner().invoke(main, ["-w", str(tmp_path / "ws"), "ingest", str(m), "--json"])
    body = json.loads(res.output)
    assert body["counts"] == {"registered": 0, "unchanged": 1, "failed": 2}
    listed = CliRunner().invoke(main, ["-w", str(tmp_path / "ws"), "sources", "--json"])
    (src,) = json.loads(listed.output)
    assert src["title"] == "T good.pdf" and src["locations"] == 2


def test_cli_ingest_bad_manifest_exits_2_with_the_field(tmp_path):
    m = manifest(tmp_path / "m.toml", [entry("a.pdf", role="training")])
    res = CliRunner().invoke(main, ["-w", str(tmp_path / "ws"), "ingest", str(m), "--json"])
    assert res.exit_code == 2
    assert "'role'" in json.loads(res.output)["detail"]


def test_text_sources_become_paragraph_passages_and_progress_is_reported(tmp_path, store):
    (tmp_path / "note.md").write_text("# Note\n\nHigher tariffs reduce trade volumes.\nFirms adjust.\n\n\nSecond.\n")
    (tmp_path / "raw.dat").write_text("Rising long-term rates push up mortgage rates.\n")
    m = manifest(tmp_path / "m.toml", [entry("note.md"), entry("raw.dat", kind="text")])
    calls = []
    report = ingest(store, m, progress=lambda done, total, path: calls.append((done, total, path)))
    assert calls == [(1, 2, "note.md"), (2, 2, "raw.dat")]
    texts = [loc.text for loc in store.find(SourceLocation, source_id=report.files[0].source_id)]
    assert texts == ["# Note", "Higher tariffs reduce trade volumes.\nFirms adjust.", "Second."]
    (raw,) = store.find(SourceLocation, source_id=report.files[1].source_id)
    assert raw.page == 1 and raw.kind == "passage" and raw.parser_version == get_settings().sources.text_parser_version


def test_long_paragraphs_are_split_at_line_ends_under_the_passage_limit(tmp_path, store):
    lines = [f"Line {i} says that higher tariffs reduce trade volumes in this illustrative test." for i in range(40)]
    text_pdf(tmp_path / "long.pdf", [["\n".join(lines[:40])]])
    report = ingest(store, manifest(tmp_path / "m.toml", [entry("long.pdf")]))
    passages = store.find(SourceLocation, source_id=report.files[0].source_id, kind="passage")
    limit = get_settings().sources.max_passage_chars
    assert len(passages) > 1 and all(len(p.text) <= limit for p in passages)
    assert "\n".join(p.text for p in passages) == "\n".join(lines)  # nothing lost, no line cut


def test_parallel_parsing_gives_the_same_records_and_report_order(tmp_path, monkeypatch):
    from aieco.store import Store

    text_pdf(tmp_path / "a.pdf", [P1, P2])
    text_pdf(tmp_path / "b.pdf", [P2])
    (tmp_path / "bad.pdf").write_bytes(b"garbage")
    m = manifest(tmp_path / "m.toml", [entry("a.pdf"), entry("bad.pdf"), entry("b.pdf")])
    with Store(tmp_path / "seq") as seq, Store(tmp_path / "par") as par:
        one = ingest(seq, m, workers=1)
        monkeypatch.setenv("AIECO_SOURCES__PARALLEL_MIN_BYTES", "0")
        monkeypatch.setenv("AIECO_SOURCES__PDF_CHUNK_PAGES", "1")  # a.pdf is parsed in two tasks
        get_settings.cache_clear()
        try:
            two = ingest(par, m, workers=2)
        finally:
            monkeypatch.delenv("AIECO_SOURCES__PARALLEL_MIN_BYTES")
            monkeypatch.delenv("AIECO_SOURCES__PARALLEL_MIN_PAGES", raising=False)
            monkeypatch.delenv("AIECO_SOURCES__PDF_CHUNK_PAGES")
            get_settings.cache_clear()
        assert [(f.path, f.status, f.source_id, f.pages, f.locations) for f in one.files] == [
            (f.path, f.status, f.source_id, f.pages, f.locations) for f in two.files
        ]
        assert "not a readable PDF" in two.files[1].reason and two.files[0].pages == 2
        for f in one.files:
            if f.source_id:  # the same locations in the same order
                assert [x.location_id for x in seq.find(SourceLocation, source_id=f.source_id)] == [
                    x.location_id for x in par.find(SourceLocation, source_id=f.source_id)
                ]


def test_one_pdf_split_across_processes_gives_the_sequential_records(tmp_path, monkeypatch):
    """A single PDF is parsed in page chunks by two processes: same passages, order and ids."""
    from aieco.store import Store

    text_pdf(tmp_path / "a.pdf", [P1, P2, P2, P1])
    m = manifest(tmp_path / "m.toml", [entry("a.pdf")])
    with Store(tmp_path / "seq") as seq, Store(tmp_path / "par") as par:
        one = ingest(seq, m, workers=1)
        monkeypatch.setenv("AIECO_SOURCES__PARALLEL_MIN_BYTES", "0")
        monkeypatch.setenv("AIECO_SOURCES__PARALLEL_MIN_PAGES", "0")
        monkeypatch.setenv("AIECO_SOURCES__PDF_CHUNK_PAGES", "3")  # pages 1–3 and 4 in two processes
        get_settings.cache_clear()
        try:
            two = ingest(par, m, workers=2)
        finally:
            monkeypatch.delenv("AIECO_SOURCES__PARALLEL_MIN_BYTES")
            monkeypatch.delenv("AIECO_SOURCES__PARALLEL_MIN_PAGES", raising=False)
            monkeypatch.delenv("AIECO_SOURCES__PDF_CHUNK_PAGES")
            get_settings.cache_clear()
        assert one.files[0].pages == two.files[0].pages == 4 and one.files[0].locations == two.files[0].locations
        src = one.files[0].source_id
        assert src == two.files[0].source_id
        a, b = seq.find(SourceLocation, source_id=src), par.find(SourceLocation, source_id=src)
        key = [(x.location_id, x.page, x.ordinal, x.text) for x in a]
        assert key == [(x.location_id, x.page, x.ordinal, x.text) for x in b]
        assert {x.page for x in a} == {1, 2, 3, 4}


def test_a_shared_pdf_split_across_processes_gives_the_sequential_records(tmp_path, monkeypatch, shared_data):
    """The ESRB 2018 scenario PDF (passages and table cells) in page chunks of 4 over two
    processes and this one: the same location ids, in the same order, as one sequential parse."""
    from aieco.store import Store

    pdf = shared_data / "docs" / "esrb-2018-adverse-scenario.pdf"
    m = tmp_path / "m.toml"
    m.write_text(
        f'[[source]]\npath = "{pdf}"\ntitle = "ESRB"\npublisher = "ESRB"\n'
        'publication_date = 2018-01-31\nrole = "generation"\n'
    )
    with Store(tmp_path / "seq") as seq, Store(tmp_path / "par") as par:
        one = ingest(seq, m, workers=1, allow_outside=[pdf.parent])
        monkeypatch.setenv("AIECO_SOURCES__PARALLEL_MIN_BYTES", "0")
        monkeypatch.setenv("AIECO_SOURCES__PARALLEL_MIN_PAGES", "0")
        monkeypatch.setenv("AIECO_SOURCES__PDF_CHUNK_PAGES", "4")
        get_settings.cache_clear()
        try:
            two = ingest(par, m, workers=3, allow_outside=[pdf.parent])
        finally:
            monkeypatch.delenv("AIECO_SOURCES__PARALLEL_MIN_BYTES")
            monkeypatch.delenv("AIECO_SOURCES__PARALLEL_MIN_PAGES", raising=False)
            monkeypatch.delenv("AIECO_SOURCES__PDF_CHUNK_PAGES")
            get_settings.cache_clear()
        assert one.ok and two.ok and one.files[0].pages == two.files[0].pages > 8
        src = one.files[0].source_id
        ids = [x.location_id for x in seq.find(SourceLocation, source_id=src)]
        assert len(ids) > 50 and ids == [x.location_id for x in par.find(SourceLocation, source_id=src)]


def test_a_short_pdf_alone_is_parsed_here_without_workers(tmp_path, monkeypatch):
    """One PDF under sources.parallel_min_pages starts no worker process, whatever the bytes rule
    says, and gives the sequential records; at the threshold it is split over processes."""
    import aieco.sources.registry as registry
    from aieco.store import Store

    text_pdf(tmp_path / "a.pdf", [P1, P2, P2, P1])
    m = manifest(tmp_path / "m.toml", [entry("a.pdf")])
    started = []

    class Refused:
        def __init__(self, *a, **kw):
            started.append(kw)
            raise AssertionError("no worker process should start for a short PDF")

    with Store(tmp_path / "seq") as seq, Store(tmp_path / "par") as par, Store(tmp_path / "split") as split:
        one = ingest(seq, m, workers=1)
        monkeypatch.setenv("AIECO_SOURCES__PARALLEL_MIN_BYTES", "0")
        monkeypatch.setenv("AIECO_SOURCES__PDF_CHUNK_PAGES", "1")
        monkeypatch.setenv("AIECO_SOURCES__PARALLEL_MIN_PAGES", "5")  # 4 pages: below
        get_settings.cache_clear()
        try:
            with monkeypatch.context() as mp:
                mp.setattr(registry, "ProcessPoolExecutor", Refused)
                two = ingest(par, m, workers=2)
            assert not started
            monkeypatch.setenv("AIECO_SOURCES__PARALLEL_MIN_PAGES", "4")  # 4 pages: at the threshold
            get_settings.cache_clear()
            with monkeypatch.context() as mp, pytest.raises(AssertionError, match="no worker process"):
                mp.setattr(registry, "ProcessPoolExecutor", Refused)
                ingest(split, m, workers=2)
            assert started
        finally:
            get_settings.cache_clear()
        assert [(f.status, f.source_id, f.pages, f.locations) for f in one.files] == [
            (f.status, f.source_id, f.pages, f.locations) for f in two.files
        ]
        src = one.files[0].source_id
        assert [x.location_id for x in seq.find(SourceLocation, source_id=src)] == [
            x.location_id for x in par.find(SourceLocation, source_id=src)
        ]


def test_a_worker_parses_without_importing_the_settings(tmp_path):
    """What a worker process imports to parse a PDF task (the parsers, given plain options) leaves
    aieco.config, pydantic-settings and the store unimported, and parses the same locations."""
    import subprocess
    import sys

    from aieco.sources.manifest import load_manifest
    from aieco.sources.parsers import ParseOptions, parse_or_error

    text_pdf(tmp_path / "a.pdf", [P1, P2])
    m = manifest(tmp_path / "m.toml", [entry("a.pdf")])
    options = ParseOptions.from_settings()
    here = parse_or_error(load_manifest(m)[0], "src_x", (1, 2), options)
    code = (
        "import sys, pickle\n"
        "from aieco.sources.manifest import load_manifest\n"
        "from aieco.sources.parsers import ParseOptions, parse_or_error\n"
        f"options = ParseOptions(**{options.__dict__!r})\n"
        f"parsed = parse_or_error(load_manifest({str(m)!r})[0], 'src_x', (1, 2), options)\n"
        "print([x.location_id for x in parsed.locations])\n"
        "unwanted = ('aieco.config', 'pydantic_settings', 'aieco.store', 'sqlite3')\n"
        "print(sorted(k for k in unwanted if k in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == repr([x.location_id for x in here.locations]) and len(here.locations) > 1
    assert out[1] == "[]"
