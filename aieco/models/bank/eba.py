"""Readers of EBA stress-test and transparency CSV exports (long format: bank × period × item × scenario).

The stress-test files (2016 ``eba_2016_stress_test_TR_OTH.csv``: ``LEI_code, Country_code, Bank_name,
Period, Item, Scenario, Amount``; 2021 ``TRA_OTH.csv``: ``Country_code, LEI_Code, Bank_name, Period,
Item, Scenario, Fact_char, Amount``, Latin-1) and the transparency files (``Lei_code, NSA, Period,
Item, Label, …``; all figures actual) are read in any text encoding (declared or detected, see
:func:`~aieco.models.bank.eba_items.decode_text`). Item labels come from the data dictionary
published with the file and scenario labels from its lookup or metadata workbook; the items aieco
uses are resolved through those labels (:data:`~aieco.models.bank.eba_items.CONCEPTS`), never by
one year's item codes. Ratios are fractions (0.1235 = 12.35 %); amounts EUR mn.
"""

from __future__ import annotations

import io
import re
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from aieco.errors import InputError
from aieco.models.bank.eba_items import (
    CONCEPTS,
    CORE_CONCEPTS,
    EbaDictionary,
    concept,
    read_dictionary,
    read_scenarios,
    read_text,
    scenario_kind,
)
from aieco.records import ObservedValue, Provenance, ReleaseRule

EBA_COLUMNS = ("LEI_code", "Country_code", "Bank_name", "Period", "Item", "Scenario", "Amount")


def read_scenario_lookup(path: Path) -> dict[int, str]:
    """Scenario code → label from the lookup CSV (``Scenario,Label``) or a metadata workbook."""
    return read_scenarios(path)


def read_item_labels(path: Path) -> dict[int, str]:
    """Item code → label from an EBA data dictionary (xlsx or CSV extract)."""
    return {code: it.label for code, it in read_dictionary(path).items.items()}


# Column names differ between releases: the stress-test files use LEI_code (2016) or LEI_Code (2021),
# the transparency files Lei_code/NSA and carry no scenario (all figures are actual).
COLUMN_ALIASES = {
    "bank_id": ("LEI_code", "Lei_code", "LEI_Code", "LEI"),
    "country": ("Country_code", "NSA"),
    "bank_name": ("Bank_name", "Name"),
    "period": ("Period",),
    "item": ("Item",),
    "scenario": ("Scenario",),
    "amount": ("Amount",),
    "label": ("Label",),
}
DIMENSIONS = (
    "Portfolio",
    "Country",
    "Country_rank",
    "Exposure",
    "Status",
    "Perf_Status",
    "NACE_codes",
    "Financial_instruments",
    "Assets_FV",
    "Assets_Stages",
    "Maturity",
    "SOV_Maturity",
    "IFRS9_Stages",
    "CR_exp_moratoria",
    "CR_guarantees",
)
DICTIONARY_GLOBS = (
    "*data_dictionary*.xlsx",
    "*Data_Dictionary*.xlsx",
    "*data_dictionary*.csv",
    "*Data_Dictionary*.csv",
    "*SDD*.xlsx",
    "*SDD*.csv",
)
SCENARIO_GLOBS = ("*lookup_scenarios*.csv", "Metadata_TR.xlsx", "*metadata*.xlsx", "*scenarios*.csv")


def _column(raw: pd.DataFrame, key: str) -> str | None:
    return next((c for c in COLUMN_ALIASES[key] if c in raw.columns), None)


def _beside(folder: Path, globs: tuple[str, ...]) -> Path | None:
    for pattern in globs:
        hits = sorted(folder.glob(pattern))
        if hits:
            return hits[0]
    return None


def _stated_release(folder: Path) -> tuple[date | None, ReleaseRule]:
    """``release_date: YYYY-MM-DD`` (and ``release_rule: file|lag|vintage``, default file) from a
    PROVENANCE file beside an extract, if any."""
    prov = _beside(folder, ("PROVENANCE*",))
    if prov is None:
        return None, ReleaseRule.file
    text = prov.read_text(encoding="utf-8")
    m = re.search(r"release_date:\s*(\d{4}-\d{2}-\d{2})", text)
    rule = re.search(r"release_rule:\s*(\w+)", text)
    try:
        stated = ReleaseRule(rule.group(1)) if rule else ReleaseRule.file
    except ValueError:
        raise InputError(
            f"{prov.name} states an unknown release_rule {rule.group(1)!r}",
            where=str(prov),
            fix="use file, lag or vintage",
        ) from None
    return (date.fromisoformat(m.group(1)) if m else None), stated


