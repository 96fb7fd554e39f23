"""`aieco bench all`: one JSON of the performance figures, each with target, peer, ratio and met."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from aieco.benchmarks import summary
from aieco.benchmarks.summary import Item, run_summary
from aieco.cli import main
from aieco.sources.xlsx import column_letter


def test_item_ratio_and_met_follow_the_figure_direction():
    lower = Item(issue_item=3, name="t", value=0.4, unit="s", target=0.5, peer="p", peer_value=1.6)
    assert lower.ratio == pytest.approx(0.25) and lower.met is True
    higher = Item(issue_item=1, name="r", value=45.0, unit="pages/s", target=50.0, better="higher", peer_value=9.0)
    assert higher.ratio == pytest.approx(5.0) and higher.met is False
    assert Item(issue_item=6, name="n", value=1.0, unit="s").as_dict() == {
        **Item(issue_item=6, name="n", value=1.0, unit="s").model_dump(),
        "ratio": None,
        "met": None,
    }


def test_summary_reports_each_part_its_time_and_a_broken_part_without_hiding_it(monkeypatch):
    monkeypatch.setitem(
        summary.PARTS, "ok", lambda: [Item(issue_item=6, name="x", value=2.0, unit="ms", target=1.0, peer_value=4.0)]
    )

    def broken() -> list[Item]:
        raise RuntimeError("no shared data")

    monkeypatch.setitem(summary.PARTS, "broken", broken)
    out = run_summary(["ok", "broken"])
    assert [f["name"] for f in out["figures"]] == ["x"]
    assert out["figures"][0]["ratio"] == 0.5 and out["figures"][0]["met"] is False
    assert out["missed"] == ["x"] and out["met"] == 0
    assert out["errors"] == {"broken": "RuntimeError: no shared data"}
    assert set(out["parts"]) == {"ok", "broken"} and all(v["wall_s"] >= 0 for v in out["parts"].values())
    json.dumps(out)  # serialisable as printed


def test_bench_all_paths_part_from_the_cli():
    res = CliRunner().invoke(main, ["bench", "all", "--parts", "paths", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    names = [f["name"] for f in out["figures"]]
    assert names == ["paths_slowest_query_2000_relations_ms", "paths_slowest_query_2000_relations_cpu_ms"]
    assert out["figures"][0]["peer_value"] > 0 and out["figures"][0]["target"] == 50.0
    bad = CliRunner().invoke(main, ["bench", "all", "--parts", "nope", "--json"])
    assert bad.exit_code == 2 and "nope" in bad.output


def test_column_letters_are_the_spreadsheet_names():
    from openpyxl.utils import get_column_letter

    assert [column_letter(i) for i in (1, 26, 27, 52, 53, 702, 703, 16384)] == [
        "A",
        "Z",
        "AA",
        "AZ",
        "BA",
        "ZZ",
        "AAA",
        "XFD",
    ]
    assert all(column_letter(i) == get_column_letter(i) for i in range(1, 18_279))  # openpyxl stops at ZZZ
    with pytest.raises(ValueError):
        column_letter(0)


def test_a_measured_process_reports_its_own_peak_memory_not_the_parents(tmp_path):
    import numpy as np

    ballast = np.ones(60 * 2**20 // 8)  # 60 MiB resident in this (the parent) process
    run = summary.run_process(["-w", str(tmp_path / "ws"), "init", "--json"])
    assert run["code"] == 0 and json.loads(run["stdout"])["workspace"].endswith("ws")
    assert run["cpu"] > 0 and run["rss_mib"] is not None and 5 < run["rss_mib"]
    # an `init` process stays far below the parent's resident set plus its ballast
    assert run["rss_mib"] < summary.resource.getrusage(summary.resource.RUSAGE_SELF).ru_maxrss / 1024
    del ballast
