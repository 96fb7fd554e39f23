"""Loader for EBA stress-test and transparency CSV exports (long format: bank × period × item × scenario).

The 2016 EU-wide stress test file ``eba_2016_stress_test_TR_OTH.csv`` has the columns
``LEI_code, Country_code, Bank_name, Period (YYYYMM), Item, Scenario, Amount``; Scenario codes
come from ``eba_2016_lookup_scenarios.csv`` (1 actual, 2 baseline, 3 adverse) and item labels
from ``eba_2016_data_dictionary.xlsx``. Ratios are stored as fractions (0.1235 = 12.35 %).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from aieco.errors import InputError

EBA_COLUMNS = ("LEI_code", "Country_code", "Bank_name", "Period", "Item", "Scenario", "Amount")
# Items of the 2016 template (capital and P&L blocks, available for every projection year).
ITEMS_2016 = {
    "cet1_capital": 1690802,        # COMMON EQUITY TIER 1 CAPITAL (transitional)
    "rea": 1690845,                 # TOTAL RISK EXPOSURE AMOUNT
    "cet1_ratio": 1690847,          # CET1 capital ratio, transitional (fraction)
    "net_interest_income": 1690701,
    "impairments": 1690710,         # (Impairment or (-) reversal ...): losses are negative
}


def read_scenario_lookup(path: Path) -> dict[int, str]:
    """Scenario code → label from the lookup CSV (``Scenario,Label``)."""
    table = pd.read_csv(path)
    if list(table.columns[:2]) != ["Scenario", "Label"]:
        raise InputError(f"{path.name} is not a scenario lookup", where=str(path),
                         fix="expected columns Scenario,Label")
    return {int(k): str(v) for k, v in zip(table["Scenario"], table["Label"], strict=True)}


def read_item_labels(path: Path) -> dict[int, str]:
    """Item code → label from the data dictionary workbook (columns Item, Label)."""
    table = pd.read_excel(path)
    if not {"Item", "Label"} <= set(table.columns):
        raise InputError(f"{path.name} has no Item/Label columns", where=str(path),
                         fix="use the EBA data dictionary workbook")
    return {int(k): str(v) for k, v in zip(table["Item"], table["Label"], strict=True)}


def load_eba_stress_test(path: Path, *, lookup: Path | None = None, dictionary: Path | None = None) -> pd.DataFrame:
    """Read an EBA stress-test/transparency long CSV with labels from the dictionaries beside it.

    Returns
    -------
    DataFrame
        Columns bank_id (LEI), country, bank_name, period (int YYYYMM), item, scenario (int),
        scenario_label, item_label, amount.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"EBA file {path} does not exist", where=str(path), fix="pass the path of the EBA CSV")
    raw = pd.read_csv(path, dtype={"LEI_code": str, "Country_code": str, "Bank_name": str})
    missing = [c for c in EBA_COLUMNS if c not in raw.columns]
    if missing:
        raise InputError(f"{path.name} lacks EBA columns {missing}", where=str(path),
                         fix=f"expected columns {', '.join(EBA_COLUMNS)}")
    if raw.duplicated(["LEI_code", "Period", "Item", "Scenario"]).any():
        raise InputError(f"{path.name} has repeated bank/period/item/scenario rows", where=str(path))
    folder = path.parent
    lookup = lookup or next(iter(sorted(folder.glob("*lookup_scenarios*.csv"))), None)
    dictionary = dictionary or next(iter(sorted(folder.glob("*data_dictionary*.xlsx"))), None)
    scenarios = read_scenario_lookup(lookup) if lookup else {}
    items = read_item_labels(dictionary) if dictionary else {}
    out = pd.DataFrame({
        "bank_id": raw["LEI_code"], "country": raw["Country_code"], "bank_name": raw["Bank_name"],
        "period": raw["Period"].astype(int), "item": raw["Item"].astype(int),
        "scenario": raw["Scenario"].astype(int), "amount": pd.to_numeric(raw["Amount"], errors="coerce"),
    })
    out["scenario_label"] = out["scenario"].map(scenarios).fillna("")
    out["item_label"] = out["item"].map(items).fillna("")
    return out