def load_eba_csv(
    path: Path, *, lookup: Path | None = None, dictionary: Path | None = None, encoding: str | None = None
) -> pd.DataFrame:
    """Read an EBA stress-test or transparency long CSV, with labels from the dictionaries beside it.

    Rows broken down by a dimension (portfolio, counterparty country, exposure class, …) are
    kept only at the total (dimension code 0 or empty), so one amount remains per bank, period,
    item and scenario.

    Returns
    -------
    DataFrame
        Columns bank_id (LEI), country, bank_name, period (int YYYYMM), item (the dictionary's
        code), scenario (int; 1 = actual for transparency files), scenario_label, scenario_kind
        (actual / baseline / adverse / None), item_label, amount and row (1-based line of the
        file, header = 1). ``attrs``: file, encoding, dictionary (:class:`EbaDictionary` or None),
        release_date and release_rule (the date the dictionary or extract states, or None).
    """
    path = Path(path)
    text, used = read_text(path, encoding)
    try:
        raw = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False, na_values=[""])
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as err:
        raise InputError(
            f"{path.name} is not a CSV file (read as {used}): {err}",
            where=str(path),
            fix="pass the EBA CSV export, and its encoding if it is not detected",
        ) from None
    raw["_row"] = np.arange(len(raw)) + 2
    cols = {k: _column(raw, k) for k in COLUMN_ALIASES}
    missing = [COLUMN_ALIASES[k][0] for k in ("bank_id", "country", "period", "item", "amount") if cols[k] is None]
    if missing:
        raise InputError(
            f"{path.name} lacks EBA columns {missing} (read as {used}; header {list(raw.columns[:8])})",
            where=str(path),
            fix=f"expected columns {', '.join(EBA_COLUMNS)} (or the transparency names Lei_code, "
            "NSA); if the header looks garbled, declare the file's encoding",
        )
    for dim in (d for d in DIMENSIONS if d in raw.columns):
        code = pd.to_numeric(raw[dim], errors="coerce")
        raw = raw[code.isna() | (code == 0)]
    amount = pd.to_numeric(raw[cols["amount"]].str.replace(",", "", regex=False), errors="coerce")
    out = pd.DataFrame(
        {
            "bank_id": raw[cols["bank_id"]].str.strip(),
            "country": raw[cols["country"]].str.strip(),
            "bank_name": raw[cols["bank_name"]].fillna("") if cols["bank_name"] else "",
            "period": pd.to_numeric(raw[cols["period"]], errors="coerce"),
            "item": pd.to_numeric(raw[cols["item"]], errors="coerce"),
            "scenario": pd.to_numeric(raw[cols["scenario"]], errors="coerce") if cols["scenario"] else 1,
            "amount": amount,
            "row": raw["_row"],
        }
    )
    bad = out[["period", "item", "scenario"]].isna().any(axis=1)
    if bad.any():
        raise InputError(
            f"{path.name} has non-numeric Period, Item or Scenario codes "
            f"(first at line {int(out.loc[bad, 'row'].iloc[0])})",
            where=str(path),
        )
    out = out.astype({"period": int, "item": int, "scenario": int})
    folder = path.parent
    dict_path = dictionary or _beside(folder, DICTIONARY_GLOBS)
    book = read_dictionary(dict_path) if dict_path else None
    if book is not None:
        out["item"] = out["item"].map(book.current)
    dup = out.duplicated(["bank_id", "period", "item", "scenario"], keep=False)
    if dup.any():
        raise InputError(
            f"{path.name} has repeated bank/period/item/scenario rows (first at line "
            f"{int(out.loc[dup, 'row'].iloc[0])})",
            where=str(path),
            fix="check the breakdown dimensions of the file",
        )
    lookup = lookup or _beside(folder, SCENARIO_GLOBS)
    scenarios = read_scenarios(lookup) if lookup else {}
    default_label = "" if cols["scenario"] else "Actual figures"
    out["scenario_label"] = out["scenario"].map(scenarios).astype(object).fillna(default_label)
    kinds = {label: scenario_kind(label) for label in out["scenario_label"].unique()}
    out["scenario_kind"] = out["scenario_label"].map(kinds).astype(object)
    labels = out["item"].map({c: it.label for c, it in book.items.items()} if book else {}).astype(object)
    if cols["label"]:
        labels = labels.fillna(raw[cols["label"]])
    out["item_label"] = labels.fillna("")
    out = out.reset_index(drop=True)
    release, rule = _stated_release(folder)
    if release is None:
        release, rule = (book.release_date if book else None), ReleaseRule.file
    out.attrs.update(
        {
            "file": path.name,
            "encoding": used,
            "dictionary": book,
            "release_date": release,
            "release_rule": rule if release else None,
        }
    )
    return out


