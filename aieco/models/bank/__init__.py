"""Bank capital: component models (FE-OLS, FE-QAR), CET1 projections and external validation."""

from aieco.models.bank.spec import (
    passing_gate,
    register_bank_models,
    run_bank_models,
    run_bank_validation,
    scenario_from_annual_path,
)

__all__ = [
    "passing_gate",
    "register_bank_models",
    "run_bank_models",
    "run_bank_validation",
    "scenario_from_annual_path",
]
