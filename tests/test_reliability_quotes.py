"""Issue 35, item 3: words a report puts in double quotes must be the cited passage's words.

A fabricated quotation citing a real relation is refused with the rule
``quoted_span_not_in_passage`` by the draft check, by ``check-report`` (JSON and plain text)
and by the renderer; a faithful one (typographic quotes, an ellipsis cut) passes.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from reporting_world import ANALYSIS, RISK, build_world

from aieco.cli import main
from aieco.errors import StageStopped
from aieco.records import Report
from aieco.reporting.render import check_report_draft, render_report
from aieco.reporting.rules import quoted_span_violations
from aieco.reporting.schema import ReportDraft, SentenceDraft
from aieco.store import Store

RULE = "quoted_span_not_in_passage"
FABRICATED = 'As the ECB put it, "…will trigger a banking collapse across the euro area."'


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    store = Store(tmp_path_factory.mktemp("quotes") / "ws")
    yield build_world(store)
    store.close()


def _draft(world, template: str, cite: str | None = "mortgage_house") -> ReportDraft:
    ids = [world.relations[cite].relation_id] if cite else []
    sentence = SentenceDraft(kind="qualitative", template=template, claim_ids=[], cited_relation_ids=ids)
    return ReportDraft(title="Property markets under higher rates", risk=RISK, sentences=[sentence])


def _rules(world, draft) -> set[str]:
    return {v.rule for v in check_report_draft(world.store, ANALYSIS, draft, phase="execution")}


def test_a_fabricated_quotation_citing_a_real_relation_is_refused_everywhere(world, tmp_path):
    draft = _draft(world, FABRICATED)
    assert RULE in _rules(world, draft)

    as_json = tmp_path / "draft.json"
    as_json.write_text(draft.model_dump_json())
    plain = tmp_path / "draft.txt"
    plain.write_text(FABRICATED[:-2] + f'" [rel:{world.relations["mortgage_house"].relation_id}].')
    for path in (as_json, plain):
        res = CliRunner().invoke(
            main,
            ["-w", str(world.store.path), "--json", "check-report", str(path), "--analysis", ANALYSIS],
            catch_exceptions=False,
        )
        body = json.loads(res.output)
        assert body["accepted"] is False and RULE in {v["rule"] for v in body["violations"]}, body
        assert res.exit_code != 0

    with pytest.raises(StageStopped, match=RULE):
        render_report(world.store, ANALYSIS, draft)
    failed = [r for r in world.store.find(Report, analysis_id=ANALYSIS) if r.status == "failed"][-1]
    assert failed.failure_rule == RULE


@pytest.mark.parametrize(
    "template",
    [
        'As the ECB put it, "Rising mortgage rates weigh on house prices".',
        "As the ECB put it, \u201cRising mortgage rates weigh on house prices\u201d.",
        "The ECB wrote that \u201cRising mortgage rates \u2026 on house prices\u201d.",
        'The ECB wrote that "Rising  mortgage\nrates weigh on house prices in several countries."',
    ],
)
def test_the_cited_passages_own_words_pass(world, template):
    assert RULE not in _rules(world, _draft(world, template))


@pytest.mark.parametrize(
    "template, cite",
    [
        ('As the ECB put it, "Rising mortgage rates crush house prices".', "mortgage_house"),
        ("The ECB wrote that \u201cRising mortgage rates \u2026 on bank profits\u201d.", "mortgage_house"),
        ('As the ESRB put it, "Rising mortgage rates weigh on house prices".', "rates_mortgage"),  # other passage
        ('Observers call it a "doom loop" in house prices.', None),  # quotes words no cited passage holds
    ],
)
def test_words_not_in_the_cited_passage_are_refused(world, template, cite):
    assert RULE in _rules(world, _draft(world, template, cite))


def test_the_rule_names_the_missing_words_and_where_the_quotation_starts():
    s = SentenceDraft(kind="qualitative", template='He said "alpha beta" and "gamma".', cited_relation_ids=["r"])
    [v] = quoted_span_violations([s], {"r": "alpha beta delta"})
    assert (v.rule, v.offset, v.text) == (RULE, s.template.index('"gamma"'), '"gamma"')
    assert "'gamma'" in v.message
    assert quoted_span_violations([s], {"r": "alpha beta, gamma"}) == []
