"""The shared real-data folder for module-scoped fixtures (skips when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = (Path(__file__).resolve().parents[1] / ".." / "shared" / "data").resolve()


def shared_data_dir() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data folder {SHARED_DATA} is absent")
    return SHARED_DATA


def illiquidity_request(title: str) -> str:
    """A one-risk request TOML (market illiquidity, one channel) that stops before any model call on the
    demo workspace: a quick analysis to pose in a test."""
    return f"""
title = "{title}"
cutoff = 2024-12-31
horizon = "2025-2027"
jurisdictions = ["EA"]
models = ["macro_var"]
backend = "offline"

[[risks]]
name = "market_illiquidity"
label = "Market illiquidity"
description = "A drop in market liquidity."

[[risks.channels]]
id = "mi1"
source = "market_liquidity"
movement = "decrease"
target = "equity_prices"
expected = "decrease"
"""
