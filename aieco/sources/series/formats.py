"""Readers for the publisher formats analysts download (besides the legacy layouts in
:mod:`aieco.sources.series.readers`): ECB Data Portal CSV with the series key in the
header, SDMX-CSV (ECB and Eurostat), Eurostat TSV, and a generic CSV with a column mapping.

A provider series maps to a vocabulary variable through :data:`KNOWN_SERIES` (key
patterns with ``*`` wildcards) or the caller's ``variable=``; a series that maps to no
variable is refused with its key, so nothing is loaded under a guessed name.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from aieco.errors import InputError
from aieco.records import ObservedValue
from aieco.sources.series.readers import (
    JURISDICTION_CODES,
    Meta,
    parse_number,
    parse_period,
    read_csv_rows,
    require_columns,
)


@dataclass(frozen=True)
class SeriesMeaning:
    """What a provider series is: vocabulary variable, unit and transformation."""

    variable: str
    unit: str
    transformation: str = "level"


#: Provider key pattern → meaning (ECB SDW/Data Portal keys; Eurostat dataset.dimension keys).
KNOWN_SERIES: dict[str, SeriesMeaning] = {
    "ICP.M.*.N.000000.4.ANR": SeriesMeaning("inflation", "% y/y (HICP annual rate)", "yoy_rate"),
    "ICP.M.*.N.000000.4.INX": SeriesMeaning("inflation", "index (HICP)"),
    "MNA.Q.*.B1GQ.*.LR.*": SeriesMeaning("real_gdp", "EUR mn, chain-linked"),
    "LFSI.M.*.UNEHRT.TOTAL0.15_74.T": SeriesMeaning("unemployment", "% of labour force, SA"),
    "IRS.M.*.L.L40.CI.0000.EUR.N.Z": SeriesMeaning("long_term_rate", "% p.a."),
    "FM.M.U2.EUR.DS.EI.DJES50I.HSTA": SeriesMeaning("equity_prices", "index points (EURO STOXX 50, monthly average)"),
    "RESR.Q.*": SeriesMeaning("house_prices", "index"),
    "prc_hicp_midx.M.I15.CP00.*": SeriesMeaning("inflation", "index 2015=100 (HICP)"),
    "prc_hicp_manr.M.RCH_A.CP00.*": SeriesMeaning("inflation", "% y/y (HICP annual rate)", "yoy_rate"),
    "namq_10_gdp.Q.CLV*.SCA.B1GQ.*": SeriesMeaning("real_gdp", "EUR mn, chain-linked, SCA"),
    "une_rt_m.M.SA.TOTAL.PC_ACT.T.*": SeriesMeaning("unemployment", "% of labour force, SA"),
    "irt_lt_mcby_m.M.MCBY.*": SeriesMeaning("long_term_rate", "% p.a."),
    "prc_hpi_q.Q.TOTAL.I15_Q.*": SeriesMeaning("house_prices", "index 2015=100"),
}
EURO_AREA_CODES = frozenset({"EA", "EA11", "EA12", "EA19", "EA20", "EA21", "I8", "I9", "U2", "XM"})


def meaning_of(key: str, meta: Meta) -> SeriesMeaning | None:
    """The registered meaning of a key, or the caller's ``variable=``/``unit=`` (which win)."""
    if "variable" in meta.overrides:
        return SeriesMeaning(
            meta.overrides["variable"], meta.overrides.get("unit", ""), meta.overrides.get("transformation", "level")
        )
    return next((m for pat, m in KNOWN_SERIES.items() if fnmatch.fnmatchcase(key, pat)), None)


def refuse_unknown(key: str, path: Path, where: str) -> InputError:
    return InputError(
        f"{path.name}: series {key} maps to no vocabulary variable",
        where=where,
        fix="pass --variable/--unit to load it under a vocabulary variable, or register its key "
        "in aieco.sources.series.formats.KNOWN_SERIES",
    )


def geography(code: str) -> str:
    return JURISDICTION_CODES.get(code, code)


def frequency_of_key(key: str, fallback: str = "M") -> str:
    parts = key.split(".")
    return next((p for p in parts[:2] if p in ("A", "H", "Q", "M", "D")), fallback)


def _date_text(s: str) -> date:
    """A Eurostat ``LAST UPDATE`` stamp (``12/03/24 23:00:00``) or an ISO date/time."""
    s = s.strip()
    for fmt in ("%d/%m/%y %H:%M:%S", "%d/%m/%Y %H:%M:%S", "%d/%m/%y", "%d/%m/%Y"):
        try:
            return datetime.strptime(s, fmt).date()
        except ValueError:
            continue
    return date.fromisoformat(s[:10])


# --------------------------------------------------------------------------- ECB Data Portal


HEADER_KEY = re.compile(r"\(([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+){3,})\)\s*$")


def is_ecb_portal_keyed(header: list[str]) -> bool:
    return len(header) >= 3 and header[0].upper() == "DATE" and bool(HEADER_KEY.search(header[-1]))


