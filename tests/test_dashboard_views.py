"""The dashboard's view modules (dashboard/*_views.py, shared.py): what the pages show, read from stored records."""

from __future__ import annotations

from datetime import UTC, date

import pandas as pd
import pytest
from populated_workspace import build_workspace

from aieco import inventory
from aieco.errors import InputError
from aieco.records import ModelOutputPoint, Variable
from aieco.store import Store
from dashboard import analysis_views, bank_views, graph_views, reports_views, runs_views, shared, sources_views
from dashboard.labels import measure


@pytest.fixture(scope="module")
def populated(tmp_path_factory):
    base = tmp_path_factory.mktemp("views")
    ids = build_workspace(base / "ws", base / "sources")
    store = Store(base / "ws")
    yield store, ids
    store.close()


def test_workspace_digest_changes_when_a_record_is_added_and_only_then(store):
    before = inventory.workspace_digest(store)
    assert inventory.workspace_digest(store) == before
    assert inventory.is_empty(store)
    store.put(Variable.create(variable_id="real_gdp", label="Real GDP"))
    after = inventory.workspace_digest(store)
    assert after != before
    store.put(Variable.create(variable_id="real_gdp", label="Real GDP"))  # same id: no new row
    assert inventory.workspace_digest(store) == after


def test_empty_workspace_gives_empty_frames_with_their_columns(store):
    assert list(sources_views.sources_frame(store).columns) == sources_views.SOURCE_COLUMNS
    assert graph_views.relations_frame(store).empty
    assert analysis_views.paths_frame(store, "an_x").empty
    assert runs_views.runs_frame(store).empty
    assert graph_views.opposing_relations(graph_views.relations_frame(store)).empty
    assert shared.analysis_ids(store) == []


def test_opposing_relations_pairs_each_plus_with_each_minus_on_the_same_edge():
    rel = pd.DataFrame(
        [
            {
                "src_var": "a",
                "dst_var": "b",
                "sign": "+",
                "quote": "q1",
                "title": "T",
                "publication_date": "d",
                "page": 1,
                "review_decision": "accepted",
            },
            {
                "src_var": "a",
                "dst_var": "b",
                "sign": "-",
                "quote": "q2",
                "title": "T",
                "publication_date": "d",
                "page": 2,
                "review_decision": "accepted",
            },
            {
                "src_var": "a",
                "dst_var": "b",
                "sign": "-",
                "quote": "q3",
                "title": "T",
                "publication_date": "d",
                "page": 3,
                "review_decision": "rejected",
            },
            {
                "src_var": "b",
                "dst_var": "a",
                "sign": "-",
                "quote": "q4",
                "title": "T",
                "publication_date": "d",
                "page": 4,
                "review_decision": "accepted",
            },
        ]
    )
    out = graph_views.opposing_relations(rel)
    assert out[["quote_a", "quote_b"]].values.tolist() == [["q1", "q2"]]


def test_relations_filter_by_publication_date(populated):
    store, _ = populated
    assert len(graph_views.relations_frame(store)) == 4
    assert len(graph_views.relations_frame(store, published_by=date(2024, 6, 1))) == 2
    assert len(graph_views.relations_frame(store, published_by=date(2024, 5, 31))) == 0
    assert len(graph_views.relations_frame(store, condition="G1")) == 0


def test_paths_carry_score_sign_and_derivation_outcome(populated):
    store, ids = populated
    paths = analysis_views.paths_frame(store, ids["analysis_id"])
    row = paths.iloc[0]
    assert (row["channel"], row["composed_sign"], row["score"], row["outcome"]) == (
        "Tariffs → Trade volumes → Real GDP",  # labels from the packaged vocabulary
        "-",
        0.77,
        "accepted",
    )
    restrictions = analysis_views.restrictions_frame(store, ids["analysis_id"])
    first = restrictions.iloc[0]
    assert first["direction"] == "decrease"
    # labels where a person reads; the ids one column away
    assert first["variable"] == shared.variable_labels(store)[first["variable_id"]]
    assert "_" not in first["risk"] + first["aggregation"] + first["derivation"]
    assert first["supporting relations"] == len(first["supporting_relation_ids"].split(", "))
    assert "“higher tariffs reduce trade volumes”" in restrictions.iloc[0]["supporting_quotes"]


