"""Series loader: CSV/XLSX time series → ``ObservedValue`` records.

Reads the real formats in ``../shared/data/macro`` and the Bank of England scenario
workbook; each reader names the provider series in ``series_key`` and maps it to a
vocabulary variable id (``real_gdp``, ``inflation`` = HICP index level, ``unemployment``,
``long_term_rate``, ``equity_prices``, ``house_prices``, …).

A value's ``release_date`` is only ever what the file (or the caller, from the source's
publication record) states: the vintage file's ``pub_date``, a dated copy's file name,
a column dated by commit. It is never inferred from the reference period; a file that
states nothing gives ``None`` (not eligible at any cutoff).

Bad input raises :class:`~aieco.errors.InputError` naming the file, row or column and
the fix.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd

from aieco.errors import InputError
from aieco.records import ObservedValue, Provenance, ReleaseRule
from aieco.sources.series.lags import PublicationLags, period_end, publication_lags

#: FRED series id → (variable, unit, frequency, jurisdiction)
FRED_SERIES = {
    "CLVMEURSCAB1GQEA19": ("real_gdp", "EUR mn, chain-linked 2010, SA", "Q", "EA19"),
    "CP0000EZ19M086NEST": ("inflation", "index 2015=100 (HICP)", "M", "EA19"),
    "IRLTLT01EZM156N": ("long_term_rate", "% p.a.", "M", "EA19"),
    "LRHUTTTTEZM156S": ("unemployment", "% of labour force, SA", "M", "EA19"),
    "QXMN628BIS": ("house_prices", "index 2010=100 (nominal)", "Q", "EA"),
}
#: CEPREMAP column → (variable, unit)
CEPREMAP_COLUMNS = {
    "gdp": ("real_gdp", "EUR mn, chain-linked"),
    "longrate": ("long_term_rate", "% p.a."),
    "houseprice": ("house_prices", "index"),
    "shortrate": ("short_term_rate", "% p.a."),
}
#: ECB Area-Wide Model column → (variable, unit)
AWM_COLUMNS = {
    "YER": ("real_gdp", "EUR mn, chain-linked"),
    "HICP": ("inflation", "index (HICP)"),
    "URX": ("unemployment", "% of labour force (URX, a share in the file, × 100)"),
    "LTN": ("long_term_rate", "% p.a."),
    "STN": ("short_term_rate", "% p.a."),
}
#: Columns a provider states as shares (0.0857) where the vocabulary variable is in % (8.57).
SHARE_COLUMNS = frozenset({"URX"})
#: Bank of England workbook column header → (variable, unit)
BOE_EURO_AREA = {
    "Euro area real GDP": ("real_gdp", "index 2024Q4=100"),
    "Euro area consumer price index": ("inflation", "index 2024Q4=100 (HICP)"),
    "Euro area unemployment rate": ("unemployment", "% of labour force"),
    "ECB policy rate": ("policy_rate", "% p.a."),
    "Euro area residential property price index": ("house_prices", "index 2024Q4=100"),
    "Euro area commercial property price index": ("commercial_property_prices", "index 2024Q4=100"),
}
#: ECB Data Portal series code fragment → (variable, unit)
ECB_SERIES = {"DJES50I": ("equity_prices", "index points (EURO STOXX 50, monthly average)")}
#: Declared geography mapping: every provider code for the euro area → the vocabulary jurisdiction
#: "EA". The codes differ in membership — U2 (ECB) and XM (BIS) are the euro area in its changing
#: composition, I8/EA19 the fixed 19 members (2015–2022), I9/EA20 the fixed 20 members (from 2023),
#: EZ FRED's euro-area code — and one label lets a variable be assembled from several of them (the
#: splices absorb the level difference over their overlap). The caveat is recorded on every model
#: run that uses them (:data:`EURO_AREA_CAVEAT`); the provider's own code stays in the series key.
EURO_AREA_CODES = {code: "EA" for code in ("EA", "U2", "XM", "I8", "I9", "EA19", "EA20", "EZ", "EA12", "EA11")}
JURISDICTION_CODES = dict(EURO_AREA_CODES)
EURO_AREA_CAVEAT = (
    "jurisdiction EA joins euro-area series of different membership (ECB U2 and BIS XM: changing "
    "composition; I8/EA19: fixed 19 members; I9/EA20: fixed 20 members); series of one variable are "
    "spliced over their overlap and the changing composition is not modelled"
)
MONTHS = {
    m: i
    for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)
}


# --------------------------------------------------------------------------- periods


def parse_period(text: Any, frequency: str, *, where: str) -> str:
    """Normalise a period label to ``YYYYQn`` (Q), ``YYYY-MM`` (M) or ``YYYY`` (A)."""
    s = str(text).strip()
    try:
        if isinstance(text, datetime | date) or re.fullmatch(r"\d{4}-\d{2}-\d{2}( 00:00:00)?", s):
            d = text if isinstance(text, date) else date.fromisoformat(s[:10])
            if frequency == "D":
                return d.isoformat()
            return (
                f"{d.year}Q{(d.month - 1) // 3 + 1}"
                if frequency == "Q"
                else (f"{d.year}-{d.month:02d}" if frequency == "M" else str(d.year))
            )
        m = re.fullmatch(r"(\d{4})\s*-?\s*[Qq]([1-4])", s) or re.fullmatch(r"[Qq]([1-4])\s+(\d{4})", s)
        if m and frequency == "Q":
            year, q = (m.group(1), m.group(2)) if len(m.group(1)) == 4 else (m.group(2), m.group(1))
            return f"{year}Q{q}"
        m = re.fullmatch(r"(\d{4})\s*([A-Za-z]{3})", s)
        if m and frequency == "M" and m.group(2).lower() in MONTHS:
            return f"{m.group(1)}-{MONTHS[m.group(2).lower()]:02d}"
        m = re.fullmatch(r"(\d{4})-(\d{2})", s)
        if m and frequency == "M" and 1 <= int(m.group(2)) <= 12:
            return s
        if re.fullmatch(r"\d{4}", s) and frequency == "A":
            return s
    except ValueError:
        pass
    raise InputError(
        f"unparseable {frequency} period {s!r}",
        where=where,
        fix="use dates (YYYY-MM-DD), quarters (YYYYQn, YYYY-Qn, Qn YYYY) or months (YYYY-MM, 2021Mar)",
    )


def parse_number(text: Any, *, where: str, decimal_comma: bool = False) -> float | None:
    """A float, or None for an empty/NA cell; anything else is refused."""
    if text is None:
        return None
    if isinstance(text, int | float):
        return None if text != text else float(text)
    s = str(text).strip()
    if s in ("", "NA", "NaN", "nan", ".", "#N/A", "NULL"):
        return None
    if decimal_comma:
        s = s.replace(".", "").replace(",", ".")
    try:
        return float(s)
    except ValueError:
        raise InputError(
            f"value {s!r} is not a number", where=where, fix="leave missing values empty or NA; use a decimal point"
        ) from None


# --------------------------------------------------------------------------- reading


def read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(
            f"series file {path} does not exist", where=str(path), fix="check the path in the manifest"
        ) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path.name} is not UTF-8 (byte {exc.start})",
            where=str(path),
            fix="re-save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)",
        ) from None


def read_csv_rows(path: Path, delimiter: str = ",") -> tuple[list[str], list[list[str]]]:
    rows = list(csv.reader(io.StringIO(read_text(path)), delimiter=delimiter))
    rows = [r for r in rows if any(c.strip() for c in r)]
    if not rows:
        raise InputError(f"{path.name} is empty", where=str(path), fix="export the series with a header row")
    return [c.strip() for c in rows[0]], rows[1:]


def require_columns(header: list[str], needed: Iterable[str], path: Path) -> dict[str, int]:
    pos = {c: i for i, c in enumerate(header)}
    missing = [c for c in needed if c not in pos]
    if missing:
        raise InputError(
            f"{path.name} lacks the column(s) {', '.join(missing)} (header: {', '.join(header)})",
            where=f"{path} header",
            fix=f"export the file with the columns {', '.join(needed)}",
        )
    return pos


def file_release_date(path: Path) -> date | None:
    """A release/vintage date stated in the file name (``…_2024-03-08.csv``), else None."""
    m = re.search(r"(\d{4}-\d{2}-\d{2})(?=\.[A-Za-z]+$)", path.name)
    return date.fromisoformat(m.group(1)) if m else None


class Meta:
    """Fields shared by every value of one file (the caller's overrides win).

    Every value leaves with a release rule: the reader's (``vintage`` for a true vintage
    date, ``file`` for a date the file or the caller states) or, where nothing states a
    date, ``lag`` — the end of the reference period plus the series' documented lag
    (:mod:`aieco.sources.series.lags`); a series without a registered lag keeps
    ``release_date = None`` (never eligible).
    """

    def __init__(
        self,
        path: Path,
        overrides: dict[str, Any],
        lags: PublicationLags | None = None,
        provenance: Provenance | None = None,
    ):
        self.path = path
        self.overrides = {k: v for k, v in overrides.items() if v is not None}
        self.lags = lags if lags is not None else publication_lags()
        self.provenance = provenance

    def make(self, row: int, column: str, **fields: Any) -> ObservedValue:
        fields.update(self.overrides)
        rule = fields.pop("release_rule", None)
        try:
            if fields.get("release_date") is None:
                lag = self.lags.lag_days(fields["variable"], fields.get("series_key", ""))
                if lag is not None:
                    end = period_end(fields["reference_period"], fields["frequency"])
                    fields["release_date"] = end + timedelta(days=lag)
                    rule = ReleaseRule.lag
                else:
                    rule = None
            elif rule is None:
                rule = ReleaseRule.file
            fields["release_rule"] = rule
            synthetic = str(fields.get("series_key", "")).upper().startswith("SYNTHETIC")
            fields["provenance"] = Provenance.synthetic if synthetic else (self.provenance or Provenance.real)
            return ObservedValue.create(**fields)
        except ValueError as exc:
            raise InputError(
                f"{self.path.name} row {row}, column {column}: {exc}",
                where=f"{self.path}:{row}",
                fix="check the value and the metadata passed to load_series",
            ) from None


def _row_value(row: list[str], i: int) -> str | None:
    return row[i] if i < len(row) else None


def load_fred(path: Path, meta: Meta, release_date: date | None) -> list[ObservedValue]:
    header, rows = read_csv_rows(path)
    date_col = "DATE" if "DATE" in header else "observation_date"
    pos = require_columns(header, [date_col], path)
    codes = [c for c in header if c != date_col]
    if len(codes) != 1:
        raise InputError(
            f"{path.name} has {len(codes)} value columns; a FRED export has one",
            where=f"{path} header",
            fix="export one FRED series per file",
        )
    code = codes[0]
    variable, unit, freq, geo = FRED_SERIES.get(code, (meta.overrides.get("variable"), "", "", ""))
    if variable is None:
        raise InputError(
            f"FRED series {code} is not registered",
            where=f"{path} column {code}",
            fix="pass variable=, unit=, frequency= and jurisdiction= to load_series",
        )
    freq = meta.overrides.get("frequency", freq or "M")
    out = []
    for n, r in enumerate(rows, start=2):
        value = parse_number(_row_value(r, pos[code]), where=f"{path}:{n} column {code}")
        if value is None:
            continue
        period = parse_period(r[pos[date_col]], freq, where=f"{path}:{n} column {date_col}")
        out.append(
            meta.make(
                n,
                code,
                variable=variable,
                value=value,
                unit=unit,
                frequency=freq,
                jurisdiction=JURISDICTION_CODES.get(geo, geo),
                reference_period=period,
                release_date=release_date,
                series_key=f"FRED.{code}",
            )
        )
    return out


def load_kwantumlink(path: Path, meta: Meta, release_date: date | None) -> list[ObservedValue]:
    header, rows = read_csv_rows(path, delimiter=";")
    out = []
    for n, r in enumerate(rows, start=2):
        if len(r) < 2:
            raise InputError(
                f"{path.name} row {n} has no value column",
                where=f"{path}:{n}",
                fix="rows are 'period;value' with a decimal comma",
            )
        value = parse_number(r[1], where=f"{path}:{n} column 2", decimal_comma=True)
        if value is None:
            continue
        out.append(
            meta.make(
                n,
                header[1],
                variable="equity_prices",
                value=value,
                unit="index points (EURO STOXX 50)",
                frequency="M",
                jurisdiction="EA",
                reference_period=parse_period(r[0], "M", where=f"{path}:{n} column 1"),
                release_date=release_date,
                series_key="KWANTUMLINK.EUROSTOXX50",
            )
        )
    return out


def load_ecb_portal(path: Path, meta: Meta, release_date: date | None) -> list[ObservedValue]:
    header, rows = read_csv_rows(path)
    lower = [c.lower() for c in header]
    date_col = next((header[i] for i, c in enumerate(lower) if c in ("date", "time_period", "time period")), None)
    value_col = next((header[i] for i, c in enumerate(lower) if c in ("value", "obs_value")), None)
    pos = require_columns(header, [c for c in (date_col or "date", value_col or "value")], path)
    key = path.stem.removeprefix("ecb_").replace("_", ".")
    variable, unit = next(
        (v for k, v in ECB_SERIES.items() if k in key), (meta.overrides.get("variable"), meta.overrides.get("unit", ""))
    )
    if variable is None:
        raise InputError(
            f"ECB series {key} is not registered", where=str(path), fix="pass variable= and unit= to load_series"
        )
    freq = key.split(".")[0] if key.split(".")[0] in ("M", "Q", "A", "D") else "M"
    geo = JURISDICTION_CODES.get(key.split(".")[1], key.split(".")[1]) if "." in key else "EA"
    out = []
    for n, r in enumerate(rows, start=2):
        value = parse_number(_row_value(r, pos[value_col]), where=f"{path}:{n} column {value_col}")
        if value is None:
            continue
        period = parse_period(r[pos[date_col]], freq, where=f"{path}:{n} column {date_col}")
        out.append(
            meta.make(
                n,
                value_col,
                variable=variable,
                value=value,
                unit=unit,
                frequency=freq,
                jurisdiction=geo,
                reference_period=period,
                release_date=release_date,
                series_key=f"ECB.{key}",
            )
        )
    return out


def load_bis_long(path: Path, meta: Meta, release_date: date | None, country: str = "XM") -> list[ObservedValue]:
    header, rows = read_csv_rows(path)
    pos = require_columns(header, ["date", "country_code", "price"], path)
    kind = "R" if "real" in path.name else "N"
    out = []
    for n, r in enumerate(rows, start=2):
        if r[pos["country_code"]] != country:
            continue
        value = parse_number(_row_value(r, pos["price"]), where=f"{path}:{n} column price")
        if value is None:
            continue
        out.append(
            meta.make(
                n,
                "price",
                variable="house_prices",
                value=value,
                unit=f"index 2010=100 ({'real' if kind == 'R' else 'nominal'})",
                frequency="Q",
                jurisdiction=JURISDICTION_CODES.get(country, country),
                reference_period=parse_period(r[pos["date"]], "Q", where=f"{path}:{n} column date"),
                release_date=release_date,
                series_key=f"BIS.RPP.{kind}.{country}",
            )
        )
    return out


def load_bis_by_commit(path: Path, meta: Meta) -> list[ObservedValue]:
    header, rows = read_csv_rows(path)
    pos = require_columns(header, ["quarter_end"], path)
    out = []
    for col in header:
        m = re.fullmatch(r"commit_(\d{4}-\d{2}-\d{2})", col)
        if not m:
            continue
        stored = date.fromisoformat(m.group(1))  # the column header states the date of this stored version
        for n, r in enumerate(rows, start=2):
            value = parse_number(_row_value(r, pos[col]), where=f"{path}:{n} column {col}")
            if value is None:
                continue
            out.append(
                meta.make(
                    n,
                    col,
                    variable="house_prices",
                    value=value,
                    unit="index 2010=100 (nominal)",
                    frequency="Q",
                    jurisdiction="EA",
                    reference_period=parse_period(r[pos["quarter_end"]], "Q", where=f"{path}:{n}"),
                    release_date=stored,
                    vintage=stored.isoformat(),
                    series_key="BIS.RPP.N.XM",
                )
            )
    return out


def load_realtime_vintages(path: Path, meta: Meta) -> list[ObservedValue]:
    """The long real-time file: ``pub_date`` is the first day of the quarter in which the
    vintage was published (earlier than the exact release the workbook records from 2015
    on), so the value was public by the end of that quarter: that end is its release date
    (rule ``file``), never the quarter's first day (a look-ahead of up to three months)."""
    header, rows = read_csv_rows(path)
    pos = require_columns(header, ["time", "pub_date", "value"], path)
    out = []
    for n, r in enumerate(rows, start=2):
        value = parse_number(_row_value(r, pos["value"]), where=f"{path}:{n} column value")
        if value is None:
            continue
        try:
            released = date.fromisoformat(r[pos["pub_date"]].strip())
        except ValueError:
            raise InputError(
                f"pub_date {r[pos['pub_date']]!r} is not a date",
                where=f"{path}:{n} column pub_date",
                fix="write release dates as YYYY-MM-DD",
            ) from None
        geo = JURISDICTION_CODES.get(r[pos["id"]], r[pos["id"]]) if "id" in pos else "EA"
        vintage = parse_period(released, "Q", where=f"{path}:{n} column pub_date")
        out.append(
            meta.make(
                n,
                "value",
                variable="real_gdp",
                value=value,
                unit="EUR mn, chain-linked",
                frequency="Q",
                jurisdiction=geo,
                reference_period=parse_period(r[pos["time"]], "Q", where=f"{path}:{n} column time"),
                release_date=period_end(vintage, "Q"),
                release_rule=ReleaseRule.file,
                vintage=vintage,
                series_key=f"RTDB.GDP.{geo}",
            )
        )
    return out


