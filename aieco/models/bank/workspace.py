"""Bank data as workspace records: the panel, the country macro history and the validation exercise.

The bank models read their data from :class:`~aieco.records.ObservedValue` records, whatever
their provenance (``real``, ``synthetic`` or ``illustrative``), selected at the request's
cutoff by the one as-of rule (:meth:`aieco.asof.AsOf.usable`: per series and period the latest
release on or before the cutoff, dated by a release rule the request's vintage policy accepts;
an unknown release date is not eligible). Nothing here knows
the demo: the demo build writes its synthetic tables through :func:`bank_records`, a real reader
(e.g. EBA transparency data) writes its own with ``provenance=real``. A workspace without bank
records makes :func:`read_bank_inputs` raise ``StageStopped`` — never a fallback to other data.

Record shapes (one ObservedValue per number; ``sector="banks"``):

* bank panel — ``variable`` one of :data:`PANEL_VARIABLES` values (``bank_cet1_capital``,
  ``bank_rwa``, ``bank_ppnr_ytd``, ``bank_credit_losses_ytd``, ``bank_residual_charges_ytd``),
  ``entity`` the bank id (LEI or code), ``jurisdiction`` the bank's country, ``frequency="H"``,
  ``reference_period`` the half-year ('2024H2'), ``unit="EUR mn"``, flows year-to-date;
* country macro history — ``variable`` ``bank_macro_<level>`` for each of
  :data:`aieco.models.bank.panel.QUARTERLY_LEVELS`, ``jurisdiction`` the country,
  ``frequency="Q"``, ``reference_period`` '2024Q4', no entity;
* validation exercise — per bank (``entity``) ``official_cet1_capital``, ``official_rwa``,
  ``official_depletion`` (pp) with ``scenario="official_adverse"`` and ``reference_period`` the
  starting half-year; per country the annual adverse path ``adverse_<column>`` of
  :data:`ADVERSE_COLUMNS` (``frequency="A"``, ``reference_period`` the year,
  ``scenario="official_adverse"``).

Every record carries ``provenance``; the frames returned say which provenances they hold.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

import pandas as pd

from aieco.asof import AsOf
from aieco.errors import InputError, StageStopped
from aieco.models.bank.panel import QUARTERLY_LEVELS
from aieco.records import ObservedValue, Provenance, ReleaseRule, ValueStatus
from aieco.store import Store

SECTOR = "banks"
OFFICIAL = "official_adverse"
PANEL_VARIABLES = {
    c: f"bank_{c}" for c in ("cet1_capital", "rwa", "ppnr_ytd", "credit_losses_ytd", "residual_charges_ytd")
}
MACRO_PREFIX = "bank_macro_"
OFFICIAL_VARIABLES = {
    "cet1_capital": "official_cet1_capital",
    "rwa": "official_rwa",
    "official_depletion": "official_depletion",
}
ADVERSE_COLUMNS = (
    "real_gdp",
    "inflation",
    "unemployment_change",
    "long_term_rate_change",
    "equity_prices",
    "house_prices",
)


@dataclass(frozen=True)
class BankInputs:
    """What the bank models read from the workspace at one cutoff."""

    panel: pd.DataFrame  # RAW_COLUMNS of aieco.models.bank.panel plus data_status
    history: pd.DataFrame  # country, quarter and QUARTERLY_LEVELS
    provenance: tuple[str, ...]  # provenances of the records read (sorted)


@dataclass(frozen=True)
class ValidationInputs:
    """The official-style adverse exercise: per-bank outcomes and the countries' annual adverse paths."""

    official: pd.DataFrame  # bank_id, country, start_period, cet1_capital, rwa, official_depletion
    adverse: pd.DataFrame  # country, year and ADVERSE_COLUMNS
    provenance: tuple[str, ...]


def _half_end(period: str) -> date:
    year, half = int(period[:4]), int(period[-1])
    return date(year, 6, 30) if half == 1 else date(year, 12, 31)


def _quarter_end(period: str) -> date:
    year, q = int(period[:4]), int(period[-1])
    return (pd.Period(f"{year}Q{q}", freq="Q").end_time).date()


def _half_label(period_end: str) -> str:
    d = date.fromisoformat(str(period_end)[:10])
    if (d.month, d.day) not in ((6, 30), (12, 31)):
        raise InputError(
            f"bank reporting date {d} is not a half-year end",
            where="bank panel period_end",
            fix="report bank values at 30 June or 31 December",
        )
    return f"{d.year}H{1 if d.month == 6 else 2}"