def test_fan_chart_bands_are_the_stored_quantile_points(populated):
    store, ids = populated
    points = runs_views.points_frame(store, ids["macro_run"])
    fig = runs_views.fan_chart(points, "real_gdp")
    names = [t.name for t in fig.data]
    # two bands (5–95, 25–75) drawn as upper edge + filled lower edge, the median, the selected path
    assert names == [None, "5%–95%", None, "25%–75%", "median", "selected scenario"]
    stored = {p.period: p.value for p in store.find(ModelOutputPoint, run_id=ids["macro_run"], quantile=0.05)}
    assert list(fig.data[1].y) == [stored[p] for p in sorted(stored)]
    assert list(fig.data[1].x) == ["2025", "2026", "2027"]


def test_claim_chain_follows_the_number_to_its_own_path_quotes_and_pages(populated):
    store, ids = populated
    chain = reports_views.claim_chain(store, ids["claim_id"])
    assert chain["claim"]["point_id"] == ids["point_id"]
    assert chain["run"]["run_id"] == ids["macro_run"]
    assert chain["own_restrictions"]  # the claim's variable (real_gdp) is restricted itself
    assert chain["restrictions"]["variable"].tolist() == ["Real GDP"]
    steps = chain["chain"]
    # the selected path of that restriction, in order: tariffs → trade volumes, then trade volumes → real GDP
    assert steps["path"].unique().tolist() == ["Tariffs → Trade volumes → Real GDP"]
    assert steps[["step", "from", "to"]].values.tolist() == [
        [1, "Tariffs", "Trade volumes"],
        [2, "Trade volumes", "Real GDP"],
    ]
    assert steps["quote"].tolist() == ["higher tariffs reduce trade volumes", "trade volumes raise real GDP"]
    assert steps["representative"].all()
    assert steps["reading"].tolist() == ["read by the offline rule reader; not reviewed by an analyst"] * 2
    assert set(chain["inputs"].columns) == {"input", "provenance", "key", "digest"}
    # readable input names, the raw key beside them in the details column
    inputs = chain["inputs"].set_index("key")["input"]
    assert all(inputs[k] == reports_views.input_label(k) != k for k in inputs.index)
    assert reports_views.claim_of_point(store, ids["point_id"]) == ids["claim_id"]
    assert reports_views.report_of_claim(store, ids["claim_id"]) == ids["report_id"]


def test_claim_chain_of_an_unknown_claim_names_the_fix(populated):
    store, _ = populated
    with pytest.raises(InputError, match="no Claim with id clm_nope"):
        reports_views.claim_chain(store, "clm_nope")


def test_labels_name_analyses_reports_and_runs_uniquely_without_ids(populated):
    store, ids = populated
    analyses = shared.analysis_labels(store)
    assert ids["analysis_id"] in analyses
    assert "cutoff" in analyses[ids["analysis_id"]] and ids["analysis_id"] not in analyses[ids["analysis_id"]]
    reports = reports_views.report_labels(store)
    assert len(set(reports.values())) == len(reports) and ids["report_id"] in reports
    runs = runs_views.run_labels(store)
    assert runs[ids["macro_run"]].startswith("test_macro · trade fragmentation · generation")
    assert not any(r in label for r, label in runs.items())
    assert shared.model_name("macro_var") == "VAR scenario generator"  # names, not ids, for known models
    assert shared.model_name("bank_eba_components:2016->2021") == "Bank CET1 depletion (EBA components) (2016->2021)"


def test_unique_labels_tell_equal_labels_apart_by_id():
    labels = shared._unique(
        {"an_aaaa1": "Same · cutoff 2024-12-31", "an_bbbb2": "Same · cutoff 2024-12-31", "an_c": "Other"}
    )
    assert len(set(labels.values())) == 3
    assert labels["an_c"] == "Other" and "an_aaaa1" in labels["an_aaaa1"]


