"""The real default workspace (aieco.default; issue #14 deliverable 5, DESIGN §6).

One module-scoped build from the package alone (no ../shared) and one run of the default
request, reused by every test: the inputs are real and carry provenance files, no value
released after the cutoff (or before its period ended) reaches a model, and each of the
three risks ends completed or stopped with its recorded reason.
"""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

import aieco
from aieco.default import CORPUS_MANIFEST, DEFAULT_REQUEST
from aieco.models.bank.eba_extract import TR2024_PERIOD
from aieco.records import ModelRun, ObservedValue, Provenance, RunStatus, Source, StageRecord
from aieco.request import load_request
from aieco.store import Store

PACKAGE = Path(aieco.__file__).resolve().parent
#: Every folder of shipped real inputs the default workspace reads.
SHIPPED = (PACKAGE / "default" / "corpus", PACKAGE / "data" / "real", PACKAGE / "models" / "bank" / "eba_data")
DATA_SUFFIXES = {".pdf", ".csv", ".md", ".xlsx", ".tsv", ".txt"}
CUTOFF = date(2024, 12, 31)

pytestmark = pytest.mark.slow


def _is_provenance(path: Path) -> bool:
    return "PROVENANCE" in path.name.upper()  # PROVENANCE.md, name.PROVENANCE.md, provenance-name.md


def _provenance_files(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if _is_provenance(p)]


def _data_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and p.suffix in DATA_SUFFIXES and not _is_provenance(p)]


@pytest.fixture(scope="module")
def built(default_run, workspace_copy):
    """This module's copy of the session's built and run default workspace (build_default, run_default)."""
    template, counts, outcome = default_run
    store = Store(workspace_copy(template, "default"))
    yield store, counts, outcome
    store.close()


# ---- shipped files ---------------------------------------------------------------------------


def test_every_shipped_data_file_has_a_provenance_file_naming_it():
    seen = 0
    for root in SHIPPED:
        for path in _data_files(root):
            provs = _provenance_files(path.parent)
            assert provs, f"{path} has no PROVENANCE file beside it"
            text = "\n".join(p.read_text(encoding="utf-8") for p in provs)
            # named, or the folder's PROVENANCE describes the whole extract (the EBA exercise folders)
            assert path.name in text or path.stem in text or "extract:" in text, f"{path.name}: not in {provs}"
            assert "publisher" in text.lower(), f"{provs}: no publisher line"
            assert "reuse with attribution" in text or "Brief excerpts may be reproduced" in text, f"{provs}: licence"
            seen += 1
    assert seen >= 10


def test_no_bank_of_england_or_yahoo_file_is_shipped_and_the_package_stays_small():
    files = [p for root in SHIPPED for p in root.rglob("*") if p.is_file()]
    assert not [p for p in files if "boe" in p.name.lower() or "stoxx50e_daily" in p.name or "yahoo" in p.name]
    assert sum(p.stat().st_size for p in files) < 5_000_000


def test_files_copied_unchanged_from_shared_data_have_provenance_beside_them(shared_data):
    digest = {hashlib.sha256(p.read_bytes()).hexdigest(): p for p in shared_data.rglob("*") if p.is_file()}
    copied = [
        p
        for root in SHIPPED
        for p in root.rglob("*")
        if p.is_file() and hashlib.sha256(p.read_bytes()).hexdigest() in digest
    ]
    assert any(p.name == "esrb-2018-adverse-scenario.pdf" for p in copied)
    for p in copied:
        original = digest[hashlib.sha256(p.read_bytes()).hexdigest()]
        assert _provenance_files(p.parent), f"{p} is a byte copy of {original} without a PROVENANCE file"


def test_the_bis_excerpts_are_verbatim_from_the_review(shared_data):
    """tools/default_corpus.py re-derives the shipped excerpt file from the PDF byte for byte."""
    from tools import default_corpus as module

    shipped = (PACKAGE / "default" / "corpus" / "bis-qr-2024-03-excerpts.md").read_text(encoding="utf-8")
    assert module.render(shared_data / "docs" / "bis-quarterly-review-2024.pdf") == shipped


def test_an_excerpt_not_on_its_page_is_refused():
    from tools import default_corpus as module

    assert module.excerpt("Prices rose.\nThen they fell-\nsharply.", "Then", "sharply.") == "Then they fell-sharply."
    with pytest.raises(ValueError, match="not found"):
        module.excerpt("Prices rose.", "House prices", "fell.")


def test_the_default_request_is_the_papers_three_risks_at_the_cutoff():
    req = load_request(DEFAULT_REQUEST)
    assert req.cutoff == CUTOFF and req.horizon == "2025-2027" and req.jurisdictions == ["EA"]
    assert [r.name for r in req.risks] == ["trade_fragmentation", "property_correction", "market_illiquidity"]
    assert "cet1_ratio" in req.outcomes and req.vintage_policy == "approximate"
    assert "Vintage policy: approximate" in DEFAULT_REQUEST.read_text(encoding="utf-8")


