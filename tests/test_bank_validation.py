"""External validation measures, the gate, the EBA loader on the real 2016 file."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from aieco.errors import InputError
from aieco.models.bank.eba import (
    eba_bank_outcomes,
    eba_comparators,
    load_eba_csv,
    read_scenario_lookup,
    read_transparency_sdd,
    transparency_bank_panel,
)
from aieco.models.bank.eba_items import read_dictionary
from aieco.models.bank.validation import (
    Thresholds,
    cluster_bootstrap_vs_no_change,
    depletion_metrics,
    top_quartile_recall,
    validate,
    validation_gate,
)


def test_metrics_hand_computed():
    off = np.array([1.0, 2.0, 3.0, 4.0])
    pred = np.array([1.5, 2.0, 2.0, 5.0])
    m = depletion_metrics(off, pred, pred - 0.6, pred + 0.6)
    assert m["mae"] == pytest.approx((0.5 + 0 + 1 + 1) / 4)
    assert m["rmse"] == pytest.approx(np.sqrt((0.25 + 0 + 1 + 1) / 4))
    assert m["coverage"] == pytest.approx(0.5)  # banks 1 and 2 inside ±0.6
    assert m["spearman"] == pytest.approx(0.9486832980505138)
    assert m["top_quartile_recall"] == 1.0  # bank 4 is top in both


def test_top_quartile_recall_counts_overlap():
    off = np.arange(8.0)
    assert top_quartile_recall(off, off) == 1.0
    assert top_quartile_recall(off, -off) == 0.0


def test_no_change_has_no_ranking():
    off = np.array([1.0, 2.0, 3.0, 4.0])
    zero = np.zeros(4)
    m = depletion_metrics(off, zero, zero, zero)
    assert m["spearman"] == 0.0 and m["top_quartile_recall"] == 0.0 and m["mae"] == 2.5


def test_cluster_bootstrap_identical_model_is_zero_difference():
    off = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    b = cluster_bootstrap_vs_no_change(off, np.zeros(5), np.array(list("AABBC")), reps=50, seed=1)
    assert b["mae_diff"] == 0.0 and b["mae_diff_lo"] == 0.0 and b["clusters"] == 3.0
    better = cluster_bootstrap_vs_no_change(off, off, np.array(list("AABBC")), reps=50, seed=1)
    assert better["share_model_better"] == 1.0 and better["mae_diff"] == pytest.approx(-3.0)


def _frames(pred, off, countries="AABBCCDD"):
    n = len(pred)
    p = pd.DataFrame(
        {
            "bank_id": [f"b{i}" for i in range(n)],
            "country": list(countries[:n]),
            "predicted": pred,
            "lower": np.asarray(pred) - 1,
            "upper": np.asarray(pred) + 1,
        }
    )
    o = pd.DataFrame({"bank_id": [f"b{i}" for i in range(n)], "official_depletion": off})
    return p, o


def test_gate_requires_all_three():
    off = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    p, o = _frames(off + 0.5, off)
    table, metrics, passed = validate(p, o, thresholds=Thresholds(), reps=100, seed=0)
    assert passed and table["covered"].all()
    gate = validation_gate("bank_feqar", "run_x", metrics, Thresholds(), passed)
    assert gate.passed and gate.thresholds == {"mae_max": 2.0, "spearman_min": 0.5, "coverage_min": 0.75}
    # good ranking and error, but intervals too narrow: fails on coverage alone
    p2 = p.assign(lower=p["predicted"], upper=p["predicted"])
    _, m2, ok2 = validate(p2, o, thresholds=Thresholds(), reps=100, seed=0)
    assert not ok2
    assert "coverage" in validation_gate("bank_feqar", None, m2, Thresholds(), ok2).detail


def test_validation_bad_inputs():
    p, o = _frames([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    with pytest.raises(InputError, match="common banks"):
        validate(p, o, thresholds=Thresholds(), reps=10, seed=0)
    with pytest.raises(InputError, match="lack columns"):
        validate(p.drop(columns="lower"), o, thresholds=Thresholds(), reps=10, seed=0)


def test_eba_2016_real_file(shared_data):
    path = shared_data / "banks" / "eba_2016_stress_test_TR_OTH.csv"
    data = load_eba_csv(path)
    assert data["bank_id"].nunique() == 51
    assert set(data["scenario_label"]) == {"Actual figures", "Baseline scenario", "Adverse scenario"}
    assert (data.loc[data["item"] == 1690847, "item_label"].str.contains("Common Equity Tier 1")).all()
    out = eba_bank_outcomes(data)
    assert len(out) == 51
    erste = out.loc["PQOH26KWDF7CG10L6792"]
    assert erste["start_ratio"] == pytest.approx(12.3457, abs=1e-3)
    assert erste["adverse_ratio_2018"] == pytest.approx(8.1868, abs=1e-3)
    assert erste["official_depletion"] == pytest.approx(12.3457 - 8.1868, abs=1e-3)
    assert (out["official_depletion"] > 0).all()  # every bank loses capital under the adverse scenario
    preds = eba_comparators(out)
    off = out.reset_index()[["bank_id", "official_depletion"]]
    _, m, passed = validate(preds["no_change"], off, thresholds=Thresholds(), reps=200, seed=0)
    assert m["mae"] == pytest.approx(out["official_depletion"].abs().mean())
    assert not passed and m["boot_clusters"] == 15.0
    _, mb, _ = validate(preds["baseline"], off, thresholds=Thresholds(), reps=200, seed=0)
    assert -1 <= mb["spearman"] <= 1


def test_eba_loader_bad_files(tmp_path, shared_data):
    bad = tmp_path / "x.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="lacks EBA columns"):
        load_eba_csv(bad)
    with pytest.raises(InputError, match="does not exist"):
        load_eba_csv(tmp_path / "missing.csv")
    with pytest.raises(InputError, match="not a scenario lookup"):
        read_scenario_lookup(bad)
    assert read_scenario_lookup(shared_data / "banks" / "eba_2016_lookup_scenarios.csv")[3] == "Adverse scenario"


def _transparency_csv(tmp_path):
    """A tiny file in the transparency tr_oth layout (Lei_code, NSA, Period, Item, Label, Portfolio, Amount)."""
    rows = ["Lei_code,NSA,Period,Item,Label,Portfolio,Amount"]
    values_2016 = {1620102: 100, 1620138: 1000, 1620316: 40, 1620317: 15, 1620318: 5, 1620324: 6, 1620335: 9}
    for period, scale in ((201606, 1), (201612, 2)):
        for item, v in values_2016.items():
            amount = v * scale if item not in (1620102, 1620138) else v + scale
            rows.append(f"LEI1,DE,{period},{item},x,0,{amount}")
    rows.append("LEI1,DE,201612,1620138,x,1,999")  # a portfolio breakdown row: not the total
    rows.append("LEI1,DE,201609,1620102,x,0,5")  # a September report: ignored for half-years
    path = tmp_path / "tr_oth.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_transparency_format_to_raw_panel(tmp_path, shared_data):
    sdd = read_transparency_sdd(shared_data / "banks" / "eba_transparency_SDD.xlsx")
    assert sdd[1620102] == 2420102 and sdd[150102] == 2420102 and sdd[1820210] == 2420220
    book = read_dictionary(shared_data / "banks" / "eba_transparency_SDD.xlsx")
    data = load_eba_csv(_transparency_csv(tmp_path))
    assert set(data["scenario_label"]) == {"Actual figures"}
    assert not ((data["item"] == 1620138) & (data["amount"] == 999)).any()
    raw = transparency_bank_panel(data, book).set_index("period_end")
    dec = raw.loc["2016-12-31"]
    assert dec["cet1_capital"] == 102 and dec["rwa"] == 1002
    assert dec["ppnr_ytd"] == 2 * (40 - 15 - 5)
    assert dec["credit_losses_ytd"] == 12
    assert dec["residual_charges_ytd"] == 2 * (20 - 6 - 9)
    assert list(raw.index) == ["2016-06-30", "2016-12-31"]
    with pytest.raises(InputError, match="not the EBA transparency SDD"):
        read_transparency_sdd(shared_data / "banks" / "eba_2016_metadata.xlsx")