def bank_records(
    panel: pd.DataFrame,
    history: pd.DataFrame,
    official: pd.DataFrame | None = None,
    adverse: pd.DataFrame | None = None,
    *,
    provenance: Provenance,
    series_prefix: str,
    release_rule: ReleaseRule = ReleaseRule.lag,
) -> list[ObservedValue]:
    """ObservedValue records of bank tables (the shapes of the module docstring).

    Each value's release date is its period's end (``release_rule`` says how that date was
    obtained; callers with true publication dates write their own records). The validation
    exercise is dated at the end of its starting half-year.
    """
    out: list[ObservedValue] = []
    common = {"sector": SECTOR, "provenance": provenance, "release_rule": release_rule, "status": ValueStatus.observed}
    for row in panel.to_dict(orient="records"):
        period = _half_label(row["period_end"])
        for col, var in PANEL_VARIABLES.items():
            out.append(
                ObservedValue.create(
                    variable=var,
                    value=float(row[col]),
                    unit="EUR mn",
                    frequency="H",
                    jurisdiction=str(row["country"]),
                    reference_period=period,
                    release_date=_half_end(period),
                    entity=str(row["bank_id"]),
                    series_key=f"{series_prefix}:bank_panel:{col}",
                    **common,
                )
            )
    for row in history.to_dict(orient="records"):
        for level in QUARTERLY_LEVELS:
            out.append(
                ObservedValue.create(
                    variable=MACRO_PREFIX + level,
                    value=float(row[level]),
                    unit="level",
                    frequency="Q",
                    jurisdiction=str(row["country"]),
                    reference_period=str(row["quarter"]),
                    release_date=_quarter_end(str(row["quarter"])),
                    series_key=f"{series_prefix}:bank_macro:{level}",
                    **common,
                )
            )
    if official is not None:
        for row in official.to_dict(orient="records"):
            for col, var in OFFICIAL_VARIABLES.items():
                out.append(
                    ObservedValue.create(
                        variable=var,
                        value=float(row[col]),
                        unit="pp" if col == "official_depletion" else "EUR mn",
                        frequency="H",
                        jurisdiction=str(row["country"]),
                        reference_period=str(row["start_period"]),
                        release_date=_half_end(str(row["start_period"])),
                        entity=str(row["bank_id"]),
                        scenario=OFFICIAL,
                        series_key=f"{series_prefix}:official:{col}",
                        **common,
                    )
                )
    if adverse is not None:
        start = official["start_period"].iloc[0] if official is not None and len(official) else None
        for row in adverse.to_dict(orient="records"):
            released = _half_end(str(start)) if start else date(int(row["year"]) - 1, 12, 31)
            for col in ADVERSE_COLUMNS:
                out.append(
                    ObservedValue.create(
                        variable=f"adverse_{col}",
                        value=float(row[col]),
                        unit="%",
                        frequency="A",
                        jurisdiction=str(row["country"]),
                        reference_period=str(int(row["year"])),
                        release_date=released,
                        scenario=OFFICIAL,
                        series_key=f"{series_prefix}:adverse:{col}",
                        **common,
                    )
                )
    return out


def _rule(r: ObservedValue) -> str | None:
    return r.release_rule.value if r.release_rule else None


def _latest(records: Iterable[ObservedValue], as_of: AsOf, *, entity: bool) -> list[ObservedValue]:
    """Per (variable, entity or jurisdiction, period): the latest release the as-of rule admits
    (released by the cutoff and dated by a rule the vintage policy accepts: :meth:`AsOf.usable`)."""
    best: dict[tuple[str, str, str], ObservedValue] = {}
    for r in records:
        if not as_of.usable(r.release_date, _rule(r)):
            continue
        key = (r.variable, (r.entity or "") if entity else r.jurisdiction, r.reference_period)
        if key not in best or (best[key].release_date or date.min) <= (r.release_date or date.min):
            best[key] = r
    return list(best.values())


def _refused_by_policy(records: Iterable[ObservedValue], as_of: AsOf) -> str:
    """Why records released by the cutoff were not usable: the rules the vintage policy refused ('' if none)."""
    refused = sorted(
        {str(_rule(r)) for r in records if as_of.released(r.release_date) and not as_of.accepts_rule(_rule(r))}
    )
    if not refused:
        return ""
    return (
        f"; values released by then exist but are dated by release rule {', '.join(refused)}, which the "
        f'request\'s vintage_policy {as_of.vintage_policy!r} refuses (set vintage_policy = "approximate" in '
        "the request to accept documented publication lags, or load the values with their true release dates)"
    )


def _provenances(records: Iterable[ObservedValue]) -> tuple[str, ...]:
    return tuple(sorted({(r.provenance.value if r.provenance else "undeclared") for r in records}))


