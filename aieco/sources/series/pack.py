"""The real euro-area data shipped in the package (``aieco/data/real/``) and its loader.

Compact extracts of public series whose publishers allow reuse with attribution (ECB,
Eurostat, BIS), one CSV per series in aieco's long format, each with a
``<name>.PROVENANCE.md`` beside it (publisher, title, series key, extraction date, release
rule, licence line). Every row keeps the release date and rule its source file gave it
(see :mod:`aieco.sources.series.lags`). :func:`build_real_pack` re-creates the extracts from
the shared data folder (``python -m aieco.sources.series.pack ../shared/data``);
:func:`load_real_pack` stores them in a workspace (provenance ``real``).

Extensions bring the series closer to the cutoff from public copies committed after it
(``aieco/data/later_copies.toml``, files under ``shared/data/macro/extensions/``): their
values keep the ``lag`` rule (the commit date is no evidence of a 2024 release), and each is
checked against the shipped series it overlaps. An extension that *continues* a shipped
series (same provider series, written under the shipped series key) keeps that series' last
:data:`OVERLAP` periods, which must repeat it (exactly, or within the copy's rounding), and
the periods after it; only the later periods are loaded — the overlap is evidence of agreement.
"""

from __future__ import annotations

import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from aieco.errors import InputError
from aieco.progress import report
from aieco.records import ObservedValue
from aieco.sources.series.copies import LATER, DatedCopy, as_copy_values, copy_named, git_blob_id
from aieco.sources.series.loader import load_series
from aieco.sources.series.readers import observations_frame
from aieco.store import Store

PACK_DIR = Path(__file__).resolve().parents[2] / "data" / "real"
FIRST_PERIOD = "1998"  # the model sample starts in 2000Q1; two years before it for lags and annual bases
OVERLAP = 12  # periods a continuing extension repeats from the series it continues (checked equal)
EXTRACTED = "2026-11-22"  # extraction date of the extracts that state none of their own
PACK_COLUMNS = [
    "variable",
    "reference_period",
    "value",
    "unit",
    "frequency",
    "jurisdiction",
    "release_date",
    "release_rule",
    "vintage",
    "series_key",
    "transformation",
]


@dataclass(frozen=True)
class PackSeries:
    """One shipped extract: source file, the rows it keeps, and what its PROVENANCE file states."""

    name: str
    source: str  # path under shared/data/macro
    variable: str
    series_prefix: str
    publisher: str
    title: str
    series_key: str
    release_rule: str
    licence: str
    keep_vintages_with_exact_dates: bool = False
    copy: str | None = None  # a registered dated public copy (copies.dated_copies): its commit date, rule file
    later_copy: str | None = None  # a public copy committed after the cutoff (later_copies.toml): bytes checked only
    overlaps: str | None = None  # the shipped extract its values are checked against over their common periods
    continues: bool = False  # the same provider series as ``overlaps``: keep its last OVERLAP periods and later ones
    tolerance: float = 0.0  # largest overlap difference a continuation may show (half the copy's last decimal)
    member: str | None = None  # the series file inside a zip archive source
    extracted: str | None = None  # extraction date, when not EXTRACTED


ATTRIBUTION = "reuse with attribution (publishers' terms as summarised in shared/data/README.md)"
ECB_LICENCE = f"ECB statistics: {ATTRIBUTION}; cite 'Source: ECB'"
EUROSTAT_LICENCE = f"Eurostat data: {ATTRIBUTION}; cite 'Source: Eurostat'"
BIS_LICENCE = f"BIS statistics: {ATTRIBUTION}; cite 'Source: Bank for International Settlements'"
CEPREMAP_TERMS = (
    "Compilation: CEPREMAP (macro.cepremap.fr; repository EconMaett/cepremap, which ships no licence file and "
    "states only a citation, 'MACRO.CEPREMAP.FR', in its README). The values are the ECB's: its R script "
    "R/10_cmr14-EA-data.R downloads ECB/IRS/M.U2.L.L40.CI.0000.EUR.N.Z through DBnomics and averages it by quarter, "
    "back-cast with the AWM's LTN. Terms of the compilation itself: to confirm with CEPREMAP before publishing"
)
STOXX_TERMS = (
    "The series key's provider dimension is DS (PROVIDER_FM = DS: data the ECB takes from a commercial provider, "
    "not an ECB statistic) and EURO STOXX 50 is an index and trademark of STOXX Ltd.; the ECB's reuse-with-"
    "attribution terms may not extend to third-party data: redistribution terms to confirm with the ECB/STOXX "
    "before publishing"
)