def eba_bank_outcomes(data: pd.DataFrame, *, start_period: int = 201512, actual: int = 1, baseline: int = 2,
                      adverse: int = 3) -> pd.DataFrame:
    """Official starting values and projected CET1 outcomes per bank.

    Returns
    -------
    DataFrame
        Index bank_id; country, bank_name, start_cet1_capital, start_rea (EUR mn), start_ratio (%),
        ``adverse_ratio_YYYY`` and ``baseline_ratio_YYYY`` (%), official_depletion (start ratio minus
        the minimum adverse ratio, pp), baseline_depletion, and the adverse yearly net interest
        income and impairments (``adverse_nii_YYYY``, ``adverse_impairments_YYYY``, EUR mn).
    """
    need = set(ITEMS_2016.values())
    d = data[data["item"].isin(need)]
    if d.empty:
        raise InputError("EBA data hold none of the CET1 capital/REA/ratio items", where="EBA items",
                         fix=f"expected items {sorted(need)}")
    code = {v: k for k, v in ITEMS_2016.items()}
    d = d.assign(var=d["item"].map(code))
    start = d[(d["scenario"] == actual) & (d["period"] == start_period)].pivot(index="bank_id", columns="var",
                                                                               values="amount")
    if start.empty:
        raise InputError(f"no actual figures for period {start_period}", where="EBA Period")
    meta = d.groupby("bank_id")[["country", "bank_name"]].first()
    out = meta.join(pd.DataFrame({"start_cet1_capital": start["cet1_capital"], "start_rea": start["rea"],
                                  "start_ratio": 100 * start["cet1_ratio"]}), how="inner")
    periods = sorted(p for p in d["period"].unique() if p > start_period)
    for label, sc in (("adverse", adverse), ("baseline", baseline)):
        s = d[d["scenario"] == sc]
        ratios = s[s["var"] == "cet1_ratio"].pivot(index="bank_id", columns="period", values="amount")
        for p in periods:
            out[f"{label}_ratio_{p // 100}"] = 100 * ratios[p]
        cols = [f"{label}_ratio_{p // 100}" for p in periods]
        out[f"{label}_min_ratio"] = out[cols].min(axis=1)
        if label == "adverse":
            for var in ("net_interest_income", "impairments"):
                flows = s[s["var"] == var].pivot(index="bank_id", columns="period", values="amount")
                short = "nii" if var == "net_interest_income" else "impairments"
                for p in periods:
                    out[f"adverse_{short}_{p // 100}"] = flows[p]
            rea = s[s["var"] == "rea"].pivot(index="bank_id", columns="period", values="amount")
            for p in periods:
                out[f"adverse_rea_{p // 100}"] = rea[p]
    out["official_depletion"] = out["start_ratio"] - out["adverse_min_ratio"]
    out["baseline_depletion"] = out["start_ratio"] - out["baseline_min_ratio"]
    out.index.name = "bank_id"
    return out


def eba_comparators(outcomes: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Simple predictions of official adverse depletion from the same starting state.

    ``no_change``: zero depletion. ``baseline``: the official baseline depletion (a model that
    ignores the adverse scenario). ``nii_impairments``: Eq. (cet1capital) with n = net interest
    income and ℓ = impairments only (o = a = 0) and the official adverse REA path — an
    accounting calculation that omits fees, trading, taxes and other charges.
    All are point predictions (lower = upper = prediction).
    """
    years = sorted(int(c.rsplit("_", 1)[1]) for c in outcomes.columns if c.startswith("adverse_rea_"))
    cap = outcomes["start_cet1_capital"].to_numpy(float)
    ratios = []
    for y in years:
        # impairments are stored as negative amounts (a loss reduces capital)
        cap = cap + outcomes[f"adverse_nii_{y}"].to_numpy(float) + outcomes[f"adverse_impairments_{y}"].to_numpy(float)
        rea = outcomes[f"adverse_rea_{y}"].to_numpy(float)
        if not (rea > 0).all():
            raise InputError(f"non-positive official REA in {y}", where="EBA adverse REA")
        ratios.append(100 * cap / rea)
    accounting = outcomes["start_ratio"].to_numpy(float) - np.min(np.vstack(ratios), axis=0)
    preds = {
        "no_change": np.zeros(len(outcomes)),
        "baseline": outcomes["baseline_depletion"].to_numpy(float),
        "nii_impairments": accounting,
    }
    return {name: pd.DataFrame({"bank_id": outcomes.index, "country": outcomes["country"].to_numpy(),
                                "predicted": p, "lower": p, "upper": p})
            for name, p in preds.items()}
