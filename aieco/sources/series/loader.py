"""Recognise a series file's layout from its name and header and read it with the matching reader.

The legacy layouts live in :mod:`aieco.sources.series.readers`, the publisher formats in
:mod:`aieco.sources.series.formats`; this module sits above both, so neither imports the other back.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from aieco.errors import InputError
from aieco.records import ObservedValue, Provenance
from aieco.sources.series import formats
from aieco.sources.series.lags import PublicationLags
from aieco.sources.series.readers import (
    AWM_COLUMNS,
    CEPREMAP_COLUMNS,
    Meta,
    file_release_date,
    load_bis_by_commit,
    load_bis_long,
    load_boe_macro_sheet,
    load_ecb_portal,
    load_ecb_rpp_workbook,
    load_fred,
    load_kwantumlink,
    load_long,
    load_realtime_vintages,
    load_realtime_workbook,
    load_wide_quarterly,
    read_csv_rows,
    read_text,
)


def load_series(
    path: str | Path,
    *,
    release_date: date | str | None = None,
    variable: str | None = None,
    unit: str | None = None,
    frequency: str | None = None,
    jurisdiction: str | None = None,
    source_id: str | None = None,
    mapping: dict[str, str] | None = None,
    provenance: Provenance | str | None = None,
    lags: PublicationLags | None = None,
) -> list[ObservedValue]:
    """Read one series file into ObservedValue records (format recognised from name and header).

    ``release_date`` is the date the caller knows the file was released (e.g. the source's
    publication date); it applies to every value unless the file states its own dates.
    ``variable``/``unit``/``frequency``/``jurisdiction`` override or complete the
    registered metadata. ``mapping`` names the columns of a generic CSV (``period``,
    ``value``, optional ``release_date``, ``vintage``, ``delimiter``). Values whose file
    states no release date get the documented publication lag (rule ``lag``; see
    :mod:`aieco.sources.series.lags`).
    """
    path = Path(path)
    rd = date.fromisoformat(release_date) if isinstance(release_date, str) else release_date
    meta = Meta(
        path,
        {
            "variable": variable,
            "unit": unit,
            "frequency": frequency,
            "jurisdiction": jurisdiction,
            "source_id": source_id,
        },
        lags=lags,
        provenance=Provenance(provenance) if provenance else None,
    )
    name = path.name.lower()
    if not path.exists():
        raise InputError(f"series file {path} does not exist", where=str(path), fix="check the path in the manifest")
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        if "rpp" in name:
            return load_ecb_rpp_workbook(path, meta, rd)
        if "realtime" in name:
            return load_realtime_workbook(path, meta)
        return load_boe_macro_sheet(path, meta, rd)
    lines = read_text(path).splitlines()
    if not lines:
        raise InputError(f"{path.name} is empty", where=str(path), fix="export the series with a header row")
    text_head = lines[0]
    header = [c.strip().strip('"') for c in text_head.split(",")]
    if mapping:
        return formats.load_mapped_csv(path, meta, rd, mapping)
    if formats.is_eurostat_tsv(text_head):
        return formats.load_eurostat_tsv(path, meta, rd)
    csv_header = read_csv_rows(path)[0]
    if formats.is_ecb_portal_keyed(csv_header):
        return formats.load_ecb_portal_keyed(path, meta, rd)
    if formats.is_sdmx_csv(csv_header):
        return formats.load_sdmx_csv(path, meta, rd)
    if text_head.startswith("Period\\Unit") or (";" in text_head and "," not in text_head):
        return load_kwantumlink(path, meta, rd)
    if len(header) == 2 and header[0] in ("DATE", "observation_date"):
        return load_fred(path, meta, rd)
    if "pub_date" in header:
        return load_realtime_vintages(path, meta)
    if "quarter_end" in header:
        return load_bis_by_commit(path, meta)
    if "country_code" in header:
        return load_bis_long(path, meta, rd)
    if header and header[0] == "period":
        return load_wide_quarterly(path, meta, rd or file_release_date(path), CEPREMAP_COLUMNS, "period", "CEPREMAP")
    if len(header) > 1 and header[0] == "" and "YER" in header:
        return load_wide_quarterly(path, meta, rd, AWM_COLUMNS, "", "AWM")
    if [h.lower() for h in header[:2]] in (["date", "value"], ["time_period", "obs_value"]):
        return load_ecb_portal(path, meta, rd)
    if {"variable", "reference_period", "value"} <= set(header):
        return load_long(path, meta)
    if header and header[0].lower() == "date" and "Close" in header:
        raise InputError(
            f"{path.name} is a daily price download (header: {', '.join(header)}) that names no "
            "series: its variable, unit and frequency are not stated",
            where=f"{path} header",
            fix="pass a column mapping, e.g. --map period=Date --map value=Close --variable "
            "equity_prices --unit 'index points' --frequency D",
        )
    raise InputError(
        f"{path.name}: unrecognised series layout (header: {', '.join(header)})",
        where=f"{path} header",
        fix="use a FRED, ECB Data Portal, BIS, CEPREMAP or long (variable, reference_period, value) file",
    )
