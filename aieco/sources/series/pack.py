"""The real euro-area data shipped in the package (``aieco/data/real/``) and its loader.

Compact extracts of public series whose publishers allow reuse with attribution (ECB,
Eurostat, BIS), one CSV per series in aieco's long format, each with a
``<name>.PROVENANCE.md`` beside it (publisher, title, series key, extraction date, release
rule, licence line). Every row keeps the release date and rule its source file gave it
(see :mod:`aieco.sources.series.lags`). :func:`build_real_pack` re-creates the extracts from
the shared data folder (``python -m aieco.sources.series.pack ../shared/data``);
:func:`load_real_pack` stores them in a workspace (provenance ``real``).
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd

from aieco.errors import InputError
from aieco.records import ObservedValue
from aieco.sources.series.readers import load_series, observations_frame
from aieco.store import Store

PACK_DIR = Path(__file__).resolve().parents[2] / "data" / "real"
FIRST_PERIOD = "1998"  # the model sample starts in 2000Q1; two years before it for lags and annual bases
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
class DatedCopy:
    """A copy of a shared file committed to a public git repository on a known date.

    The values it holds were public by the commit date, so they get that date as release date
    with rule ``file``. ``blob`` is the git blob id of the committed file; the extract is built
    only if the shared file has exactly those bytes (:func:`git_blob_id`), so the dated copy and
    the file read are provably the same.
    """

    repo: str  # owner/name on GitHub
    commit: str  # the earliest commit holding these bytes
    committed: str  # its committer date, ISO 8601 with offset (``git log --format=%cI``)
    path: str  # the file's path in that commit
    blob: str  # git blob id of the file (``git rev-parse COMMIT:PATH``)

    @property
    def date(self) -> date:
        """The commit's calendar date in UTC (the release date given to every value)."""
        return datetime.fromisoformat(self.committed).astimezone(UTC).date()


def git_blob_id(path: Path) -> str:
    """The git blob id of a file's bytes (what ``git hash-object`` prints)."""
    data = Path(path).read_bytes()
    return hashlib.sha1(b"blob %d\x00" % len(data) + data, usedforsecurity=False).hexdigest()


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
    copy: DatedCopy | None = None  # a dated public copy: release dates are its commit date (rule file)


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
        EUROSTAT_LICENCE + ". The workbook states 'Sources: Eurostat, "
        "OECD' (real-time database distributed with the R package reviser, p-wegmueller/reviser); the vintages "
        "before Eurostat's own releases come from OECD releases (OECD terms: reuse with attribution for most "
        "data, to confirm for this compilation), and the compilation's own licence (the reviser package) is "
        "to confirm before publishing",
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
        copy=DatedCopy(
            "andrewpwalters/ecb",
            "551b79aca13e1d853cd5464644fc692041daaca1",
            "2024-02-12T15:09:46+01:00",
            "CP0000EZ19M086NEST.csv",
            "f0e6f2f9952444028434b17e9102ea9ad03b58a5",
        ),
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
        copy=DatedCopy(
            "mthavarajah/eu-economics",
            "a7df1f4c15a18c349b354204c907668c6e375705",
            "2024-09-05T13:49:06-04:00",
            "datafiles/basics/inflation.csv",
            "0a222197ce2f377de6aef0cfa282535830670d89",
        ),
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
        copy=DatedCopy(
            "mthavarajah/eu-economics",
            "a7df1f4c15a18c349b354204c907668c6e375705",
            "2024-09-05T13:49:06-04:00",
            "datafiles/basics/unemployment.csv",
            "c1f0ca64738b0b26fb9f099843541ecbb16ec97a",
        ),
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
        copy=DatedCopy(
            "EconMaett/cepremap",
            "9db1725fd5f7615a70bb59a37dc107bbc4827b39",
            "2024-02-16T13:00:00+01:00",
            "data/awm19up18.csv",
            "24892865cf07157886749bb90dc796085385e55c",
        ),
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
        copy=DatedCopy(
            "EconMaett/cepremap",
            "e93f53187996209cf572ddbeb1bb714302156764",
            "2024-03-21T17:06:43+01:00",
            "data/EA_CMR_rawdata.csv",
            "5816a05d17b553245c30bcec779966803780d4e1",
        ),
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
        copy=DatedCopy(
            "rofrans/kwantumlink",
            "7e59317c250a66d260d120e1ddb624ef764e0191",
            "2021-04-25T16:05:18+01:00",
            "QXMN628BIS.csv",
            "465c787f954da2bfefcc60c3c53271aba2f57d8e",
        ),
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
        copy=DatedCopy(
            "rofrans/kwantumlink",
            "7e59317c250a66d260d120e1ddb624ef764e0191",
            "2021-04-25T16:05:18+01:00",
            "Eurostoxx.csv",
            "df113d62abdc02fb37f3b9da0b53d2471eb2e379",
        ),
    ),
)


