"""Every table with its CSV download, every figure with its PNG/SVG download (offline, in the browser).

Figures are exported by plotly's own camera button in the chart's toolbar, which draws
the image in the browser (no kaleido, no network); the format — PNG or SVG — is the
analyst's choice in the sidebar and applies to every chart.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

FORMATS = ("png", "svg")
_KEY = "figure_format"


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "table"


def figure_format_picker() -> None:
    """The sidebar choice of image format for every chart's download button."""
    st.sidebar.segmented_control(
        "Figure downloads",
        FORMATS,
        default="png",
        key=_KEY,
        format_func=str.upper,
        help="Format of the camera button on every chart",
    )


def arrow_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """Columns mixing value types (numbers and dates in one 'value' column) shown as text.

    Arrow needs one type per column; without this Streamlit logs an ArrowTypeError
    traceback and guesses a conversion.
    """
    out = frame
    for col in frame.columns:
        if frame[col].dtype != object:
            continue
        kinds = {type(v) for v in frame[col] if v is not None and not (isinstance(v, float) and v != v)}
        if len(kinds) > 1 or (kinds and not kinds <= {str, bool}):
            out = out.copy() if out is frame else out
            out[col] = frame[col].map(lambda v: "" if v is None else str(v))
    return out


def show_table(frame: pd.DataFrame, *, key: str, name: str, **kwargs) -> object:
    """``st.dataframe`` plus a CSV download of exactly the rows and columns shown."""
    frame = arrow_safe(frame)
    kwargs.setdefault("hide_index", True)
    kwargs.setdefault("width", "stretch")
    out = st.dataframe(frame, key=key, **kwargs)
    index = not kwargs["hide_index"]
    st.download_button(  # the CSV is written when clicked, not on every run of the page
        "CSV",
        lambda: frame.to_csv(index=index).encode("utf-8"),
        file_name=f"{_slug(name)}.csv",
        mime="text/csv",
        key=f"{key}_csv",
        icon=":material/download:",
        type="tertiary",
        on_click="ignore",
    )
    return out


def show_figure(fig: go.Figure, *, key: str, name: str, **kwargs) -> object:
    """``st.plotly_chart`` whose camera button downloads the figure as PNG or SVG."""
    fmt = st.session_state.get(_KEY) or "png"
    config = {"displaylogo": False, "toImageButtonOptions": {"format": fmt, "filename": _slug(name), "scale": 2}}
    return st.plotly_chart(fig, key=key, config=config, **kwargs)


@contextmanager
def lazy_section(label: str, *, key: str) -> Iterator[bool]:
    """An expander whose content runs and is sent only while it is open (``with … as open_:``).

    A collapsed ``st.expander`` still draws its content in the browser; a data table costs the
    browser about as much as a small page, so secondary tables wait until they are asked for.
    """
    box = st.expander(label, key=key, on_change="rerun")
    with box:
        yield bool(box.open)


def _cell(value: object) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    text = str(value).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
    for ch in "*_`[]<>#~$":  # shown as written: no emphasis, link, html or math from a value
        text = text.replace(ch, "\\" + ch)
    return text


def markdown_table(frame: pd.DataFrame) -> str:
    """A small frame as one markdown table (one element for the browser, not a data grid);
    every value shown as written. Its CSV is offered where the frame is also shown with
    :func:`show_table`."""
    head = "| " + " | ".join(_cell(c) for c in frame.columns) + " |"
    rule = "|" + "---|" * len(frame.columns)
    rows = ["| " + " | ".join(_cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *rows])
