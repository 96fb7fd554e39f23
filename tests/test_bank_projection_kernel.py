"""The projection kernel: bit-identical to a plain numpy projection with the same random streams."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from aieco.benchmarks.bank import numpy_projection
from aieco.config import get_settings
from aieco.models.bank.accounting import ComponentModel, project_cet1
from aieco.models.bank.kernel import BankPaths, recursion_error
from aieco.models.bank.panel import COMPONENTS, MACRO_VARIABLES

M = len(MACRO_VARIABLES)
PERIODS = ("2025H1", "2025H2", "2026H1", "2026H2")


def _world(seed: int, banks: int = 5, K: int = 7):
    rng = np.random.default_rng(seed)
    ids = [f"B{i}" for i in range(banks)]
    countries = ["DE", "FR", "IT"]
    models = {}
    for j, c in enumerate(COMPONENTS):
        coef = np.column_stack(
            [
                np.sort(rng.normal(0.5 * j - 1, 1.0, size=K)) + rng.normal(0, 0.3, size=K),  # crossings
                rng.uniform(0.0, 0.5, size=K),
                rng.normal(0, 0.02, size=K),
                rng.normal(0, 0.05, size=K),
                rng.normal(0, 0.1, size=(K, M)),
            ]
        )
        fe = pd.Series(rng.normal(0, 0.3, size=banks), index=ids)
        models[c] = ComponentModel(c, MACRO_VARIABLES, coef, fe, quantiles=np.linspace(0.1, 0.9, K))
    start = pd.DataFrame(
        {
            "macro_country": [countries[i % 3] for i in range(banks)],
            "period": "2024H2",
            "cet1_capital": rng.uniform(50, 150, size=banks),
            "rwa": rng.uniform(800, 1500, size=banks),
            **{c: rng.normal(0, 0.5, size=banks) for c in COMPONENTS},
        },
        index=ids,
    )
    scenario = pd.DataFrame(
        [
            {"country": k, "period": p, **dict(zip(MACRO_VARIABLES, rng.normal(size=M), strict=True))}
            for k in countries
            for p in PERIODS
        ]
    )
    return models, start, scenario


@pytest.fixture
def threads(monkeypatch):
    def set_to(n: int) -> None:
        monkeypatch.setenv("AIECO_BANK__PROJECTION_THREADS", str(n))
        get_settings.cache_clear()

    yield set_to
    monkeypatch.delenv("AIECO_BANK__PROJECTION_THREADS", raising=False)
    get_settings.cache_clear()


@pytest.mark.parametrize("seed,paths", [(1, 1), (2, 999), (3, 1_500), (4, 4_000)])
def test_projection_equals_the_plain_numpy_projection_exactly(seed, paths, threads):
    models, start, scenario = _world(seed)
    counts: dict[str, int] = {}
    reference = numpy_projection(models, start, scenario, paths=paths, seed=seed, crossing_counts=counts)
    checked = len(start) * len(PERIODS) * min(paths, 1_000)
    shares = []
    for n in (1, 3):
        threads(n)
        proj = project_cet1(models, start, scenario, paths=paths, seed=seed)
        np.testing.assert_array_equal(proj.ratio, reference)  # bit-identical, not approximately equal
        np.testing.assert_array_equal(proj.depletion, reference[:, :, 0] - reference[:, :, 1:].min(axis=2))
        shares.append(proj.crossing_share)
    assert shares[0] == shares[1] and any(v > 0 for v in shares[0].values())
    # the crossing count, laid out (levels, paths) in the kernel, equals the peer's (paths, levels) count
    assert shares[0] == {c: counts[c] / checked for c in COMPONENTS}


def test_feols_components_are_reproducible_across_thread_counts(threads):
    models, start, scenario = _world(9)
    rng = np.random.default_rng(9)
    m = models["l"]
    models["l"] = ComponentModel("l", MACRO_VARIABLES, m.coef[:1], m.fixed_effects, residuals=rng.normal(size=40))
    out = []
    for n in (1, 2):
        threads(n)
        out.append(project_cet1(models, start, scenario, paths=300, seed=5))
    np.testing.assert_array_equal(out[0].ratio, out[1].ratio)
    assert out[0].identity_max_error == out[1].identity_max_error <= 1e-9


@pytest.mark.parametrize(
    ("where", "value"),
    [("rwa", np.nan), ("rwa", np.inf), ("rwa", 0.0), ("rwa", -1.0), ("capital", np.nan), ("capital", -np.inf)],
)
def test_recursion_error_flags_non_finite_or_non_positive(where: str, value: float) -> None:
    """recursion_error's reductions (min/max) flag what the element-wise checks flagged."""
    capital, rwa = np.full((3, 4), 10.0), np.full((3, 4), 100.0)
    ok = BankPaths(capital.copy(), rwa.copy(), {}, {}, {}, 1e-17)
    assert recursion_error(ok) == 1e-17
    bad = {"capital": capital, "rwa": rwa}
    bad[where][2, 1] = value
    assert recursion_error(BankPaths(bad["capital"], bad["rwa"], {}, {}, {}, 1e-17)) is None