# ---- the built workspace ----------------------------------------------------------------------


def test_built_from_the_package_alone(built):
    store, counts, _ = built
    assert counts["ingest"]["failed"] == 0 and counts["observations"] > 0 and counts["bank_values"] > 0
    for source in store.find(Source):
        assert Path(source.path).resolve().is_relative_to(PACKAGE), source.path
    assert CORPUS_MANIFEST.resolve().is_relative_to(PACKAGE)


def test_every_source_and_value_is_real(built):
    store, _, _ = built
    sources = store.find(Source)
    assert {s.publisher for s in sources} == {"ESRB", "BIS", "ECB"}
    assert not [s.path for s in sources if s.illustrative]
    values = store.find(ObservedValue)
    assert values and {v.provenance for v in values} == {Provenance.real}
    assert not [v for v in values if v.release_date is None or v.release_rule is None]


def test_the_official_projections_are_stored_as_dated_evidence_never_as_history(built):
    from aieco.models import macro
    from aieco.sources.official import latest_round, read_projections, stored_projections

    store, counts, _ = built
    rows = read_projections()
    assert counts["official_projections"] == len(rows) == len(stored_projections(store))
    anchor = latest_round(rows, CUTOFF, "Eurosystem staff")
    assert anchor is not None and anchor.series_key == "EUROSYSTEM_STAFF:2024-12"
    history = macro.workspace_observations(store)
    assert not history.empty and set(history["frequency"]) <= {"Q", "M"}
    assert len(history) == sum(
        1 for v in store.find(ObservedValue, variable=list(macro.VARIABLES)) if v.scenario is None
    )


def _period_end(ref: str) -> date:
    return (pd.Period(ref, freq="Q") if "Q" in ref else pd.Period(ref, freq="M")).end_time.date()


def test_no_value_released_after_the_cutoff_or_before_its_period_ended_reaches_a_model(built):
    from aieco.models import macro
    from aieco.models.vintages import select_as_of

    store, _, _ = built
    runs = [r for r in store.find(ModelRun, model_id=macro.MODEL_ID) if r.status is RunStatus.completed]
    assert runs, "no completed macro run"
    observations = macro.workspace_observations(store)
    chosen = select_as_of(observations, CUTOFF, required=macro.VARIABLES, policy="approximate")
    released = pd.to_datetime(chosen["release_date"]).dt.date
    assert (released <= CUTOFF).all()
    assert all(r > _period_end(str(p)) for r, p in zip(released, chosen["reference_period"], strict=True))
    # the workspace also holds releases after the cutoff (house prices stored in 2025/2026): none is chosen
    assert (pd.to_datetime(observations["release_date"]).dt.date > CUTOFF).any()
    # a later, different release of every value changes nothing at the cutoff
    late = observations.assign(release_date=date(2025, 1, 15), value=observations["value"] + 1000.0)
    again = select_as_of(
        pd.concat([observations, late], ignore_index=True), CUTOFF, required=macro.VARIABLES, policy="approximate"
    )
    key = ["variable", "reference_period", "value"]

    def rows(frame):
        return frame[key].sort_values(key).reset_index(drop=True)

    assert rows(again).equals(rows(chosen))
    for run in runs:
        assert run.diagnostics["vintage_policy"] == "approximate"
        assert run.diagnostics["data"] == "observed"
        assert run.diagnostics["observations_digest"] == macro.sha256_hex(observations.to_csv(index=False))
        for variable, quarter in run.diagnostics["last_usable"].items():
            assert _period_end(quarter) <= CUTOFF, (variable, quarter)


def test_each_risk_completes_or_stops_with_its_recorded_reason(built):
    store, _, outcome = built
    analyses = outcome.as_json()["analyses"]
    assert sorted(a["risk"] for a in analyses) == ["market_illiquidity", "property_correction", "trade_fragmentation"]
    for a in analyses:
        assert a["status"] in ("completed", "stopped"), a
        if a["status"] == "stopped":
            assert a["stopped_stage"] and a["reason"], a
            [record] = [
                r
                for r in store.find(StageRecord, analysis_id=a["analysis_id"])
                if r.stage.endswith(a["stopped_stage"]) and r.status.value == "stopped" and a["risk"] in r.stage
            ]
            assert record.reason == a["reason"]
        else:
            assert a["report_id"]


