"""The demo bank data (SYNTHETIC): a half-year bank panel, country macro histories and an
official-style adverse exercise for the same banks.

Everything here is synthetic and labelled so (``data_status = synthetic``). The CSV files in
``aieco/demo/data/bank_*.csv`` were generated ONCE by this module with a fixed seed::

    python -m aieco.demo.bank        # rewrites the files (only to change the demo)

The data-generating process follows the component equations of the bank appendix, so the
component models have something true to recover: each component rate is a bank effect plus
an autoregressive term, a dependence on the lagged CET1 ratio, and country macro effects.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from aieco.models.bank.panel import (
    COMPONENTS,
    MACRO_VARIABLES,
    adverse_scenario_halfyears,
    halfyear_macro,
)
from aieco.models.bank.workspace import bank_records
from aieco.records import ObservedValue, Provenance, ReleaseRule

DATA_DIR = Path(__file__).resolve().parent / "data"
PANEL_FILE = DATA_DIR / "bank_panel.csv"
MACRO_FILE = DATA_DIR / "bank_macro_quarterly.csv"
OFFICIAL_FILE = DATA_DIR / "bank_official_adverse.csv"
ADVERSE_FILE = DATA_DIR / "bank_adverse_scenario_annual.csv"
SEED = 20250101
COUNTRIES = ("DE", "FR", "IT", "ES", "NL", "BE", "AT")
BANKS_PER_COUNTRY = {"DE": 8, "FR": 7, "IT": 7, "ES": 6, "NL": 5, "BE": 4, "AT": 3}

# True DGP coefficients per component: intercept, lag, (cet1_ratio_lag − 14), macro effects.
TRUE_DGP = {
    "n": dict(
        c=0.60,
        rho=0.50,
        cap=0.00,
        real_gdp=0.05,
        inflation=0.02,
        unemployment=-0.010,
        long_term_rate=0.03,
        equity_prices=0.000,
        house_prices=0.00,
        sd=0.10,
    ),
    "l": dict(
        c=0.12,
        rho=0.40,
        cap=0.00,
        real_gdp=-0.06,
        inflation=0.00,
        unemployment=0.008,
        long_term_rate=0.02,
        equity_prices=-0.002,
        house_prices=-0.01,
        sd=0.06,
    ),
    "o": dict(
        c=0.20,
        rho=0.30,
        cap=0.00,
        real_gdp=0.01,
        inflation=0.00,
        unemployment=0.000,
        long_term_rate=0.00,
        equity_prices=0.000,
        house_prices=0.00,
        sd=0.05,
    ),
    "a": dict(
        c=-0.15,
        rho=0.10,
        cap=-0.05,
        real_gdp=0.00,
        inflation=0.00,
        unemployment=0.000,
        long_term_rate=0.00,
        equity_prices=0.003,
        house_prices=0.00,
        sd=0.12,
    ),
    "g": dict(
        c=0.60,
        rho=0.20,
        cap=0.00,
        real_gdp=0.40,
        inflation=0.10,
        unemployment=0.000,
        long_term_rate=0.00,
        equity_prices=0.000,
        house_prices=0.05,
        sd=1.00,
    ),
}


def _macro_history(rng: np.random.Generator) -> pd.DataFrame:
    """Quarterly country levels 2014Q1–2024Q4 (synthetic)."""
    quarters = [f"{y}Q{q}" for y in range(2014, 2025) for q in range(1, 5)]
    n = len(quarters)
    covid = np.zeros(n)
    covid[quarters.index("2020Q2")] = -11.0
    covid[quarters.index("2020Q3")] = 10.0
    energy = np.zeros(n)
    for i, q in enumerate(quarters):
        if q[:4] in ("2022", "2023"):
            energy[i] = 1.2 if q[:4] == "2022" else 0.5
    rows = []
    for k, c in enumerate(COUNTRIES):
        growth = 0.35 + 0.1 * rng.normal() + covid * (1 + 0.2 * rng.normal()) + 0.5 * rng.normal(size=n)
        gdp = 100 * np.exp(np.cumsum(growth) / 100) * (1 + k)
        infl_q = 0.35 + energy * (1 + 0.3 * rng.normal()) + 0.15 * rng.normal(size=n)
        hicp = 100 * np.exp(np.cumsum(infl_q) / 100)
        unemp = np.clip(
            6 + 3 * (k % 4) + np.cumsum(0.15 * rng.normal(size=n)) - 0.3 * np.cumsum(growth - 0.35) / 4, 2, 25
        )
        rate = np.clip(
            1.0
            + 0.5 * (k % 3)
            + np.cumsum(0.12 * rng.normal(size=n))
            + np.where(np.arange(n) >= quarters.index("2022Q1"), 2.0, 0.0),
            -0.5,
            8,
        )
        equity = 100 * np.exp(np.cumsum(1.5 + 6 * rng.normal(size=n) + 0.8 * covid) / 100)
        house = 100 * np.exp(np.cumsum(1.0 + 1.0 * rng.normal(size=n)) / 100)
        rows.append(
            pd.DataFrame(
                {
                    "country": c,
                    "quarter": quarters,
                    "real_gdp_level": gdp,
                    "hicp": hicp,
                    "unemployment": unemp,
                    "long_term_rate": rate,
                    "equity_index": equity,
                    "house_index": house,
                }
            )
        )
    return pd.concat(rows, ignore_index=True)


def _component_mean(comp: str, alpha: float, lag: np.ndarray, ratio_lag: np.ndarray, x: dict[str, float]) -> np.ndarray:
    p = TRUE_DGP[comp]
    return alpha + p["c"] + p["rho"] * lag + p["cap"] * (ratio_lag - 14) + sum(p[v] * x[v] for v in MACRO_VARIABLES)


def _simulate_bank(rng, alpha, cap0, rwa0, lag0, xs, sd_scale=1.0, paths=1):
    """Simulate component rates and the CET1 recursions over half-years ``xs``."""
    C = np.full(paths, cap0, dtype=float)
    R = np.full(paths, rwa0, dtype=float)
    lags = {c: np.full(paths, lag0[c]) for c in COMPONENTS}
    out = []
    for x in xs:
        ratio_lag = 100 * C / R
        vals = {}
        for comp in COMPONENTS:
            vals[comp] = _component_mean(comp, alpha[comp], lags[comp], ratio_lag, x) + sd_scale * TRUE_DGP[comp][
                "sd"
            ] * rng.normal(size=paths)
        flows = {k: vals[k] / 100 * R for k in ("n", "l", "o")}
        C = C + (vals["n"] - vals["l"] - vals["o"] + vals["a"]) / 100 * R
        R = R * np.exp(vals["g"] / 100)
        out.append((C.copy(), R.copy(), flows, vals))
        lags = vals
    return out


def generate(seed: int = SEED) -> dict[str, pd.DataFrame]:
    """Generate the four demo tables (synthetic) from ``seed``."""
    rng = np.random.default_rng(seed)
    quarterly = _macro_history(rng)
    half = halfyear_macro(quarterly).set_index(["country", "period"])
    periods = [f"{y}H{h}" for y in range(2015, 2025) for h in (1, 2)]
    panel_rows, banks = [], []
    for country, count in BANKS_PER_COUNTRY.items():
        for j in range(count):
            banks.append((f"{country}{j + 1:02d}", country, False))
    banks += [("FR90", "FR", True), ("IT90", "IT", True)]  # short histories: dropped by the builder
    for bank_id, country, short in banks:
        alpha = {
            "n": 0.15 * rng.normal(),
            "l": 0.05 * rng.normal(),
            "o": 0.04 * rng.normal(),
            "a": 0.05 * rng.normal(),
            "g": 0.5 * rng.normal(),
        }
        rwa0 = float(np.exp(rng.normal(11, 1)))
        cap0 = rwa0 * (0.12 + 0.03 * rng.random())
        lag0 = {c: TRUE_DGP[c]["c"] / (1 - TRUE_DGP[c]["rho"]) + alpha[c] for c in COMPONENTS}
        xs = [half.loc[(country, p)].to_dict() for p in periods]
        sim = _simulate_bank(rng, alpha, cap0, rwa0, lag0, xs)
        ytd = {"ppnr": 0.0, "credit_losses": 0.0, "residual_charges": 0.0}
        for p, (C, R, flows, _) in zip(periods, sim, strict=True):
            year, h = int(p[:4]), int(p[-1])
            if h == 1:
                ytd = dict.fromkeys(ytd, 0.0)
            ytd["ppnr"] += float(flows["n"][0])
            ytd["credit_losses"] += float(flows["l"][0])
            ytd["residual_charges"] += float(flows["o"][0])
            if year < 2015 or (short and year < 2021):
                continue
            panel_rows.append(
                {
                    "bank_id": bank_id,
                    "bank_name": f"Synthetic bank {bank_id}",
                    "country": country,
                    "period_end": f"{year}-{'06-30' if h == 1 else '12-31'}",
                    "cet1_capital": float(C[0]),
                    "rwa": float(R[0]),
                    "ppnr_ytd": ytd["ppnr"],
                    "credit_losses_ytd": ytd["credit_losses"],
                    "residual_charges_ytd": ytd["residual_charges"],
                    "data_status": "synthetic",
                }
            )
        banks[banks.index((bank_id, country, short))] = (bank_id, country, short, alpha)
    panel = pd.DataFrame(panel_rows)
    # gaps that exercise the consecutive-lag and December-flow rules
    panel = panel[~((panel["bank_id"] == "DE03") & (panel["period_end"] == "2019-12-31"))]
    panel = panel[~((panel["bank_id"] == "ES02") & (panel["period_end"] == "2021-06-30"))]
    panel = panel.reset_index(drop=True)

    # official-style adverse exercise (synthetic): country annual paths 2025–2027 and outcomes
    adverse_rows = []
    for k, c in enumerate(COUNTRIES):
        sev = 1 + 0.15 * k
        for y, gdp, infl, du, dr, eq, hp in (
            (2025, -2.5, 3.0, 1.0, 1.0, -30, -8),
            (2026, -1.5, 2.0, 1.8, 1.2, -5, -6),
            (2027, 0.5, 1.5, 2.2, 1.0, 3, -2),
        ):
            adverse_rows.append(
                {
                    "country": c,
                    "year": y,
                    "real_gdp": gdp * sev,
                    "inflation": infl,
                    "unemployment_change": du * sev,
                    "long_term_rate_change": dr,
                    "equity_prices": eq * sev,
                    "house_prices": hp * sev,
                    "data_status": "synthetic",
                }
            )
    adverse = pd.DataFrame(adverse_rows)
    official = []
    for entry in banks:
        bank_id, country, short, alpha = entry
        if short:
            continue
        last = panel[panel["bank_id"] == bank_id].iloc[-1]
        scen = adverse_scenario_halfyears(adverse, quarterly, [country])
        xs = [r.to_dict() for _, r in scen.set_index("period")[list(MACRO_VARIABLES)].iterrows()]
        start_ratio = 100 * last["cet1_capital"] / last["rwa"]
        lag0 = {c: TRUE_DGP[c]["c"] / (1 - TRUE_DGP[c]["rho"]) + alpha[c] for c in COMPONENTS}
        sim = _simulate_bank(rng, alpha, float(last["cet1_capital"]), float(last["rwa"]), lag0, xs, paths=400)
        ratios = np.array([100 * C / R for C, R, _, _ in sim])
        depletion = float(np.median(start_ratio - ratios.min(axis=0)))
        official.append(
            {
                "bank_id": bank_id,
                "country": country,
                "start_period": "2024H2",
                "cet1_capital": float(last["cet1_capital"]),
                "rwa": float(last["rwa"]),
                "start_ratio": start_ratio,
                "official_depletion": depletion + 0.3 * rng.normal(),
                "data_status": "synthetic",
            }
        )
    return {"panel": panel, "macro": quarterly, "official": pd.DataFrame(official), "adverse": adverse}


def load_demo_panel() -> pd.DataFrame:
    """The synthetic demo bank panel (reporting-date rows, year-to-date flows)."""
    return pd.read_csv(PANEL_FILE, dtype={"bank_id": str, "country": str})


def load_demo_macro() -> pd.DataFrame:
    """Synthetic quarterly country macro levels for the demo banks' countries."""
    return pd.read_csv(MACRO_FILE, dtype={"country": str, "quarter": str})