def load_wide_quarterly(
    path: Path,
    meta: Meta,
    release_date: date | None,
    columns: dict[str, tuple[str, str]],
    period_col: str,
    provider: str,
) -> list[ObservedValue]:
    header, rows = read_csv_rows(path)
    pos = require_columns(header, [period_col], path)
    present = [c for c in columns if c in pos]
    if not present:
        raise InputError(
            f"{path.name} has none of the columns {', '.join(columns)}",
            where=f"{path} header",
            fix="pass a file with at least one registered series column",
        )
    vintage = release_date.isoformat() if release_date else None
    out = []
    for n, r in enumerate(rows, start=2):
        period = parse_period(r[pos[period_col]], "Q", where=f"{path}:{n} column {period_col or 1}")
        for col in present:
            value = parse_number(_row_value(r, pos[col]), where=f"{path}:{n} column {col}")
            if value is None:
                continue
            variable, unit = columns[col]
            if col in SHARE_COLUMNS:
                value = 100.0 * value  # the file states a share of the labour force; the vocabulary uses %
            out.append(
                meta.make(
                    n,
                    col,
                    variable=variable,
                    value=value,
                    unit=unit,
                    frequency="Q",
                    jurisdiction="EA",
                    reference_period=period,
                    release_date=release_date,
                    vintage=vintage,
                    series_key=f"{provider}.{col}",
                )
            )
    return out


