"""The typed, frozen inputs of the bank models (what the registry hands their functions).

Each class's :meth:`~aieco.models.registry.ModelInputs.artifacts` gives the stored inputs under the
names and JSON forms the bank runs have always stored, so their input digests did not change when
the loose dicts became these classes.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from pydantic import Field

from aieco.models.bank.eba_scenario import Scope
from aieco.models.registry import ModelInputs


class BankFitInputs(ModelInputs):
    """``bank_feols_fit`` / ``bank_feqar_fit``: the half-year bank panel and the country macro history."""

    panel: pd.DataFrame = Field(description="Raw bank panel (aieco.models.bank.panel RAW_COLUMNS).")
    macro_history: pd.DataFrame = Field(description="Country, quarter and the quarterly macro levels.")
    options: dict[str, Any] = Field(default_factory=dict, description="Fit options (min_obs, quantiles, …).")


class BankProjectionInputs(ModelInputs):
    """``bank_feols`` / ``bank_feqar``: a fit run's tables and the half-year country scenario; with
    ``official`` starting values and outcomes the projection is a validation run."""

    params: pd.DataFrame
    fixed_effects: pd.DataFrame
    start_state: pd.DataFrame
    scenario: pd.DataFrame = Field(description="Half-year country scenario (country, period, macro variables).")
    options: dict[str, Any] = Field(default_factory=dict, description="paths, threshold, provenance, …")
    residuals: pd.DataFrame | None = Field(None, description="FE-OLS residual pool (None for FE-QAR).")
    official: pd.DataFrame | None = Field(None, description="Official starting values and depletion (validation).")


class RealBankInputs(ModelInputs):
    """``bank_eba_components`` / ``bank_eba_depletion``: the workspace's admissible real bank values."""

    observations: pd.DataFrame = Field(description="Long table of aieco.models.bank.eba_application.bank_observations.")
    options: dict[str, Any] = Field(default_factory=dict, description="threshold, draws, gate_id.")


class ScenarioBankInputs(ModelInputs):
    """``bank_eba_scenario``: the real bank values, the macro run's selected (and median) quarterly path and
    the request's bank scope (jurisdictions and cutoff of its as-of rule, staleness limit) as a typed value."""

    observations: pd.DataFrame
    selected_quarterly: pd.DataFrame | None
    median_quarterly: pd.DataFrame | None = None
    scope: Scope
    threshold: float
    gate_id: str | None = None
    horizon: str | None = None

    def artifacts(self) -> dict[str, Any]:
        """The stored form every ``bank_eba_scenario`` run has had: both paths (None kept) and one options entry."""
        return {
            "observations": self.observations,
            "selected_quarterly": self.selected_quarterly,
            "median_quarterly": self.median_quarterly,
            "options": {
                "threshold": self.threshold,
                "gate_id": self.gate_id,
                "horizon": self.horizon,
                "jurisdictions": list(self.scope.jurisdictions or []),
                "cutoff": self.scope.cutoff.isoformat() if self.scope.cutoff else None,
                "max_start_age_years": self.scope.max_start_age_years,
            },
        }