def extract(entry: PackSeries, shared_data_dir: Path) -> pd.DataFrame:
    """The rows of one shipped extract, read from the shared data file by the series loaders.

    A dated copy is checked first: the shared file must have the committed bytes.
    """
    source = shared_data_dir / "macro" / entry.source
    release = None
    if entry.copy is not None:
        found = git_blob_id(source)
        if found != entry.copy.blob:
            raise InputError(
                f"{source} is not the copy committed to {entry.copy.repo} at {entry.copy.commit} "
                f"(git blob {found}, expected {entry.copy.blob})",
                where=str(source),
                fix="rebuild the extract from the committed copy or drop its dated-copy record",
            )
        release = entry.copy.date
    records = [
        r
        for r in load_series(source, release_date=release)
        if r.variable == entry.variable
        and r.series_key.startswith(entry.series_prefix)
        and r.reference_period >= FIRST_PERIOD
    ]
    if entry.keep_vintages_with_exact_dates:
        records = [r for r in records if r.release_rule is not None and r.release_rule.value == "vintage"]
    frame = observations_frame(records)
    if entry.copy is not None:
        frame["vintage"] = f"{entry.copy.repo}@{entry.copy.commit[:7]}"  # EA19 back-casts and EA20 recent series are joined by the splices
    return frame[PACK_COLUMNS].sort_values(["reference_period", "release_date"], kind="stable")


def provenance_text(entry: PackSeries, rows: int, first: str, last: str, extracted: str) -> str:
    return (
        f"# {entry.name}.csv\n\n"
        f"- publisher: {entry.publisher}\n- title: {entry.title}\n- series key: {entry.series_key}\n"
        f"- extracted from: shared/data/macro/{entry.source} (extraction date {extracted}; "
        f"{rows} rows, reference periods {first}–{last})\n"
        f"- release-date rule: {entry.release_rule}\n"
        + (
            f"- dated copy: github.com/{entry.copy.repo}, commit {entry.copy.commit}, committed "
            f"{entry.copy.committed}, path {entry.copy.path}; git blob {entry.copy.blob} equals the shared file's "
            "bytes (checked when the extract is built)\n"
            if entry.copy
            else ""
        )
        + f"- licence: {entry.licence}\n"
        "- provenance: real (values unchanged; only rows outside the model sample or vintages without an "
        "exact date are left out)\n"
    )


def build_real_pack(shared_data_dir: str | Path, out_dir: Path = PACK_DIR, extracted: str = "2026-11-22") -> list[Path]:
    """Write every extract and its PROVENANCE file; returns the CSV paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for entry in PACK:
        frame = extract(entry, Path(shared_data_dir))
        path = out_dir / f"{entry.name}.csv"
        frame.to_csv(path, index=False, lineterminator="\n")
        (out_dir / f"{entry.name}.PROVENANCE.md").write_text(
            provenance_text(
                entry, len(frame), frame["reference_period"].min(), frame["reference_period"].max(), extracted
            ),
            encoding="utf-8",
        )
        paths.append(path)
    return paths


def pack_observations(pack_dir: Path = PACK_DIR) -> list[ObservedValue]:
    """Every shipped value as an ObservedValue (provenance real, release date and rule as shipped)."""
    out: list[ObservedValue] = []
    for entry in PACK:
        out += load_series(pack_dir / f"{entry.name}.csv", provenance="real")
    return out


def load_real_pack(store: Store, pack_dir: Path = PACK_DIR) -> int:
    """Store the shipped real series in a workspace (one transaction); returns the new rows."""
    values = pack_observations(pack_dir)
    with store.transaction():
        return store.put_many(values)


if __name__ == "__main__":
    for p in build_real_pack(sys.argv[1] if len(sys.argv) > 1 else "../shared/data"):
        print(p)
