"""Loaders for EBA stress-test and transparency CSV exports (long format: bank × period × item × scenario).

The 2016 EU-wide stress test file ``eba_2016_stress_test_TR_OTH.csv`` has the columns
``LEI_code, Country_code, Bank_name, Period (YYYYMM), Item, Scenario, Amount``; Scenario codes
come from ``eba_2016_lookup_scenarios.csv`` (1 actual, 2 baseline, 3 adverse) and item labels
from ``eba_2016_data_dictionary.xlsx``. Ratios are stored as fractions (0.1235 = 12.35 %).
"""

from __future__ import annotations

from collections.abc import Mapping
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


# Column names differ between releases: the stress-test files use LEI_code/Country_code/Bank_name,
# the transparency files Lei_code/NSA and carry no scenario (all figures are actual).
COLUMN_ALIASES = {"bank_id": ("LEI_code", "Lei_code", "LEI_Code", "LEI"), "country": ("Country_code", "NSA"),
                  "bank_name": ("Bank_name", "Name"), "period": ("Period",), "item": ("Item",),
                  "scenario": ("Scenario",), "amount": ("Amount",), "label": ("Label",)}
DIMENSIONS = ("Portfolio", "Country", "Country_rank", "Exposure", "Status", "Perf_Status", "NACE_codes",
              "Financial_instruments", "Assets_FV", "Assets_Stages", "Maturity", "SOV_Maturity")


def _column(raw: pd.DataFrame, key: str) -> str | None:
    return next((c for c in COLUMN_ALIASES[key] if c in raw.columns), None)