def load_demo_official() -> pd.DataFrame:
    """Synthetic official-style starting values (2024H2) and adverse CET1 depletion per bank."""
    return pd.read_csv(OFFICIAL_FILE, dtype={"bank_id": str, "country": str})


def load_demo_adverse() -> pd.DataFrame:
    """Synthetic official-style adverse annual country paths 2025–2027."""
    return pd.read_csv(ADVERSE_FILE, dtype={"country": str})


def demo_bank_records() -> list[ObservedValue]:
    """The four demo tables as workspace records with provenance ``synthetic``.

    Each value is a synthetic vintage published at the end of its period (``release_rule=vintage``),
    as the demo macro series carry synthetic vintages: the synthetic data's calendar is part of their
    design, so the demo request's ``strict`` vintage policy admits them (real values dated by a
    documented lag, ``lag``, need ``approximate``).
    """
    return bank_records(
        load_demo_panel(),
        load_demo_macro(),
        load_demo_official(),
        load_demo_adverse(),
        provenance=Provenance.synthetic,
        series_prefix="SYNTHETIC",
        release_rule=ReleaseRule.vintage,
    )


def write(seed: int = SEED) -> None:
    """Regenerate the demo CSV files (run once; the files are committed)."""
    tables = generate(seed)
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    for key, path in (
        ("panel", PANEL_FILE),
        ("macro", MACRO_FILE),
        ("official", OFFICIAL_FILE),
        ("adverse", ADVERSE_FILE),
    ):
        tables[key].to_csv(path, index=False, float_format="%.10g")


if __name__ == "__main__":
    write()