def load_ecb_portal_keyed(path: Path, meta: Meta, release_date: date | None) -> list[ObservedValue]:
    """``"DATE","TIME PERIOD","<title> (<series key>)"`` — the Data Portal's CSV download."""
    header, rows = read_csv_rows(path)
    key = HEADER_KEY.search(header[-1]).group(1)
    meaning = meaning_of(key, meta)
    if meaning is None:
        raise refuse_unknown(key, path, f"{path} header column {len(header)}")
    freq = meta.overrides.get("frequency", frequency_of_key(key))
    geo = geography(key.split(".")[2]) if key.count(".") >= 2 else "EA"
    col = len(header) - 1
    out = []
    for n, r in enumerate(rows, start=2):
        value = parse_number(r[col] if col < len(r) else None, where=f"{path}:{n} column {header[col]!r}")
        if value is None:
            continue
        period = parse_period(r[0], freq, where=f"{path}:{n} column DATE")
        out.append(
            meta.make(
                n,
                header[col],
                variable=meaning.variable,
                value=value,
                unit=meaning.unit,
                frequency=freq,
                jurisdiction=geo,
                reference_period=period,
                release_date=release_date,
                series_key=f"ECB.{key}",
                transformation=meaning.transformation,
            )
        )
    return out


# --------------------------------------------------------------------------- SDMX-CSV


def is_sdmx_csv(header: list[str]) -> bool:
    upper = [h.upper() for h in header]
    return "TIME_PERIOD" in upper and "OBS_VALUE" in upper


def load_sdmx_csv(path: Path, meta: Meta, release_date: date | None) -> list[ObservedValue]:
    """SDMX-CSV (ECB ``KEY`` column, or Eurostat ``DATAFLOW`` + dimension columns).

    A ``LAST UPDATE`` column (Eurostat) is the date the dataset was last revised: every value
    in the file was public then, so it is their release date (rule ``file``) unless the
    caller states another.
    """
    header, rows = read_csv_rows(path)
    upper = [h.upper() for h in header]
    pos = {h: i for i, h in enumerate(upper)}
    t, v = pos["TIME_PERIOD"], pos["OBS_VALUE"]
    skip = {
        "DATAFLOW",
        "LAST UPDATE",
        "TIME_PERIOD",
        "OBS_VALUE",
        "OBS_FLAG",
        "OBS_STATUS",
        "CONF_STATUS",
        "KEY",
        "TITLE",
        "UNIT_MULT",
        "DECIMALS",
        "COLLECTION",
        "TITLE_COMPL",
    }
    dims = [i for i, h in enumerate(upper) if h not in skip and i < t]
    geo_col = next((i for i in dims if upper[i] in ("GEO", "REF_AREA")), None)
    out, unknown = [], set()
    for n, r in enumerate(rows, start=2):
        if len(r) <= max(t, v):
            raise InputError(
                f"{path.name} row {n} has {len(r)} cells; the header has {len(header)}",
                where=f"{path}:{n}",
                fix="export complete SDMX-CSV rows",
            )
        if "KEY" in pos:
            key = r[pos["KEY"]].strip()
        else:
            flow = (r[pos["DATAFLOW"]].split(":")[-1].split("(")[0] if "DATAFLOW" in pos else path.stem).lower()
            key = ".".join(
                [
                    flow,
                    *[r[i].strip() for i in dims if upper[i] not in ("GEO", "REF_AREA")],
                    *([r[geo_col].strip()] if geo_col is not None else []),
                ]
            )
        geo_code = r[geo_col].strip() if geo_col is not None else (key.split(".")[2] if key.count(".") >= 2 else "EA")
        if "jurisdiction" not in meta.overrides and geo_code not in EURO_AREA_CODES:
            continue  # a multi-country download: keep the euro area unless a jurisdiction is asked for
        meaning = meaning_of(key, meta)
        if meaning is None:
            unknown.add(key)
            continue
        value = parse_number(r[v], where=f"{path}:{n} column OBS_VALUE")
        if value is None:
            continue
        freq = meta.overrides.get("frequency") or (r[pos["FREQ"]].strip() if "FREQ" in pos else frequency_of_key(key))
        stated = release_date
        if stated is None and "LAST UPDATE" in pos and r[pos["LAST UPDATE"]].strip():
            try:
                stated = _date_text(r[pos["LAST UPDATE"]])
            except ValueError:
                raise InputError(
                    f"LAST UPDATE {r[pos['LAST UPDATE']]!r} is not a date",
                    where=f"{path}:{n} column LAST UPDATE",
                    fix="keep the column as exported",
                ) from None
        out.append(
            meta.make(
                n,
                "OBS_VALUE",
                variable=meaning.variable,
                value=value,
                unit=meaning.unit,
                frequency=freq,
                jurisdiction=geography(geo_code),
                reference_period=parse_period(r[t], freq, where=f"{path}:{n} column TIME_PERIOD"),
                release_date=stated,
                series_key=f"SDMX.{key}",
                transformation=meaning.transformation,
            )
        )
    if not out and unknown:
        raise refuse_unknown(sorted(unknown)[0], path, f"{path} column KEY/dimensions")
    return out