PACK: tuple[PackSeries, ...] = (
    PackSeries(
        "real_gdp_realtime",
        "vintages/ea_gdp_realtime_database.xlsx",
        "real_gdp",
        "RTDB",
        "Eurostat (national accounts releases), compiled as a real-time vintage triangle",
        "Euro area GDP, EUR mn, real, seasonally adjusted; one vintage per release",
        "RTDB.gdp_ea",
        "vintage: the exact release date of each vintage (workbook row 10); only vintages with an exact "
        "date (2014q4–2024q4) are kept",
        EUROSTAT_LICENCE + ". The workbook states 'Sources: Eurostat, OECD'. It is byte for byte "
        "inst/exdata/realtime_database.xlsx (git blob 05e26402ec22217d67afb69dfcf91e6cf29849f5, first "
        "committed 2025-03-24) of the R package reviser (github.com/p-wegmueller/reviser; DESCRIPTION "
        "'License: MIT + file LICENSE', copyright 'reviser authors'), whose R/data-vintages.R says 'All the "
        "data is from the realtime database of Indergand and Leist (2014)' (Swiss J Economics Statistics 150, "
        "331-352). Which euro-area vintages come from the OECD is not stated; the OECD's terms for those "
        "vintages and whether the package's MIT licence covers the compiled data: to confirm before publishing",
        keep_vintages_with_exact_dates=True,
    ),
    PackSeries(
        "hicp_index",
        "fred/CP0000EZ19M086NEST.csv",
        "inflation",
        "FRED",
        "Eurostat (HICP), as distributed by FRED (series CP0000EZ19M086NEST)",
        "HICP overall index, euro area, 2015=100, monthly",
        "FRED.CP0000EZ19M086NEST",
        "lag: end of month + 31 days (aieco/data/publication_lags.toml [inflation])",
        EUROSTAT_LICENCE,
    ),
    PackSeries(
        "hicp_annual_rate",
        "ecb_portal/inflation.csv",
        "inflation",
        "ECB",
        "ECB Data Portal",
        "HICP - Overall index, annual rate of change",
        "ICP.M.U2.N.000000.4.ANR",
        "lag: end of month + 31 days (aieco/data/publication_lags.toml [inflation])",
        ECB_LICENCE,
    ),
    PackSeries(
        "unemployment",
        "ecb_portal/unemployment.csv",
        "unemployment",
        "ECB",
        "ECB Data Portal",
        "Unemployment rate, euro area 20, total, 15-74, seasonally adjusted",
        "LFSI.M.I9.S.UNEHRT.TOTAL0.15_74.T",
        "lag: end of month + 39 days (aieco/data/publication_lags.toml [unemployment])",
        ECB_LICENCE,
    ),
    PackSeries(
        "awm_unemployment",
        "ecb_awm19up18.csv",
        "unemployment",
        "AWM",
        "ECB, Area-Wide Model database (18th update)",
        "URX: unemployment rate, quarterly, 1970Q1–2017Q4",
        "AWM.URX",
        "lag: end of quarter + 39 days (aieco/data/publication_lags.toml [unemployment])",
        ECB_LICENCE,
    ),
    PackSeries(
        "long_term_rate",
        "cepremap_EA_CMR_rawdata.csv",
        "long_term_rate",
        "CEPREMAP",
        "ECB long-term interest rate statistics, compiled by CEPREMAP (EA CMR dataset, via EconMaett/cepremap)",
        "longrate: 10-year government bond yield, quarterly average, %",
        "CEPREMAP.longrate",
        "lag: end of quarter + 1 day (a period average of daily market yields)",
        ECB_LICENCE + ". " + CEPREMAP_TERMS,
    ),
    PackSeries(
        "house_prices",
        "bis_rpp_nominal_index.csv",
        "house_prices",
        "BIS",
        "Bank for International Settlements",
        "Selected residential property prices, nominal, euro area (XM), 2010=100, quarterly",
        "BIS.RPP.N.XM (Q:XM:N:628)",
        "lag: end of quarter + 175 days (aieco/data/publication_lags.toml [house_prices])",
        BIS_LICENCE,
    ),
    PackSeries(
        "house_prices_stored",
        "vintages/bis_rpp_XM_nominal_by_commit.csv",
        "house_prices",
        "BIS",
        "Bank for International Settlements (stored copies, datasets/house-prices-global)",
        "Selected residential property prices, nominal, euro area, as stored at four dated commits",
        "BIS.RPP.N.XM",
        "file: the date of the stored copy (column header commit_YYYY-MM-DD)",
        BIS_LICENCE,
    ),
    PackSeries(
        "equity_prices",
        "ecb_M_U2_EUR_DS_EI_DJES50I_HSTA.csv",
        "equity_prices",
        "ECB",
        "ECB Data Portal (index data: STOXX Ltd.)",
        "EURO STOXX 50, monthly average of daily closes",
        "FM.M.U2.EUR.DS.EI.DJES50I.HSTA",
        "lag: end of month + 1 day (a period average of daily closes)",
        ECB_LICENCE + ". " + STOXX_TERMS,
    ),
    # Dated public copies of the same shared files (rule ``file``): what the ``strict`` policy uses.
    PackSeries(
        "hicp_index_copy",
        "fred/CP0000EZ19M086NEST.csv",
        "inflation",
        "FRED",
        "Eurostat (HICP), as distributed by FRED (series CP0000EZ19M086NEST); dated copy in andrewpwalters/ecb",
        "HICP overall index, euro area, 2015=100, monthly",
        "FRED.CP0000EZ19M086NEST",
        "file: the commit date of the public copy (2024-02-12)",
        EUROSTAT_LICENCE,
        copy="fred_hicp_2024-02-12",
    ),
    PackSeries(
        "hicp_annual_rate_copy",
        "ecb_portal/inflation.csv",
        "inflation",
        "ECB",
        "ECB Data Portal; dated copy in mthavarajah/eu-economics",
        "HICP - Overall index, annual rate of change",
        "ICP.M.U2.N.000000.4.ANR",
        "file: the commit date of the public copy (2024-09-05)",
        ECB_LICENCE,
        copy="ecb_portal_inflation_2024-09-05",
    ),
    PackSeries(
        "unemployment_copy",
        "ecb_portal/unemployment.csv",
        "unemployment",
        "ECB",
        "ECB Data Portal; dated copy in mthavarajah/eu-economics",
        "Unemployment rate, euro area 20, total, 15-74, seasonally adjusted",
        "LFSI.M.I9.S.UNEHRT.TOTAL0.15_74.T",
        "file: the commit date of the public copy (2024-09-05)",
        ECB_LICENCE,
        copy="ecb_portal_unemployment_2024-09-05",
    ),
    PackSeries(
        "awm_unemployment_copy",
        "ecb_awm19up18.csv",
        "unemployment",
        "AWM",
        "ECB, Area-Wide Model database (18th update); dated copy in EconMaett/cepremap",
        "URX: unemployment rate, quarterly, 1970Q1–2017Q4",
        "AWM.URX",
        "file: the commit date of the public copy (2024-02-16)",
        ECB_LICENCE,
        copy="awm18_2024-02-16",
    ),
    PackSeries(
        "long_term_rate_copy",
        "cepremap_EA_CMR_rawdata.csv",
        "long_term_rate",
        "CEPREMAP",
        "ECB long-term interest rate statistics, compiled by CEPREMAP (EA CMR dataset); dated copy in "
        "EconMaett/cepremap",
        "longrate: 10-year government bond yield, quarterly average, %",
        "CEPREMAP.longrate",
        "file: the commit date of the public copy (2024-03-21)",
        ECB_LICENCE + ". " + CEPREMAP_TERMS,
        copy="cepremap_cmr_2024-03-21",
    ),
    PackSeries(
        "house_prices_copy",
        "fred/QXMN628BIS.csv",
        "house_prices",
        "FRED",
        "Bank for International Settlements, as distributed by FRED (series QXMN628BIS); dated copy in "
        "rofrans/kwantumlink",
        "Residential property prices, nominal, euro area, 2010=100, quarterly",
        "FRED.QXMN628BIS",
        "file: the commit date of the public copy (2021-04-25)",
        BIS_LICENCE,
        copy="fred_bis_rpp_2021-04-25",
    ),
    PackSeries(
        "equity_prices_copy",
        "fred/eurostoxx50_monthly_kwantumlink.csv",
        "equity_prices",
        "KWANTUMLINK",
        "ECB Statistical Data Warehouse series FM.M.U2.EUR.DS.EI.DJES50I.HSTA (index data: STOXX Ltd.), as "
        "downloaded into rofrans/kwantumlink (its MacroForecast.Rmd names the ECB series key as the source)",
        "EURO STOXX 50, monthly average of daily closes",
        "KWANTUMLINK.EUROSTOXX50",
        "file: the commit date of the public copy (2021-04-25)",
        ECB_LICENCE + ". " + STOXX_TERMS,
        copy="ecb_eurostoxx50_2021-04-25",
    ),
    # Extensions towards the cutoff from public copies committed after it (rule lag: approximate only).
    PackSeries(
        "hicp_index_continued",
        "extensions/vicdecoc_CP0000EZ19M086NEST.csv",
        "inflation",
        "FRED",
        "Eurostat (HICP), as distributed by FRED (series CP0000EZ19M086NEST); public copy in "
        "vicdecoc/Assignment-2---macro",
        "HICP overall index, euro area, 2015=100, monthly",
        "FRED.CP0000EZ19M086NEST",
        "lag: end of month + 31 days (aieco/data/publication_lags.toml [inflation]); the copy's commit date "
        "is not a release date",
        EUROSTAT_LICENCE,
        later_copy="fred_hicp_2025-05-14",
        overlaps="hicp_index",
        continues=True,
        extracted="2026-11-27",
    ),
    PackSeries(
        "hicp_annual_rate_continued",
        "extensions/aryamann04_ecb_hicp.csv",
        "inflation",
        "ECB",
        "ECB Data Portal; public copy in aryamann04/macro-research",
        "HICP - Overall index, annual rate of change",
        "ICP.M.U2.N.000000.4.ANR",
        "lag: end of month + 31 days (aieco/data/publication_lags.toml [inflation]); the copy's commit date "
        "is not a release date",
        ECB_LICENCE,
        later_copy="ecb_portal_hicp_anr_2025-07-02",
        overlaps="hicp_annual_rate",
        continues=True,
        extracted="2026-11-27",
    ),
    PackSeries(
        "long_term_rate_ecb",
        "extensions/aryamann04_ecb_yield.csv",
        "long_term_rate",
        "ECB",
        "ECB Data Portal; public copy in aryamann04/macro-research",
        "Long-term interest rate for convergence purposes, 10 years maturity, denominated in euro, euro area 20 "
        "(fixed composition), monthly average of daily secondary-market yields, % p.a.",
        "IRS.M.I9.L.L40.CI.0000.EUR.N.Z",
        "lag: end of month + 1 day (aieco/data/publication_lags.toml [long_term_rate]: a period average of "
        "daily market yields); the copy's commit date is not a release date",
        ECB_LICENCE,
        later_copy="ecb_portal_long_rate_i9_2025-07-02",
        overlaps="long_term_rate",
        extracted="2026-11-27",
    ),
    PackSeries(
        "equity_prices_continued",
        "extensions/anilmujagic45_MPS_data.zip",
        "equity_prices",
        "ECB",
        "ECB Data Portal (index data: STOXX Ltd.); public copy (a Data Portal download of 2025-10-14 in a zip "
        "archive) in anilmujagic45/Monetary-Policy-Shocks-and-Macro-Financial-Dynamics",
        "EURO STOXX 50, monthly average of daily closes (four decimals in the copy)",
        "FM.M.U2.EUR.DS.EI.DJES50I.HSTA",
        "lag: end of month + 1 day (a period average of daily closes); the copy's commit date is not a release date",
        ECB_LICENCE + ". " + STOXX_TERMS,
        later_copy="ecb_portal_eurostoxx50_2026-08-18",
        overlaps="equity_prices",
        continues=True,
        tolerance=0.00005,
        member="ECB Data Portal_20251014132031.csv",
        extracted="2026-11-27",
    ),
)


