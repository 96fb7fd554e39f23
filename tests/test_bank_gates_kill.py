"""Validation gates are ensured per model and survive a kill -9 in the middle of the validation."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from aieco.config import get_settings
from aieco.records import Provenance, ValidationGate
from aieco.store import Store

REPO = Path(__file__).resolve().parents[1]

# The child validates on the workspace's (demo, synthetic) exercise; FE-QAR's validation is held
# (a long solve stands in) once FE-OLS's gate is stored, so the parent can kill it at a known point.
CHILD = textwrap.dedent("""
    import sys, time
    from aieco.models.bank import spec
    from aieco.store import Store

    real = spec._fit_and_project

    def slow(store, analysis_id, kind, *args, **kwargs):
        if kind == "feqar":
            print("feqar-started", flush=True)
            time.sleep(600)
        return real(store, analysis_id, kind, *args, **kwargs)

    spec._fit_and_project = slow
    with Store(sys.argv[1]) as store:
        spec.ensure_validation_gates(store, "kill-test", seed=0, paths=20)
""")


def _small_env(monkeypatch) -> dict[str, str]:
    env = {"AIECO_BANK__QUANTILES": "[0.1, 0.5, 0.9]", "AIECO_BANK__BOOTSTRAP_REPS": "50"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    get_settings.cache_clear()
    return {**os.environ, **env, "PYTHONPATH": str(REPO)}


def test_kill_9_mid_validation_then_rerun_has_both_gates(tmp_path, monkeypatch):
    from aieco.demo import load_bank_data
    from aieco.models.bank.spec import ensure_validation_gates

    ws = tmp_path / "ws"
    with Store(ws) as store:
        load_bank_data(store)  # the demo's synthetic bank records: the models read only the workspace
    env = _small_env(monkeypatch)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(ws)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        line = child.stdout.readline()  # blocks until FE-QAR's validation has begun
        assert line.strip() == "feqar-started", child.stderr.read()
        time.sleep(0.2)
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    with Store(ws) as store:
        assert [g.model_id for g in store.find(ValidationGate)] == ["bank_feols"]  # FE-QAR never finished
        first = store.find(ValidationGate, model_id="bank_feols")[0]
        runs, gates = ensure_validation_gates(store, "kill-test", seed=0, paths=20)
        assert {r.model_id for r in runs} <= {"bank_feqar_fit", "bank_feqar"}  # FE-OLS is not redone
        assert sorted(g.model_id for g in gates) == ["bank_feols", "bank_feqar"]
        stored = store.find(ValidationGate)
        assert sorted(g.model_id for g in stored) == ["bank_feols", "bank_feqar"]
        assert store.find(ValidationGate, model_id="bank_feols")[0].gate_id == first.gate_id
        assert all(g.fit_provenance == Provenance.synthetic for g in stored)
        again, _ = ensure_validation_gates(store, "kill-test", seed=0, paths=20)
        assert again == []  # both gates present: nothing runs
    get_settings.cache_clear()


def test_synthetic_gate_never_authorises_a_real_bank_conclusion(tmp_path):
    from aieco.models.bank.spec import passing_gate

    with Store(tmp_path / "ws") as store:
        gate = ValidationGate.create(
            model_id="bank_feols",
            metrics={"mae": 0.1},
            thresholds={"mae_max": 2.0},
            passed=True,
            fit_provenance=Provenance.synthetic,
            validation_provenance=Provenance.synthetic,
        )
        store.put(gate)
        assert passing_gate(store, "bank_feols") == gate
        assert passing_gate(store, "bank_feols", real_banks=True) is None
        real = ValidationGate.create(
            model_id="bank_feols",
            metrics={"mae": 0.2},
            thresholds={"mae_max": 2.0},
            passed=True,
            fit_provenance=Provenance.real,
            validation_provenance=Provenance.real,
        )
        store.put(real)
        assert passing_gate(store, "bank_feols", real_banks=True) == real