def test_graph_layout_is_deterministic_and_follows_transmission():
    edges = [
        ("tariffs", "trade_volumes"),
        ("trade_volumes", "real_gdp"),
        ("tariffs", "import_prices"),
        ("import_prices", "inflation"),
    ]
    first = graph_views.graph_layout(edges)
    assert graph_views.graph_layout(list(reversed(edges))) == first  # same edges, same picture
    assert first["tariffs"][0] == 0 and first["trade_volumes"][0] == 1 and first["real_gdp"][0] == 2
    # a cycle collapses into one layer instead of failing
    cyclic = graph_views.graph_layout([("a", "b"), ("b", "a"), ("b", "c")])
    assert cyclic["a"][0] == cyclic["b"][0] == 0 and cyclic["c"][0] == 1


def test_channel_graph_figure_has_a_legend_per_sign_and_class_and_clickable_relations(populated):
    store, _ = populated
    relations = graph_views.relations_frame(store)
    fig = graph_views.channel_graph_figure(relations, {"tariffs": "Tariffs"})
    marker_traces = [t for t in fig.data if t.customdata is not None]
    assert sorted(rid for t in marker_traces for rid in t.customdata[:, 0]) == sorted(relations["relation_id"])
    assert all(" · " in t.name for t in marker_traces)  # 'positive (+) · causal' …
    nodes = next(t for t in fig.data if t.name == "variable")
    assert "Tariffs" in nodes.text


def test_embedded_export_scrolls_in_page_links_instead_of_navigating():
    html = (
        '<html><head></head><body><a class="num" href="#pt-1">1.0</a><a href="https://x.org">x</a>'
        '<p id="pt-1">here</p></body></html>'
    )
    out = reports_views.embeddable_export(html)
    assert 'href="#pt-1"' not in out and "getElementById('pt-1')" in out
    assert '<base target="_blank">' in out  # any other link opens a new tab, never the app's frame


def test_channels_without_path_name_the_channel_and_why(populated):
    store, ids = populated
    gaps = analysis_views.channels_without_path(store, ids["analysis_id"])
    assert list(gaps.columns) == analysis_views.GAP_COLUMNS  # the populated analysis has a path for its query


def test_report_sentences_resolve_claims_to_stored_values(populated):
    store, ids = populated
    sentences = reports_views.report_sentences(store, ids["report_id"])
    assert [s["kind"] for s in sentences] == ["qualitative", "numerical"]
    claim = sentences[1]["claims"][0]
    point = store.require(ModelOutputPoint, ids["point_id"])
    assert (claim["run_id"], claim["value"]) == (ids["macro_run"], point.value)
    assert f"{round(point.value, claim['rounding']):.{claim['rounding']}f}" in sentences[1]["rendered"]
    assert claim["rounding"] == 1  # % is read to one decimal (registered unit rule)


def test_bank_views_per_entity(populated):
    store, ids = populated
    assert runs_views.bank_runs(store) == [ids["bank_run"]]
    points = runs_views.points_frame(store, ids["bank_run"])
    assert runs_views.entities(points) == ["Bank A", "Bank B"]
    assert runs_views.model_variables(points, with_entity=True) == ["cet1_ratio"]
    assert runs_views.model_variables(points) == []
    gates = runs_views.validation_frame(store)
    assert gates[["metric", "value", "rule"]].values.tolist() == [
        ["mae", 1.2, "≤"],
        ["spearman", 0.6, "≥"],
        ["n_banks", 2.0, ""],
    ]
    assert gates["threshold"].tolist()[:2] == [2.0, 0.5] and pd.isna(gates["threshold"].iloc[2])