# --------------------------------------------------------------------------- Eurostat TSV


def is_eurostat_tsv(first_line: str) -> bool:
    return "\t" in first_line and "\\TIME" in first_line.split("\t")[0].upper()


def load_eurostat_tsv(path: Path, meta: Meta, release_date: date | None) -> list[ObservedValue]:
    """Eurostat bulk TSV: ``freq,unit,…,geo\\TIME_PERIOD`` then one column per period;
    ``:`` is missing, a trailing letter is a flag (``1234.5 p``)."""
    header, rows = read_csv_rows(path, delimiter="\t")
    dims = header[0].split("\\")[0].split(",")
    periods = [h.strip() for h in header[1:]]
    dataset = path.stem.split(".")[0]
    geo_i = dims.index("geo") if "geo" in dims else None
    out, unknown = [], set()
    for n, r in enumerate(rows, start=2):
        codes = [c.strip() for c in r[0].split(",")]
        if len(codes) != len(dims):
            raise InputError(
                f"{path.name} row {n}: {len(codes)} dimension codes for {len(dims)} dimensions",
                where=f"{path}:{n} column 1",
                fix="keep the first column as Eurostat exports it",
            )
        geo_code = codes[geo_i] if geo_i is not None else "EA"
        if "jurisdiction" not in meta.overrides and geo_code not in EURO_AREA_CODES:
            continue
        key = ".".join([dataset, *[c for i, c in enumerate(codes) if i != geo_i], geo_code])
        meaning = meaning_of(key, meta)
        if meaning is None:
            unknown.add(key)
            continue
        freq = meta.overrides.get("frequency") or (codes[dims.index("freq")] if "freq" in dims else "M")
        for j, period in enumerate(periods, start=1):
            cell = r[j].strip() if j < len(r) else ""
            number = cell.split(" ")[0] if cell else ""
            value = parse_number(None if number in (":", "") else number, where=f"{path}:{n} column {period}")
            if value is None:
                continue
            out.append(
                meta.make(
                    n,
                    period,
                    variable=meaning.variable,
                    value=value,
                    unit=meaning.unit,
                    frequency=freq,
                    jurisdiction=geography(geo_code),
                    reference_period=parse_period(period, freq, where=f"{path} header column {period}"),
                    release_date=release_date,
                    series_key=f"ESTAT.{key}",
                    transformation=meaning.transformation,
                )
            )
    if not out and unknown:
        raise refuse_unknown(sorted(unknown)[0], path, f"{path} column 1")
    return out


# --------------------------------------------------------------------------- generic CSV


def load_mapped_csv(
    path: Path, meta: Meta, release_date: date | None, mapping: Mapping[str, str]
) -> list[ObservedValue]:
    """Any CSV whose columns the caller names: ``period`` and ``value`` (required),
    ``release_date`` and ``vintage`` (optional); variable, unit, frequency and
    jurisdiction come from the caller."""
    for need in ("variable", "unit", "frequency"):
        if need not in meta.overrides:
            raise InputError(
                f"a mapped CSV needs {need}=", where=str(path), fix="pass --variable, --unit and --frequency with --map"
            )
    if "period" not in mapping or "value" not in mapping:
        raise InputError(
            "the column mapping needs 'period' and 'value'",
            where=str(path),
            fix="e.g. --map period=Date --map value=Close",
        )
    header, rows = read_csv_rows(path, delimiter=mapping.get("delimiter", ","))
    pos = require_columns(header, [c for k, c in mapping.items() if k != "delimiter"], path)
    freq = meta.overrides["frequency"]
    out = []
    for n, r in enumerate(rows, start=2):
        value = parse_number(
            r[pos[mapping["value"]]] if pos[mapping["value"]] < len(r) else None,
            where=f"{path}:{n} column {mapping['value']}",
        )
        if value is None:
            continue
        stated = release_date
        if "release_date" in mapping:
            cell = r[pos[mapping["release_date"]]].strip()
            try:
                stated = date.fromisoformat(cell[:10]) if cell else None
            except ValueError:
                raise InputError(
                    f"release date {cell!r} is not a date",
                    where=f"{path}:{n} column {mapping['release_date']}",
                    fix="write release dates as YYYY-MM-DD",
                ) from None
        vintage = r[pos[mapping["vintage"]]].strip() if "vintage" in mapping else None
        out.append(
            meta.make(
                n,
                mapping["value"],
                variable=meta.overrides["variable"],
                value=value,
                unit=meta.overrides["unit"],
                frequency=freq,
                jurisdiction=meta.overrides.get("jurisdiction", "EA"),
                reference_period=parse_period(
                    r[pos[mapping["period"]]], freq, where=f"{path}:{n} column {mapping['period']}"
                ),
                release_date=stated,
                vintage=vintage or None,
                series_key=f"CSV.{path.stem}.{mapping['value']}",
            )
        )
    return out
