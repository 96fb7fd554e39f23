"""The hand check of the offline reader on the default corpus (docs/corpus-reader-check.md) stays true to
what the reader produces: the seeded sample drawn again is the documented one, every sampled relation has
its verdict, the stated precision is the count of "right" verdicts, and every relation names its reader."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from aieco.records import Relation
from aieco.store import Store

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "corpus-reader-check.md"
TOOL = ROOT / "tools" / "reader_check_sample.py"


def _tool():
    spec = importlib.util.spec_from_file_location("reader_check_sample", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def corpus_store(tmp_path_factory):
    store = Store(tmp_path_factory.mktemp("reader_check") / "ws")
    _tool().corpus_graph(store)
    yield store
    store.close()


def _documented() -> dict[str, tuple[str, str, str]]:
    """relation id -> (read, rule, verdict) from the doc's table."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| (rel_[0-9a-f]{20}) \| ([^|]+) \| ([^|]+) \| (right|wrong) \|", line)
        if m:
            rows[m.group(1)] = (m.group(2).strip(), m.group(3).strip(), m.group(4))
    return rows


def test_the_documented_sample_is_the_seeded_draw_with_each_relation_as_read(corpus_store):
    sample = _tool().draw_sample(corpus_store)
    documented = _documented()
    assert [r.relation_id for r in sample] == sorted(documented)
    signs = {"+": "+", "-": "−"}
    for r in sample:
        read, rule, _ = documented[r.relation_id]
        assert read == f"{r.src_var} {signs[r.sign.value]} {r.dst_var}", r.relation_id
        assert r.reader == f"rules:{rule}", r.relation_id


def test_the_stated_precision_counts_the_verdicts():
    documented = _documented()
    right = sum(v == "right" for _, _, v in documented.values())
    stated = re.search(r"\*\*Precision: (\d+) of (\d+) right \((\d+) %\)", DOC.read_text(encoding="utf-8"))
    assert stated, "the precision line is missing"
    assert (int(stated.group(1)), int(stated.group(2))) == (right, len(documented))
    assert int(stated.group(3)) == round(100 * right / len(documented))


def test_every_corpus_relation_names_the_rule_that_read_it(corpus_store):
    from aieco.extraction.rules import RULE_NAMES

    rels = corpus_store.find(Relation, graph_condition="G0")
    assert rels and all(r.reader and r.reader.split(":", 1)[1] in RULE_NAMES for r in rels)


def test_favourable_mortgage_rates_read_with_the_sign_the_box_states(corpus_store):
    """EB 6/2022: "supported by favourable mortgage rates": low mortgage rates went with rising house prices."""
    (rel,) = [r for r in corpus_store.find(Relation, src_var="mortgage_rates") if "favourable" in r.quote]
    assert (rel.dst_var, rel.sign.value, rel.review_decision) == ("house_prices", "-", "accepted")
