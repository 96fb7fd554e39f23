"""The VAR estimated and simulated on the real euro-area series from ../shared/data/macro."""

from __future__ import annotations

import numpy as np
import pytest

from aieco.errors import StageStopped
from aieco.models.macro import MODEL_ID
from aieco.models.realdata import build_real_dataset
from aieco.models.var import VARIABLES, annual_paths, fit_var, range_failures, simulate
from aieco.models.vintages import quarterly_levels, select_as_of
from aieco.records import RunStatus
from tests.macro_helpers import run_macro_scenario


@pytest.fixture
def real(shared_data):
    return build_real_dataset(shared_data)


def test_real_dataset_has_six_quarterly_series(real):
    assert set(real["variable"]) == set(VARIABLES)
    assert (real["frequency"] == "Q").all() and real["release_date"].isna().all()
    levels = quarterly_levels(real, VARIABLES)
    # HICP 2000Q1 = mean of the January–March 2000 monthly index values in the FRED export
    assert levels.loc["2000Q1", "inflation"] > 0
    assert levels.loc["2020Q4", "unemployment"] == pytest.approx(np.mean([8.4, 8.2, 8.1]), abs=0.2)
    assert np.isnan(levels.loc["2021Q1", "unemployment"])  # January 2021 alone is not a quarter


def test_estimates_and_simulates_on_real_data(real):
    fit = fit_var(quarterly_levels(real, VARIABLES))
    assert fit.quarters[0] == "2000Q1" and fit.endpoint == "2020Q4" and fit.nobs == 84
    assert fit.stable
    sim = simulate(fit, draws=300, seed=2)
    assert sim.observed.sum() == 0  # 2024 is simulated: the real sample ends in 2020Q4
    annual = annual_paths(sim)
    assert annual.shape == (300, 3, 6) and np.isfinite(annual).all()
    ok, failures = range_failures(annual)
    assert set(failures) == set(VARIABLES) and ok.dtype == bool


def test_real_data_through_the_registry(store, real):
    restrictions = [{"variable": "house_prices", "direction": -1, "priority": 1, "reference": "zero"}]
    run = [r for r in run_macro_scenario(store, "real", "property_correction", restrictions, real, None,
                                         seed=3, draws=500) if r.model_id == MODEL_ID][0]
    assert run.status in (RunStatus.completed, RunStatus.stopped)
    assert run.diagnostics["data"] == "observed" and run.diagnostics["endpoint"] == "2020Q4"


def test_real_files_state_no_release_dates_so_a_cutoff_stops(real):
    with pytest.raises(StageStopped, match="required vintage missing"):
        select_as_of(real, "2024-12-31", required=VARIABLES)
