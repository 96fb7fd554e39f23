"""Series as first-class inputs: publisher files → ``ObservedValue`` records with release dates.

=====================  ==============================================================
module                 content
=====================  ==============================================================
``readers``            periods and numbers, the legacy layouts (FRED, BIS, CEPREMAP,
                       AWM, real-time vintage triangle and long file, BoE workbook,
                       aieco's long CSV)
``formats``            ECB Data Portal CSV (key in the header), SDMX-CSV, Eurostat TSV,
                       generic CSV with a column mapping; the key → variable registry
``loader``             :func:`load_series`, which recognises a file and reads it with
                       the reader of its layout (above ``readers`` and ``formats``)
``lags``               the documented publication-lag table behind the ``lag`` rule
``manifest``           ``[[series]]`` entries and the one-transaction ``add_series``
=====================  ==============================================================

Every value carries ``release_rule``: ``vintage`` (a true publication date),
``file`` (a date the file or the caller states: the values were public by then) or
``lag`` (end of the reference period + the series' documented lag).
"""

from aieco.sources.series.lags import PublicationLags, period_end, publication_lags
from aieco.sources.series.loader import load_series
from aieco.sources.series.readers import (
    FRAME_COLUMNS,
    observations_frame,
    observed_values,
    parse_number,
    parse_period,
    quarterly_averages,
)

__all__ = [
    "FRAME_COLUMNS",
    "PublicationLags",
    "load_series",
    "observations_frame",
    "observed_values",
    "parse_number",
    "parse_period",
    "period_end",
    "publication_lags",
    "quarterly_averages",
]