def _dictionary_of(data: pd.DataFrame, dictionary: EbaDictionary | None) -> EbaDictionary:
    book = dictionary or data.attrs.get("dictionary")
    if book is None:
        raise InputError(
            f"no data dictionary for {data.attrs.get('file', 'the EBA data')}",
            where="EBA items",
            fix="put the exercise's data dictionary beside the CSV or pass it explicitly",
        )
    return book


def concept_table(
    data: pd.DataFrame, names: tuple[str, ...] = CORE_CONCEPTS, *, dictionary: EbaDictionary | None = None
) -> pd.DataFrame:
    """Long table of resolved items: one row per bank, period, scenario and concept.

    Returns
    -------
    DataFrame
        Columns bank_id, country, bank_name, period, scenario, scenario_kind, concept, value (the
        signed sum of the concept's items, as reported), series_key (``collection:code[+code]``),
        label and row (file line of the first item).
    """
    book = _dictionary_of(data, dictionary)
    keys = ["bank_id", "period", "scenario"]
    parts = []
    for name, terms in book.resolve_all(names).items():
        frames = []
        for t in terms:
            d = data.loc[data["item"] == t.code, [*keys, "amount", "row"]].set_index(keys)
            frames.append(d.assign(amount=t.sign * d["amount"]))
        if not frames or frames[0].empty:
            continue
        joined = frames[0]
        for f in frames[1:]:  # every term must be reported for the sum to mean the concept
            joined = joined.join(f.rename(columns={"amount": "next", "row": "row_next"}), how="inner")
            joined = joined.assign(amount=joined["amount"] + joined.pop("next")).drop(columns="row_next")
        parts.append(
            joined.reset_index().assign(
                concept=name,
                series_key=f"{book.collection}:" + "+".join(str(t.code) for t in terms),
                label=" + ".join(t.label.strip() for t in terms),
            )
        )
    if not parts:
        raise InputError(
            f"{data.attrs.get('file', 'EBA data')} holds none of the items {list(names)}",
            where="EBA items",
            fix="check that the dictionary belongs to the file",
        )
    long = pd.concat(parts, ignore_index=True).rename(columns={"amount": "value"})
    meta = data.drop_duplicates(keys)[[*keys, "country", "bank_name", "scenario_kind"]]
    long = long.merge(meta, on=keys, how="left")
    return long.dropna(subset=["value"])[
        [
            "bank_id",
            "country",
            "bank_name",
            "period",
            "scenario",
            "scenario_kind",
            "concept",
            "value",
            "series_key",
            "label",
            "row",
        ]
    ]


def _reference(period: int, annual: bool) -> tuple[str, str]:
    year, month = divmod(int(period), 100)
    if annual and month == 12:
        return str(year), "A"
    if month in (6, 12):
        return f"{year}H{1 if month == 6 else 2}", "H"
    if month in (3, 9):
        return f"{year}Q{month // 3}", "Q"
    return f"{year}-{month:02d}", "M"


def observed_values(
    data: pd.DataFrame,
    names: tuple[str, ...] = CORE_CONCEPTS,
    *,
    dictionary: EbaDictionary | None = None,
    provenance: Provenance = Provenance.real,
) -> list[ObservedValue]:
    """Each resolved value as an :class:`ObservedValue`.

    ``entity`` is the bank's LEI, ``variable`` the concept (e.g. ``cet1_capital``), ``series_key``
    the exercise and item code(s), ``scenario`` baseline/adverse (None for actual figures; rows
    of other scenarios, such as restated figures, are left out), ``location_id`` the file and
    line (``file:row``), ``release_date`` the date the dictionary or extract states
    (:attr:`ReleaseRule.file`).
    """
    long = concept_table(data, names, dictionary=dictionary)
    book = _dictionary_of(data, dictionary)
    annual = book.collection.upper().startswith("ST")
    units = {c.name: c.unit for c in CONCEPTS}
    release, rule = data.attrs.get("release_date"), data.attrs.get("release_rule")
    file = data.attrs.get("file", "")
    out = []
    for r in long.itertuples(index=False):
        if r.scenario_kind not in ("actual", "baseline", "adverse"):
            continue
        ref, freq = _reference(r.period, annual)
        out.append(
            ObservedValue.create(
                variable=r.concept,
                value=float(r.value),
                unit=units[r.concept],
                frequency=freq,
                jurisdiction=str(r.country),
                sector="banks",
                reference_period=ref,
                release_date=release,
                vintage=book.collection,
                series_key=r.series_key,
                transformation="level",
                scenario=None if r.scenario_kind == "actual" else r.scenario_kind,
                location_id=f"{file}:{int(r.row)}",
                entity=str(r.bank_id),
                release_rule=rule,
                provenance=provenance,
            )
        )
    return out


