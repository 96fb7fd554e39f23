"""The CET1 accounting recursion checked on the official EBA stress-test projections.

Each exercise publishes, bank by bank and year by year under the baseline and adverse
scenarios, the P&L lines, the CET1 capital, the total risk exposure amount (REA) and the CET1
ratio. The official components are converted to aieco's rates (% of the previous year-end
REA) and fed to :func:`~aieco.models.bank.accounting.accounting_paths`
(Eqs. cet1capital–cet1ratio); the resulting ratio paths are compared with the official ones.

The recursion is run in cumulative steps, each adding the items the previous one lacks:

``pre_tax``       n = total operating income + other income and expenses (PPNR, signed as reported),
                  ℓ = −impairments on financial assets, o = a = 0: capital moves by profit before tax.
``after_tax``     o += −(profit for the year − profit before tax): taxes and discontinued operations.
``distributions`` o += profit − attributable-to-owners-net-of-dividends: dividends and minority shares.
``oci``           a = Δ accumulated other comprehensive income (the stress tests' revaluation of
                  fair-value portfolios).
``no_tax_credit`` as ``oci`` but a tax *income* (negative tax on a loss) adds nothing: it creates a
                  deferred tax asset that relies on future profitability, which CET1 deducts.
``transitional``  a += Δ transitional adjustments (the capital template's phase-in line).

g = 100 · log(REA_t / REA_{t−1}) from the official REA path in every step. What no step
captures (changes of deductions, transitional adjustments, minority interest recognised in
CET1, other reserves) is the residual reported per bank.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from aieco.errors import InputError
from aieco.models.bank.accounting import accounting_paths

STEPS = ("pre_tax", "after_tax", "distributions", "oci", "no_tax_credit", "transitional")
STEP_ITEMS = {
    "pre_tax": "net interest, fee, trading and other operating income, operating and other expenses, impairments",
    "after_tax": "+ tax and discontinued operations",
    "distributions": "+ dividends and profit attributable to minority interests",
    "oci": "+ change in accumulated other comprehensive income",
    "no_tax_credit": "tax income on losses left out (it creates deferred tax assets, deducted from CET1)",
    "transitional": "+ change in the CET1 transitional adjustments (phase-in of CRR/IFRS 9 rules)",
}
LACKS = {
    "pre_tax": "tax, distributions, other comprehensive income, deductions, transitional adjustments",
    "after_tax": "distributions, other comprehensive income, deductions, transitional adjustments",
    "distributions": "other comprehensive income, deductions, transitional adjustments",
    "oci": "changes in CET1 deductions (intangibles, DTAs, shortfall …), transitional and IFRS 9 phase-in "
    "adjustments, minority interest recognised in CET1, other reserves",
    "no_tax_credit": "deductions other than the new DTAs, thresholds on DTA deduction, transitional and IFRS 9 "
    "phase-in adjustments, minority interest recognised in CET1, other reserves",
    "transitional": "deductions other than the new DTAs, thresholds on DTA deduction, minority interest "
    "recognised in CET1, other reserves, capital instruments (conversions)",
}
NEEDED = (
    "cet1_capital",
    "total_risk_exposure_amount",
    "cet1_ratio",
    "total_operating_income",
    "operating_expenses",
    "impairments",
    "profit_before_tax",
    "profit",
    "attributable_net_of_dividends",
    "accumulated_oci",
    "transitional_adjustments",
)


def _frame(panel: pd.DataFrame, kind: str, years: list[int], col: str) -> pd.DataFrame:
    s = panel.xs(kind, level="scenario_kind")[col].unstack("year")
    return s.reindex(columns=years)


def official_components(panel: pd.DataFrame, scenario: str) -> dict[str, object]:
    """Start values, official paths and the component rates of every step for one scenario.

    ``panel`` is :func:`~aieco.models.bank.eba.exercise_panel` output. Banks lacking any needed
    item in any year are left out (named in ``dropped``).
    """
    missing = [c for c in NEEDED if c not in panel.columns]
    if missing:
        raise InputError(f"the exercise lacks items {missing} for the accounting check", where="EBA items")
    actual = panel.xs("actual", level="scenario_kind")
    start_year = int(actual.index.get_level_values("year").max())
    proj = panel.xs(scenario, level="scenario_kind")
    years = sorted(int(y) for y in proj.index.get_level_values("year").unique() if y > start_year)
    all_years = [start_year, *years]
    start = actual.xs(start_year, level="year")

    def path(col: str) -> pd.DataFrame:
        p = _frame(panel, scenario, years, col)
        return pd.concat([start[col].rename(start_year), p], axis=1).reindex(columns=all_years)

    cap, rea, ratio, oci = (
        path("cet1_capital"),
        path("total_risk_exposure_amount"),
        path("cet1_ratio"),
        path("accumulated_oci"),
    )
    trans = path("transitional_adjustments")
    flows = {
        c: _frame(panel, scenario, years, c)
        for c in (
            "total_operating_income",
            "operating_expenses",
            "impairments",
            "profit_before_tax",
            "profit",
            "attributable_net_of_dividends",
        )
    }
    banks = cap.index
    for f in (rea, ratio, oci, trans, *flows.values()):
        banks = banks.intersection(f.dropna().index)
    banks = banks.intersection(cap.dropna().index)
    banks = banks[(rea.loc[banks] > 0).all(axis=1).to_numpy()]
    dropped = sorted(set(cap.index) - set(banks))
    rea_prev = rea.loc[banks, all_years[:-1]].to_numpy()
    rate = {k: 100 * v.loc[banks, years].to_numpy() / rea_prev for k, v in flows.items()}
    n = rate["total_operating_income"] + rate["operating_expenses"]
    ell = -rate["impairments"]
    g = 100 * np.log(rea.loc[banks, years].to_numpy() / rea_prev)
    zero = np.zeros_like(n)
    tax = -(rate["profit"] - rate["profit_before_tax"])
    dist = rate["profit"] - rate["attributable_net_of_dividends"]
    d_oci = 100 * np.diff(oci.loc[banks].to_numpy(), axis=1) / rea_prev
    d_trans = 100 * np.diff(trans.loc[banks].to_numpy(), axis=1) / rea_prev
    steps = {
        "pre_tax": {"n": n, "l": ell, "o": zero, "a": zero, "g": g},
        "after_tax": {"n": n, "l": ell, "o": tax, "a": zero, "g": g},
        "distributions": {"n": n, "l": ell, "o": tax + dist, "a": zero, "g": g},
        "oci": {"n": n, "l": ell, "o": tax + dist, "a": d_oci, "g": g},
        "no_tax_credit": {"n": n, "l": ell, "o": np.maximum(tax, 0.0) + dist, "a": d_oci, "g": g},
        "transitional": {"n": n, "l": ell, "o": np.maximum(tax, 0.0) + dist, "a": d_oci + d_trans, "g": g},
    }
    return {
        "banks": list(banks),
        "years": all_years,
        "start_capital": cap.loc[banks, start_year].to_numpy(),
        "start_rea": rea.loc[banks, start_year].to_numpy(),
        "official_capital": cap.loc[banks].to_numpy(),
        "official_ratio": 100 * ratio.loc[banks].to_numpy(),
        "official_rea": rea.loc[banks].to_numpy(),
        "steps": steps,
        "dropped": dropped,
    }


def validate_accounting(panel: pd.DataFrame, *, exercise: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Recursion against official CET1 ratio paths, baseline and adverse, bank by bank.

    Returns
    -------
    summary : DataFrame
        One row per (scenario, step): n_banks, mae_end (pp, end-of-horizon ratio), mae_path (pp,
        every projected year), max_abs_end, worst_bank, worst_error (pp), mean residual of
        end-of-horizon capital in % of start REA (official − recursion), items added and lacking.
    banks : DataFrame
        One row per (scenario, bank): official and recursion end-of-horizon ratios per step and
        the final step's capital residual per year (EUR mn).
    """
    summary, per_bank = [], []
    meta = panel.attrs.get("meta")
    for scenario in ("baseline", "adverse"):
        comp = official_components(panel, scenario)
        if len(comp["banks"]) < 2:
            raise InputError(
                f"{exercise}: fewer than two banks with every item under {scenario}", where="EBA accounting check"
            )
        off = comp["official_ratio"]
        rows = pd.DataFrame(index=pd.Index(comp["banks"], name="bank_id"))
        rows["scenario"] = scenario
        if meta is not None:
            rows["bank_name"] = meta["bank_name"].reindex(rows.index).to_numpy()
            rows["country"] = meta["country"].reindex(rows.index).to_numpy()
        rows["official_start"] = off[:, 0]
        rows["official_end"] = off[:, -1]
        for step in STEPS:
            capital, _, ratio = accounting_paths(
                comp["start_capital"], comp["start_rea"], comp["steps"][step], where=f"{exercise} {scenario} {step}"
            )
            err_end = ratio[:, -1] - off[:, -1]
            err_path = ratio[:, 1:] - off[:, 1:]
            worst = int(np.argmax(np.abs(err_end)))
            resid = (comp["official_capital"][:, -1] - capital[:, -1]) / comp["start_rea"] * 100
            summary.append(
                {
                    "exercise": exercise,
                    "scenario": scenario,
                    "step": step,
                    "n_banks": len(comp["banks"]),
                    "mae_end": float(np.abs(err_end).mean()),
                    "mae_path": float(np.abs(err_path).mean()),
                    "rmse_end": float(np.sqrt((err_end**2).mean())),
                    "max_abs_end": float(np.abs(err_end).max()),
                    "worst_bank": comp["banks"][worst],
                    "worst_bank_name": str(rows["bank_name"].iloc[worst]) if "bank_name" in rows else "",
                    "worst_error": float(err_end[worst]),
                    "mean_residual_pct_rea": float(resid.mean()),
                    "items_added": STEP_ITEMS[step],
                    "lacks": LACKS[step],
                    "dropped_banks": len(comp["dropped"]),
                }
            )
            rows[f"{step}_end"] = ratio[:, -1]
            rows[f"{step}_error"] = err_end
        cap_final, _, _ = accounting_paths(comp["start_capital"], comp["start_rea"], comp["steps"][STEPS[-1]])
        for i, y in enumerate(comp["years"][1:], start=1):
            rows[f"residual_{y}"] = comp["official_capital"][:, i] - cap_final[:, i]
        per_bank.append(rows.reset_index())
    return pd.DataFrame(summary), pd.concat(per_bank, ignore_index=True)
