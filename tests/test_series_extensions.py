"""Extensions of the shipped real series towards the cutoff, from public copies committed after it
(aieco/data/later_copies.toml): re-read, checked against the shipped series they overlap, and
measured by how far the model levels reach at the default cutoff."""

from __future__ import annotations

import zipfile
from datetime import date, timedelta

import pandas as pd
import pytest

from aieco.errors import InputError
from aieco.models.realdata import model_levels
from aieco.models.vintages import select_as_of
from aieco.records import ObservedValue, ReleaseRule
from aieco.sources.series import load_series, observations_frame
from aieco.sources.series.copies import LATER, copy_named, dated_copies
from aieco.sources.series.lags import period_end, publication_lags
from aieco.sources.series.pack import (
    OVERLAP,
    PACK,
    PACK_DIR,
    build_real_pack,
    continuation,
    load_real_pack,
    read_source,
)

CUTOFF = "2024-12-31"
VARIABLES = ["real_gdp", "inflation", "unemployment", "long_term_rate", "house_prices", "equity_prices"]
EXTENSIONS = tuple(e for e in PACK if e.later_copy)
BY_NAME = {e.name: e for e in PACK}


def shipped(name: str) -> pd.DataFrame:
    return observations_frame(load_series(PACK_DIR / f"{name}.csv", provenance="real"))


def pack_frame(entries) -> pd.DataFrame:
    return pd.concat([shipped(e.name) for e in entries], ignore_index=True)


EXTENDED = {"inflation", "long_term_rate", "equity_prices"}


def test_there_are_extensions_for_inflation_the_long_rate_and_equity():
    assert {e.variable for e in EXTENSIONS} == EXTENDED
    assert all(e.overlaps in BY_NAME and PACK.index(BY_NAME[e.overlaps]) < PACK.index(e) for e in EXTENSIONS)


@pytest.mark.parametrize("entry", EXTENSIONS, ids=lambda e: e.name)
def test_an_extension_is_real_lag_dated_and_names_its_later_copy(entry):
    values = load_series(PACK_DIR / f"{entry.name}.csv", provenance="real")
    assert values and {v.provenance.value for v in values} == {"real"}
    assert {v.variable for v in values} == {entry.variable}
    # every release date is re-derived: end of the reference period + the documented lag, never the commit date
    lags = publication_lags()
    for v in values:
        assert v.release_rule is ReleaseRule.lag
        lag = lags.lag_days(v.variable, v.series_key)
        assert v.release_date == period_end(v.reference_period, v.frequency) + timedelta(days=lag)
    copy = copy_named(entry.later_copy, LATER)
    assert copy.date > date.fromisoformat(CUTOFF)  # a later copy: its commit date is no 2024 release
    assert copy.name not in {c.name for c in dated_copies()} and copy.blob not in {c.blob for c in dated_copies()}
    text = (PACK_DIR / f"{entry.name}.PROVENANCE.md").read_text(encoding="utf-8")
    for fact in (f"github.com/{copy.repo}", copy.commit, copy.committed, copy.path, copy.blob, "licence:"):
        assert fact in text, (entry.name, fact)
    assert f"overlap with {entry.overlaps}.csv" in text


@pytest.mark.parametrize("entry", [e for e in EXTENSIONS if e.continues], ids=lambda e: e.name)
def test_a_continuing_extension_repeats_the_shipped_series_exactly_then_goes_past_it(entry):
    new, old = shipped(entry.name), shipped(entry.overlaps)
    assert set(new["series_key"]) == set(old["series_key"]) and set(new["unit"]) == set(old["unit"])
    common = new.merge(old, on="reference_period", suffixes=("_new", "_old"))
    assert len(common) == OVERLAP
    assert list(common["reference_period"]) == sorted(old["reference_period"])[-OVERLAP:]
    # equal, or within the copy's rounding (the ECB equity download has four decimals)
    assert entry.tolerance <= 0.00005
    assert ((common["value_new"] - common["value_old"]).abs() <= entry.tolerance + 1e-9).all()
    assert (common["release_date_new"] == common["release_date_old"]).all()
    later = new[new["reference_period"] > old["reference_period"].max()]
    assert later["reference_period"].min() == str(pd.Period(old["reference_period"].max(), freq="M") + 1)
    assert later["reference_period"].max() >= "2024-11"  # every month published by the cutoff


def test_the_ecb_ten_year_yield_agrees_with_the_shipped_long_rate():
    """The ECB series of the euro area 20 (I9) against the CEPREMAP quarterly averages of the ECB's
    changing-composition series: same definition, composition differences of a few basis points."""
    monthly = shipped("long_term_rate_ecb").set_index("reference_period")["value"]
    assert set(shipped("long_term_rate_ecb")["series_key"]) == {"ECB.IRS.M.I9.L.L40.CI.0000.EUR.N.Z"}
    quarter = pd.PeriodIndex(list(monthly.index), freq="M").asfreq("Q").astype(str)
    full = monthly.groupby(quarter).count() == 3
    averages = monthly.groupby(quarter).mean()[full]
    old = shipped("long_term_rate").set_index("reference_period")["value"]
    gap = (averages - old).dropna()
    assert len(gap) >= 80 and gap.index.min() == "2001Q1" and gap.index.max() == old.index.max()
    assert gap.abs().max() < 0.1 and abs(gap.mean()) < 0.02