def read_bank_inputs(store: Store, as_of: AsOf) -> BankInputs:
    """The bank panel and the country macro history released on or before the cutoff.

    Raises ``StageStopped`` naming what is missing when the workspace holds no bank panel or
    no country history at the cutoff; provenance is read, never assumed.
    """
    stored_panel = store.find(ObservedValue, variable=list(PANEL_VARIABLES.values()), sector=SECTOR)
    panel_recs = _latest(stored_panel, as_of, entity=True)
    if not panel_recs:
        raise StageStopped(
            f"the workspace holds no bank panel usable at {as_of.cutoff} "
            f"(ObservedValue records {', '.join(PANEL_VARIABLES.values())} with a bank entity)"
            + (_refused_by_policy(stored_panel, as_of) or "; load bank data before the analysis"),
            stage="application",
        )
    cols = {v: c for c, v in PANEL_VARIABLES.items()}
    rows: dict[tuple[str, str], dict] = {}
    for r in panel_recs:
        row = rows.setdefault(
            (r.entity or "", r.reference_period),
            {
                "bank_id": r.entity,
                "country": r.jurisdiction,
                "period_end": _half_end(r.reference_period).isoformat(),
                "data_status": r.provenance.value if r.provenance else "undeclared",
            },
        )
        row[cols[r.variable]] = r.value
    panel = pd.DataFrame(sorted(rows.values(), key=lambda x: (x["bank_id"], x["period_end"])))
    incomplete = panel[panel[list(PANEL_VARIABLES)].isna().any(axis=1)]
    if not incomplete.empty:
        first = incomplete.iloc[0]
        panel = panel.dropna(subset=list(PANEL_VARIABLES))
        if panel.empty:
            raise StageStopped(
                f"no bank has every panel variable for one period (e.g. {first['bank_id']} {first['period_end']})",
                stage="application",
            )
    stored_macro = store.find(ObservedValue, variable=[MACRO_PREFIX + q for q in QUARTERLY_LEVELS], sector=SECTOR)
    macro_recs = _latest(stored_macro, as_of, entity=False)
    if not macro_recs:
        raise StageStopped(
            f"the workspace holds no country macro history for the bank models usable at "
            f"{as_of.cutoff} (ObservedValue records {MACRO_PREFIX}*)" + _refused_by_policy(stored_macro, as_of),
            stage="application",
        )
    hist: dict[tuple[str, str], dict] = {}
    for r in macro_recs:
        hist.setdefault(
            (r.jurisdiction, r.reference_period), {"country": r.jurisdiction, "quarter": r.reference_period}
        )[r.variable.removeprefix(MACRO_PREFIX)] = r.value
    history = pd.DataFrame(sorted(hist.values(), key=lambda x: (x["country"], x["quarter"])))
    history = history[["country", "quarter", *QUARTERLY_LEVELS]]
    return BankInputs(
        panel=panel.reset_index(drop=True),
        history=history.reset_index(drop=True),
        provenance=_provenances([*panel_recs, *macro_recs]),
    )


def read_validation_inputs(store: Store, as_of: AsOf) -> ValidationInputs | None:
    """The official-style adverse exercise released on or before the cutoff, or None when absent."""
    recs = _latest(
        store.find(ObservedValue, variable=list(OFFICIAL_VARIABLES.values()), scenario=OFFICIAL), as_of, entity=True
    )
    adverse_recs = _latest(
        store.find(ObservedValue, variable=[f"adverse_{c}" for c in ADVERSE_COLUMNS], scenario=OFFICIAL),
        as_of,
        entity=False,
    )
    if not recs or not adverse_recs:
        return None
    cols = {v: c for c, v in OFFICIAL_VARIABLES.items()}
    rows: dict[str, dict] = {}
    for r in recs:
        rows.setdefault(
            r.entity or "", {"bank_id": r.entity, "country": r.jurisdiction, "start_period": r.reference_period}
        )[cols[r.variable]] = r.value
    official = pd.DataFrame(sorted(rows.values(), key=lambda x: x["bank_id"])).dropna()
    adv: dict[tuple[str, int], dict] = {}
    for r in adverse_recs:
        adv.setdefault(
            (r.jurisdiction, int(r.reference_period)), {"country": r.jurisdiction, "year": int(r.reference_period)}
        )[r.variable.removeprefix("adverse_")] = r.value
    adverse = pd.DataFrame(sorted(adv.values(), key=lambda x: (x["country"], x["year"])))
    return ValidationInputs(
        official=official.reset_index(drop=True), adverse=adverse, provenance=_provenances([*recs, *adverse_recs])
    )