def load_ecb_rpp_workbook(path: Path, meta: Meta, release_date: date | None, column: str = "I8") -> list[ObservedValue]:
    frame = read_sheet(path, "Level")
    header = [str(c) for c in frame.iloc[0].tolist()]
    pos = require_columns(header, ["dates", column], path)
    out = []
    for n in range(1, len(frame)):
        row = frame.iloc[n].tolist()
        value = parse_number(row[pos[column]], where=f"{path}!Level row {n + 1} column {column}")
        if value is None:
            continue
        out.append(
            meta.make(
                n + 1,
                column,
                variable="house_prices",
                value=value,
                unit="index (ECB RPP)",
                frequency="Q",
                jurisdiction=JURISDICTION_CODES.get(column, column),
                reference_period=parse_period(row[pos["dates"]], "Q", where=f"{path}!Level row {n + 1}"),
                release_date=release_date,
                series_key=f"ECB.RPP.{column}",
            )
        )
    return out


def load_boe_macro_sheet(
    path: Path, meta: Meta, release_date: date | None, sheet: str = "Macroeconomic variables"
) -> list[ObservedValue]:
    frame = read_sheet(path, sheet)
    header_row = next(
        (
            i
            for i in range(min(len(frame), 10))
            if "Euro area real GDP" in [str(c).strip() for c in frame.iloc[i].tolist()]
        ),
        None,
    )
    if header_row is None:
        raise InputError(
            f"sheet {sheet!r} of {path.name} has no 'Euro area real GDP' header in its first rows",
            where=f"{path}!{sheet}",
            fix="pass the Bank of England scenario workbook",
        )
    header = [str(c).strip() if c is not None else "" for c in frame.iloc[header_row].tolist()]
    cols = {h: i for i, h in enumerate(header) if h in BOE_EURO_AREA}
    out, scenario = [], None
    for n in range(header_row + 1, len(frame)):
        row = frame.iloc[n].tolist()
        label = str(row[0]).strip() if row[0] is not None else ""
        if label.lower().startswith("historical"):
            scenario = None
            continue
        if label.lower().startswith("projection"):
            scenario = "adverse"  # the sheet's projections are the stress scenario
            continue
        if not label or label == "None":
            continue
        if out and not re.fullmatch(r"Q[1-4]\s+\d{4}", label):
            break  # the notes below the table (guidance for extending the projections)
        period = parse_period(label, "Q", where=f"{path}!{sheet} row {n + 1} column A")
        for h, i in cols.items():
            value = parse_number(row[i], where=f"{path}!{sheet} row {n + 1} column {h}")
            if value is None:
                continue
            variable, unit = BOE_EURO_AREA[h]
            out.append(
                meta.make(
                    n + 1,
                    h,
                    variable=variable,
                    value=value,
                    unit=unit,
                    frequency="Q",
                    jurisdiction="EA",
                    reference_period=period,
                    release_date=release_date,
                    series_key=f"BOE2025.{variable}",
                    scenario=scenario,
                    status="modelled" if scenario else "observed",
                )
            )
    return out


