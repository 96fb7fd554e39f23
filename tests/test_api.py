"""aieco.api: a workspace's records as DataFrames, and docs/example.ipynb run cell by cell."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from dashboard_demo import demo_workspace

from aieco import api
from aieco.errors import InputError

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "example.ipynb"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    return demo_workspace(tmp_path_factory)


def test_frames_carry_the_stored_values_and_their_ids(demo):
    from aieco.records import Claim, ModelOutputPoint
    from aieco.store import Store

    with api.open_workspace(demo) as ws:
        analyses = ws.analyses()
        assert len(analyses) == 1 and analyses.iloc[0]["stopped"] >= 1  # market illiquidity stops
        an = analyses.iloc[0]["analysis_id"]
        stages = ws.stages(an)
        assert set(stages["status"]) >= {"completed", "stopped"}
        paths = ws.paths(an)
        assert (paths.groupby(["risk", "query_id"])["rank"].min() == 1).all()
        assert paths["path"].str.contains(" → ").all()
        runs = ws.runs(an)
        assert "macro_var" in set(runs["model_id"])
        claims = ws.claims(an)
        assert len(claims) > 0 and set(claims["test"]) <= {"pass", "fail", "pending"}
        reports = ws.reports(an)
        assert "passed" in set(reports["status"])
        assert ws.request(an)["cutoff"] == analyses.iloc[0]["cutoff"]
    with Store(demo) as store:  # a claim's value is its output point's stored value, not recomputed
        row = claims.iloc[0]
        claim = store.require(Claim, row["claim_id"])
        assert row["value"] == store.require(ModelOutputPoint, claim.point_id).value
        assert row["run_id"] == claim.run_id


def test_report_text_and_export_name_the_file_from_the_title(demo, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with api.open_workspace(demo) as ws:
        report_id = ws.reports().query("status == 'passed'").iloc[0]["report_id"]
        assert "{{NUM:" not in ws.report_text(report_id)
        written = ws.export(report_id, "html")
    assert written.parent == tmp_path and written.suffix == ".html" and report_id not in written.name


def test_open_workspace_names_the_path_it_looked_at(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as err:
        api.open_workspace("no_such_ws")
    assert str(tmp_path / "no_such_ws" / "aieco.db") in str(err.value)


def code_cells(notebook: Path) -> list[str]:
    """The code cells of a notebook (nbformat 4 JSON), in order."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    assert nb["nbformat"] == 4
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.slow
def test_example_notebook_runs_on_the_demo_workspace(demo, tmp_path, monkeypatch):
    """Every code cell of docs/example.ipynb, in one namespace, as a kernel would run them."""
    workspace = tmp_path / "ws"
    shutil.copytree(demo, workspace)  # the notebook runs a request: not in the shared demo
    monkeypatch.setenv("AIECO_WORKSPACE", str(workspace))
    namespace: dict = {"__name__": "__main__"}
    for i, source in enumerate(code_cells(NOTEBOOK)):
        try:
            exec(compile(source, f"{NOTEBOOK.name} cell {i}", "exec"), namespace)
        except Exception as exc:  # noqa: BLE001  (re-raised with the cell named)
            raise AssertionError(f"docs/example.ipynb code cell {i} failed: {exc!r}\n{source}") from exc
    comparison = namespace["comparison"]
    assert len(comparison) > 0  # the variant's claims line up with the first analysis's
    assert comparison["value (first seed)"].notna().all() and comparison["value (seed 7)"].notna().all()
    assert len(namespace["ws"].analyses()) == 2
