"""Real-data builder: the six euro-area series from the public files in ``shared/data/macro``.

=================  ============================================  ==================
variable           file (provider series)                         coverage
=================  ============================================  ==================
real_gdp           cepremap_EA_SW_rawdata.csv (gdp)               1970Q1–2023Q4
inflation          fred/CP0000EZ19M086NEST.csv (HICP, monthly)    1996-01–2023-12
unemployment       fred/LRHUTTTTEZM156S.csv (monthly)             1990-07–2021-01
long_term_rate     cepremap_EA_CMR_rawdata.csv (longrate)         1980Q1–2023Q2
equity_prices      ecb_M_U2_EUR_DS_EI_DJES50I_HSTA.csv (monthly)  1994-01–2024-01
house_prices       bis_rpp_nominal_index.csv (XM)                 1975Q1–2025Q4
=================  ============================================  ==================

Monthly series become quarterly averages of complete quarters. The latest common quarter
is 2020Q4 (unemployment), so the VAR sample is 2000Q1–2020Q4 (84 quarters). These files
state no release dates, so values carry ``release_date = None`` unless the caller supplies
the dates it knows; with a cutoff they are therefore not eligible (never guessed).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from pathlib import Path

import pandas as pd

from aieco.errors import InputError
from aieco.sources.series import load_series, observations_frame, quarterly_averages

REAL_SERIES = {
    "real_gdp": "cepremap_EA_SW_rawdata.csv",
    "inflation": "fred/CP0000EZ19M086NEST.csv",
    "unemployment": "fred/LRHUTTTTEZM156S.csv",
    "long_term_rate": "cepremap_EA_CMR_rawdata.csv",
    "equity_prices": "ecb_M_U2_EUR_DS_EI_DJES50I_HSTA.csv",
    "house_prices": "bis_rpp_nominal_index.csv",
}


def build_real_dataset(shared_data_dir: str | Path, *,
                       release_dates: Mapping[str, date | str] | None = None) -> pd.DataFrame:
    """Assemble the six quarterly euro-area series (long format, as the demo dataset).

    Parameters
    ----------
    shared_data_dir : folder holding ``macro/`` (the repository's ``../shared/data``)
    release_dates : optional variable → release date known to the caller (e.g. the
        download date of a file); applied to every value of that variable.

    Returns
    -------
    DataFrame with the columns of :func:`aieco.sources.series.observations_frame`,
    quarterly rows only.
    """
    macro = Path(shared_data_dir) / "macro"
    if not macro.is_dir():
        raise InputError(f"{macro} is not a folder", where=str(macro),
                         fix="pass the shared data folder that contains macro/")
    frames = []
    for variable, name in REAL_SERIES.items():
        released = (release_dates or {}).get(variable)
        records = [r for r in load_series(macro / name, release_date=released) if r.variable == variable]
        frames.append(quarterly_averages(observations_frame(records)))
    return pd.concat(frames, ignore_index=True).sort_values(["variable", "reference_period"]).reset_index(drop=True)
