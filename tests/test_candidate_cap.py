"""No silent truncation: the candidate cap ranks by relevance to the channel queries and says what it skipped."""

from __future__ import annotations

from datetime import date

import pytest
from click.testing import CliRunner
from graph_corpus import DOCUMENTS, register_documents

from aieco.cli import main
from aieco.errors import InputError
from aieco.extraction.build import build_relations
from aieco.extraction.screen import Candidate, apply_cap, rank_candidates
from aieco.graph.build import as_of_graph
from aieco.graph.paths import enumerate_paths
from aieco.scenario.channels import channel_query
from aieco.store import Store

PC1 = channel_query("property_correction", "long_term_rate", "increase", "house_prices", "decrease")


def _sixteen_copies():
    housing = [d for d in DOCUMENTS if d[0] == "Housing report"]
    others = [d for d in DOCUMENTS if d[0] != "Housing report"]
    # the housing report comes last in every copy: document order reaches it only after all the rest
    return [(f"{title} #{k}", pub, role, pages) for k in range(16) for title, pub, role, pages in others + housing]


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "ws")
    register_documents(s, _sixteen_copies())
    yield s
    s.close()


def test_ranked_cap_keeps_the_channel_and_reports_what_it_skipped(store):
    report = build_relations(store, max_candidates=12, queries=[PC1])
    assert report.cap == 12 and report.candidates == 12 and report.dropped_by_cap > 200
    assert "long_term_rate" in report.ranking and "house_prices" in report.ranking
    paths = enumerate_paths(as_of_graph(store, date(2024, 12, 31)), PC1)
    assert paths and paths[0].composed_sign.value == "-"


def test_document_order_would_have_lost_the_channel(tmp_path):
    s = Store(tmp_path / "ws2")
    register_documents(s, _sixteen_copies())
    report = build_relations(s, max_candidates=12)  # no queries: first copies first, then document order
    assert report.dropped_by_cap > 200
    assert not enumerate_paths(as_of_graph(s, date(2024, 12, 31)), PC1)


def test_no_cap_processes_every_candidate(store):
    report = build_relations(store, max_candidates=None)
    assert report.cap is None and report.dropped_by_cap == 0 and report.candidates > 200


@pytest.mark.parametrize("bad", [0, -3, "12"])
def test_bad_cap_is_an_input_error(store, bad):
    with pytest.raises(InputError, match="candidate cap"):
        build_relations(store, max_candidates=bad)


def _c(i: str, text: str, variables: list[str]) -> Candidate:
    return Candidate(candidate_id=i, location_id="loc", text=text, variables=variables)


def test_rank_hand_computed():
    cands = [
        _c("a", "x", ["tariffs", "trade_volumes"]),  # near (trade_volumes) → 1
        _c("b", "y", ["real_gdp", "unemployment"]),  # endpoint 2 + near 1 → 3
        _c("c", "z", ["house_prices", "household_wealth"]),  # nothing → 0
        _c("d", "w", ["trade_volumes", "real_gdp", "tariffs"]),  # endpoint 2 + near (capped at 1) → 3
        _c("e", "y", ["real_gdp", "unemployment"]),
    ]  # a repeat of b → after every first copy
    assert [c.candidate_id for c in rank_candidates(cands, ["real_gdp"])] == ["b", "d", "a", "c", "e"]
    assert [c.candidate_id for c in rank_candidates(cands)] == ["a", "b", "c", "d", "e"]
    kept, skipped = apply_cap(cands, 3, ["real_gdp"])
    assert [c.candidate_id for c in kept] == ["a", "b", "d"] and skipped == 2  # kept in document order
    assert apply_cap(cands, None, ["real_gdp"]) == (cands, 0)


def test_cli_max_candidates(store, tmp_path):
    out = CliRunner().invoke(main, ["graph", "build", "--max-candidates", "none", "-w", str(store.path), "--json"])
    assert out.exit_code == 0, out.output
    assert '"cap":null' in out.output.replace(" ", "") and '"dropped_by_cap":0' in out.output.replace(" ", "")
    out = CliRunner().invoke(main, ["graph", "build", "--max-candidates", "zero", "-w", str(store.path)])
    assert out.exit_code != 0 and "max-candidates" in out.output