def test_stage_views_show_the_stop(populated):
    store, ids = populated
    stages = analysis_views.stages_frame(store, ids["analysis_id"])
    assert stages["status"].tolist() == ["completed", "completed", "stopped"]
    assert stages["seconds"].tolist() == [1.0, 1.0, 1.0]
    analyses = analysis_views.analyses_frame(store)
    assert analyses.iloc[0][["completed", "stopped", "failed"]].tolist() == [2, 1, 0]
    stops = analysis_views.stops_frame(store)
    assert stops[["stage", "status"]].values.tolist() == [["restrictions", "stopped"]]
    fig = analysis_views.stage_timeline(store, ids["analysis_id"])
    assert [t.name for t in fig.data] == ["completed", "stopped"]
    worded = analysis_views.stages_in_words(store, ids["analysis_id"])
    assert worded["stage_id"].tolist() == stages["stage"].tolist()
    assert not any("_" in s for s in worded["stage"])  # 'restriction derivation', never 'risk_name/stage_id'
    assert list(fig.data[-1].y) == worded[worded["status"] == "stopped"]["stage"].tolist()


def test_quantile_ranges_show_each_banks_stored_median_and_range_at_the_last_period(populated):
    store, ids = populated
    points = runs_views.points_frame(store, ids["bank_run"])
    fig = runs_views.quantile_ranges(points, "cet1_ratio")
    stored = {
        (p.entity, p.quantile): p.value for p in store.find(ModelOutputPoint, run_id=ids["bank_run"], period="2027")
    }
    banks = list(fig.data[0].x)
    assert banks == sorted(banks, key=lambda b: stored[(b, 0.5)])  # sorted by median
    assert list(fig.data[0].y) == [stored[(b, 0.5)] for b in banks]
    assert list(fig.data[0].error_y.array) == [stored[(b, 0.95)] - stored[(b, 0.5)] for b in banks]
    assert list(fig.data[0].error_y.arrayminus) == [stored[(b, 0.5)] - stored[(b, 0.05)] for b in banks]
    assert fig.layout.title.text == "cet1_ratio in 2027: median and range by bank"


def test_a_bank_run_along_the_scenario_path_keeps_its_path_chart_and_no_not_scenario_statement(populated):
    """The statement and the figures table are for runs of models that take no macro path only."""
    store, ids = populated
    points = runs_views.points_frame(store, ids["bank_run"])
    assert runs_views.path_periods(points, "cet1_ratio", "Bank A") == sorted(
        points.loc[(points["entity"] == "Bank A") & (points["variable"] == "cet1_ratio"), "period"].unique()
    )
    assert runs_views.path_periods(points, "cet1_ratio", "Bank A")  # a path to draw
    assert runs_views.scenario_note(store, ids["bank_run"]) == ""
    assert "not scenario-conditional" not in runs_views.run_labels(store)[ids["bank_run"]]
    assert "not an outcome" not in runs_views.bank_run_caption(store, ids["bank_run"])
    # a model this process does not know is taken to follow the scenario (its runs say nothing else)
    assert bank_views.takes_macro_path("test_model_of_another_process")


def test_percentile_statistics_are_banded_like_quantiles():
    points = pd.DataFrame(
        [
            {
                "variable": "cet1_ratio",
                "entity": "B1",
                "period": p,
                "statistic": stat,
                "quantile": None,
                "simulation_id": None,
                "unit": "%",
                "value": v,
            }
            for p, base in (("2025H2", 14.0), ("2026H2", 13.0))
            for stat, v in (("p05", base - 2), ("p50", base), ("p95", base + 1), ("mean", base - 0.1))
        ]
    )
    levels = runs_views.with_quantiles(points)["quantile"].tolist()[:4]
    assert levels[:3] == [0.05, 0.5, 0.95] and pd.isna(levels[3])  # "mean" is no percentile
    fig = runs_views.fan_chart(points, "cet1_ratio", entity="B1")
    assert [t.name for t in fig.data] == [None, "5%–95%", "median", "mean"]
    assert list(fig.data[1].y) == [12.0, 11.0]  # the lower edge is p05
    assert list(fig.data[0].y) == [15.0, 14.0]  # the upper edge is p95


def test_selection_summary_reads_the_runs_stored_selection_table(tmp_path_factory):
    from dashboard_demo import demo_workspace

    with Store(demo_workspace(tmp_path_factory)) as store:
        runs = runs_views.runs_frame(store)
        run_id = runs[runs["model_id"] == "macro_var"]["run_id"].iloc[0]
        summary = runs_views.selection_summary(store, run_id)
        table = runs_views.output_tables(store, run_id)["selection"]
        assert summary["severity"] == table["severity"].iloc[0]
        assert summary["acceptance_share"] == table["acceptance_share"].iloc[0]
        assert 0 < summary["acceptance_share"] <= 1
        bank = runs[runs["model_id"] == "bank_feols"]["run_id"].iloc[0]
        assert runs_views.selection_summary(store, bank) == {}


