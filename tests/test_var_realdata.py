"""The VAR on the real euro-area series from ../shared/data/macro, as known at 31 Dec 2024."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from aieco.models.macro import MODEL_ID, PLAUSIBILITY
from aieco.models.realdata import build_real_dataset, model_levels
from aieco.models.var import VARIABLES, fit_var
from aieco.models.vintages import select_as_of
from aieco.records import RunStatus
from aieco.sources.series import period_end
from tests.macro_helpers import run_macro_scenario

CUTOFF = "2024-12-31"
# as if the evidence timed every restriction to every horizon year (the strictest reading)
EVERY = {"aggregation": "every_year"}
RISKS = {
    "trade_fragmentation": [
        {"variable": "real_gdp", "direction": -1, "priority": 1, "reference": "zero", **EVERY},
        {"variable": "unemployment", "direction": 1, "priority": 2, "reference": "last_observed", **EVERY},
    ],
    "property_correction": [{"variable": "house_prices", "direction": -1, "priority": 1, "reference": "zero", **EVERY}],
    "market_illiquidity": [
        {"variable": "equity_prices", "direction": -1, "priority": 1, "reference": "zero", **EVERY},
        {"variable": "long_term_rate", "direction": 1, "priority": 2, "reference": "last_observed", **EVERY},
    ],
}


@pytest.fixture(scope="module")
def real():
    from pathlib import Path

    shared = (Path(__file__).resolve().parents[1] / ".." / "shared" / "data").resolve()
    if not shared.is_dir():
        pytest.skip(f"shared data folder {shared} is absent")
    return build_real_dataset(shared)


def test_no_value_released_after_the_cutoff_or_before_its_period_ended(real):
    eligible = select_as_of(real, CUTOFF, policy="approximate")
    cutoff = date.fromisoformat(CUTOFF)
    assert (eligible["release_date"] <= cutoff).all()
    assert all(
        d > period_end(p, f)
        for d, p, f in zip(eligible["release_date"], eligible["reference_period"], eligible["frequency"], strict=True)
    )
    # BIS house prices for 2024Q3–2025Q4 exist in the file but were not public at the cutoff
    house = eligible[eligible["variable"] == "house_prices"]["reference_period"]
    assert house.max() == "2024Q2"
    # the real-time GDP 2024Q4 vintage (released 2024-12-13) is the latest usable; 2024Q4 itself is not
    gdp = eligible[eligible["variable"] == "real_gdp"]
    assert gdp["reference_period"].max() == "2024Q3" and set(gdp["release_rule"]) == {"vintage"}


def test_model_levels_end_at_the_latest_quarter_all_six_are_usable(real):
    built = model_levels(real, CUTOFF, VARIABLES, "approximate")
    assert built.last_usable == {
        "real_gdp": "2024Q3",
        "equity_prices": "2023Q4",
        "house_prices": "2024Q2",
        "inflation": "2024Q1",
        "unemployment": "2024Q1",
        "long_term_rate": "2023Q2",
    }
    fit = fit_var(built.levels, pandemic="dummies")
    assert fit.endpoint == "2023Q2" and fit.quarters[0] == "2000Q1" and fit.stable
    assert fit.dummied == ("2020Q1", "2020Q2", "2020Q3", "2020Q4", "2021Q1", "2021Q2")
    assert fit.resid.shape[0] == len(fit.quarters) - 2 - 6  # the dummied quarters are out of the pool
    assert built.rules["real_gdp"] == {"RTDB.gdp_ea": ["vintage"]}
    assert set(built.rules["inflation"]) == {"FRED.CP0000EZ19M086NEST", "ECB.ICP.M.U2.N.000000.4.ANR"}


def test_hicp_index_is_extended_by_the_published_annual_rates(real):
    built = model_levels(real, CUTOFF, VARIABLES, "approximate")
    lagged = real[real["release_rule"] == "lag"]  # the dated-copy rows repeat the same values
    fred = lagged[lagged["series_key"] == "FRED.CP0000EZ19M086NEST"].set_index("reference_period")["value"]
    anr = lagged[lagged["series_key"] == "ECB.ICP.M.U2.N.000000.4.ANR"].set_index("reference_period")["value"]
    months = [f"2024-0{m}" for m in (1, 2, 3)]
    by_hand = np.mean([fred[f"2023-0{m}"] * (1 + anr[f"2024-0{m}"] / 100) for m in (1, 2, 3)])
    assert built.levels.loc["2024Q1", "inflation"] == pytest.approx(by_hand)
    assert not any(m in fred.index for m in months)  # the FRED export ends in 2023-12
    # unemployment from 2010 on is the ECB series itself (the FRED back-cast is shifted before it)
    ecb = lagged[lagged["series_key"].str.startswith("ECB.LFSI")].set_index("reference_period")["value"]
    assert built.levels.loc["2015Q2", "unemployment"] == pytest.approx(ecb[["2015-04", "2015-05", "2015-06"]].mean())


def test_a_strict_policy_stops_with_the_series_that_has_no_true_vintage(store, real):
    """Without its dated public copy (rule file), equity has only lag-dated values: strict stops naming it."""
    no_copy = real[~((real["variable"] == "equity_prices") & (real["release_rule"] == "file"))]
    run = [
        r
        for r in run_macro_scenario(
            store,
            "real",
            "trade_fragmentation",
            RISKS["trade_fragmentation"],
            no_copy,
            CUTOFF,
            seed=3,
            draws=500,
            vintage_policy="strict",
        )
        if r.model_id == MODEL_ID
    ][0]
    assert run.status is RunStatus.stopped
    assert "strict vintage policy: equity_prices has no true vintage" in run.reason
    assert run.diagnostics["vintage_policy"] == "strict"


def test_a_strict_policy_uses_true_vintages_and_dated_copies_only(real):
    built = model_levels(real, CUTOFF, VARIABLES, "strict")
    used = {r for series in built.rules.values() for rules in series.values() for r in rules}
    assert used == {"vintage", "file"}
    assert set(built.eligible["release_rule"]) <= {"vintage", "file"}
    # the dated copies of house prices (to 2020Q3) and equity (to 2021-03) end the common sample
    assert built.last_usable["house_prices"] == "2020Q3"
    assert fit_var(built.levels, pandemic="dummies").endpoint == "2020Q3"


def test_real_analysis_at_end_2024_is_plausible_and_the_risks_select_distinct_paths(store, real):
    runs = {}
    for risk, restrictions in RISKS.items():
        runs[risk] = [
            r
            for r in run_macro_scenario(
                store, "real", risk, restrictions, real, CUTOFF, seed=11, draws=20_000, vintage_policy="approximate"
            )
            if r.model_id == MODEL_ID
        ][0]
    first = runs["trade_fragmentation"]
    assert first.status is RunStatus.completed, first.reason
    d = first.diagnostics
    assert d["vintage_policy"] == "approximate" and d["pandemic"] == "dummies" and d["endpoint"] == "2023Q2"
    assert d["plausibility"]["passed"] and d["stability"]["stable"]
    tables = store.get_tables(first.output_digest)
    rules = tables["release_rules"]
    # equity: lag-dated values and, for the months its 2021-04-25 public copy holds, that copy's date
    assert rules.loc["real_gdp", "release_rules"] == "vintage"
    assert rules.loc["equity_prices", "release_rules"] == "file, lag"
    assert set(rules["vintage_policy"]) == {"approximate"} and rules.loc["long_term_rate", "last_usable"] == "2023Q2"
    median = tables["median_path"]
    lo, hi = PLAUSIBILITY["bands"]["real_gdp"]
    assert ((median.loc["real_gdp"] >= lo) & (median.loc["real_gdp"] <= hi)).all()
    assert ((median.loc["inflation"] >= 0) & (median.loc["inflation"] <= 4)).all()
    ids = {}
    for risk, run in runs.items():
        assert run.status is RunStatus.completed, (risk, run.reason)
        t = store.get_tables(run.output_digest)
        sel, dev = t["selected_path"], t["selected_deviation"]
        for r in RISKS[risk]:
            v, direction = r["variable"], r["direction"]
            assert direction * dev.loc[v].mean() > 0, (risk, v)  # adverse to the median over the horizon
            ref = 0.0 if r["reference"] == "zero" else None
            if ref is not None:
                assert (direction * (sel[v] - ref) > 0).all(), (risk, v)  # the restriction holds every year
        assert np.allclose(dev.to_numpy(), (sel.T - t["median_path"]).to_numpy())
        q = t["selected_quarterly_deviation"]
        assert list(q.columns) == list(VARIABLES) and q.loc["2024Q1"].abs().max() > 0  # 2024 is simulated
        ids[risk] = (run.diagnostics["selected"]["simulation_id"], run.diagnostics["selected"]["shared_with"])
    sids = [i for i, _ in ids.values()]
    assert len(set(sids)) == len(sids) or all(why for _, why in ids.values() if sids.count(_) > 1), ids


def test_selected_paths_are_economically_coherent(store, real):
    """Judge the trade path as an economist: GDP falls, unemployment rises, no boom in house prices."""
    run = [
        r
        for r in run_macro_scenario(
            store,
            "real",
            "trade_fragmentation",
            RISKS["trade_fragmentation"],
            real,
            CUTOFF,
            seed=11,
            draws=20_000,
            vintage_policy="approximate",
        )
        if r.model_id == MODEL_ID
    ][0]
    t = store.get_tables(run.output_digest)
    sel = t["selected_path"]
    assert (sel["real_gdp"] < 0).all() and (sel["unemployment"].diff().dropna() >= -0.5).all()
    assert sel["real_gdp"].min() > -15 and sel["unemployment"].max() < 20
    frame = pd.concat({"median": t["median_path"].T, "selected": sel}, axis=1)
    assert np.isfinite(frame.to_numpy()).all()


def test_request_vintage_policy_field(tmp_path):
    from aieco.demo import DEMO_REQUEST
    from aieco.errors import InputError
    from aieco.request import load_request

    text = Path(DEMO_REQUEST).read_text(encoding="utf-8")
    assert load_request(DEMO_REQUEST).vintage_policy == "strict"  # true vintages unless the request asks
    good = tmp_path / "r.toml"
    good.write_text(text.replace("cutoff = 2024-12-31", 'cutoff = 2024-12-31\nvintage_policy = "approximate"'))
    assert load_request(good).vintage_policy == "approximate"
    bad = tmp_path / "b.toml"
    bad.write_text(text.replace("cutoff = 2024-12-31", 'cutoff = 2024-12-31\nvintage_policy = "loose"'))
    with pytest.raises(InputError, match="vintage_policy"):
        load_request(bad)
