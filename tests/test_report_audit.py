"""`aieco audit` re-resolves every claim: each altered field is flagged; CLI commands of the report area."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from reporting_world import ANALYSIS, build_world, good_draft

from aieco.audit import run_audit
from aieco.cli import main
from aieco.errors import InputError
from aieco.records import StageRecord, utc_now
from aieco.reporting.render import render_report


def cli(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def world(store):
    w = build_world(store)
    report = render_report(store, ANALYSIS, good_draft(w)).report
    return w, report


def _claim_kinds(store, analysis_id=ANALYSIS):
    return {m["kind"] for m in run_audit(store, analysis_id)["mismatches"]}


def test_untouched_workspace_audits_clean(store, world):
    result = run_audit(store, ANALYSIS)
    assert result["clean"], result["mismatches"]


@pytest.mark.parametrize(
    "column, value, kind",
    [
        ("artifact_digest", "0" * 64, "claim:output_hash"),
        ("row", "2026", "claim:row"),
        ("column", "real_gdp", "claim:column"),
        ("unit", "pp", "claim:unit"),
        ("transformation", "level", "claim:transformation"),
        ("run_id", "run_00000000000000000000", "claim:run_id"),
        ("table_name", "means", "claim:table"),
        ("period", "2026", "claim:period"),
    ],
)
def test_each_altered_claim_field_is_flagged(store, world, column, value, kind):
    w, report = world
    cid = w.cid("house_prices", "2025")
    store.execute_raw(f'UPDATE claims SET "{column}" = ? WHERE claim_id = ?', [value, cid])
    mismatches = run_audit(store, ANALYSIS)["mismatches"]
    assert any(m["kind"] == kind and m["id"] == cid for m in mismatches), mismatches
    assert any(m["kind"] == "report" and m["id"] == report.report_id for m in mismatches)


def test_altered_output_artifact_is_flagged(store, world):
    w, _ = world
    path = store._artifact_path(w.run.output_digest)
    path.write_bytes(path.read_bytes().replace(b"-2.52712", b"-2.42712"))
    kinds = _claim_kinds(store)
    assert {"artifact", "claim:output_hash", "report"} <= kinds


@pytest.mark.parametrize(
    "column, value, kind", [("row", "2027", "claim:row"), ("value", 9.0, "claim:value"), ("unit", "pp", "claim:unit")]
)
def test_altered_output_point_is_flagged(store, world, column, value, kind):
    w, _ = world
    store.execute_raw("DROP TRIGGER model_output_points_no_update")
    store.execute_raw(
        f"UPDATE model_output_points SET \"{column}\" = ? WHERE run_id = ? AND period = ? AND variable = 'real_gdp'",
        [value, w.run.run_id, "2025"],
    )
    assert kind in _claim_kinds(store)


def test_altered_run_is_flagged(store, world):
    w, _ = world
    store.execute_raw("DROP TRIGGER model_runs_no_update")
    store.execute_raw("UPDATE model_runs SET output_digest = ? WHERE run_id = ?", ["f" * 64, w.run.run_id])
    assert {"model_runs", "claim:run_id", "claim:output_hash"} <= _claim_kinds(store)


def test_altered_rendered_sentence_is_flagged(store, world):
    _, report = world
    store.execute_raw("UPDATE report_sentences SET rendered = replace(rendered, '5.2%', '6.2%')")
    assert "report" in _claim_kinds(store)


def test_audit_focuses_on_one_analysis(store, world):
    w, _ = world
    store.execute_raw("UPDATE claims SET row = '2026' WHERE claim_id = ?", [w.cid("house_prices", "2025")])
    store.put(
        StageRecord.create(
            analysis_id="an_unrelated",
            stage="request_checks",
            status="completed",
            input_digest="x",
            started_at=utc_now(),
            ended_at=utc_now(),
        )
    )
    assert not any(k.startswith("claim:") for k in _claim_kinds(store, "an_unrelated"))
    with pytest.raises(InputError, match="no analysis an_unknown"):  # an id the workspace does not know
        run_audit(store, "an_unknown")


def test_cli_audit_exits_one_on_a_tampered_claim(store, world):
    w, _ = world
    ws = str(store.path)
    assert cli("-w", ws, "audit", ANALYSIS).exit_code == 0
    store.execute_raw("UPDATE claims SET \"column\" = 'real_gdp' WHERE claim_id = ?", [w.cid("house_prices", "2025")])
    res = cli("-w", ws, "--json", "audit", ANALYSIS)
    assert res.exit_code == 1
    assert "claim:column" in {m["kind"] for m in json.loads(res.output)["mismatches"]}


def test_cli_check_report_prints_positions_and_rules(store, world, tmp_path):
    w, _ = world
    cid = w.cid("house_prices", "2025")
    text = tmp_path / "candidate.txt"
    text.write_text(f"House prices are projected at {{{{NUM:{cid}}}}}. Losses reach EUR three billion by 2026.")
    res = cli("-w", str(store.path), "check-report", str(text), "--analysis", ANALYSIS)
    assert res.exit_code == 1
    assert "sentence 1, char 13" in res.output and "currency" in res.output and "digit" in res.output
    res = cli("-w", str(store.path), "check-report", str(text), "--analysis", ANALYSIS, "--json")
    body = json.loads(res.output)
    assert body["accepted"] is False
    digit = next(v for v in body["violations"] if v["rule"] == "digit")
    assert text.read_text()[digit["text_offset"] : digit["text_offset"] + 4] == "2026"
    good = tmp_path / "good.json"
    good.write_text(good_draft(w).model_dump_json())
    res = cli("-w", str(store.path), "check-report", str(good), "--analysis", ANALYSIS, "--phase", "execution")
    assert res.exit_code == 0 and "accepted" in res.output


def test_cli_report_list_and_export(store, world, tmp_path):
    _, report = world
    res = cli("-w", str(store.path), "report", "list", "--json")
    rows = json.loads(res.output)
    assert [(r["report_id"], r["status"]) for r in rows] == [(report.report_id, "passed")]
    out = tmp_path / "r.html"
    res = cli("-w", str(store.path), "report", "export", report.report_id, "--format", "html", "--out", str(out))
    assert res.exit_code == 0 and "-2.5%" in out.read_text()
    res = cli("-w", str(store.path), "report", "export", report.report_id, "--format", "md", "--out", "-")
    assert "[8.2%](#pt-" in res.output  # `--out -`: on stdout, for a pipe
    folder = tmp_path / "here"
    folder.mkdir()
    with pytest.MonkeyPatch.context() as mp:  # no --out: a file named from the title, never bytes on a terminal
        mp.chdir(folder)
        res = cli("-w", str(store.path), "--json", "report", "export", report.report_id, "--format", "pdf")
    written = json.loads(res.output)
    assert [p.name for p in folder.iterdir()] == [Path(written["path"]).name]
    assert Path(written["path"]).name.endswith(".pdf") and report.report_id not in written["path"]
    assert (folder / Path(written["path"]).name).read_bytes().startswith(b"%PDF")
    res = cli("-w", str(store.path), "--json", "report", "export", "rpt_missing", "--format", "md")
    assert res.exit_code == 2 and json.loads(res.output)["error"] == "InputError"


def test_reporting_bench_section_runs_end_to_end():
    from aieco.benchmarks import run_section

    out = run_section("reporting", quick=True)
    names = {f["name"] for f in out["figures"]}
    assert {"contract_sentences_per_s", "write_and_render_18_claims", "export_all_five_formats"} <= names
    assert all(f["value"] > 0 for f in out["figures"])