def test_a_review_shows_in_the_status_the_graph_filter_and_the_paths_now(tmp_path):
    """Reject a relation on the path tariffs → trade volumes → real GDP: its status says so, the
    'rejected' filter holds it, the in-use graph does not, and the channel has no path any more;
    correcting a sign instead flips the path's composed sign."""
    from aieco.records import Relation
    from aieco.review import review_relation

    build_workspace(tmp_path / "ws", tmp_path / "sources")
    with Store(tmp_path / "ws") as store:
        first = store.find(Relation, src_var="tariffs")[0].relation_id
        second = store.find(Relation, src_var="trade_volumes")[0].relation_id
        args = {"as_of": None, "condition": "G0", "roles": ("generation",)}
        before = graph_views.current_paths(store, "trade_fragmentation", **args)
        assert list(before["composed_sign"]) == ["-"] and before["relation_ids"][0] == f"{first}, {second}"
        assert graph_views.review_status(store, (first, second)) == {first: "in use", second: "in use"}

        review_relation(store, second, "correct", sign="-", analyst="tester")
        corrected = graph_views.current_paths(store, "trade_fragmentation", **args)
        assert list(corrected["composed_sign"]) == ["+"]  # (−)·(−): the corrected sign counts
        assert graph_views.review_status(store, (second,)) == {second: "corrected by analyst"}

        review_relation(store, first, "reject", analyst="tester")
        assert graph_views.review_status(store, (first,)) == {first: "rejected by analyst"}
        in_use = graph_views.graph_relations(store, review="accepted", **args)
        rejected = graph_views.graph_relations(store, review="rejected", **args)
        assert first not in in_use and first in rejected and second in rejected  # the corrected original too
        after = graph_views.current_paths(store, "trade_fragmentation", **args)
        assert list(after["path"]) == ["no path"] and after["rank"].isna().all()


def test_channels_without_path_come_from_the_graph_search_records(tmp_path):
    """A completed search names its channel without a path (the risk went on); a stopped one gives
    each channel its part of the stop reason; labels replace vocabulary ids."""
    from datetime import datetime

    from aieco.records import Analysis, StageRecord, StageStatus

    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    request = {
        "title": "gaps",
        "risks": [
            {
                "name": "trade_fragmentation",
                "channels": [
                    {
                        "id": "tf1",
                        "source": "tariffs",
                        "movement": "increase",
                        "target": "real_gdp",
                        "expected": "decrease",
                    },
                    {
                        "id": "tf2",
                        "source": "geopolitical_risk",
                        "movement": "increase",
                        "target": "equity_prices",
                        "expected": "decrease",
                    },
                ],
            },
            {
                "name": "market_illiquidity",
                "channels": [
                    {
                        "id": "mi1",
                        "source": "market_liquidity",
                        "movement": "decrease",
                        "target": "equity_prices",
                        "expected": "decrease",
                    },
                ],
            },
        ],
    }
    with Store(tmp_path / "ws") as store:
        an = Analysis.create(request=request, label="gaps", created_at=t0)
        store.put(an)
        out = store.put_json(
            {
                "paths": {"tf1": ["path_x"], "tf2": []},
                "queries": {"tf1": "q1", "tf2": "q2"},
                "channels_without_path": [
                    {
                        "channel_id": "tf2",
                        "query_id": "q2",
                        "source": "geopolitical_risk",
                        "target": "equity_prices",
                        "reason": "no admissible path: no relation in the graph starts from geopolitical_risk",
                    }
                ],
            }
        )
        store.put_many(
            [
                StageRecord.create(
                    analysis_id=an.analysis_id,
                    stage="trade_fragmentation/graph_search",
                    status=StageStatus.completed,
                    input_digest="a",
                    output_digest=out,
                    started_at=t0,
                    ended_at=t0,
                ),
                StageRecord.create(
                    analysis_id=an.analysis_id,
                    stage="market_illiquidity/graph_search",
                    status=StageStatus.stopped,
                    input_digest="b",
                    started_at=t0,
                    ended_at=t0,
                    reason="no admissible path for any channel query of market_illiquidity: "
                    "mi1 (market_liquidity → equity_prices): no relation in the graph starts "
                    "from market_liquidity",
                ),
            ]
        )
        gaps = analysis_views.channels_without_path(store, an.analysis_id)
        labels = shared.variable_labels(store)
    assert list(gaps["channel_id"]) == ["tf2", "mi1"]
    tf2, mi1 = gaps.iloc[0], gaps.iloc[1]
    assert tf2["risk_status"] == "went on with its other channels" and tf2["query_id"] == "q2"
    assert tf2["why"] == f"no admissible path: no relation in the graph starts from {labels['geopolitical_risk']}"
    assert tf2["channel"].startswith(labels["geopolitical_risk"] + " increase → ")
    assert mi1["risk_status"].startswith("stopped at graph search")
    assert mi1["why"] == f"no relation in the graph starts from {labels['market_liquidity']}"