def check_bytes(source: Path, copy: DatedCopy, registry: Path) -> None:
    """Refuse a source file whose bytes are not the registered copy's."""
    if git_blob_id(source) != copy.blob:
        raise InputError(
            f"{source} is not the copy committed to {copy.repo} at {copy.commit} "
            f"(git blob {git_blob_id(source)}, expected {copy.blob})",
            where=str(source),
            fix=f"fetch {copy.path} at commit {copy.commit} unchanged, or drop its record from {registry.name}",
        )


def extract(entry: PackSeries, shared_data_dir: Path, base: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows of one shipped extract, read from the shared data file by the series loaders.

    A dated or later copy is checked first: the shared file must have the committed bytes. A
    continuing extension needs ``base``, the extract it continues.
    """
    source = shared_data_dir / "macro" / entry.source
    if not source.is_file():
        later = copy_named(entry.later_copy, LATER) if entry.later_copy else None
        raise InputError(
            f"{source} is absent",
            where=str(source),
            fix=(f"fetch {later.path} from github.com/{later.repo} at commit {later.commit} into {source}")
            if later
            else "pass the shared data folder that contains macro/",
        )
    copy = copy_named(entry.copy) if entry.copy else None
    if copy is not None:
        check_bytes(source, copy, Path("dated_copies.toml"))
    if entry.later_copy:
        check_bytes(source, copy_named(entry.later_copy, LATER), LATER)
    records = [
        r
        for r in read_source(source, entry.member)
        if r.variable == entry.variable
        and r.series_key.startswith(entry.series_prefix)
        and r.reference_period >= FIRST_PERIOD
    ]
    if entry.keep_vintages_with_exact_dates:
        records = [r for r in records if r.release_rule is not None and r.release_rule.value == "vintage"]
    if copy is not None:
        records = as_copy_values(records, copy)
    frame = observations_frame(records)  # EA19 back-casts and EA20 recent series are joined by the splices
    frame = frame[PACK_COLUMNS].sort_values(["reference_period", "release_date"], kind="stable")
    if entry.continues:
        if base is None:
            raise InputError(
                f"{entry.name} continues {entry.overlaps}, which was not given",
                where=entry.name,
                fix="build the extract it continues first",
            )
        frame = continuation(entry, frame, base)
    return frame


def read_source(source: Path, member: str | None = None) -> list[ObservedValue]:
    """The values of a series file, or of ``member`` inside a zip archive (read under its own name)."""
    if member is None:
        return load_series(source)
    try:
        with zipfile.ZipFile(source) as archive:
            data = archive.read(member)
    except (zipfile.BadZipFile, KeyError) as exc:
        raise InputError(
            f"{source} holds no readable member {member!r} ({exc})",
            where=str(source),
            fix="register the archive's member name exactly as `unzip -l` lists it",
        ) from None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / Path(member).name
        path.write_bytes(data)
        return load_series(path)


def overlap_differences(frame: pd.DataFrame, base: pd.DataFrame) -> tuple[pd.Series, bool]:
    """New minus shipped value over their common periods (monthly values averaged to complete quarters
    when the shipped series is quarterly); the flag says whether they were averaged."""
    new = frame.drop_duplicates("reference_period", keep="last").set_index("reference_period")["value"].astype(float)
    averaged = bool((base["frequency"] == "Q").all() and (frame["frequency"] == "M").all())
    if averaged:
        quarters = pd.PeriodIndex(list(new.index), freq="M").asfreq("Q").astype(str)
        grouped = new.groupby(quarters)
        new = grouped.mean()[grouped.size() == 3]
    old = base.drop_duplicates("reference_period", keep="last").set_index("reference_period")["value"].astype(float)
    common = sorted(set(new.index) & set(old.index))
    return (new[common] - old[common]), averaged


def same_series(key: str, base_key: str) -> bool:
    """Two keys of one provider series (``ECB.FM.M.U2…`` names the dataflow that ``ECB.M.U2…`` leaves out)."""
    return key == base_key or key.endswith("." + base_key.split(".", 1)[1])


def continuation(entry: PackSeries, frame: pd.DataFrame, base: pd.DataFrame) -> pd.DataFrame:
    """The last OVERLAP periods of ``base`` (values repeated within ``entry.tolerance``) and every later
    period of ``frame``, under the base's series key."""
    base_key = str(base["series_key"].iloc[0])
    keys = set(frame["series_key"])
    if not all(same_series(k, base_key) for k in keys):
        raise InputError(
            f"{entry.name} ({', '.join(sorted(keys))}) is not the provider series of {entry.overlaps} ({base_key})",
            where=entry.source,
            fix="continue a series only with a copy of the same provider series",
        )
    periods = sorted(base["reference_period"].unique())
    out = frame[frame["reference_period"] >= periods[-OVERLAP]].assign(series_key=base_key)
    diff, _ = overlap_differences(out, base)
    if len(diff) != OVERLAP or (diff.abs() > entry.tolerance + 1e-9).any():
        raise InputError(
            f"{entry.name} does not repeat the last {OVERLAP} values of {entry.overlaps} "
            f"({len(diff)} common periods, largest difference {diff.abs().max() if len(diff) else float('nan')})",
            where=entry.source,
            fix="continue a series only with a copy of the same provider series (revised values are a new vintage)",
        )
    if not (out["reference_period"] > periods[-1]).any():
        raise InputError(
            f"{entry.name} adds no period after {periods[-1]}, the end of {entry.overlaps}",
            where=entry.source,
            fix="drop the extension or use a later copy",
        )
    return out


def dated_copy_line(copy: DatedCopy) -> str:
    return (
        f"- dated copy: github.com/{copy.repo}, commit {copy.commit}, committed {copy.committed}, path "
        f"{copy.path}; git blob {copy.blob} equals the shared file's bytes (checked when the extract is built; "
        "registry aieco/data/dated_copies.toml)\n"
    )


def later_copy_line(copy: DatedCopy) -> str:
    return (
        f"- public copy: github.com/{copy.repo}, commit {copy.commit}, committed {copy.committed} (after the "
        f"default cutoff: its values keep the lag rule and are never strict evidence), path {copy.path}; git "
        f"blob {copy.blob} equals the source file's bytes (checked when the extract is built; registry "
        "aieco/data/later_copies.toml)\n"
    )


def overlap_line(entry: PackSeries, frame: pd.DataFrame, base: pd.DataFrame) -> str:
    diff, averaged = overlap_differences(frame, base)
    how = " (quarterly averages of the monthly values)" if averaged else ""
    tail = (
        f"; it continues {entry.overlaps}.csv (same provider series, written under that extract's series key): "
        f"its first {len(diff)} rows repeat that extract's last periods (evidence only: a workspace loads the "
        "later periods)"
        if entry.continues
        else ""
    )
    return (
        f"- overlap with {entry.overlaps}.csv: {len(diff)} common periods{how}, largest absolute difference "
        f"{diff.abs().max():.4g}, mean difference {diff.mean():+.4g}{tail}\n"
    )


def provenance_text(entry: PackSeries, rows: int, first: str, last: str, extracted: str, overlap: str = "") -> str:
    return (
        f"# {entry.name}.csv\n\n"
        f"- publisher: {entry.publisher}\n- title: {entry.title}\n- series key: {entry.series_key}\n"
        f"- extracted from: shared/data/macro/{entry.source} (extraction date {extracted}; "
        f"{rows} rows, reference periods {first}–{last})\n"
        f"- release-date rule: {entry.release_rule}\n"
        + (dated_copy_line(copy_named(entry.copy)) if entry.copy else "")
        + (later_copy_line(copy_named(entry.later_copy, LATER)) if entry.later_copy else "")
        + overlap
        + f"- licence: {entry.licence}\n"
        "- provenance: real (values unchanged; only rows outside the model sample or vintages without an "
        "exact date are left out)\n"
    )


def build_real_pack(
    shared_data_dir: str | Path,
    out_dir: Path = PACK_DIR,
    extracted: str = EXTRACTED,
    entries: tuple[PackSeries, ...] = PACK,
) -> list[Path]:
    """Write every extract (or ``entries``) and its PROVENANCE file; returns the CSV paths.

    An extract checked against another reads it from this build, else from ``out_dir``, else the
    shipped one.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    built: dict[str, pd.DataFrame] = {}
    paths = []
    for entry in entries:
        base = None
        if entry.overlaps:
            base = built.get(entry.overlaps)
            if base is None:
                written = out_dir / f"{entry.overlaps}.csv"
                base = pd.read_csv(
                    written if written.is_file() else PACK_DIR / written.name, dtype={"reference_period": str}
                )
        frame = extract(entry, Path(shared_data_dir), base)
        built[entry.name] = frame
        path = out_dir / f"{entry.name}.csv"
        frame.to_csv(path, index=False, lineterminator="\n")
        (out_dir / f"{entry.name}.PROVENANCE.md").write_text(
            provenance_text(
                entry,
                len(frame),
                frame["reference_period"].min(),
                frame["reference_period"].max(),
                entry.extracted or extracted,
                overlap_line(entry, frame, base) if base is not None else "",
            ),
            encoding="utf-8",
        )
        paths.append(path)
    return paths


def pack_observations(pack_dir: Path = PACK_DIR) -> list[ObservedValue]:
    """Every shipped value as an ObservedValue (provenance real, release date and rule as shipped)."""
    out: list[ObservedValue] = []
    last: dict[str, str] = {}
    for i, entry in enumerate(PACK):
        report("reading real series", i, len(PACK), entry.name)
        values = load_series(pack_dir / f"{entry.name}.csv", provenance="real")
        if entry.continues:  # the overlap rows are evidence of agreement; the continued series keeps its values
            values = [v for v in values if v.reference_period > last[entry.overlaps]]
        last[entry.name] = max(v.reference_period for v in values)
        out += values
    report("reading real series", len(PACK), len(PACK), "")
    return out


def load_real_pack(store: Store, pack_dir: Path = PACK_DIR) -> int:
    """Store the shipped real series in a workspace (one transaction); returns the new rows."""
    values = pack_observations(pack_dir)
    with store.transaction():
        return store.put_many(values)


if __name__ == "__main__":
    for p in build_real_pack(sys.argv[1] if len(sys.argv) > 1 else "../shared/data"):
        print(p)