def test_every_shipped_file_is_package_data():
    """A non-editable install carries every file the default workspace reads (pyproject package-data)."""
    import fnmatch
    import tomllib

    patterns = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    patterns = patterns["aieco"]
    for root in SHIPPED:
        for path in (p for p in root.rglob("*") if p.is_file()):
            rel = path.relative_to(PACKAGE).as_posix()
            assert any(
                fnmatch.fnmatch(path.name, p[3:]) if p.startswith("**/") else fnmatch.fnmatch(rel, p) for p in patterns
            ), f"{rel} is not package data"


def test_the_default_request_runs_end_to_end_under_strict(built):
    """Under ``strict`` only true vintages (GDP) and dated public copies (rule file) reach the VAR."""
    from aieco.analysis.pipeline import analyze
    from aieco.models.macro import MODEL_ID

    store, _, _ = built
    request = load_request(DEFAULT_REQUEST).model_copy(update={"vintage_policy": "strict"})
    outcome = analyze(store, request)
    runs = [r for r in store.find(ModelRun, model_id=MODEL_ID) if r.analysis_id == outcome.analysis_id]
    assert runs and all(r.diagnostics["vintage_policy"] == "strict" for r in runs)
    done = [r for r in runs if r.status is RunStatus.completed]
    assert done, [(r.status, r.reason) for r in runs]
    for r in done:
        d = r.diagnostics
        rules = {x for series in d["release_rules"].values() for rs in series.values() for x in rs}
        assert rules == {"vintage", "file"} and d["plausibility"]["passed"]
        assert d["endpoint"] == "2020Q3"  # the dated copies of house prices and equity (2021-04-25) end the sample


def test_the_bank_part_is_the_scenario_models_gate_stop_over_euro_area_banks(built):
    """Real EBA banks: the scenario-conditional model (bank_eba_scenario) carries the bank claims, which
    are registered before any run; on the 2016 and 2021 exercises its gate fails against its benchmarks
    (docs/bank-validation.md), so the stage records the stop with the gate's figures, no bank claim is
    linked, the report says the gate failed and where the banks in scope start; banks outside the euro
    area and banks with stale actuals are left out with their reasons."""
    from aieco.models.bank.eba_scenario import euro_area_member
    from aieco.records import Claim, OutputTest, Report, ReportSentence

    store, _, outcome = built
    completed = [a for a in outcome.as_json()["analyses"] if a["status"] == "completed"]
    assert completed
    for a in completed:
        report = store.get(Report, a["report_id"])
        sentences = sorted(store.find(ReportSentence, report_id=report.report_id), key=lambda s: s.position)
        text = [s.rendered for s in sentences]
        absent = [t for t in text if t.startswith("The bank part of this report is absent")]
        assert absent and "external validation gate" in absent[0]
        # the paragraph ends by saying where each real bank in scope starts (the latest admissible actuals)
        assert text[-1].startswith("Each real bank in the request's scope starts from its latest actual figures")
        assert "is left out, with its reason" in text[-1]
        assert str(TR2024_PERIOD // 100) in text[-1] and "transparency exercise" in text[-1]
        assert "stress test" not in text[-1]  # the stress tests' 2015 and 2020 actuals are older than the limit
        assert not any("synthetic bank" in t for t in text)
        tests = [t for t in store.find(OutputTest, analysis_id=a["analysis_id"]) if t.model_id.startswith("bank_")]
        assert tests and {t.model_id for t in tests} == {"bank_eba_scenario"}
        assert not [c for c in store.find(Claim, analysis_id=a["analysis_id"]) if c.model_id.startswith("bank_")]
        [app] = [
            r
            for r in store.find(StageRecord, analysis_id=a["analysis_id"])
            if r.stage == f"{a['risk']}/application" and r.status.value == "completed"
        ]
        real = store.get_json(app.output_digest)["real_banks"]
        assert real["status"] == "stopped" and real["model_id"] == "bank_eba_scenario"
        assert "train_mean" in real["reason"] and "scaled_constant" in real["reason"]
        starts = {(p["kind"], p["actual_year"]) for p in real["starting_points"]}
        assert starts == {("transparency", TR2024_PERIOD // 100)}
        left = real["scope"]["left_out"]
        assert {r["country"] for r in left if "euro-area" in r["reason"]} >= {"GB", "SE"}
        assert not any(euro_area_member(r["country"], date(2024, 12, 31)) for r in left if "euro" in r["reason"])
        assert real["refused_exercises"] == []  # approximate policy: the lag-dated transparency values count
    # the scenario model can read every completed macro run's selected path (its severity is finite)
    import math

    from aieco.models.bank.eba_scenario import path_severity

    macro = [r for r in store.find(ModelRun, model_id="macro_var") if r.status is RunStatus.completed]
    assert macro
    for r in macro:
        assert math.isfinite(path_severity(store.get_tables(r.output_digest)["selected_quarterly"], "2025-2027"))