def load_realtime_workbook(path: Path, meta: Meta, sheet: str = "gdp_ea") -> list[ObservedValue]:
    """The real-time revision triangle: one column per vintage, one row per reference quarter.

    The row above the vintage labels states exact release dates (from 2015 on); an earlier
    vintage keeps its label (e.g. ``2000q2``) with ``release_date = None``.
    """
    frame = read_sheet(path, sheet)
    label_row = next((i for i in range(min(len(frame), 30)) if str(frame.iloc[i, 0]).strip() == "time"), None)
    if label_row is None or label_row == 0:
        raise InputError(
            f"sheet {sheet!r} of {path.name} has no 'time' header row",
            where=f"{path}!{sheet}",
            fix="pass the real-time database workbook (vintage labels in a row starting with 'time')",
        )
    labels, dates = frame.iloc[label_row].tolist(), frame.iloc[label_row - 1].tolist()
    out = []
    for j in range(1, len(labels)):
        if labels[j] is None:
            continue
        stated = dates[j]
        # an exact vintage date (row above the labels) is the true release; before 2015 only the
        # label's quarter is known, so the value was public by that quarter's end (rule file)
        if isinstance(stated, datetime):
            released, rule = stated.date(), ReleaseRule.vintage
        else:
            label = parse_period(str(labels[j]), "Q", where=f"{path}!{sheet} row {label_row + 1} column {j + 1}")
            released, rule = period_end(label, "Q"), ReleaseRule.file
        for n in range(label_row + 1, len(frame)):
            ref, value = frame.iloc[n, 0], frame.iloc[n, j]
            if ref is None:
                continue
            number = parse_number(value, where=f"{path}!{sheet} row {n + 1} column {labels[j]}")
            if number is None:
                continue
            out.append(
                meta.make(
                    n + 1,
                    str(labels[j]),
                    variable="real_gdp",
                    value=number,
                    unit="EUR mn, real, SA",
                    frequency="Q",
                    jurisdiction="EA",
                    reference_period=parse_period(ref, "Q", where=f"{path}!{sheet} row {n + 1} column A"),
                    release_date=released,
                    release_rule=rule,
                    vintage=str(labels[j]),
                    series_key=f"RTDB.{sheet}",
                )
            )
    return out


