"""Bad input gets a clear error naming file and reason, and leaves the store unchanged.

Manifest paths are confined to the manifest's folder (symlinks resolved first) unless the
caller allows another folder; empty files, oversized files and PDFs with too many pages are
refused; any parser failure is an InputError; the same bytes listed with different metadata
is an error naming both entries. Every parser is fuzzed over arbitrary bytes.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sources_files import manifest, merged_formula_xlsx, text_pdf

from aieco.cli import main
from aieco.config import get_settings
from aieco.errors import InputError
from aieco.records import Role, SourceKind
from aieco.sources.manifest import ManifestEntry
from aieco.sources.parsed import ParsedFile
from aieco.sources.parsers import parse_entry
from aieco.sources.registry import ingest
from aieco.store import Store


def entry(path, **kw):
    return {
        "path": str(path),
        "title": f"T {Path(path).name}",
        "publisher": "P",
        "publication_date": "2024-01-31",
        "role": "generation",
    } | kw


def snapshot(store: Store) -> tuple:
    """Everything a failed ingest must not change: row counts, chain heads and artifacts."""
    heads = store.db.execute("SELECT * FROM chain_heads ORDER BY table_name").fetchall()
    return store.table_counts(), heads, sorted(store.artifact_digests())


@pytest.fixture
def folder(tmp_path) -> Path:
    d = tmp_path / "corpus"
    d.mkdir()
    return d


@pytest.fixture
def outside(tmp_path) -> Path:
    d = tmp_path / "elsewhere"
    d.mkdir()
    (d / "secret.txt").write_text("A file the manifest must not reach.\n")
    return d


# --------------------------------------------------------------------------- confinement


@pytest.mark.parametrize(
    "path",
    [
        "../elsewhere/secret.txt",
        "{outside}/secret.txt",
        "sub/../../elsewhere/secret.txt",
        "/etc/hostname",
        "../../../../../../../../etc/passwd",
    ],
)
def test_paths_outside_the_manifest_folder_are_refused(store, folder, outside, path):
    before = snapshot(store)
    m = manifest(folder / "m.toml", [entry(path.format(outside=outside), kind="text")])
    with pytest.raises(InputError, match="outside the manifest's folder") as err:
        ingest(store, m)
    assert "--allow-outside" in str(err.value) and "source #1" in str(err.value)
    assert snapshot(store) == before


def test_a_symlink_inside_the_folder_is_resolved_before_the_check(store, folder, outside):
    os.symlink(outside / "secret.txt", folder / "innocent.txt")
    before = snapshot(store)
    with pytest.raises(InputError, match="resolves to .*elsewhere/secret.txt, outside"):
        ingest(store, manifest(folder / "m.toml", [entry("innocent.txt")]))
    assert snapshot(store) == before


def test_allow_outside_admits_exactly_that_folder(store, folder, outside):
    m = manifest(folder / "m.toml", [entry("../elsewhere/secret.txt")])
    report = ingest(store, m, allow_outside=[outside])
    assert report.ok and report.counts["registered"] == 1
    with pytest.raises(InputError):
        ingest(store, manifest(folder / "m2.toml", [entry("/etc/hostname", kind="text")]), allow_outside=[outside])


def test_cli_refuses_outside_paths_with_exit_2_and_accepts_allow_outside(tmp_path, folder, outside):
    ws = tmp_path / "ws"
    m = manifest(folder / "m.toml", [entry("../elsewhere/secret.txt")])
    res = CliRunner().invoke(main, ["ingest", str(m), "--workspace", str(ws)])
    assert res.exit_code == 2 and "outside the manifest's folder" in res.output
    res = CliRunner().invoke(main, ["ingest", str(m), "--workspace", str(ws), "--allow-outside", str(outside)])
    assert res.exit_code == 0, res.output


# --------------------------------------------------------------------------- files refused


def ingest_one(store: Store, folder: Path, name: str, **kw) -> tuple[str, tuple, tuple]:
    before = snapshot(store)
    report = ingest(store, manifest(folder / "m.toml", [entry(name, **kw)]))
    (f,) = report.files
    assert f.status == "failed"
    return f.reason, before, snapshot(store)


def test_a_zero_byte_file_is_refused(store, folder):
    (folder / "empty.pdf").write_bytes(b"")
    reason, before, after = ingest_one(store, folder, "empty.pdf")
    assert "is empty (0 bytes)" in reason and "empty.pdf" in reason and before == after


def test_a_file_over_the_size_limit_is_refused(store, folder, monkeypatch):
    (folder / "big.txt").write_text("x" * 2000)
    monkeypatch.setenv("AIECO_SOURCES__MAX_FILE_BYTES", "1000")
    get_settings.cache_clear()
    try:
        reason, before, after = ingest_one(store, folder, "big.txt")
    finally:
        monkeypatch.delenv("AIECO_SOURCES__MAX_FILE_BYTES")
        get_settings.cache_clear()
    assert "2000 bytes, over the limit of 1000" in reason and before == after


def test_a_pdf_over_the_page_limit_is_refused(store, folder, monkeypatch):
    text_pdf(folder / "long.pdf", [["Page one text."], ["Page two text."], ["Page three text."]])
    monkeypatch.setenv("AIECO_SOURCES__MAX_PDF_PAGES", "2")
    get_settings.cache_clear()
    try:
        reason, before, after = ingest_one(store, folder, "long.pdf")
    finally:
        monkeypatch.delenv("AIECO_SOURCES__MAX_PDF_PAGES")
        get_settings.cache_clear()
    assert "has 3 pages, over the limit of 2" in reason and "long.pdf" in reason and before == after


@pytest.mark.parametrize(
    "name, data",
    [
        ("junk.xlsx", b"PK\x03\x04 this is not a workbook"),
        ("zip.xlsx", None),  # a valid zip without a workbook inside
        ("badxml.xlsx", "xml"),  # a zip with the workbook's parts holding broken XML (ParseError)
        ("junk.pdf", b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF"),
        ("latin.csv", "a;b\n\xe9t\xe9;1\n".encode("latin-1")),
    ],
)
def test_a_file_its_parser_cannot_read_is_an_error_naming_it(store, folder, name, data):
    if data in (None, "xml"):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            if data is None:
                z.writestr("hello.txt", "no workbook here")
            else:
                for part in ("[Content_Types].xml", "_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels"):
                    z.writestr(part, "<broken <xml")
        data = buf.getvalue()
    (folder / name).write_bytes(data)
    reason, before, after = ingest_one(store, folder, name)
    assert name in reason and before == after
    assert "Traceback" not in reason


def test_cli_reports_a_junk_workbook_without_a_traceback(tmp_path, folder):
    (folder / "junk.xlsx").write_bytes(b"<?xml version='1.0'?><not-a-workbook")
    m = manifest(folder / "m.toml", [entry("junk.xlsx")])
    res = CliRunner().invoke(main, ["ingest", str(m), "--workspace", str(tmp_path / "ws"), "--json"])
    assert res.exit_code == 1 and res.exception is None or isinstance(res.exception, SystemExit)
    (f,) = json.loads(res.output)["files"]
    assert f["status"] == "failed" and "junk.xlsx" in f["reason"] and "Traceback" not in res.output


# --------------------------------------------------------------------------- same bytes, other metadata


def test_same_bytes_with_different_metadata_in_one_manifest_names_both_entries(store, folder):
    """Refused whole (issue 35 item 6): manifest order must not decide which description is kept."""
    from aieco.records import Source

    merged_formula_xlsx(folder / "a.xlsx")
    (folder / "b.xlsx").write_bytes((folder / "a.xlsx").read_bytes())
    with pytest.raises(InputError) as err:
        ingest(store, manifest(folder / "m.toml", [entry("a.xlsx"), entry("b.xlsx", publisher="Other")]))
    assert "entry #2 (b.xlsx)" in str(err.value) and "entry #1 (a.xlsx)" in str(err.value)
    assert "publisher: 'Other' here, 'P' there" in str(err.value)
    assert store.count(Source) == 0


def test_same_bytes_with_different_metadata_than_the_registered_source_is_refused(store, folder):
    merged_formula_xlsx(folder / "a.xlsx")
    ingest(store, manifest(folder / "m.toml", [entry("a.xlsx")]))
    (folder / "copy.xlsx").write_bytes((folder / "a.xlsx").read_bytes())
    reason, before, after = ingest_one(store, folder, "copy.xlsx", role="evaluation")
    assert "entry #1 (copy.xlsx) has the same bytes as registered source src_" in reason
    assert "a.xlsx" in reason and "role:" in reason and before == after


def test_same_bytes_with_the_same_metadata_is_unchanged(store, folder):
    merged_formula_xlsx(folder / "a.xlsx")
    (folder / "b.xlsx").write_bytes((folder / "a.xlsx").read_bytes())
    e = {"title": "Same", "publisher": "P"}
    report = ingest(store, manifest(folder / "m.toml", [entry("a.xlsx", **e), entry("b.xlsx", **e)]))
    assert [f.status for f in report.files] == ["registered", "unchanged"]


# --------------------------------------------------------------------------- fuzzing every parser


def fuzz_entry(path: Path, kind: SourceKind) -> ManifestEntry:
    return ManifestEntry(
        index=1,
        path=path.name,
        file=path,
        title="t",
        publisher="p",
        publication_date=None,
        role=Role.generation,
        kind=kind,
    )


SEEDS = {
    SourceKind.pdf: [b"%PDF-1.4\n", b"%PDF-1.7\n1 0 obj<</Type/Pages/Count 99999>>endobj\ntrailer<</Root 1 0 R>>"],
    SourceKind.xlsx: [b"PK\x03\x04", b"PK\x05\x06" + b"\0" * 18],
    SourceKind.csv: [b"a,b\n1,2\n", b"\xff\xfe\x00"],
    SourceKind.text: [b"# Title\n\nText.", b"\x00\x01\x02", b"<html><h1>T</h1><h2>S</h2><p>Higher x.</p><p"],
}


@pytest.mark.parametrize(
    "kind, suffix",
    [
        (SourceKind.pdf, ".pdf"),
        (SourceKind.xlsx, ".xlsx"),
        (SourceKind.csv, ".csv"),
        (SourceKind.text, ".md"),
        (SourceKind.text, ".txt"),
        (SourceKind.text, ".html"),
    ],
)
def test_every_parser_turns_any_bytes_into_locations_or_an_input_error(tmp_path, kind, suffix):
    path = tmp_path / f"fuzz{suffix}"

    @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(
        st.one_of(
            st.binary(max_size=600),
            st.sampled_from(SEEDS[kind]).flatmap(lambda seed: st.binary(max_size=200).map(lambda tail: seed + tail)),
        )
    )
    def check(data: bytes) -> None:
        path.write_bytes(data)
        try:
            parsed = parse_entry(fuzz_entry(path, kind), "src_fuzz")
        except InputError as exc:
            assert path.name in str(exc) or str(path) in str(exc), str(exc)
            return
        assert isinstance(parsed, ParsedFile)

    check()


@pytest.mark.parametrize("name", ["fred.csv", "series.csv", "rpp.xlsx", "realtime.xlsx", "macro.xlsx"])
def test_every_series_reader_turns_any_bytes_into_values_or_an_input_error(tmp_path, name):
    from aieco.sources.series import load_series

    path = tmp_path / name
    heads = [
        b"DATE,VALUE\n",
        b"Period\\Unit;x\n",
        b"period,YER\n",
        b"variable,reference_period,value\n",
        b"country_code,x\n",
        b"pub_date,x\n",
        b"PK\x03\x04",
    ]

    @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(heads), st.binary(max_size=300))
    def check(head: bytes, tail: bytes) -> None:
        path.write_bytes(head + tail)
        try:
            values = load_series(path, release_date="2024-01-31", variable="v", unit="u", frequency="Q")
        except InputError as exc:
            assert name in str(exc), str(exc)
            return
        assert isinstance(values, list)

    check()