def test_fan_charts_of_a_run_are_panels_titled_by_label_without_horizon_summaries(populated):
    store, ids = populated
    fig = runs_views.fan_charts_of_run(store, ids["macro_run"], ("real_gdp",))
    assert [a.text for a in fig.layout.annotations] == [shared.variable_labels(store)["real_gdp"]]
    xs = {x for t in fig.data if t.x is not None for x in t.x}
    assert xs and not any("-" in str(x) for x in xs)  # years only: no '2025-2027' summary on the time axis
    # the unit with what it measures, read from the stored points (not a bare "%")
    from aieco.records import ModelOutputPoint

    stored = {p.transformation for p in store.find(ModelOutputPoint, run_id=ids["macro_run"], variable="real_gdp")}
    shown = fig.layout.yaxis.title.text
    assert shown.endswith(", %") and shown != "%"
    assert any(shown == measure("%", t) for t in stored)


def test_measures_name_what_is_measured_and_its_unit():
    assert measure("%", "annual_growth") == "annual growth, %"
    assert measure("pp", "cumulative_change") == "cumulative change over the horizon, percentage points"
    assert measure("%", "some_new_transformation") == "some new transformation, %"  # never blank
    assert measure("index") == "index"


def test_channel_queries_of_the_selected_analysis_only(tmp_path):
    import tomllib
    from datetime import datetime

    from aieco.records import Analysis, ChannelQuery
    from aieco.request import parse_request

    data = tomllib.loads(
        'title = "one channel"\ncutoff = 2024-12-31\nhorizon = "2025-2027"\njurisdictions = ["EA"]\n'
        'models = ["macro_var"]\nbackend = "offline"\n[[risks]]\nname = "market_illiquidity"\n'
        'label = "Market illiquidity"\ndescription = "d"\n[[risks.channels]]\nid = "mi1"\n'
        'source = "market_liquidity"\nmovement = "decrease"\ntarget = "equity_prices"\nexpected = "decrease"\n'
    )
    req = parse_request(data)
    with Store(tmp_path / "ws") as store:
        when = datetime(2025, 1, 1, tzinfo=UTC)
        an = Analysis.create(request=req.model_dump(mode="json"), label="one", created_at=when)
        other = ChannelQuery.create(
            risk="trade_fragmentation",
            source_var="tariffs",
            source_movement="increase",
            target_var="real_gdp",
            target_movement="decrease",
        )
        store.put_many([an, *req.channel_queries("market_illiquidity"), other])
        assert len(analysis_views.queries_frame(store)) == 2
        mine = analysis_views.queries_frame(store, an.analysis_id)
    assert list(mine["risk"]) == ["market illiquidity"] and list(mine["query_id"]) != [other.query_id]