def exercise_panel(
    data: pd.DataFrame, names: tuple[str, ...] | None = None, *, dictionary: EbaDictionary | None = None
) -> pd.DataFrame:
    """Wide year-end panel of a stress test: index (bank_id, scenario_kind, year), one column per concept.

    Actual figures are the starting point (scenario_kind 'actual'); the projection years carry
    'baseline' and 'adverse'. Ratios stay fractions.
    """
    names = names or tuple(c.name for c in CONCEPTS)
    book = _dictionary_of(data, dictionary)
    available = []
    for n in names:
        try:
            book.resolve(concept(n))
            available.append(n)
        except InputError:
            if n in ("cet1_capital", "total_risk_exposure_amount", "cet1_ratio"):
                raise
    long = concept_table(data, tuple(available), dictionary=book)
    long = long[long["scenario_kind"].isin(["actual", "baseline", "adverse"]) & (long["period"] % 100 == 12)]
    long = long.assign(year=long["period"] // 100)
    wide = long.pivot_table(
        index=["bank_id", "scenario_kind", "year"], columns="concept", values="value", aggfunc="first"
    )
    meta = long.groupby("bank_id")[["country", "bank_name"]].first()
    wide.attrs["meta"] = meta
    return wide


def eba_bank_outcomes(
    data: pd.DataFrame, *, start_period: int | None = None, dictionary: EbaDictionary | None = None
) -> pd.DataFrame:
    """Official starting values and projected CET1 outcomes per bank (any exercise, by dictionary).

    Returns
    -------
    DataFrame
        Index bank_id; country, bank_name, start_year, start_cet1_capital, start_rea (EUR mn),
        start_ratio (%), ``adverse_ratio_YYYY`` and ``baseline_ratio_YYYY`` (%), official_depletion
        (start ratio minus the minimum adverse ratio, pp), baseline_depletion, and the adverse yearly
        net interest income, impairments and REA (``adverse_nii_YYYY``, ``adverse_impairments_YYYY``,
        ``adverse_rea_YYYY``, EUR mn).
    """
    panel = exercise_panel(
        data,
        ("cet1_capital", "total_risk_exposure_amount", "cet1_ratio", "net_interest_income", "impairments"),
        dictionary=dictionary,
    )
    return outcomes_from_panel(panel, start_year=(start_period // 100) if start_period else None)


def outcomes_from_panel(panel: pd.DataFrame, *, start_year: int | None = None) -> pd.DataFrame:
    """:func:`eba_bank_outcomes` from an :func:`exercise_panel` (e.g. rebuilt from workspace records)."""
    meta = panel.attrs["meta"]
    actual = panel.xs("actual", level="scenario_kind") if "actual" in panel.index.get_level_values(1) else None
    if actual is None or actual.empty:
        raise InputError("no actual (starting) figures in the EBA data", where="EBA Scenario")
    start_year = start_year or int(actual.index.get_level_values("year").max())
    try:
        start = actual.xs(start_year, level="year")
    except KeyError:
        raise InputError(f"no actual figures for {start_year}", where="EBA Period") from None
    out = meta.join(
        pd.DataFrame(
            {
                "start_cet1_capital": start["cet1_capital"],
                "start_rea": start["total_risk_exposure_amount"],
                "start_ratio": 100 * start["cet1_ratio"],
            }
        ),
        how="inner",
    )
    out["start_year"] = start_year
    for label in ("adverse", "baseline"):
        s = panel.xs(label, level="scenario_kind")
        years = sorted(y for y in s.index.get_level_values("year").unique() if y > start_year)
        if not years:
            raise InputError(f"no {label} projection years after {start_year}", where="EBA Scenario")
        for y in years:
            row = s.xs(y, level="year")
            out[f"{label}_ratio_{y}"] = 100 * row["cet1_ratio"]
            if label == "adverse":
                out[f"adverse_nii_{y}"] = row.get("net_interest_income", np.nan)
                out[f"adverse_impairments_{y}"] = row.get("impairments", np.nan)
                out[f"adverse_rea_{y}"] = row["total_risk_exposure_amount"]
        out[f"{label}_min_ratio"] = out[[f"{label}_ratio_{y}" for y in years]].min(axis=1)
    out = out.dropna(subset=["start_ratio", "adverse_min_ratio", "baseline_min_ratio"])
    out["official_depletion"] = out["start_ratio"] - out["adverse_min_ratio"]
    out["baseline_depletion"] = out["start_ratio"] - out["baseline_min_ratio"]
    out.index.name = "bank_id"
    return out


# ----------------------------------------------------------------------------- transparency exercises


def read_transparency_sdd(path: Path) -> dict[int, int]:
    """Item code of any transparency exercise → the SDD's current code (its own codes map to themselves)."""
    try:
        book = read_dictionary(path)
    except InputError:
        raise InputError(
            f"{Path(path).name} is not the EBA transparency SDD", where=str(path), fix="use eba_transparency_SDD.xlsx"
        ) from None
    if book.collection != "TR" or not book.code_map:
        raise InputError(
            f"{Path(path).name} is not the EBA transparency SDD", where=str(path), fix="use eba_transparency_SDD.xlsx"
        )
    return {**{c: c for c in book.items}, **book.code_map}


TRANSPARENCY_CONCEPTS = (
    "cet1_capital",
    "total_risk_exposure_amount",
    "total_operating_income",
    "operating_expenses",
    "impairments",
    "profit",
)


def transparency_bank_panel(data: pd.DataFrame, dictionary: EbaDictionary) -> pd.DataFrame:
    """Raw half-year bank panel (:data:`aieco.models.bank.panel.RAW_COLUMNS`) from transparency data.

    Items are resolved through the SDD's labels. June and December reports only; P&L items are
    year-to-date. Expense items (labels in parentheses) are reported as positive amounts, so
    PPNR = total operating income − (administrative expenses + depreciation); credit losses =
    impairment on financial assets not at fair value; residual charges = PPNR − credit losses −
    profit for the year (taxes, provisions, other impairments …).
    """
    d = data.assign(item=data["item"].map(dictionary.current))
    d = d[(d["period"] % 100).isin([6, 12])]
    d.attrs.update(data.attrs)
    try:
        long = concept_table(d, TRANSPARENCY_CONCEPTS, dictionary=dictionary)
    except InputError:
        raise InputError(
            "transparency data hold no June/December capital, RWA or P&L items",
            where="EBA items",
            fix="load tr_oth.csv of the transparency exercises",
        ) from None
    wide = long.pivot_table(index=["bank_id", "period"], columns="concept", values="value", aggfunc="first")
    missing = [k for k in TRANSPARENCY_CONCEPTS if k not in wide.columns]
    if missing:
        raise InputError(f"transparency data lack items {missing}", where="EBA items")
    meta = long.groupby("bank_id")[["country", "bank_name"]].first()
    wide = wide.reset_index()
    ppnr = wide["total_operating_income"] - wide["operating_expenses"]
    out = pd.DataFrame(
        {
            "bank_id": wide["bank_id"],
            "bank_name": wide["bank_id"].map(meta["bank_name"]),
            "country": wide["bank_id"].map(meta["country"]),
            "period_end": [f"{p // 100}-{'06-30' if p % 100 == 6 else '12-31'}" for p in wide["period"]],
            "cet1_capital": wide["cet1_capital"],
            "rwa": wide["total_risk_exposure_amount"],
            "ppnr_ytd": ppnr,
            "credit_losses_ytd": wide["impairments"],
            "residual_charges_ytd": ppnr - wide["impairments"] - wide["profit"],
        }
    )
    return out.dropna().sort_values(["bank_id", "period_end"]).reset_index(drop=True)


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
    return {
        name: pd.DataFrame(
            {
                "bank_id": outcomes.index,
                "country": outcomes["country"].to_numpy(),
                "predicted": p,
                "lower": p,
                "upper": p,
            }
        )
        for name, p in preds.items()
    }