def read_sheet(path: Path, sheet: str) -> pd.DataFrame:
    import openpyxl

    from aieco.sources.xlsx import refuse_zip_bomb

    refuse_zip_bomb(path)
    try:
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except FileNotFoundError:
        raise InputError(f"workbook {path} does not exist", where=str(path), fix="check the path") from None
    except Exception as exc:  # openpyxl raises several types for a file that is not a workbook
        raise InputError(
            f"{path.name} is not a readable xlsx workbook ({type(exc).__name__})",
            where=str(path),
            fix="save the file as .xlsx",
        ) from None
    try:
        if sheet not in wb.sheetnames:
            raise InputError(
                f"{path.name} has no sheet {sheet!r} (sheets: {', '.join(wb.sheetnames)})",
                where=str(path),
                fix=f"pass a workbook with the sheet {sheet!r}",
            )
        ws = wb[sheet]
        ws.reset_dimensions()  # some writers store a wrong sheet dimension; read every row
        rows = [list(r) for r in ws.iter_rows(values_only=True)]
        width = max((len(r) for r in rows), default=0)
        return pd.DataFrame([r + [None] * (width - len(r)) for r in rows], dtype=object)
    finally:
        wb.close()


# --------------------------------------------------------------------------- entry points


def load_long(path: Path, meta: Meta) -> list[ObservedValue]:
    """aieco's own long format (the demo file): one row per variable and period."""
    header, rows = read_csv_rows(path)
    needed = ["variable", "reference_period", "value", "unit", "frequency", "jurisdiction"]
    pos = require_columns(header, needed, path)
    out = []
    for n, r in enumerate(rows, start=2):
        get = {c: _row_value(r, i) for c, i in pos.items()}
        value = parse_number(get["value"], where=f"{path}:{n} column value")
        if value is None:
            continue
        freq = get["frequency"]
        released = get.get("release_date") or None
        rule = get.get("release_rule") or None
        out.append(
            meta.make(
                n,
                "value",
                variable=get["variable"],
                value=value,
                unit=get["unit"],
                frequency=freq,
                jurisdiction=JURISDICTION_CODES.get(get["jurisdiction"], get["jurisdiction"]),
                reference_period=parse_period(
                    get["reference_period"], freq, where=f"{path}:{n} column reference_period"
                ),
                release_date=date.fromisoformat(released) if released else None,
                release_rule=ReleaseRule(rule) if rule and released else None,
                vintage=get.get("vintage") or None,
                series_key=get.get("series_key") or "",
                transformation=get.get("transformation") or "level",
            )
        )
    return out