def test_input_labels_name_every_models_inputs_and_fall_back_to_words():
    assert reports_views.input_label("taken") == "Scenarios already selected for other risks (excluded)"
    assert reports_views.input_label("start_state") == "Each bank's starting state"
    assert reports_views.input_label("some_new_input") == "Some new input"  # unknown keys in words, never blank


def test_fan_chart_caption_says_whether_a_channel_restricts_the_variable(populated):
    """The run's request restricts real GDP (to fall); any other variable's selected path is the model's
    joint response with the restricted variables, and the caption says so."""
    store, ids = populated
    restrictions = runs_views.run_restrictions(store, ids["macro_run"])
    assert restrictions == {"real_gdp": "to fall (three-year mean over 2025-2027 below zero)"}
    said = runs_views.restriction_caption("real_gdp", "Real GDP", restrictions)
    assert said.startswith("Real GDP: restricted by the analysis's channels to fall")
    other = runs_views.restriction_caption("inflation", "Consumer price inflation", restrictions)
    assert "no channel restricts it" in other and "joint response with the restricted variables" in other
    # a run that selected no path (no admissible draw) never says a selected path meets anything
    unselected = runs_views.restriction_caption("real_gdp", "Real GDP", restrictions, selected=False)
    assert "selected path meets" not in unselected and "selected no path" in unselected
    assert "to fall" in unselected
    assert runs_views.run_restrictions(store, "run_nope") == {}


def test_stage_and_reason_labels_replace_ids_with_words():
    from dashboard.labels import in_words, stage_label

    risks = {"market_illiquidity": "Market illiquidity"}
    assert stage_label("market_illiquidity/restriction_derivation", risks) == (
        "Market illiquidity — restriction derivation"
    )
    assert stage_label("property_correction/graph_search") == "Property correction — graph search"  # no label
    assert stage_label("eligibility") == "eligibility"
    labels = {"long_term_rate": "Long-term interest rate", "house_prices": "House prices"}
    assert in_words("long_term_rate → house_prices composes against", labels) == (
        "Long-term interest rate → House prices composes against"
    )
    # a record id aside is left to the details; the sentence keeps its words
    assert in_words("1 of 1 assessed paths refused (derivation drv_116b5b8f483782ee88d3)", {}) == (
        "1 of 1 assessed paths refused"
    )


def test_the_workspace_caches_a_view_of_every_area_module_and_refuses_other_functions(store):
    from dashboard.workspace import VIEW_MODULES, Workspace

    ws = Workspace(store=store, path=store.path.resolve(), digest=inventory.workspace_digest(store))
    # functions of the same name in different area modules are cached apart (the key holds the module)
    assert list(ws.view(sources_views.sources_frame).columns) == sources_views.SOURCE_COLUMNS
    assert list(ws.view(runs_views.runs_frame).columns) == runs_views.RUN_COLUMNS
    assert ws.view(shared.analysis_labels) == {}
    assert {m.split(".")[-1] for m in VIEW_MODULES} >= {
        "shared",
        "analysis_views",
        "sources_views",
        "graph_views",
        "runs_views",
        "reports_views",
    }
    with pytest.raises(ValueError, match="not a view function"):
        ws.view(inventory.workspace_digest)


def test_a_calibrated_path_is_labelled_a_conditional_forecast_not_a_simulation():
    """Under the calibrated rule the selected path is no draw (its simulation id is the nearest draw, a
    diagnostic): the legend says so; under the paper's rule it is that simulation."""
    points = pd.DataFrame(
        {
            "variable": ["real_gdp"] * 2,
            "statistic": ["selected"] * 2,
            "period": ["2025", "2026"],
            "value": [-0.5, -1.0],
            "simulation_id": [42, 42],
            "quantile": [None, None],
            "entity": [None, None],
            "unit": ["%", "%"],
            "transformation": ["annual_growth"] * 2,
        }
    )
    calibrated = runs_views.fan_chart(points, "real_gdp", rule="calibrated")
    paper = runs_views.fan_chart(points, "real_gdp", rule="paper_max")
    assert [t.name for t in calibrated.data] == ["selected scenario (conditional forecast; nearest draw 42)"]
    assert [t.name for t in paper.data] == ["selected scenario (simulation 42)"]
