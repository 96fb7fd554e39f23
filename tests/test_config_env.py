"""Settings from the environment: aieco.config reads the AIECO_ variables itself; the oracle is
pydantic-settings (BaseSettings with the same prefix, nested delimiter and fields)."""

from __future__ import annotations

import pytest
from pydantic_settings import BaseSettings, SettingsConfigDict

from aieco.config import Settings, environment_values


def _oracle() -> type[BaseSettings]:
    fields = Settings.model_fields
    namespace = {
        "__annotations__": {n: f.annotation for n, f in fields.items()},
        "model_config": SettingsConfigDict(env_prefix="AIECO_", env_nested_delimiter="__", frozen=True, extra="ignore"),
        **{n: f for n, f in fields.items()},
    }
    return type("OracleSettings", (BaseSettings,), namespace)


CASES = [
    {},
    {"AIECO_WORKSPACE": "/tmp/x", "AIECO_BANK__QUANTILES": "[0.1, 0.5, 0.9]", "AIECO_SOURCES__PARALLEL_MIN_BYTES": "0"},
    {"aieco_retrieval__top_k": "7", "AIECO_Dashboard__Build_Demo_On_First_Launch": "false", "AIECO_ANALYST": "me"},
    {"AIECO_LLM__PRICE_PER_MILLION_INPUT": '{"m": 1.5}', "AIECO_LLM__BASE_URL": "http://127.0.0.1:1"},
    {"AIECO_LLM__COST_BUDGET_USD": "2", "AIECO_REPORT__NAMED_TERMS": '["A", "B"]'},
    {"AIECO_BANK": '{"projection_paths": 10}', "AIECO_BANK__PROJECTION_THREADS": "3"},
    {"AIECO_LLM__PRICE_PER_MILLION_INPUT__gpt": "2", "AIECO_SCENARIO__CUTOFF": "2023-06-30"},
    {"AIECO_SHARED_DATA": "/data", "OTHER__X": "1"},
    {"AIECO_BANK__TYPO": "1"},  # refused by the section (extra fields forbidden)
    {"AIECO_BANK__PROJECTION_PATHS": "abc"},  # refused: not an integer
    {"AIECO_BANK__QUANTILES": "[0.1,"},  # refused: not JSON
]


@pytest.mark.parametrize("env", CASES)
def test_environment_is_read_as_pydantic_settings_read_it(env, monkeypatch):
    import os

    for key in [k for k in os.environ if k.upper().startswith("AIECO_")]:
        monkeypatch.delenv(key)
    for key, value in env.items():
        monkeypatch.setenv(key, value)

    def outcome(make):
        try:
            return "ok", make().model_dump(mode="json")
        except Exception:  # noqa: BLE001  (both must refuse the same environments)
            return "refused", None  # pydantic-settings says SettingsError for bad JSON, ours ValidationError

    ours = outcome(lambda: Settings.model_validate(environment_values(os.environ)))
    assert ours == outcome(_oracle())
    if env == CASES[1]:
        assert ours[1]["bank"]["quantiles"] == [0.1, 0.5, 0.9] and ours[1]["sources"]["parallel_min_bytes"] == 0