FRAME_COLUMNS = (
    "variable",
    "reference_period",
    "value",
    "unit",
    "frequency",
    "jurisdiction",
    "release_date",
    "vintage",
    "series_key",
    "transformation",
    "scenario",
    "release_rule",
    "provenance",
)


def observations_frame(records: Iterable[ObservedValue]) -> pd.DataFrame:
    """Records → the long DataFrame the vintage selector and the model take (dates as ISO text)."""
    rows = [
        {
            "variable": r.variable,
            "reference_period": r.reference_period,
            "value": r.value,
            "unit": r.unit,
            "frequency": r.frequency,
            "jurisdiction": r.jurisdiction,
            "release_date": r.release_date.isoformat() if r.release_date else None,
            "vintage": r.vintage,
            "series_key": r.series_key,
            "transformation": r.transformation,
            "scenario": r.scenario,
            "release_rule": r.release_rule.value if r.release_rule else None,
            "provenance": r.provenance.value if r.provenance else None,
        }
        for r in records
    ]
    return pd.DataFrame(rows, columns=list(FRAME_COLUMNS))


def observed_values(frame: pd.DataFrame) -> list[ObservedValue]:
    """The long DataFrame (as :func:`observations_frame` writes it) → ObservedValue records."""
    needed = ["variable", "reference_period", "value", "unit", "frequency", "jurisdiction"]
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise InputError(
            f"observations lack the column(s) {', '.join(missing)}",
            where="observations",
            fix=f"supply the columns {', '.join(needed)}",
        )

    def cell(row: dict[str, Any], name: str, default: Any = None) -> Any:
        v = row.get(name, default)
        return default if v is None or (isinstance(v, float) and v != v) else v

    out = []
    for n, row in enumerate(frame.to_dict(orient="records"), start=1):
        released = cell(row, "release_date")
        try:
            out.append(
                ObservedValue.create(
                    variable=row["variable"],
                    value=float(row["value"]),
                    unit=str(row["unit"]),
                    frequency=row["frequency"],
                    jurisdiction=str(row["jurisdiction"]),
                    reference_period=str(row["reference_period"]),
                    release_date=date.fromisoformat(str(released)[:10]) if released else None,
                    vintage=cell(row, "vintage"),
                    series_key=str(cell(row, "series_key", "")),
                    transformation=str(cell(row, "transformation", "level")),
                    scenario=cell(row, "scenario"),
                    status=cell(row, "status", "observed"),
                    entity=cell(row, "entity"),
                    release_rule=cell(row, "release_rule") or (ReleaseRule.file if released else None),
                    provenance=cell(row, "provenance"),
                )
            )
        except ValueError as exc:
            raise InputError(
                f"observation row {n} ({row.get('variable')} {row.get('reference_period')}): {exc}",
                where=f"observations row {n}",
                fix="check the value, frequency and release date",
            ) from None
    return out