def test_a_workspace_loads_a_continuation_after_the_series_it_continues(store):
    load_real_pack(store)
    for entry in (e for e in EXTENSIONS if e.continues):
        new, old = shipped(entry.name), shipped(entry.overlaps)
        key = str(new["series_key"].iloc[0])
        rows = {r.reference_period: r.value for r in store.find(ObservedValue, series_key=key, release_rule="lag")}
        assert len(rows) == len(store.find(ObservedValue, series_key=key, release_rule="lag")), entry.name
        assert max(rows) == new["reference_period"].max()
        # the overlap is evidence only: the shipped series keeps its own values there
        for period, value in zip(old["reference_period"], old["value"], strict=True):
            assert rows[period] == value, (entry.name, period)


@pytest.fixture(scope="module")
def frames():
    return pack_frame([e for e in PACK if not e.later_copy]), pack_frame(PACK)


def test_extensions_bring_the_model_levels_to_2024q3_under_approximate(frames):
    before, after = (model_levels(f, CUTOFF, VARIABLES, "approximate") for f in frames)
    for v in EXTENDED:
        assert after.last_usable[v] > before.last_usable[v]
        assert after.last_usable[v] == "2024Q3"  # December 2024 was released in 2025: 2024Q4 is incomplete
    for v in set(VARIABLES) - EXTENDED:
        assert after.last_usable[v] == before.last_usable[v]
    # the continued index keeps every quarter of the shipped index as it was; the quarter that the
    # annual rates (one decimal) extended before is now the published index, within their rounding
    old = before.levels["inflation"].dropna()
    kept = old.loc[:"2023Q4"]
    assert after.levels["inflation"].loc[kept.index].equals(kept)
    assert list(old.index[len(kept) :]) == ["2024Q1"]
    assert abs(after.levels.loc["2024Q1", "inflation"] / old["2024Q1"] - 1) < 0.0005
    eligible = select_as_of(frames[1], CUTOFF, VARIABLES, "approximate")
    last = eligible.groupby("variable")["reference_period"].max()
    assert last["inflation"] == last["long_term_rate"] == last["equity_prices"] == "2024-11"
    assert (eligible["release_date"] <= date.fromisoformat(CUTOFF)).all()


def test_extensions_change_nothing_under_strict(frames):
    before, after = (model_levels(f, CUTOFF, VARIABLES, "strict") for f in frames)
    assert after.last_usable == before.last_usable
    assert after.levels.equals(before.levels)


def test_a_continuation_that_disagrees_with_the_shipped_series_is_refused():
    entry = BY_NAME["hicp_index_continued"]
    old = pd.read_csv(PACK_DIR / "hicp_index.csv", dtype={"reference_period": str})
    new = pd.read_csv(PACK_DIR / "hicp_index_continued.csv", dtype={"reference_period": str})
    assert len(continuation(entry, new, old)) == len(new)
    revised = new.assign(value=new["value"].where(new["reference_period"] != old["reference_period"].max(), 0.0))
    with pytest.raises(InputError, match="does not repeat the last 12 values of hicp_index"):
        continuation(entry, revised, old)
    with pytest.raises(InputError, match="adds no period after"):
        continuation(entry, new[new["reference_period"] <= old["reference_period"].max()], old)


def test_a_zip_source_needs_its_registered_member(tmp_path):
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("other.csv", "DATE,value\n")
    with pytest.raises(InputError, match="holds no readable member 'ECB Data Portal_20251014132031.csv'"):
        read_source(archive, BY_NAME["equity_prices_continued"].member)
    (tmp_path / "b.zip").write_text("not a zip")
    with pytest.raises(InputError, match="holds no readable member"):
        read_source(tmp_path / "b.zip", "x.csv")


def test_an_extension_needs_the_committed_bytes(tmp_path):
    entry = BY_NAME["long_term_rate_ecb"]
    copy = copy_named(entry.later_copy, LATER)
    with pytest.raises(InputError, match="is absent") as absent:
        build_real_pack(tmp_path / "shared", tmp_path / "out", entries=(entry,))
    assert copy.commit in absent.value.fix and copy.repo in absent.value.fix
    source = tmp_path / "shared" / "macro" / entry.source
    source.parent.mkdir(parents=True)
    source.write_text('"DATE","TIME PERIOD","x (IRS.M.I9.L.L40.CI.0000.EUR.N.Z)"\n"2024-11-30","2024Nov","9.99"\n')
    with pytest.raises(InputError, match="is not the copy committed to aryamann04/macro-research"):
        build_real_pack(tmp_path / "shared", tmp_path / "out", entries=(entry,))
    assert not (tmp_path / "out" / f"{entry.name}.csv").exists()


def test_extensions_rebuild_from_their_committed_copies(shared_data, tmp_path):
    missing = [e for e in EXTENSIONS if not (shared_data / "macro" / e.source).is_file()]
    if missing:
        how = "; ".join(f"{c.repo}@{c.commit[:7]}:{c.path}" for c in (copy_named(e.later_copy, LATER) for e in missing))
        pytest.skip(f"the later copies are not in {shared_data / 'macro' / 'extensions'} ({how})")
    bases = tuple(BY_NAME[e.overlaps] for e in EXTENSIONS)
    build_real_pack(shared_data, tmp_path, entries=tuple(dict.fromkeys(bases + EXTENSIONS)))
    for entry in EXTENSIONS:
        assert (tmp_path / f"{entry.name}.csv").read_bytes() == (PACK_DIR / f"{entry.name}.csv").read_bytes()
        assert (tmp_path / f"{entry.name}.PROVENANCE.md").read_text() == (
            PACK_DIR / f"{entry.name}.PROVENANCE.md"
        ).read_text()