def load_eba_csv(path: Path, *, lookup: Path | None = None, dictionary: Path | None = None) -> pd.DataFrame:
    """Read an EBA stress-test or transparency long CSV, with labels from the dictionaries beside it.

    Rows broken down by a dimension (portfolio, counterparty country, exposure class, …) are
    kept only at the total (dimension code 0 or empty), so one amount remains per bank, period,
    item and scenario.

    Returns
    -------
    DataFrame
        Columns bank_id (LEI), country, bank_name, period (int YYYYMM), item, scenario (int; 1 =
        actual for transparency files), scenario_label, item_label, amount.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"EBA file {path} does not exist", where=str(path), fix="pass the path of the EBA CSV")
    raw = pd.read_csv(path, dtype=str)
    cols = {k: _column(raw, k) for k in COLUMN_ALIASES}
    missing = [COLUMN_ALIASES[k][0] for k in ("bank_id", "country", "period", "item", "amount") if cols[k] is None]
    if missing:
        raise InputError(f"{path.name} lacks EBA columns {missing}", where=str(path),
                         fix=f"expected columns {', '.join(EBA_COLUMNS)} (or the transparency names Lei_code, NSA)")
    for dim in (d for d in DIMENSIONS if d in raw.columns):
        code = pd.to_numeric(raw[dim], errors="coerce")
        raw = raw[code.isna() | (code == 0)]
    amount = pd.to_numeric(raw[cols["amount"]].str.replace(",", "", regex=False), errors="coerce")
    out = pd.DataFrame({
        "bank_id": raw[cols["bank_id"]].str.strip(), "country": raw[cols["country"]].str.strip(),
        "bank_name": raw[cols["bank_name"]] if cols["bank_name"] else "",
        "period": pd.to_numeric(raw[cols["period"]], errors="coerce"),
        "item": pd.to_numeric(raw[cols["item"]], errors="coerce"),
        "scenario": pd.to_numeric(raw[cols["scenario"]], errors="coerce") if cols["scenario"] else 1,
        "amount": amount,
    })
    if out[["period", "item", "scenario"]].isna().any().any():
        raise InputError(f"{path.name} has non-numeric Period, Item or Scenario codes", where=str(path))
    out = out.astype({"period": int, "item": int, "scenario": int})
    if out.duplicated(["bank_id", "period", "item", "scenario"]).any():
        raise InputError(f"{path.name} has repeated bank/period/item/scenario rows", where=str(path),
                         fix="check the breakdown dimensions of the file")
    folder = path.parent
    lookup = lookup or next(iter(sorted(folder.glob("*lookup_scenarios*.csv"))), None)
    dictionary = dictionary or next(iter(sorted(folder.glob("*data_dictionary*.xlsx"))), None)
    scenarios = read_scenario_lookup(lookup) if lookup else {}
    items = read_item_labels(dictionary) if dictionary else {}
    default_label = "" if cols["scenario"] else "Actual figures"
    out["scenario_label"] = out["scenario"].map(scenarios).astype(object).fillna(default_label)
    labels = out["item"].map(items).astype(object)
    if cols["label"]:
        labels = labels.fillna(raw[cols["label"]])
    out["item_label"] = labels.fillna("")
    return out.reset_index(drop=True)


# Transparency items by their 2024 code (tr_oth.csv); earlier exercises map through the SDD.
TRANSPARENCY_ITEMS = {
    "cet1_capital": 2420102, "rwa": 2420138, "operating_income": 2420316, "administrative_expenses": 2420317,
    "depreciation": 2420318, "impairments": 2420324, "profit": 2420335,
}


def read_transparency_sdd(path: Path) -> dict[int, int]:
    """Item code of any exercise → the 2024 item code, from the transparency SDD workbook."""
    table = pd.read_excel(path, header=None)
    header = table.iloc[1].astype(str).tolist()
    if "Item" not in header or not any(h.startswith("Item_TR_") for h in header):
        raise InputError(f"{Path(path).name} is not the EBA transparency SDD", where=str(path),
                         fix="use eba_transparency_SDD.xlsx")
    current = header.index("Item")
    item_cols = [i for i, h in enumerate(header) if h == "Item" or h.startswith("Item_TR_")]
    mapping = {}
    for _, row in table.iloc[2:].iterrows():
        key = pd.to_numeric(row.iloc[current], errors="coerce")
        if pd.isna(key):
            continue
        for i in item_cols:
            code = pd.to_numeric(row.iloc[i], errors="coerce")
            if not pd.isna(code):
                mapping[int(code)] = int(key)
    return mapping


def transparency_bank_panel(data: pd.DataFrame, sdd: Mapping[int, int]) -> pd.DataFrame:
    """Raw half-year bank panel (:data:`aieco.models.bank.panel.RAW_COLUMNS`) from transparency data.

    June and December reports only; P&L items are year-to-date. Expense items are reported as
    positive amounts in parentheses, so PPNR = total operating income − administrative expenses
    − depreciation; credit losses = impairment on financial assets not at fair value; residual
    charges = PPNR − credit losses − profit for the year (taxes, provisions, other impairments …).
    """
    d = data.assign(current=data["item"].map(lambda i: sdd.get(int(i), int(i))))
    code = {v: k for k, v in TRANSPARENCY_ITEMS.items()}
    d = d[d["current"].isin(code) & (d["period"] % 100).isin([6, 12])]
    if d.empty:
        raise InputError("transparency data hold no June/December capital, RWA or P&L items", where="EBA items",
                         fix="load tr_oth.csv of the transparency exercises")
    wide = d.assign(var=d["current"].map(code)).pivot_table(index=["bank_id", "period"], columns="var",
                                                            values="amount", aggfunc="first")
    missing = [k for k in TRANSPARENCY_ITEMS if k not in wide.columns]
    if missing:
        raise InputError(f"transparency data lack items {missing}", where="EBA items")
    meta = d.groupby("bank_id")[["country", "bank_name"]].first()
    wide = wide.reset_index()
    ppnr = wide["operating_income"] - wide["administrative_expenses"] - wide["depreciation"]
    out = pd.DataFrame({
        "bank_id": wide["bank_id"], "bank_name": wide["bank_id"].map(meta["bank_name"]),
        "country": wide["bank_id"].map(meta["country"]),
        "period_end": [f"{p // 100}-{'06-30' if p % 100 == 6 else '12-31'}" for p in wide["period"]],
        "cet1_capital": wide["cet1_capital"], "rwa": wide["rwa"], "ppnr_ytd": ppnr,
        "credit_losses_ytd": wide["impairments"],
        "residual_charges_ytd": ppnr - wide["impairments"] - wide["profit"],
    })
    return out.dropna().sort_values(["bank_id", "period_end"]).reset_index(drop=True)


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