def quarterly_averages(frame: pd.DataFrame) -> pd.DataFrame:
    """Monthly rows → quarterly averages of complete quarters (three months); quarterly rows kept.

    Each quarter keeps the latest release date of its months (unknown if any month's is).
    """
    monthly = frame[frame["frequency"] == "M"].copy()
    rest = frame[frame["frequency"] != "M"]
    if monthly.empty:
        return frame.reset_index(drop=True)
    per = pd.PeriodIndex(monthly["reference_period"], freq="M")
    monthly["quarter"] = per.asfreq("Q").astype(str)
    keys = ["variable", "series_key", "jurisdiction", "unit", "transformation", "quarter"]
    if "vintage" in monthly.columns:
        monthly["vintage"] = monthly["vintage"].fillna("")
        keys.append("vintage")
    monthly["release_unknown"] = monthly["release_date"].isna()
    grouped = monthly.groupby(keys, sort=True, dropna=False)
    agg = grouped.agg(
        value=("value", "mean"),
        months=("value", "size"),
        release_date=("release_date", "max"),
        release_unknown=("release_unknown", "any"),
    )
    agg["release_date"] = agg["release_date"].where(~agg["release_unknown"])
    agg = agg[agg["months"] == 3].reset_index().drop(columns=["months", "release_unknown"])
    agg = agg.rename(columns={"quarter": "reference_period"})
    agg["frequency"] = "Q"
    if "vintage" in agg.columns:
        agg["vintage"] = agg["vintage"].replace("", None)
    return pd.concat([rest, agg], ignore_index=True)[frame.columns.intersection(agg.columns.union(rest.columns))]
