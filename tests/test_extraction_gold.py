"""The extraction gold set (aieco/data/extraction_gold.jsonl) and `aieco bench extraction`."""

from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest

from aieco.errors import InputError
from aieco.extraction.gold import (
    GoldRelation,
    GoldSentence,
    SplitScore,
    load_gold,
    reader_note,
    score,
)
from aieco.extraction.rules import read_sentence
from aieco.extraction.screen import split_sentences
from aieco.records import canonical_json
from aieco.review import backend_of
from aieco.vocab import load_vocabulary
from tests.openai_stub_server import StubServer, responses_body


@pytest.fixture(scope="module")
def gold() -> list[GoldSentence]:
    return load_gold()


def test_gold_set_size_labels_and_split_by_document(gold):
    assert len(gold) >= 300
    vocab = load_vocabulary()
    for g in gold:
        for r in g.relations:
            assert r.src in vocab and r.dst in vocab and r.src != r.dst and r.sign in ("+", "-"), g.id
    docs = defaultdict(set)
    for g in gold:
        docs[g.document].add(g.split)
    assert all(len(s) == 1 for s in docs.values()), "a document sits in both splits"
    held = sum(g.split == "held_back" for g in gold)
    # One blind round of about 300 sentences against a development part of ten rounds: 323 of 2932
    # sentences (0.110) with the eleventh round held back (0.125 with the tenth), 386 of 3318 (0.116) with the
    # twelfth, 325 of 3643 (0.089) with the thirteenth (short decisions, mostly procedural lines), 488 of 4131
    # (0.118) with the fourteenth (two ECB accounts), 431 of 4562 (0.094) with the fifteenth (two more), 433 of 4995
    # (0.087) with the sixteenth (two more), 467 of 5462 (0.086) with the seventeenth (two more), 535 of 5997 (0.089)
    # with the eighteenth (two more), 512 of 6509 (0.079) with the nineteenth (two more), 493 of 7002 (0.070) with the
    # twentieth (two more), 499 of 7501 (0.067) with the twenty-first (two more), 524 of 8025 (0.065) with the
    # twenty-second (two more), 552 of 8577 (0.064) with the twenty-third (two more), 551 of 9128 (0.060) with the
    # twenty-fourth (two more), 437 of 9565 (0.046) with the twenty-fifth (two more, of the winter 2021-22, whose
    # accounts are shorter), 391 of 9956 (0.039) with the twenty-sixth (three FOMC minutes of 2024), 349 of 10305
    # (0.034) with the twenty-seventh (three more), 427 of 10732 (0.040) with the twenty-eighth (three FOMC minutes of
    # 2022-23), 444 of 11176 (0.040) with the twenty-ninth (three more, of 2022), 452 of 11628 (0.039) with the
    # thirtieth (three more, released in 2022), 304 of 11932 (0.025) with the thirty-first (two, of 2021), 317 of 12249
    # (0.026) with the thirty-second (two more, of 2021). The bound
    # was 0.12 until the
    # eleventh, 0.105 until the thirteenth, 0.08 until the nineteenth, 0.075 until the twentieth, 0.07 until the
    # twenty-first, 0.065 until the twenty-third, 0.06 until the twenty-fifth, 0.045 until the twenty-sixth, 0.035
    # until the twenty-seventh, 0.03 until the thirty-first; the development part grows by a round each time one
    # retires, so one round's share falls.
    assert 0.025 <= held / len(gold) <= 0.3
    kinds = {g.negative for g in gold if g.negative}
    assert {"co-movement", "level", "list", "negation", "question", "hypothetical"} <= kinds
    assert sum(len(g.relations) for g in gold) >= 50
    assert len({g.id for g in gold}) == len(gold)
    # The held-back part is large enough to score (at least 20 relations, an eighth of them all: one blind
    # round of about 300 sentences against a grown development part); it is split by document. Its share of
    # the documents was about a fifth until the ninth round (10 of 57); the tenth round is two long documents
    # (FOMC minutes, 326 sentences), so the held-back part is 2 of 59 documents (0.034): the bound is lowered
    # to what one such round gives, and a score on it says less about variation between documents. The
    # eleventh round is again two minutes (2 of 61 documents, 0.033; 146 of 768 relations, 0.19); the twelfth
    # is four ECB press conferences (4 of 65 documents, 0.062; 151 of 919 relations, 0.16); the thirteenth is
    # thirteen Riksbank decisions that state few channels (13 of 78 documents; 83 of 1002 relations, 0.083, so the
    # bound on the relations' share, an eighth until then, is 0.08); the fourteenth is two ECB monetary policy
    # accounts (2 of 80 documents, 0.025, so that bound was 0.025; 193 of 1195 relations, 0.16); the fifteenth is two
    # more accounts (2 of 82 documents, 0.024, so that bound is 0.02; 126 of 1321 relations, 0.10); the sixteenth is
    # two more (2 of 84 documents, 0.024; 157 of 1478 relations, 0.11); the seventeenth two more (2 of 86 documents,
    # 0.023; 164 of 1642 relations, 0.10); the eighteenth two more (2 of 88 documents, 0.023; 242 of 1884 relations,
    # 0.13); the nineteenth two more (2 of 90 documents, 0.022; 186 of 2070 relations, 0.09); the twentieth two more
    # (2 of 92 documents, 0.022; 196 of 2266 relations, 0.086); the twenty-first two more (2 of 94 documents, 0.021;
    # 150 of 2416 relations, 0.062, so the bound on the relations' share, 0.08 until then, is 0.06); the twenty-second
    # two more (2 of 96 documents, 0.021; 192 of 2608 relations, 0.074); the twenty-third two more (2 of 98 documents,
    # 0.020; 138 of 2746 relations, 0.050, so the bound on the relations' share is 0.05); the twenty-fourth two more
    # (2 of 100 documents, 0.020; 223 of 2969 relations, 0.075); the twenty-fifth two more, of the winter 2021-22,
    # before the war, stating fewer channels (2 of 102 documents, 0.0196, so that bound is 0.019; 120 of 3089
    # relations, 0.039, so the bound on the relations' share is 0.035); the twenty-sixth three FOMC minutes of 2024 (3
    # of 105 documents, 0.029; 102 of 3191 relations, 0.032, so the bound on the relations' share is 0.03); the
    # twenty-seventh three more (3 of 108 documents, 0.028; 114 of 3305 relations, 0.034); the twenty-eighth three FOMC
    # minutes of 2022-23 (3 of 111 documents, 0.027; 167 of 3472 relations, 0.048); the twenty-ninth three more, of
    # 2022 (3 of 114 documents, 0.026; 187 of 3659 relations, 0.051); the thirtieth three more, released in 2022 (3 of
    # 117 documents, 0.026; 204 of 3863 relations, 0.053); the thirty-first two FOMC minutes of 2021 (2 of 119
    # documents, 0.017, so that bound is 0.016; 100 of 3963 relations, 0.025, so the bound on the relations' share is
    # 0.025); the thirty-second two more (2 of 121 documents, 0.017; 77 of 4040 relations, 0.019, so the bound on the
    # relations' share is 0.019).
    held_rel = sum(len(g.relations) for g in gold if g.split == "held_back")
    assert held_rel >= 20 and held_rel / sum(len(g.relations) for g in gold) >= 0.019
    held_docs = {g.document for g in gold if g.split == "held_back"}
    assert len(held_docs) >= 2 and len(held_docs) / len({g.document for g in gold}) >= 0.016


def _tool(name: str):
    """A script of the tools package (tools/NAME.py)."""
    import importlib

    return importlib.import_module(f"tools.{name}")


def _build_tool():
    return _tool("build_extraction_gold")


def _select_tool():
    return _tool("select_gold_round6")


def test_repeat_rule_of_the_sixth_round():
    """A sentence repeats an earlier one when their normalised texts match with difflib ratio >= 0.8."""
    sel = _select_tool()
    earlier = ["We know that reducing policy restraint too fast could hinder progress on inflation."]
    assert sel.repeats("We know that reducing policy restraint too soon could hinder progress on inflation.", earlier)
    assert sel.repeats("we know that REDUCING policy restraint too fast, could hinder progress on inflation", earlier)
    assert not sel.repeats("Higher tariffs weigh on exports and investment over the next two years.", earlier)
    assert not sel.repeats("Anything", [])


def test_split_rule_of_the_thirty_second_round():
    """tools/build_extraction_gold.py: rounds 1-31 are development, the thirty-second round is the held-back part."""
    mod = _build_tool()
    # Documents held back in rounds 1-3 (scored twice, output read), in round 4 (scored twice in
    # aggregate, then retired), in round 6 (scored once, did not hold, retired), in round 7 (scored
    # once, retired when the eighth round came), in round 8 (scored once, retired when the ninth round
    # came), in round 9 (scored once, retired when the tenth round came), in round 10 (scored once,
    # retired when the eleventh round came), in round 11 (scored once, retired when the twelfth round came)
    # in round 12 (scored once, retired when the thirteenth round came), in round 13 (scored once, retired when
    # the fourteenth round came), in round 14 (scored once, retired when the fifteenth round came), in round 15
    # (scored once, retired when the sixteenth round came), in round 16 (scored once, retired when the
    # seventeenth round came), in round 17 (scored once, retired when the eighteenth round came) and in rounds 18 to
    # 31 (each scored once, retired when the next round came) are development now.
    counts = {"esrb-2018-adverse-scenario": 30, "eba-transparency-2024-csv-guide": 0}
    counts |= {"fed-2024-exploratory-analysis": 16, "ecb-eb-2025-6-defence": 11, "bis-qr-2024-03-residence": 2}
    counts |= {"boc-2025-06-trade-speech": 5, "fed-fsr-2025-04-framework": 0}
    counts |= {"boc-2025-06-deliberations": 4, "ecb-2025-07-cipollone-interview": 0}
    counts |= {"boc-2025-07-deliberations": 9, "ecb-2025-strategy-statement": 0}
    counts |= {"rba-2024-11-media-conference": 3, "boj-2011-06-shirakawa-imes-speech": 0}
    counts |= {"boj-2025-07-uchida-speech": 4, "cfr-2024-12-small-banks-review": 0}
    counts |= {"fomc-2023-06-minutes": 5, "fomc-2023-05-minutes": 0}
    counts |= {"fomc-2018-12-minutes": 7, "fomc-2008-12-minutes": 0}
    counts |= {"ecb-2023-12-press-conference": 6, "ecb-2020-12-press-conference": 0}
    counts |= {"riksbank-2024-12-decision": 3, "riksbank-2023-02-decision": 0}
    counts |= {"ecb-2024-10-account": 9, "ecb-2024-09-account": 0}
    counts |= {"ecb-2024-07-account": 5, "ecb-2024-06-account": 0}
    counts |= {"ecb-2024-04-account": 7, "ecb-2024-03-account": 0}
    counts |= {"ecb-2024-01-account": 4, "ecb-2023-12-account": 0}
    counts |= {"ecb-2023-10-account": 6, "ecb-2023-09-account": 0}
    counts |= {"ecb-2023-07-account": 5, "ecb-2023-06-account": 0}
    counts |= {"ecb-2023-05-account": 4, "ecb-2023-03-account": 0}
    counts |= {"ecb-2023-02-account": 3, "ecb-2022-12-account": 0}
    counts |= {"ecb-2022-10-account": 3, "ecb-2022-09-account": 0}
    counts |= {"ecb-2022-07-account": 3, "ecb-2022-06-account": 0}
    counts |= {"ecb-2022-04-account": 3, "ecb-2022-03-account": 0}
    counts |= {"ecb-2022-02-account": 3, "ecb-2021-12-account": 0}
    counts |= {"fomc-2024-11-minutes": 3, "fomc-2024-09-minutes": 0, "fomc-2024-07-minutes": 1}
    counts |= {"fomc-2024-06-minutes": 3, "fomc-2024-05-minutes": 0, "fomc-2024-03-minutes": 1}
    counts |= {"fomc-2023-03-minutes": 3, "fomc-2023-02-minutes": 0, "fomc-2022-12-minutes": 1}
    counts |= {"fomc-2022-11-minutes": 3, "fomc-2022-09-minutes": 0, "fomc-2022-07-minutes": 1}
    counts |= {"fomc-2022-06-minutes": 3, "fomc-2022-05-minutes": 0, "fomc-2022-03-minutes": 1}
    counts |= {"fomc-2021-12-minutes": 3, "fomc-2021-09-minutes": 0}
    counts |= {"fomc-2021-07-minutes": 3, "fomc-2021-06-minutes": 0}
    assert mod.assign_splits(counts) == {
        "esrb-2018-adverse-scenario": "dev",
        "eba-transparency-2024-csv-guide": "dev",
        "fed-2024-exploratory-analysis": "dev",
        "ecb-eb-2025-6-defence": "dev",
        "bis-qr-2024-03-residence": "dev",
        "boc-2025-06-trade-speech": "dev",
        "fed-fsr-2025-04-framework": "dev",
        "boc-2025-06-deliberations": "dev",
        "ecb-2025-07-cipollone-interview": "dev",
        "boc-2025-07-deliberations": "dev",
        "ecb-2025-strategy-statement": "dev",
        "rba-2024-11-media-conference": "dev",
        "boj-2011-06-shirakawa-imes-speech": "dev",
        "boj-2025-07-uchida-speech": "dev",
        "cfr-2024-12-small-banks-review": "dev",
        "fomc-2023-06-minutes": "dev",
        "fomc-2023-05-minutes": "dev",
        "fomc-2018-12-minutes": "dev",
        "fomc-2008-12-minutes": "dev",
        "ecb-2023-12-press-conference": "dev",
        "ecb-2020-12-press-conference": "dev",
        "riksbank-2024-12-decision": "dev",
        "riksbank-2023-02-decision": "dev",
        "ecb-2024-10-account": "dev",
        "ecb-2024-09-account": "dev",
        "ecb-2024-07-account": "dev",
        "ecb-2024-06-account": "dev",
        "ecb-2024-04-account": "dev",
        "ecb-2024-03-account": "dev",
        "ecb-2024-01-account": "dev",
        "ecb-2023-12-account": "dev",
        "ecb-2023-10-account": "dev",
        "ecb-2023-09-account": "dev",
        "ecb-2023-07-account": "dev",
        "ecb-2023-06-account": "dev",
        "ecb-2023-05-account": "dev",
        "ecb-2023-03-account": "dev",
        "ecb-2023-02-account": "dev",
        "ecb-2022-12-account": "dev",
        "ecb-2022-10-account": "dev",
        "ecb-2022-09-account": "dev",
        "ecb-2022-07-account": "dev",
        "ecb-2022-06-account": "dev",
        "ecb-2022-04-account": "dev",
        "ecb-2022-03-account": "dev",
        "ecb-2022-02-account": "dev",
        "ecb-2021-12-account": "dev",
        "fomc-2024-11-minutes": "dev",
        "fomc-2024-09-minutes": "dev",
        "fomc-2024-07-minutes": "dev",
        "fomc-2024-06-minutes": "dev",
        "fomc-2024-05-minutes": "dev",
        "fomc-2024-03-minutes": "dev",
        "fomc-2023-03-minutes": "dev",
        "fomc-2023-02-minutes": "dev",
        "fomc-2022-12-minutes": "dev",
        "fomc-2022-11-minutes": "dev",
        "fomc-2022-09-minutes": "dev",
        "fomc-2022-07-minutes": "dev",
        "fomc-2022-06-minutes": "dev",
        "fomc-2022-05-minutes": "dev",
        "fomc-2022-03-minutes": "dev",
        "fomc-2021-12-minutes": "dev",
        "fomc-2021-09-minutes": "dev",
        "fomc-2021-07-minutes": "held_back",
        "fomc-2021-06-minutes": "held_back",
    }
    # A document of no listed round has no split until a round states one.
    with pytest.raises(ValueError, match="new-doc"):
        mod.assign_splits({"esrb-2018-adverse-scenario": 3, "new-doc": 1})
    gold = load_gold()
    per_doc = defaultdict(int)
    for g in gold:
        per_doc[g.document] += len(g.relations)
    splits = mod.assign_splits(dict(per_doc))
    assert all(g.split == splits[g.document] for g in gold)
    # The held-back part is exactly the thirty-second round (g12710 on), every sentence from a fetched file
    # with its origin at the commit the round names; the fourth and sixth to thirty-first rounds are development.
    held = [g for g in gold if g.split == "held_back"]
    assert {g.document for g in held} == set(mod.HELD_BACK_DOCUMENTS)
    assert {g.id for g in held} == {g.id for g in gold if int(g.id[1:]) >= 12710}
    assert all(g.origin and f"{mod.FOMC_REPO}:Minutes/" in g.origin for g in held)
    assert all(g.split == "dev" for g in gold if 708 <= int(g.id[1:]) < 952 or 1156 <= int(g.id[1:]) < 12710)
    rounds = (mod.EARLIER_ROUNDS, mod.RETIRED_HELD_BACK, mod.LATER_DEV_ROUNDS, mod.HELD_BACK_DOCUMENTS)
    assert sum(map(len, rounds)) == len(frozenset().union(*rounds)), "a document sits in two rounds"


def test_fifth_round_is_development():
    """The fifth round (g952-g1155) added development documents only."""
    mod = _build_tool()
    assert mod.assign_splits({"rba-2024-11-ceda-speech": 5, "boc-2025-06-trade-speech": 3}) == {
        "rba-2024-11-ceda-speech": "dev",
        "boc-2025-06-trade-speech": "dev",
    }
    gold = load_gold()
    fifth = [g for g in gold if 952 <= int(g.id[1:]) < 1156]
    assert [g.id for g in fifth] == [f"g{i}" for i in range(952, 1156)]
    assert sum(len(g.relations) for g in fifth) == 27
    assert {g.document for g in fifth} == set(mod.LATER_DEV_ROUNDS)
    assert all(g.split == "dev" for g in fifth)
    assert all(g.origin and mod.TS_ROUND4.split("@")[1] in g.origin for g in fifth)
    # No document of an earlier round comes back under a new name: every fifth-round page is new.
    earlier_files = {g.file for g in gold if int(g.id[1:]) < 952}
    assert not earlier_files & {g.file for g in fifth}


def test_sixth_round_is_development_on_new_pages():
    """The sixth round (g1156-g1418): six new pages (select_gold_round6.py); held back for one look, then dev."""
    mod = _build_tool()
    gold = load_gold()
    sixth = [g for g in gold if 1156 <= int(g.id[1:]) < 1419]
    # The screen's 263 sentences (g1156-g1418) less the 8 that repeat a sentence of rounds 1-5
    # (tools/select_gold_round6.py: repeats), dropped before any reader ran on the round.
    dropped = {"g1245", "g1246", "g1247", "g1329", "g1330", "g1337", "g1339", "g1385"}
    assert [g.id for g in sixth] == [f"g{i}" for i in range(1156, 1419) if f"g{i}" not in dropped]
    assert len(sixth) == 255 and sum(len(g.relations) for g in sixth) == 66
    sel = _select_tool()
    earlier = [g.text for g in gold if int(g.id[1:]) < 1156]
    assert not any(sel.repeats(g.text, earlier) for g in sixth)
    assert {g.file for g in sixth} == set(mod.ROUND6_FILES)
    assert all(g.split == "dev" for g in sixth)
    assert {g.document for g in sixth} <= set(mod.RETIRED_HELD_BACK)
    earlier_files = {g.file for g in gold if int(g.id[1:]) < 1156}
    assert not earlier_files & {g.file for g in sixth}


def test_seventh_round_is_development_on_new_pages():
    """The seventh round (g1419-g1680): seven new pages (select_gold_round7.py); held back for one look, then dev."""
    mod = _build_tool()
    gold = load_gold()
    seventh = [g for g in gold if 1419 <= int(g.id[1:]) < 1681]
    assert len(seventh) == 252 and sum(len(g.relations) for g in seventh) == 61
    assert seventh[0].id == "g1422" and seventh[-1].id == "g1680"
    assert {g.file for g in seventh} == set(mod.ROUND7_FILES)
    assert {g.document for g in seventh} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in seventh)
    earlier = [g.text for g in gold if int(g.id[1:]) < 1419]
    assert not any(_select_tool().repeats(g.text, earlier) for g in seventh)
    assert not {g.file for g in gold if int(g.id[1:]) < 1419} & {g.file for g in seventh}


def test_eighth_round_is_development_on_new_pages():
    """The eighth round (g1681-g2018): nine new pages (select_gold_round8.py); held back for one look, then dev."""
    mod = _build_tool()
    gold = load_gold()
    eighth = [g for g in gold if 1681 <= int(g.id[1:]) < 2019]
    # The screen's 338 sentences (g1681-g2018) less the 9 that repeat a sentence of rounds 1-7, dropped
    # before any reader ran on the round; labelled blind (docs/gold-held-back-notes.md).
    dropped = {"g1707", "g1708", "g1767", "g1768", "g1772", "g1775", "g1776", "g1781", "g1784"}
    assert [g.id for g in eighth] == [f"g{i}" for i in range(1681, 2019) if f"g{i}" not in dropped]
    assert len(eighth) == 329 and sum(len(g.relations) for g in eighth) == 62
    assert {g.file for g in eighth} == set(mod.ROUND8_FILES)
    assert {g.document for g in eighth} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in eighth)
    earlier = [g.text for g in gold if int(g.id[1:]) < 1681]
    assert not any(_select_tool().repeats(g.text, earlier) for g in eighth)
    assert not {g.file for g in gold if int(g.id[1:]) < 1681} & {g.file for g in eighth}


def test_ninth_round_is_development_on_new_pages():
    """The ninth round (g2019-g2313): ten new pages (select_gold_round9.py); held back for one look, then dev."""
    mod = _build_tool()
    gold = load_gold()
    ninth = [g for g in gold if 2019 <= int(g.id[1:]) < 2314]
    # The screen's 295 sentences (g2019-g2313) less the 3 that repeat a sentence of rounds 1-8, dropped
    # before any reader ran on the round; labelled blind (docs/gold-held-back-notes.md).
    dropped = {"g2024", "g2034", "g2078"}
    assert [g.id for g in ninth] == [f"g{i}" for i in range(2019, 2314) if f"g{i}" not in dropped]
    assert len(ninth) == 292 and sum(len(g.relations) for g in ninth) == 64
    assert {g.file for g in ninth} == set(mod.ROUND9_FILES)
    assert {g.document for g in ninth} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in ninth)
    earlier = [g.text for g in gold if int(g.id[1:]) < 2019]
    assert not any(_select_tool().repeats(g.text, earlier) for g in ninth)
    assert not {g.file for g in gold if int(g.id[1:]) < 2019} & {g.file for g in ninth}
    # No IMF, Bank of England or World Bank page.
    assert not any(w in f.lower() for f in mod.ROUND9_FILES for w in ("imf", "bankofengland", "worldbank"))


def test_tenth_round_is_development_on_new_documents():
    """The tenth round (g2314-g2641): two FOMC minutes (select_gold_round10.py); held back for one look, then dev."""
    mod = _build_tool()
    sel = _tool("select_gold_round10")
    gold = load_gold()
    tenth = [g for g in gold if 2314 <= int(g.id[1:]) < 2642]
    # The screen's 328 sentences (g2314-g2641) less the 2 that repeat a sentence of rounds 1-9, dropped
    # before any reader ran on the round; labelled blind (docs/gold-held-back-notes.md).
    dropped = {"g2335", "g2639"}
    assert [g.id for g in tenth] == [f"g{i}" for i in range(2314, 2642) if f"g{i}" not in dropped]
    assert len(tenth) == 326 and sum(len(g.relations) for g in tenth) == 130
    # The June 2023 minutes' screen kept 150 sentences (149 after the repeat), fewer than 250, so the May
    # 2023 minutes were added whole: the two latest minutes of the snapshot, in that order.
    assert mod.ROUND10_FILES == sel.CANDIDATES and sel.MIN_SENTENCES == 250
    assert [sum(g.file == f for g in tenth) for f in mod.ROUND10_FILES] == [149, 177]
    assert {g.document for g in tenth} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in tenth)
    earlier = [g.text for g in gold if int(g.id[1:]) < 2314]
    assert not any(_select_tool().repeats(g.text, earlier) for g in tenth)
    assert not {g.file for g in gold if int(g.id[1:]) < 2314} & {g.file for g in tenth}
    # Read from the first section heading: no title, meeting line or attendance list.
    assert not any(g.text.startswith("Minutes of the Federal Open Market Committee") for g in tenth)


def test_eleventh_round_is_development_on_new_documents():
    """The eleventh round (g2642-g2973): FOMC minutes of 2018 and 2008, select_gold_round11.py; held back for one
    look (session 10), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round11")
    gold = load_gold()
    eleventh = [g for g in gold if 2642 <= int(g.id[1:]) < 2974]
    # The screen's 332 sentences (g2642-g2973) less the 9 that repeat a sentence of rounds 1-10 (the minutes'
    # recurring statement lines and vote-list fragments), dropped before any reader ran on the round; labelled
    # blind (docs/gold-held-back-notes.md).
    dropped = {f"g{i}" for i in (2659, 2730, 2732, 2785, 2790, 2795, 2797, 2798, 2799)}
    assert [g.id for g in eleventh] == [f"g{i}" for i in range(2642, 2974) if f"g{i}" not in dropped]
    assert len(eleventh) == 323 and sum(len(g.relations) for g in eleventh) == 146
    # Both minutes taken whole, in the order fixed before any sentence was read (December 2018, December 2008).
    assert mod.ROUND11_FILES == sel.CANDIDATES
    assert [sum(g.file == f for g in eleventh) for f in mod.ROUND11_FILES] == [150, 173]
    assert {g.document for g in eleventh} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in eleventh)
    earlier = [g.text for g in gold if int(g.id[1:]) < 2642]
    assert not any(_select_tool().repeats(g.text, earlier) for g in eleventh)
    assert not {g.file for g in gold if int(g.id[1:]) < 2642} & {g.file for g in eleventh}
    assert not any(g.text.startswith("Minutes of the Federal Open Market Committee") for g in eleventh)
    # The 2008 minutes have no section heading: read from the end of the attendance list, so the first
    # sentence kept from them names no attendee (a personal title).
    first_2008 = next(g for g in eleventh if g.file == mod.ROUND11_FILES[1])
    assert not sel.TITLE.search(first_2008.text)


def test_twelfth_round_is_development_on_new_documents():
    """The twelfth round (g2974-g3359): four ECB press conferences, select_gold_round12.py; held back for one look
    (session 11), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round12")
    gold = load_gold()
    twelfth = [g for g in gold if 2974 <= int(g.id[1:]) < 3360]
    # The screen's 386 sentences, none a repeat of rounds 1-11; labelled blind (docs/gold-held-back-notes.md).
    assert [g.id for g in twelfth] == [f"g{i}" for i in range(2974, 3360)]
    assert sum(len(g.relations) for g in twelfth) == 151
    # Whole statements in the order fixed before any sentence was read (December 2023, 2022, 2021, 2020): the
    # first three gave 290 sentences, fewer than 300, so the fourth was added and the fifth was not needed.
    assert mod.ROUND12_FILES == sel.CANDIDATES[:4] and sel.MIN_SENTENCES == 300
    per_file = [sum(g.file == f for g in twelfth) for f in mod.ROUND12_FILES]
    assert per_file == [87, 106, 97, 96] and sum(per_file[:3]) < sel.MIN_SENTENCES
    assert {g.document for g in twelfth} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in twelfth)
    earlier = [g.text for g in gold if int(g.id[1:]) < 2974]
    assert not any(_select_tool().repeats(g.text, earlier) for g in twelfth)
    # The record only: no page navigation, place-and-date line or footer.
    assert not any(sel.RECORD_START.match(g.text) or "Related topics" in g.text for g in twelfth)
    assert not any(g.text.startswith(("CONTACT", "Copyright")) for g in twelfth)


def test_thirteenth_round_is_development_on_new_documents():
    """The thirteenth round (g3360-g3687): thirteen Riksbank decisions, select_gold_round13.py; held back for one
    look (session 11), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round13")
    gold = load_gold()
    thirteenth = [g for g in gold if 3360 <= int(g.id[1:]) < 3688]
    # The screen's 328 sentences less the 3 that repeat a sentence of rounds 1-12, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {"g3362", "g3431", "g3601"}
    assert [g.id for g in thirteenth] == [f"g{i}" for i in range(3360, 3688) if f"g{i}" not in dropped]
    assert len(thirteenth) == 325 and sum(len(g.relations) for g in thirteenth) == 83
    # Every statement of 2023 and 2024, latest first, whole: twelve gave fewer than 300 sentences.
    assert mod.ROUND13_FILES == sorted(mod.ROUND13_FILES, reverse=True) and len(mod.ROUND13_FILES) == 13
    assert all(f[len("riksbank-") : len("riksbank-") + 4] in ("2023", "2024") for f in mod.ROUND13_FILES)
    per_file = [sum(g.file == f for g in thirteenth) for f in mod.ROUND13_FILES]
    assert sum(per_file) == 325 and sum(per_file[:12]) < sel.MIN_SENTENCES and all(per_file)
    assert {g.document for g in thirteenth} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in thirteenth)
    earlier = [g.text for g in gold if int(g.id[1:]) < 3360]
    assert not any(_select_tool().repeats(g.text, earlier) for g in thirteenth)
    # The record only: no letterhead (registry number, department, classification lines).
    assert not any(re.search(r"\bDNR\b|DEPARTMENT:|CLASSIFICATION", g.text) for g in thirteenth)


def test_fourteenth_round_is_development_on_new_documents():
    """The fourteenth round (g3688-g4178): two ECB monetary policy accounts, select_gold_round14.py; held back for
    one look (session 12), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round14")
    gold = load_gold()
    fourteenth = [g for g in gold if 3688 <= int(g.id[1:]) < 4179]
    # The screen's 491 sentences less the 3 that repeat a sentence of rounds 1-13, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {"g3809", "g4066", "g4103"}
    assert [g.id for g in fourteenth] == [f"g{i}" for i in range(3688, 4179) if f"g{i}" not in dropped]
    assert len(fourteenth) == 488 and sum(len(g.relations) for g in fourteenth) == 193
    # The accounts published in 2024, latest first, whole: the first gave fewer than 300 sentences, two more.
    assert mod.ROUND14_FILES == sel.CANDIDATES[:2] and sel.MIN_SENTENCES == 300
    assert sel.CANDIDATES == sorted(sel.CANDIDATES, reverse=True) and all(f[:4] == "2024" for f in sel.CANDIDATES)
    per_file = [sum(g.file == f for g in fourteenth) for f in mod.ROUND14_FILES]
    assert per_file == [228, 260] and per_file[0] < sel.MIN_SENTENCES
    assert {g.document for g in fourteenth} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in fourteenth)
    earlier = [g.text for g in gold if int(g.id[1:]) < 3688]
    assert not any(_select_tool().repeats(g.text, earlier) for g in fourteenth)
    # The record only: no site navigation, attendance lists or footer.
    assert not any(re.search(r"Related topics|Copyright|Ms Lagarde, President|^#+ Members", g.text) for g in fourteenth)


def _round_rows(gold, first: int, stop: int, dropped: set[int], sentences: int, relations: int, held: bool = False):
    """A round's gold rows: ids ``first`` to ``stop`` - 1 less the ``dropped`` repeats, in order (for the held-back
    round, no id after them either), with its sentence and relation counts."""
    rows = [g for g in gold if first <= int(g.id[1:]) and (held or int(g.id[1:]) < stop)]
    assert [g.id for g in rows] == [f"g{i}" for i in range(first, stop) if i not in dropped]
    assert len(rows) == sentences and sum(len(g.relations) for g in rows) == relations
    return rows


def _assert_fetched_accounts_not_repeated(mod, gold, rows, first: int) -> None:
    """A round of ECB accounts (rounds 15 to 25): every sentence cites its saved page in the snapshot, repeats no
    sentence of the rounds before ``first`` and holds no page furniture."""
    assert all(g.origin and f"{mod.ECB_STATEMENTS_REPO}:data/ecb/accounts/" in g.origin for g in rows)
    earlier = [g.text for g in gold if int(g.id[1:]) < first]
    assert not any(_select_tool().repeats(g.text, earlier) for g in rows)
    assert not any(re.search(r"Related topics|Copyright|Ms Lagarde, President|^#+ Members", g.text) for g in rows)


def _assert_account_round(mod, sel, gold, rows, files: list[str], per_file: list[int], first: int, held: bool = False):
    """A round of whole ECB accounts (rounds 15 to 25): its sentences per account, the first account short of the
    selection's 300 sentences (so the next one was added), its split, and no repeat or page furniture."""
    assert [sum(g.file == f for g in rows) for f in files] == per_file and per_file[0] < sel.MIN_SENTENCES == 300
    if held:
        assert {g.document for g in rows} == set(mod.HELD_BACK_DOCUMENTS)
        assert all(g.split == "held_back" for g in rows)
    else:
        assert {g.document for g in rows} <= set(mod.RETIRED_HELD_BACK)
        assert all(g.split == "dev" for g in rows)
    _assert_fetched_accounts_not_repeated(mod, gold, rows, first=first)


def test_fifteenth_round_is_development_on_new_documents():
    """The fifteenth round (g4179-g4633): the next two ECB monetary policy accounts of 2024, select_gold_round15.py;
    held back for one look (session 13), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round15")
    round14 = _tool("select_gold_round14")
    gold = load_gold()
    # The screen's 455 sentences less the 24 that repeat a sentence of rounds 1-14, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {4179, 4244, 4292, 4293, 4294, 4322, 4323, 4324, 4325, 4365, 4367, 4368, 4449, 4504, 4509, 4510, 4511}
    dropped |= {4553, 4554, 4555, 4573, 4619, 4620, 4630}
    fifteenth = _round_rows(gold, 4179, 4634, dropped, 431, 126)
    # The accounts of 2024 the fourteenth round left, latest first, whole: the first gave fewer than 300 sentences.
    assert sel.CANDIDATES == round14.CANDIDATES[2:] and mod.ROUND15_FILES == sel.CANDIDATES[:2]
    assert not set(mod.ROUND15_FILES) & set(mod.ROUND14_FILES)
    _assert_account_round(mod, sel, gold, fifteenth, mod.ROUND15_FILES, [178, 253], first=4179)


def test_sixteenth_round_is_development_on_new_documents():
    """The sixteenth round (g4634-g5093): the next two ECB monetary policy accounts of 2024, select_gold_round16.py;
    held back for one look (session 14), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round16")
    round15 = _tool("select_gold_round15")
    gold = load_gold()
    # The screen's 460 sentences less the 27 that repeat a sentence of rounds 1-15, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {4634, 4675, 4698, 4700, 4704, 4707, 4708, 4709, 4710, 4754, 4768, 4769, 4805, 4822, 4856, 4857, 4858}
    dropped |= {4905, 4907, 4926, 4927, 4928, 4929, 4961, 4984, 5058, 5080}
    sixteenth = _round_rows(gold, 4634, 5094, dropped, 433, 157)
    # The accounts of 2024 the fifteenth round left, latest first, whole: the first gave fewer than 300 sentences.
    assert sel.CANDIDATES == round15.CANDIDATES[2:] and mod.ROUND16_FILES == sel.CANDIDATES[:2]
    assert not set(mod.ROUND16_FILES) & set(mod.ROUND15_FILES)
    _assert_account_round(mod, sel, gold, sixteenth, mod.ROUND16_FILES, [208, 225], first=4634)


def test_seventeenth_round_is_development_on_new_documents():
    """The seventeenth round (g5094-g5608): the last two ECB monetary policy accounts of 2024 in the snapshot,
    select_gold_round17.py; held back for one look (session 15), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round17")
    round16 = _tool("select_gold_round16")
    gold = load_gold()
    # The screen's 515 sentences less the 48 that repeat a sentence of rounds 1-16, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {5094, 5154, 5155, 5156, 5171, 5172, 5174, 5175, 5189, 5190, 5205, 5206, 5222, 5223, 5283, 5284}
    dropped |= {5290, 5294, 5295, 5319, 5340, 5341, 5346, 5347, 5407, 5417, 5418, 5419, 5431, 5435, 5436, 5437}
    dropped |= {5453, 5455, 5457, 5458, 5459, 5460, 5461, 5465, 5501, 5502, 5503, 5506, 5537, 5563, 5572, 5576}
    seventeenth = _round_rows(gold, 5094, 5609, dropped, 467, 164)
    # The accounts of 2024 the sixteenth round left, latest first, whole: the first gave fewer than 300 sentences.
    assert sel.CANDIDATES == round16.CANDIDATES[2:] and mod.ROUND17_FILES == sel.CANDIDATES
    assert not set(mod.ROUND17_FILES) & set(mod.ROUND16_FILES)
    _assert_account_round(mod, sel, gold, seventeenth, mod.ROUND17_FILES, [230, 237], first=5094)


def test_eighteenth_round_is_development_on_new_documents():
    """The eighteenth round (g5609-g6162): the latest two ECB monetary policy accounts of 2023, select_gold_round18.py;
    held back for one look (session 15), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round18")
    gold = load_gold()
    # The screen's 554 sentences less the 19 that repeat a sentence of rounds 1-17, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {5609, 5676, 5718, 5719, 5725, 5746, 5747, 5748, 5749, 5823, 5847, 5865, 5871, 5873, 5992, 5993}
    dropped |= {6005, 6091, 6119}
    eighteenth = _round_rows(gold, 5609, 6163, dropped, 535, 242)
    # The accounts of 2023, latest first, whole: the first gave fewer than 300 sentences.
    assert sel.CANDIDATES[0] == "20231123.html" and all(f.startswith("2023") for f in sel.CANDIDATES)
    assert mod.ROUND18_FILES == sel.CANDIDATES[:2] and not set(sel.CANDIDATES) & set(mod.ROUND17_FILES)
    _assert_account_round(mod, sel, gold, eighteenth, mod.ROUND18_FILES, [251, 284], first=5609)


def test_nineteenth_round_is_development_on_new_documents():
    """The nineteenth round (g6163-g6697): the next two ECB monetary policy accounts of 2023, select_gold_round19.py;
    held back for one look (session 16), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round19")
    round18 = _tool("select_gold_round18")
    gold = load_gold()
    # The screen's 535 sentences less the 23 that repeat a sentence of rounds 1-18, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {6163, 6181, 6204, 6255, 6299, 6300, 6309, 6345, 6346, 6347, 6438, 6489, 6510, 6515, 6542, 6543}
    dropped |= {6545, 6569, 6570, 6571, 6576, 6620, 6621}
    nineteenth = _round_rows(gold, 6163, 6698, dropped, 512, 186)
    # The accounts of 2023 the eighteenth round did not take, latest first, whole: the first gave fewer than 300.
    assert sel.CANDIDATES == [f for f in round18.CANDIDATES if f not in mod.ROUND18_FILES]
    assert mod.ROUND19_FILES == sel.CANDIDATES[:2]
    _assert_account_round(mod, sel, gold, nineteenth, mod.ROUND19_FILES, [265, 247], first=6163)


def test_twentieth_round_is_development_on_new_documents():
    """The twentieth round (g6698-g7212): the next two ECB monetary policy accounts of 2023, select_gold_round20.py;
    held back for one look (session 16), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round20")
    round19 = _tool("select_gold_round19")
    gold = load_gold()
    # The screen's 515 sentences less the 22 that repeat a sentence of rounds 1-19, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {6698, 6752, 6811, 6812, 6843, 6881, 6883, 6884, 6904, 6919, 6958, 7017, 7053, 7071, 7105, 7107}
    dropped |= {7108, 7109, 7113, 7154, 7192, 7204}
    twentieth = _round_rows(gold, 6698, 7213, dropped, 493, 196)
    # The accounts of 2023 rounds 18 and 19 did not take, latest first, whole: the first gave fewer than 300.
    assert sel.CANDIDATES == [f for f in round19.CANDIDATES if f not in mod.ROUND19_FILES]
    assert mod.ROUND20_FILES == sel.CANDIDATES[:2]
    _assert_account_round(mod, sel, gold, twentieth, mod.ROUND20_FILES, [250, 243], first=6698)


def test_twenty_first_round_is_development_on_new_documents():
    """The twenty-first round (g7213-g7766): the snapshot's last two ECB monetary policy accounts published in 2023,
    select_gold_round21.py; held back for one look (session 17), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round21")
    round20 = _tool("select_gold_round20")
    gold = load_gold()
    # The screen's 554 sentences less the 55 that repeat a sentence of rounds 1-20, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {7213, 7271, 7272, 7301, 7302, 7355, 7361, 7363, 7364, 7365, 7367, 7368, 7372, 7427, 7432, 7505}
    dropped |= {7507, 7508, 7548, 7549, 7575, 7576, 7577, 7602, 7604, 7610, 7611, 7612, 7613, 7614, 7615, 7621}
    dropped |= {7622, 7623, 7624, 7625, 7626, 7640, 7641, 7642, 7647, 7648, 7649, 7650, 7651, 7652, 7653, 7654}
    dropped |= {7655, 7684, 7685, 7687, 7689, 7700, 7759}
    twenty_first = _round_rows(gold, 7213, 7767, dropped, 499, 150)
    # The accounts of 2023 rounds 18 to 20 did not take, latest first, whole: the first gave fewer than 300.
    assert sel.CANDIDATES == [f for f in round20.CANDIDATES if f not in mod.ROUND20_FILES]
    assert mod.ROUND21_FILES == sel.CANDIDATES
    _assert_account_round(mod, sel, gold, twenty_first, mod.ROUND21_FILES, [278, 221], first=7213)


def test_twenty_second_round_is_development_on_new_documents():
    """The twenty-second round (g7767-g8304): the snapshot's latest two ECB monetary policy accounts published in 2022,
    select_gold_round22.py; held back for one look (session 17), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round22")
    gold = load_gold()
    # The screen's 538 sentences less the 14 that repeat a sentence of rounds 1-21, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {7767, 7874, 7881, 7903, 8047, 8055, 8056, 8079, 8159, 8169, 8172, 8212, 8238, 8294}
    twenty_second = _round_rows(gold, 7767, 8305, dropped, 524, 192)
    # The accounts of 2022, latest first, whole: the first gave fewer than 300 sentences.
    assert all(f.startswith("2022") for f in sel.CANDIDATES) and mod.ROUND22_FILES == sel.CANDIDATES[:2]
    assert not set(sel.CANDIDATES) & {g.file for g in gold if int(g.id[1:]) < 7767}
    _assert_account_round(mod, sel, gold, twenty_second, mod.ROUND22_FILES, [283, 241], first=7767)


def test_twenty_third_round_is_development_on_new_documents():
    """The twenty-third round (g8305-g8867): the next two ECB monetary policy accounts published in 2022,
    select_gold_round23.py; held back for one look (session 17), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round23")
    round22 = _tool("select_gold_round22")
    gold = load_gold()
    # The screen's 563 sentences less the 11 that repeat a sentence of rounds 1-22, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {8305, 8337, 8415, 8461, 8559, 8563, 8566, 8604, 8690, 8750, 8859}
    twenty_third = _round_rows(gold, 8305, 8868, dropped, 552, 138)
    # The accounts of 2022 the twenty-second round did not take, latest first, whole: the first gave fewer than 300.
    assert sel.CANDIDATES == [f for f in round22.CANDIDATES if f not in mod.ROUND22_FILES]
    assert mod.ROUND23_FILES == sel.CANDIDATES[:2]
    _assert_account_round(mod, sel, gold, twenty_third, mod.ROUND23_FILES, [255, 297], first=8305)


def test_twenty_fourth_round_is_development_on_new_documents():
    """The twenty-fourth round (g8868-g9427): the next two ECB monetary policy accounts published in 2022,
    select_gold_round24.py; held back for one look (session 17), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round24")
    round23 = _tool("select_gold_round23")
    gold = load_gold()
    # The screen's 560 sentences less the 9 that repeat a sentence of rounds 1-23, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {8868, 8902, 8955, 8962, 8997, 9077, 9136, 9159, 9358}
    twenty_fourth = _round_rows(gold, 8868, 9428, dropped, 551, 223)
    # The accounts of 2022 rounds 22 and 23 did not take, latest first, whole: the first gave fewer than 300.
    assert sel.CANDIDATES == [f for f in round23.CANDIDATES if f not in mod.ROUND23_FILES]
    assert mod.ROUND24_FILES == sel.CANDIDATES[:2]
    _assert_account_round(mod, sel, gold, twenty_fourth, mod.ROUND24_FILES, [262, 289], first=8868)


def test_twenty_fifth_round_is_development_on_new_documents():
    """The twenty-fifth round (g9428-g9902): the snapshot's last two ECB monetary policy accounts published in 2022
    (of the December 2021 and February 2022 meetings), select_gold_round25.py; held back for one look (session 18),
    then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round25")
    round24 = _tool("select_gold_round24")
    gold = load_gold()
    # The screen's 475 sentences less the 38 that repeat a sentence of rounds 1-24, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {9428, 9540, 9544, 9617, 9663, 9743, 9749, 9759, 9760, 9761, 9762, 9766, 9773, 9774, 9776, 9777}
    dropped |= {9781, 9786, 9787, 9790, 9791, 9793, 9794, 9796, 9798, 9805, 9806, 9807, 9808, 9809, 9810, 9812}
    dropped |= {9815, 9817, 9849, 9850, 9853, 9888}
    twenty_fifth = _round_rows(gold, 9428, 9903, dropped, 437, 120)
    # The accounts of 2022 rounds 22 to 24 did not take, latest first, then those of 2021; both of 2022 were needed.
    assert sel.CANDIDATES[:2] == [f for f in round24.CANDIDATES if f not in mod.ROUND24_FILES]
    assert mod.ROUND25_FILES == sel.CANDIDATES[:2]
    _assert_account_round(mod, sel, gold, twenty_fifth, mod.ROUND25_FILES, [231, 206], first=9428)


def test_twenty_sixth_round_is_development_on_new_documents():
    """The twenty-sixth round (g9903-g10327): FOMC minutes released in 2024, latest first, whole until 300 sentences,
    select_gold_round26.py; held back for one look (session 18), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round26")
    gold = load_gold()
    # The screen's 425 sentences less the 34 that repeat a sentence of rounds 1-25, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {9919, 10022, 10026, 10029, 10030, 10031, 10034, 10038, 10039, 10040, 10077, 10105, 10106, 10159}
    dropped |= {10162, 10169, 10170, 10171, 10173, 10177, 10178, 10183, 10303, 10306, 10312, 10313, 10314, 10315}
    dropped |= {10320, 10322, 10323, 10324, 10325, 10326}
    twenty_sixth = _round_rows(gold, 9903, 10328, dropped, 391, 102)
    assert mod.ROUND26_FILES == sel.CANDIDATES[:3] and "20241218.html" not in sel.CANDIDATES
    per_file = [sum(g.file == f for g in twenty_sixth) for f in mod.ROUND26_FILES]
    assert per_file == [129, 131, 131] and sum(per_file[:2]) < sel.MIN_SENTENCES <= sum(per_file)
    assert {g.document for g in twenty_sixth} == {doc for doc, _ in mod.ROUND26_DOCUMENTS.values()}
    assert {g.document for g in twenty_sixth} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in twenty_sixth)
    assert all(g.origin and f"{mod.ECB_STATEMENTS_REPO}:data/fed/minutes/" in g.origin for g in twenty_sixth)
    earlier = [g.text for g in gold if int(g.id[1:]) < 9903]
    assert not any(_select_tool().repeats(g.text, earlier) for g in twenty_sixth)
    # no attendance list, no footer, no doubly decoded punctuation
    assert not any(re.search(r"Jerome H\. Powell, Chair|Last Update|\u00e2\u0080", g.text) for g in twenty_sixth)


def test_twenty_seventh_round_is_development_on_new_documents():
    """The twenty-seventh round (g10328-g10751): the FOMC minutes of 2024 the twenty-sixth round left unread, latest
    first, whole until 300 sentences, select_gold_round27.py; held back for one look (session 19), then development
    (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round27")
    round26 = _tool("select_gold_round26")
    gold = load_gold()
    # The screen's 424 sentences less the 75 that repeat a sentence of rounds 1-26 (the minutes' recurring wording),
    # dropped before any reader ran; labelled blind (docs/gold-held-back-notes.md).
    dropped = {10328, 10329, 10345, 10346, 10351, 10352, 10369, 10375, 10387, 10390, 10391, 10403, 10440, 10442}
    dropped |= {10443, 10444, 10445, 10446, 10447, 10448, 10449, 10451, 10453, 10454, 10455, 10456, 10457, 10458}
    dropped |= {10459, 10460, 10472, 10478, 10485, 10506, 10517, 10518, 10523, 10526, 10591, 10593, 10594, 10595}
    dropped |= {10596, 10597, 10600, 10601, 10602, 10603, 10605, 10606, 10607, 10608, 10609, 10611, 10612, 10613}
    dropped |= {10614, 10615, 10641, 10644, 10694, 10695, 10706, 10735, 10737, 10741, 10742, 10743, 10744, 10745}
    dropped |= {10746, 10747, 10748, 10749, 10750}
    twenty_seventh = _round_rows(gold, 10328, 10752, dropped, 349, 114)
    # the minutes of 2024 the twenty-sixth round did not take, latest first
    assert sel.CANDIDATES == [f for f in round26.CANDIDATES if f not in mod.ROUND26_FILES]
    assert mod.ROUND27_FILES == sel.CANDIDATES[:3]
    per_file = [sum(g.file == f for g in twenty_seventh) for f in mod.ROUND27_FILES]
    assert per_file == [103, 128, 118] and sum(per_file[:2]) < sel.MIN_SENTENCES <= sum(per_file)
    assert {g.document for g in twenty_seventh} == {doc for doc, _ in mod.ROUND27_DOCUMENTS.values()}
    assert {g.document for g in twenty_seventh} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in twenty_seventh)
    assert all(g.origin and f"{mod.ECB_STATEMENTS_REPO}:data/fed/minutes/" in g.origin for g in twenty_seventh)
    earlier = [g.text for g in gold if int(g.id[1:]) < 10328]
    assert not any(_select_tool().repeats(g.text, earlier) for g in twenty_seventh)
    # no attendance list (before the record on these pages), no signature, no footer, no doubly decoded punctuation
    assert not any(
        re.search(r"Jerome H\. Powell, Chair|Joshua Gallin|Last Update|_{3,}|\u00e2\u0080", g.text)
        for g in twenty_seventh
    )


def test_twenty_eighth_round_is_development_on_new_documents():
    """The twenty-eighth round (g10752-g11257): the plain-text FOMC minutes of rounds 10-11's snapshot no round had
    read, latest first from March 2023, whole until 300 sentences, select_gold_round28.py; held back for one look
    (session 19), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round28")
    round10 = _tool("select_gold_round10")
    round11 = _tool("select_gold_round11")
    gold = load_gold()
    # The screen's 506 sentences less the 79 that repeat a sentence of rounds 1-27, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {10769, 10770, 10771, 10776, 10785, 10817, 10822, 10823, 10826, 10845, 10860, 10861, 10874, 10878}
    dropped |= {10879, 10880, 10881, 10884, 10885, 10886, 10887, 10888, 10890, 10891, 10892, 10895, 10896, 10897}
    dropped |= {10898, 10899, 10900, 10918, 10921, 10922, 10928, 10947, 10971, 10985, 10991, 11039, 11051, 11054}
    dropped |= {11055, 11058, 11059, 11060, 11061, 11064, 11065, 11068, 11069, 11071, 11072, 11073, 11075, 11076}
    dropped |= {11078, 11094, 11097, 11102, 11166, 11167, 11169, 11230, 11234, 11235, 11238, 11239, 11240, 11241}
    dropped |= {11244, 11245, 11249, 11250, 11252, 11253, 11254, 11255, 11256}
    twenty_eighth = _round_rows(gold, 10752, 11258, dropped, 427, 167)
    # latest first, none of the snapshot's minutes read before (rounds 10 and 11)
    used = set(round10.CANDIDATES) | set(round11.CANDIDATES)
    assert not used & set(sel.CANDIDATES)
    assert sel.CANDIDATES == sorted(sel.CANDIDATES, reverse=True)
    assert mod.ROUND28_FILES == sel.CANDIDATES[:3]
    per_file = [sum(g.file == f for g in twenty_eighth) for f in mod.ROUND28_FILES]
    assert per_file == [119, 153, 155] and sum(per_file[:2]) < sel.MIN_SENTENCES <= sum(per_file)
    assert {g.document for g in twenty_eighth} == {doc for doc, _ in mod.ROUND28_DOCUMENTS.values()}
    assert {g.document for g in twenty_eighth} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in twenty_eighth)
    assert all(g.origin and f"{mod.FOMC_REPO}:Minutes/" in g.origin for g in twenty_eighth)
    earlier = [g.text for g in gold if int(g.id[1:]) < 10752]
    assert not any(_select_tool().repeats(g.text, earlier) for g in twenty_eighth)
    # the record only: no title, meeting line or attendance list before the first section heading
    assert not any(
        re.search(r"Jerome H\. Powell, Chair|Minutes of the Federal Open Market Committee", g.text)
        for g in twenty_eighth
    )


def test_twenty_ninth_round_is_development_on_new_documents():
    """The twenty-ninth round (g11258-g11814): the plain-text FOMC minutes of 2022 no round had read, latest first from
    November 2022, whole until 300 sentences, select_gold_round29.py; held back for one look (session 19), then
    development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round29")
    round28 = _tool("select_gold_round28")
    gold = load_gold()
    # The screen's 557 sentences less the 113 that repeat a sentence of rounds 1-28, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {11281, 11283, 11293, 11302, 11315, 11319, 11330, 11332, 11335, 11336, 11337, 11338, 11339, 11365}
    dropped |= {11366, 11373, 11384, 11387, 11409, 11410, 11411, 11412, 11413, 11414, 11415, 11416, 11418, 11420}
    dropped |= {11421, 11422, 11423, 11424, 11425, 11426, 11427, 11428, 11429, 11430, 11431, 11432, 11433, 11434}
    dropped |= {11435, 11436, 11437, 11438, 11440, 11441, 11460, 11463, 11466, 11499, 11518, 11519, 11520, 11521}
    dropped |= {11522, 11523, 11524, 11556, 11560, 11567, 11570, 11590, 11591, 11592, 11593, 11594, 11597, 11598}
    dropped |= {11599, 11600, 11601, 11602, 11603, 11604, 11605, 11606, 11608, 11609, 11610, 11611, 11612, 11614}
    dropped |= {11615, 11626, 11643, 11655, 11656, 11712, 11713, 11714, 11715, 11716, 11771, 11774, 11792, 11793}
    dropped |= {11794, 11796, 11797, 11801, 11802, 11803, 11804, 11805, 11806, 11807, 11808, 11809, 11810, 11812}
    dropped |= {11813}
    twenty_ninth = _round_rows(gold, 11258, 11815, dropped, 444, 187)
    # the twenty-eighth round's unneeded candidate first, then the snapshot's earlier minutes of 2022, latest first
    assert sel.CANDIDATES[0] == round28.CANDIDATES[-1] and sel.CANDIDATES == sorted(sel.CANDIDATES, reverse=True)
    assert not set(sel.CANDIDATES) & set(mod.ROUND28_FILES)
    assert mod.ROUND29_FILES == sel.CANDIDATES[:3]
    per_file = [sum(g.file == f for g in twenty_ninth) for f in mod.ROUND29_FILES]
    assert per_file == [136, 137, 171] and sum(per_file[:2]) < sel.MIN_SENTENCES <= sum(per_file)
    assert {g.document for g in twenty_ninth} == {doc for doc, _ in mod.ROUND29_DOCUMENTS.values()}
    assert {g.document for g in twenty_ninth} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in twenty_ninth)
    assert all(g.origin and f"{mod.FOMC_REPO}:Minutes/2022/" in g.origin for g in twenty_ninth)
    earlier = [g.text for g in gold if int(g.id[1:]) < 11258]
    assert not any(_select_tool().repeats(g.text, earlier) for g in twenty_ninth)


def test_thirtieth_round_is_development_on_new_documents():
    """The thirtieth round (g11815-g12368): the plain-text FOMC minutes released in 2022 no round had read, latest
    first from June 2022, whole until 300 sentences, select_gold_round30.py; held back for one look (session 19), then
    development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round30")
    round29 = _tool("select_gold_round29")
    gold = load_gold()
    # The screen's 554 sentences less the 102 that repeat a sentence of rounds 1-29, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {11838, 11840, 11843, 11844, 11846, 11847, 11859, 11873, 11875, 11876, 11881, 11908, 11909, 11910}
    dropped |= {11911, 11913, 11945, 11953, 11956, 11960, 11962, 11964, 11968, 11969, 11970, 11972, 11976, 11981}
    dropped |= {11982, 11983, 11984, 11985, 11986, 11987, 11988, 11990, 11992, 11993, 11994, 11995, 11997, 11998}
    dropped |= {12000, 12025, 12026, 12028, 12032, 12035, 12036, 12060, 12062, 12100, 12101, 12103, 12142, 12143}
    dropped |= {12144, 12156, 12159, 12163, 12164, 12165, 12169, 12170, 12171, 12172, 12173, 12174, 12176, 12178}
    dropped |= {12180, 12181, 12182, 12183, 12184, 12185, 12186, 12221, 12228, 12229, 12285, 12286, 12288, 12289}
    dropped |= {12321, 12340, 12341, 12345, 12348, 12349, 12350, 12351, 12352, 12354, 12355, 12356, 12359, 12361}
    dropped |= {12362, 12363, 12365, 12366}
    thirtieth = _round_rows(gold, 11815, 12369, dropped, 452, 204)
    # the twenty-ninth round's unneeded candidates first, then the snapshot's earlier minutes released in 2022
    assert sel.CANDIDATES[:2] == round29.CANDIDATES[3:] and sel.CANDIDATES == sorted(sel.CANDIDATES, reverse=True)
    assert mod.ROUND30_FILES == sel.CANDIDATES[:3]
    per_file = [sum(g.file == f for g in thirtieth) for f in mod.ROUND30_FILES]
    assert per_file == [144, 151, 157] and sum(per_file[:2]) < sel.MIN_SENTENCES <= sum(per_file)
    assert {g.document for g in thirtieth} == {doc for doc, _ in mod.ROUND30_DOCUMENTS.values()}
    assert {g.document for g in thirtieth} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in thirtieth)
    assert all(g.origin and f"{mod.FOMC_REPO}:Minutes/2022/" in g.origin for g in thirtieth)
    earlier = [g.text for g in gold if int(g.id[1:]) < 11815]
    assert not any(_select_tool().repeats(g.text, earlier) for g in thirtieth)


def test_thirty_first_round_is_development_on_new_documents():
    """The thirty-first round (g12369-g12709): the plain-text FOMC minutes no round had read, latest first from
    December 2021 (January 2022 and November 2021 left out: the eleventh round's reading stops on them), whole until
    300 sentences, select_gold_round31.py; held back for one look (session 20), then development (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round31")
    round28, round30, round11 = _tool("select_gold_round28"), _tool("select_gold_round30"), _tool("select_gold_round11")
    gold = load_gold()
    # The screen's 341 sentences less the 37 that repeat a sentence of rounds 1-30, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {12411, 12413, 12416, 12422, 12437, 12479, 12480, 12482, 12483, 12484, 12485, 12535, 12541, 12542}
    dropped |= {12543, 12544, 12545, 12548, 12552, 12553, 12557, 12558, 12559, 12560, 12561, 12572, 12585, 12586}
    dropped |= {12634, 12635, 12636, 12694, 12695, 12698, 12699, 12700, 12706}
    thirty_first = _round_rows(gold, 12369, 12710, dropped, 304, 100)
    # the thirtieth round's unneeded candidates, less the two its reading stops on, then the earlier minutes of 2021
    assert sel.CANDIDATES[0] == round30.CANDIDATES[4] and sel.CANDIDATES == sorted(sel.CANDIDATES, reverse=True)
    assert round30.CANDIDATES[3] not in sel.CANDIDATES and not set(sel.CANDIDATES) & set(mod.ROUND30_FILES)
    with pytest.raises(ValueError, match="no section heading"):
        round11.record_start("Minutes of the Federal Open Market Committee\nThe Committee met.")
    assert mod.ROUND31_FILES == sel.CANDIDATES[:2]
    per_file = [sum(g.file == f for g in thirty_first) for f in mod.ROUND31_FILES]
    assert per_file == [168, 136] and per_file[0] < round28.MIN_SENTENCES <= sum(per_file)
    assert {g.document for g in thirty_first} == {doc for doc, _ in mod.ROUND31_DOCUMENTS.values()}
    assert {g.document for g in thirty_first} <= set(mod.RETIRED_HELD_BACK)
    assert all(g.split == "dev" for g in thirty_first)
    assert all(g.origin and f"{mod.FOMC_REPO}:Minutes/202" in g.origin for g in thirty_first)
    earlier = [g.text for g in gold if int(g.id[1:]) < 12369]
    assert not any(_select_tool().repeats(g.text, earlier) for g in thirty_first)


def test_thirty_second_round_is_held_back_on_new_documents():
    """The thirty-second round (g12710 on): the plain-text FOMC minutes of 2021 no round had read, latest first from
    July 2021, whole until 300 sentences, select_gold_round32.py, held back (issue 30)."""
    mod = _build_tool()
    sel = _tool("select_gold_round32")
    round28, round31 = _tool("select_gold_round28"), _tool("select_gold_round31")
    gold = load_gold()
    # The screen's 387 sentences less the 70 that repeat a sentence of rounds 1-31, dropped before any reader ran;
    # labelled blind (docs/gold-held-back-notes.md).
    dropped = {12746, 12750, 12757, 12759, 12770, 12809, 12814, 12823, 12831, 12832, 12834, 12850, 12864, 12865}
    dropped |= {12866, 12887, 12888, 12889, 12890, 12891, 12892, 12893, 12894, 12898, 12899, 12900, 12901, 12902}
    dropped |= {12903, 12904, 12905, 12906, 12907, 12908, 12909, 12910, 12911, 12950, 12951, 13014, 13015, 13016}
    dropped |= {13017, 13018, 13020, 13052, 13054, 13055, 13068, 13069, 13070, 13071, 13072, 13073, 13074, 13077}
    dropped |= {13080, 13081, 13082, 13083, 13084, 13085, 13086, 13087, 13088, 13089, 13090, 13091, 13093, 13095}
    thirty_second = _round_rows(gold, 12710, 13097, dropped, 317, 77, held=True)
    # the thirty-first round's unneeded candidates first, then the snapshot's earlier minutes of 2021
    assert sel.CANDIDATES[:2] == round31.CANDIDATES[2:] and sel.CANDIDATES == sorted(sel.CANDIDATES, reverse=True)
    assert not set(sel.CANDIDATES) & set(mod.ROUND31_FILES)
    assert mod.ROUND32_FILES == sel.CANDIDATES[:2]
    per_file = [sum(g.file == f for g in thirty_second) for f in mod.ROUND32_FILES]
    assert per_file == [168, 149] and per_file[0] < round28.MIN_SENTENCES <= sum(per_file)
    assert {g.document for g in thirty_second} == set(mod.HELD_BACK_DOCUMENTS)
    assert all(g.split == "held_back" for g in thirty_second)
    assert all(g.origin and f"{mod.FOMC_REPO}:Minutes/2021/" in g.origin for g in thirty_second)
    earlier = [g.text for g in gold if int(g.id[1:]) < 12710]
    assert not any(_select_tool().repeats(g.text, earlier) for g in thirty_second)


def test_fomc_minutes_with_the_attendance_list_first_end_at_the_signature():
    """select_gold_round27: on pages whose attendance list comes before the record, the record runs from "Developments
    in Financial Markets and Open Market Operations" to the line of underscores above the Secretary's signature."""
    sel = _tool("select_gold_round27")
    round26 = _tool("select_gold_round26")
    page = (
        "<html><body><h3>Minutes of the Federal Open Market Committee</h3><p>Attendance</p>"
        "<p>Jerome H. Powell, Chair</p><p>Developments in Financial Markets and Open Market Operations</p>"
        "<p>Lower energy prices pulled inflation down.</p><p>Notation Vote</p><p>_______________________</p>"
        "<p>Joshua Gallin</p><p>Secretary</p></body></html>"
    )
    paras = round26.record_paragraphs(page, sel.RECORD_END)
    assert paras == [
        "Developments in Financial Markets and Open Market Operations",
        "Lower energy prices pulled inflation down.",
        "Notation Vote",
    ]
    # the twenty-sixth round's end alone finds no end after the record on such a page
    with pytest.raises(ValueError, match="Attendance"):
        round26.record_paragraphs(page)


def test_fomc_minutes_pages_are_read_from_the_first_heading_to_the_attendance_list():
    """select_gold_round26: the record is the paragraphs from "Developments in Financial Markets and Open Market
    Operations" to the paragraph "Attendance", with doubly decoded punctuation decoded back; a page without the
    heading is refused."""
    sel = _tool("select_gold_round26")
    page = (
        "<html><body><nav><p>Monetary Policy</p></nav><h3>Minutes of the Federal Open Market Committee</h3>"
        "<p>November 6\u00e2\u0080\u00937, 2024</p>"
        "<p>Developments in Financial Markets and Open Market Operations</p>"
        "<p>Higher energy prices pushed the Committee\u00e2\u0080\u0099s inflation forecast up.</p>"
        "<p>Attendance</p><p>Jerome H. Powell, Chair</p></body></html>"
    )
    paras = sel.record_paragraphs(page)
    assert paras == [
        "Developments in Financial Markets and Open Market Operations",
        "Higher energy prices pushed the Committee\u2019s inflation forecast up.",
    ]
    assert sel.undo_mojibake("6\u00e2\u0080\u00937 and caf\u00e9") == "6\u20137 and caf\u00e9"
    with pytest.raises(ValueError, match="Developments in Financial Markets"):
        sel.record_paragraphs(page.replace("Developments in Financial Markets", "Developments"))


def test_accounts_with_a_dated_heading_are_read_from_that_heading():
    """select_gold_round25: accounts whose heading carries the meeting date (no date line under it) are read from
    after that heading to the "Monetary policy statement" heading; a page without the dated heading is refused."""
    sel = _tool("select_gold_round25")
    page = (
        "<html><body><nav><p>Monetary policy & markets</p></nav>"
        "<h1>Meeting of 2-3 February 2022</h1>"
        "<h2>Account of the monetary policy meeting of the Governing Council of the European Central Bank held in "
        "Frankfurt am Main on Wednesday and Thursday, 2-3 February 2022</h2>"
        "<h2>1. Review of developments</h2><p>Higher energy prices pushed inflation up. Growth was weak.</p>"
        "<h4>Monetary policy statement</h4><p>Members</p><p>Ms Lagarde, President</p></body></html>"
    )
    paras = sel.record_paragraphs(page)
    assert paras[0] == "## 1. Review of developments"
    assert paras[-1] == "Higher energy prices pushed inflation up. Growth was weak."
    assert not any("Members" in p or "Lagarde" in p or "markets" in p or "Frankfurt" in p for p in paras)
    with pytest.raises(ValueError, match="Account of the monetary policy meeting"):
        sel.record_paragraphs(page.replace(", 2-3 February 2022</h2>", "</h2>"))


def test_ecb_accounts_are_read_between_their_date_line_and_the_statement_heading():
    """select_gold_round14: the record is the paragraphs after the account's date line and before its "Monetary
    policy statement" heading; a page without them is refused, naming the page."""
    sel = _tool("select_gold_round14")
    page = (
        "<html><body><nav><p>Monetary policy & markets</p></nav>"
        "<h1>Meeting of 16-17 October 2024</h1>"
        "<h2>Account of the monetary policy meeting of the Governing Council</h2><p>14 November 2024</p>"
        "<h2>1. Review of developments</h2><p>Lower energy prices pushed inflation down. Growth was weak.</p>"
        "<h4>Monetary policy statement</h4><p>Members</p><p>Ms Lagarde, President</p></body></html>"
    )
    paras = sel.record_paragraphs(page)
    assert paras[-1] == "Lower energy prices pushed inflation down. Growth was weak."
    assert not any("Members" in p or "Lagarde" in p or "November" in p or "markets" in p for p in paras)
    with pytest.raises(ValueError, match="Account of the monetary policy meeting"):
        sel.record_paragraphs("<html><body><p>Lower energy prices pushed inflation down.</p></body></html>")


def test_riksbank_statements_are_taken_from_their_decision_heading(tmp_path):
    """select_gold_round13: rows of type statement before 2025, latest first; the record from its decision heading."""
    sel = _tool("select_gold_round13")
    table = tmp_path / "communications_riksbank.csv"
    table.write_text(
        "Date,Release Date,Type,Text\n"
        '2023-02-09,,statement,"Annex A\nDNR 2023-00140\nThe Riksbank\u2019s decision\nThe policy rate is raised.\nIt\n'
        'is raised to bring inflation down."\n'
        '2025-02-01,,statement,"The Riksbank\u2019s decision\nLater."\n'
        '2024-12-19,,minutes,"Minutes"\n'
        '2024-11-07,,statement,"Annex A\nThe Riksbank\u2019s decision\nThe policy rate is cut."\n',
        encoding="utf-8",
    )
    rows = sel.statements(table)
    assert [name for name, _ in rows] == ["riksbank-2024-11-07.txt", "riksbank-2023-02-09.txt"]
    path = tmp_path / rows[1][0]
    path.write_text(rows[1][1], encoding="utf-8")
    sentences = sel.statement_sentences(path)
    assert sentences[0].startswith("The Riksbank\u2019s decision") and "DNR" not in " ".join(sentences)
    assert sentences[-1] == "It is raised to bring inflation down."
    with pytest.raises(ValueError, match="decision"):
        sel.record_text("Annex A\nThe policy rate is raised.")


def test_record_of_a_saved_statement_page_is_found_by_form():
    """select_gold_round12.record_paragraphs: after the place-and-date line, before "Related topics"."""
    sel = _tool("select_gold_round12")
    page = (
        "<html><body><nav><p>Monetary policy</p><p>Statistics</p></nav><h1>MONETARY POLICY STATEMENT</h1>"
        "<p>Frankfurt am Main, 14 December 2023</p><p>Good afternoon.</p><h2>Inflation</h2>"
        "<p>Inflation has dropped in recent months.</p><h4>Related topics</h4><p>Key ECB interest rates</p>"
        "<p>CONTACT</p></body></html>"
    )
    paras = sel.record_paragraphs(page)
    assert paras[0] == "Good afternoon." and paras[-1] == "Inflation has dropped in recent months."
    assert not any("Related topics" in p or "Monetary policy" == p or "CONTACT" == p for p in paras)
    with pytest.raises(ValueError, match="place-and-date"):
        sel.record_paragraphs("<p>Inflation has dropped.</p><h4>Related topics</h4>")
    with pytest.raises(ValueError, match="Related topics"):
        sel.record_paragraphs("<p>Frankfurt am Main, 14 December 2023</p><p>Inflation has dropped.</p>")


def test_record_start_of_minutes_with_and_without_section_headings():
    """select_gold_round11.record_start: the tenth round's heading, else the end of the attendance list."""
    sel = _tool("select_gold_round11")
    heading = _tool("select_gold_round10").MINUTES_START
    attendance = (
        "Minutes of the Meeting PRESENT: Mr. Bernanke, Chairman Ms. Duke Mr. Fisher "
        "Ms. Smith, Economist, Board of Governors Mr. Jones, Vice President, Federal Reserve Bank of New York "
    )
    record = "The information reviewed at the meeting indicated that activity had weakened further. " * 20
    # Without the heading the record starts after the affiliation that ends the last attendance entry.
    text = attendance + record
    assert text[sel.record_start(text) :].strip() == record.strip()
    # With it, the tenth round's rule holds: the record starts at the heading.
    text = attendance + heading + " " + record
    assert sel.record_start(text) == text.index(heading)
    # Neither a heading nor an attendance list: the rule does not apply.
    with pytest.raises(ValueError, match="attendance"):
        sel.record_start(record)


def _page_sentences(path, pages):
    """Sentences per page as the gold set reads them: PDF page text, HTML paragraphs or plain-text minutes (page 1)."""
    import re

    if path.name.startswith("riksbank-"):  # the thirteenth round's reading
        return {1: _tool("select_gold_round13").statement_sentences(path)}
    if path.name in _build_tool().ROUND26_FILES:  # the twenty-sixth round's reading (punctuation decoded back)
        return {1: _tool("select_gold_round26").minutes_sentences(path)}
    if path.name in _build_tool().ROUND27_FILES:  # the twenty-seventh round's (ended at the signature line)
        return {1: _tool("select_gold_round27").minutes_sentences(path)}
    if path.suffix == ".txt":  # the eleventh round's reading: the tenth round's where the heading is present
        return {1: _tool("select_gold_round11").minutes_sentences(path)}
    if path.suffix == ".html":
        from aieco.sources.text import html_to_text

        paras = re.split(r"\n\s*\n", html_to_text(path.read_text(encoding="utf-8")))
        return {1: [s for p in paras for s in split_sentences(p)]}
    pdfplumber = pytest.importorskip("pdfplumber")
    with pdfplumber.open(path) as pdf:
        return {p: split_sentences(pdf.pages[p - 1].extract_text() or "") for p in pages}


def _reread(gold, folder, files):
    by_file = defaultdict(list)
    for g in gold:
        if g.file in files:
            by_file[g.file].append(g)
    for name, rows in by_file.items():
        assert not name.startswith("boe") and "imf" not in name and "bankofengland" not in name
        pages = _page_sentences(folder / name, {g.page for g in rows})
        for g in rows:
            assert g.text in pages[g.page], f"{g.id} not found on {name} p. {g.page}"


def test_every_gold_sentence_is_read_from_its_pdf(gold, shared_data):
    shared = {g.file for g in gold if g.origin is None}
    assert {f for f in shared if (shared_data / "docs" / f).exists()} == shared
    _reread(gold, shared_data / "docs", shared)


def test_sentences_of_fetched_documents_are_read_from_a_local_copy(gold):
    """Documents outside the shared data (Federal Reserve PDFs, web pages) carry their origin; re-read when given."""
    import os
    from pathlib import Path

    fetched = {g.file: g.origin for g in gold if g.origin is not None}
    assert fetched, "the second labelling round added fetched documents"
    for name, origin in fetched.items():
        assert "sha256 " in origin and "github:" in origin, name
        assert "IMF" not in origin and "Bank of England" not in origin, name
    folder = os.environ.get("AIECO_EXTRA_DOCS")
    if not folder or not all((Path(folder) / f).exists() for f in fetched):
        pytest.skip(
            "set AIECO_EXTRA_DOCS to a folder holding "
            + ", ".join(sorted(fetched))
            + " (origin and sha256 in each gold line) to re-read these sentences"
        )
    _reread(gold, Path(folder), set(fetched))


def _sentence(i: str, rels: list[tuple[str, str, str]], neg: str | None = None, split: str = "dev"):
    return GoldSentence(
        id=i,
        file="x.pdf",
        page=1,
        document="d",
        split=split,
        text="t",
        relations=[GoldRelation(src=a, dst=b, sign=s) for a, b, s in rels],
        negative=neg,
    )


def test_score_hand_computed():
    gold = [
        _sentence("a", [("tariffs", "real_gdp", "-"), ("tariffs", "inflation", "+")]),
        _sentence("b", [], "co-movement"),
        _sentence("c", [("real_gdp", "unemployment", "-")]),
    ]
    proposed = {
        "a": {("tariffs", "real_gdp", "-"), ("tariffs", "inflation", "-")},  # 1 TP, 1 wrong sign
        "b": {("volatility", "equity_prices", "+"), ("volatility", "equity_prices", "absent")},  # 1 FP on a negative
        "c": set(),  # a miss
    }
    s = score(gold, proposed, "dev")
    assert (s.proposed, s.true_positives, s.gold_relations) == (3, 1, 3)
    assert s.precision == round(1 / 3, 4) and s.recall == round(1 / 3, 4)
    assert s.false_positives_on_negatives == 1 and s.negatives_with_false_positive == 1
    assert s.false_positives_by_kind == {"co-movement": 1}


def _split_score(split, proposed, tp, gold_relations, sentences=10):
    return SplitScore(
        split=split,
        sentences=sentences,
        gold_relations=gold_relations,
        proposed=proposed,
        true_positives=tp,
        precision=round(tp / proposed, 4),
        recall=round(tp / gold_relations, 4),
        negatives=0,
        false_positives_on_negatives=0,
        negatives_with_false_positive=0,
        false_positives_by_kind={},
    )


def test_reader_note_states_the_held_back_figures_next_to_the_development_ones():
    scores = {"held_back": _split_score("held_back", 8, 3, 12, 40), "dev": _split_score("dev", 20, 18, 30)}
    note = reader_note(["offline", None], scores)
    assert "offline rule reader" in note
    assert "40 sentences, 12 labelled relations" in note
    assert "3 of the 8 relations it proposed were right (precision 0.38)" in note
    assert "found 3 of the 12 (recall 0.25)" in note
    assert "precision 0.90 and recall 0.60" in note  # development: 18/20, 18/30
    assert "--backend openai" not in note
    llm = reader_note(["openai"], scores)
    assert "openai backend" in llm and "aieco bench extraction --backend openai" in llm
    assert "offline" not in llm
    assert reader_note([None, None], scores) is None  # only an analyst's corrections


def test_reader_note_names_the_reader_that_read_and_gives_its_own_figures(monkeypatch):
    from aieco.extraction import gold as gold_module

    scores = {"held_back": _split_score("held_back", 8, 3, 12, 40), "dev": _split_score("dev", 20, 18, 30)}
    note = reader_note(["offline"], scores, reader="combined")
    assert "offline rule and learned readers combined" in note and "3 of the 8 relations" in note
    assert "offline learned reader" in reader_note(["offline"], scores, reader="learned")
    calls = []

    def fake(reader, gold, split="held_back", vocab=None):
        calls.append((reader, split))
        return scores[split]

    monkeypatch.setattr(gold_module, "reader_split_score", fake)
    monkeypatch.setattr(gold_module, "load_gold", lambda: [])
    # without a current record (tests/test_reader_scores.py covers the recorded path), the figures are computed
    monkeypatch.setattr(gold_module, "recorded_scores", lambda reader: None)
    gold_module.other_reader_scores.cache_clear()
    assert "precision 0.38" in reader_note(["offline"], reader="learned")
    assert calls == [("learned", "held_back"), ("learned", "dev")]  # the learned reader's figures, not the rules'
    gold_module.other_reader_scores.cache_clear()  # the stand-in figures stay in this test


@pytest.mark.parametrize(
    "extractor, backend",
    [
        ("extraction@v3/offline", "offline"),
        ("extract_relations@1/offline/reader=combined", "offline"),
        ("extraction@v3/openai", "openai"),
        ("review:rel-abc", None),
        ("", None),
    ],
)
def test_backend_of_an_extractor(extractor, backend):
    from aieco.review import offline_reader_of

    assert backend_of(extractor) == backend
    assert offline_reader_of(extractor) == ("combined" if "reader=" in extractor else "rules")


@pytest.mark.parametrize(
    "line, what",
    [
        ("{not json", "malformed"),
        (
            json.dumps(
                {
                    "id": "x",
                    "file": "f",
                    "page": 1,
                    "document": "d",
                    "split": "test",
                    "text": "t",
                    "relations": [],
                    "negative": "level",
                }
            ),
            "split",
        ),
        (
            json.dumps(
                {
                    "id": "x",
                    "file": "f",
                    "page": 1,
                    "document": "d",
                    "split": "dev",
                    "text": "t",
                    "relations": [],
                    "negative": None,
                }
            ),
            "relations or a negative",
        ),
    ],
)
def test_bad_gold_file_is_an_input_error(tmp_path, line, what):
    p = tmp_path / "g.jsonl"
    p.write_text(line + "\n")
    with pytest.raises(InputError, match=what):
        load_gold(p)


def test_offline_reader_meets_the_targets_on_the_development_part():
    from aieco.benchmarks import run_section

    figs = {f["name"]: f for f in run_section("extraction")["figures"]}
    assert figs["dev: precision"]["value"] >= 0.80
    # Issue 15's targets (precision >= 0.80, recall >= 0.50) hold on the development part through the ninth
    # round (2,283 sentences: 0.90 / 0.50). The tenth round (two FOMC minutes, 130 relations, blind once at
    # 0.72 / 0.32, then tuned on) joined the development part in session 9 and is read at 0.80 / 0.38; the
    # eleventh (two FOMC minutes, 146 relations, blind once at 0.67 / 0.21, then tuned on) joined in session 11
    # and is read at 0.81 / 0.33, and the twelfth (four ECB press conferences, 151 relations, blind once at 0.77 /
    # 0.26, then tuned on) joined later in session 11 and is read at 0.85 / 0.40 (session 12), and the thirteenth
    # (thirteen Riksbank decisions, 83 relations, blind once at 0.55 / 0.25, then tuned on) joined in session 12 and
    # is read at 0.83 / 0.41, and the fourteenth (two ECB accounts, 193 relations, blind once at 0.57 / 0.20, not
    # tuned on but for one rule's wrong reading) joined in session 13, at 0.83 / 0.404 for the whole; the fifteenth
    # (two more ECB accounts, 126 relations, blind once with the rules at 0.50 / 0.10, not tuned on) joined in session
    # 14. So the whole development part stood at 0.82 / 0.376. In session 15 the sixteenth (157 relations, blind at
    # 0.63 / 0.20) and seventeenth rounds (164, blind at 0.60 / 0.16) joined, each then tuned on: the whole
    # development part stood at 0.816 / 0.367. In session 16 the eighteenth (242 relations, blind at 0.59 / 0.20) and
    # nineteenth rounds (186, blind at 0.67 / 0.27) joined, each then tuned on: the whole development part (rounds
    # 1-19) stands at 0.816 / 0.376; in session 17 rounds 20-23 joined, each then tuned on (0.824 / 0.366). In
    # session 18 the twenty-fourth (223 relations, blind with the rules at 0.75 / 0.22) joined before any pass on
    # it: the whole development part (rounds 1-24) stood at 0.820 / 0.354 when it joined, so the floor, 0.365 until
    # then, is 0.35, a guard against regressions; the gap to 0.50 is stated in docs/labelling-guide.md rather than
    # closed by tuning on the rounds that joined.
    assert figs["dev: recall"]["value"] >= 0.35
    vocab = load_vocabulary()
    through_ninth = [g for g in load_gold() if g.split == "dev" and int(g.id[1:]) < 2314]
    proposed = {
        g.id: {(r.src, r.dst, r.sign.value) for r in read_sentence(g.text, vocab) if r.sign.value in "+-"}
        for g in through_ninth
    }
    issue15 = score(through_ninth, proposed, "dev")
    assert issue15.precision >= 0.80 and issue15.recall >= 0.50, (issue15.precision, issue15.recall)
    assert "held_back: precision" in figs and "|dev - held_back| recall" in figs
    for split in ("dev", "held_back", "all"):
        for what in ("sentences", "documents", "gold relations", "false positives on negatives", "recall"):
            assert f"{split}: {what}" in figs, (split, what)
    gold = load_gold()
    assert figs["held_back: sentences"]["value"] == sum(g.split == "held_back" for g in gold)
    assert figs["held_back: gold relations"]["value"] == sum(len(g.relations) for g in gold if g.split == "held_back")
    # The held-back figures, and the whole set's, which contain them, are reported, not asserted: the
    # held-back part is a blind round scored once in aggregate (docs/labelling-guide.md; round 9: rules
    # P 0.59, R 0.16), far from the issue's "within 0.1"; its per-sentence output is not read.
    assert (
        figs["all: gold relations"]["value"]
        == figs["dev: gold relations"]["value"] + figs["held_back: gold relations"]["value"]
    )


def _oracle(gold_by_id):
    """A stub model that answers with the gold labels of the dev sentences and nothing else."""

    def respond(body):
        payload = json.loads(_input_json(body))
        rels = []
        for st in payload["statements"]:
            g = gold_by_id[st["candidate_id"]]
            if g.split == "dev":
                rels += [
                    {
                        "candidate_id": g.id,
                        "src_var": r.src,
                        "dst_var": r.dst,
                        "sign": r.sign,
                        "evidence_class": "descriptive",
                        "verb": "",
                        "quote": st["text"],
                        "confidence": 0.9,
                        "horizon": None,
                        "jurisdiction": None,
                        "sector": None,
                        "regime": None,
                        "empirical_basis": None,
                    }
                    for r in g.relations
                ]
        return 200, responses_body(canonical_json({"relations": rels}), body["model"])

    return respond


def _input_json(body) -> str:
    def strings(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for v in node.values():
                yield from strings(v)
        elif isinstance(node, list):
            for v in node:
                yield from strings(v)

    msg = next(s for s in strings(body) if "Input (JSON):" in s)
    return msg.split("Input (JSON):\n", 1)[1]


def test_bench_extraction_with_the_openai_backend_against_a_local_endpoint(monkeypatch, gold):
    from click.testing import CliRunner

    from aieco.cli import main

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with StubServer() as server:
        server.fallback["/v1/responses"] = _oracle({g.id: g for g in gold})
        out = CliRunner().invoke(
            main, ["bench", "extraction", "--backend", "openai", "--base-url", server.base_url, "--json"]
        )
        assert out.exit_code == 0, out.output
        assert server.requests and all(path == "/v1/responses" for path, _ in server.requests)
    figs = {f["name"]: f["value"] for f in json.loads(out.stdout)["figures"]}
    assert figs["dev: precision"] == 1.0 and figs["dev: recall"] == 1.0
    assert figs["held_back: recall"] == 0.0 and figs["held_back: proposed signed relations"] == 0
    assert figs["dev: false positives on negatives"] == 0
    assert figs["all: sentences not read (unusable answer)"] == 0


def _bench_openai(server, *args):
    from click.testing import CliRunner

    from aieco.cli import main

    return CliRunner().invoke(
        main, ["bench", "extraction", "--backend", "openai", "--base-url", server.base_url, "--json", *args]
    )


def test_llm_bench_reads_one_split_and_keeps_going_past_an_unusable_answer(monkeypatch, gold, tmp_path):
    """A small local model that answers one batch with broken JSON: that batch's sentences are counted as
    not read (and as proposing nothing), the other batches are scored, and nothing is lost: the same
    command again asks only for the refused batch and then scores every sentence."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    ws = ["--workspace", str(tmp_path / "ws")]  # the calls are recorded there (settings are read once per process)
    held = [g for g in gold if g.split == "held_back"]
    oracle = _oracle({g.id: g.model_copy(update={"split": "dev"}) for g in held})  # answers with the labels
    broken_first = held[0].id

    def flaky(body):
        if json.loads(_input_json(body))["statements"][0]["candidate_id"] == broken_first:
            return 200, responses_body('{"relations": [', body["model"])
        return oracle(body)

    with StubServer() as server:
        server.fallback["/v1/responses"] = flaky
        out = _bench_openai(server, "--split", "held_back", "--batch-size", "50", *ws)
        assert out.exit_code == 0, out.output
        asked_first = len(server.requests)
    assert asked_first == -(-len(held) // 50)
    figs = {f["name"]: f["value"] for f in json.loads(out.stdout)["figures"]}
    assert not any(name.startswith(("dev:", "all:")) for name in figs)  # one split only, no gap figure
    assert "|dev - held_back| recall" not in figs
    unread = figs["held_back: sentences not read (unusable answer)"]
    assert unread == 50 and figs["held_back: sentences"] == len(held)
    missed = sum(len(g.relations) for g in held[:50])
    assert figs["held_back: recall"] == round(
        (figs["held_back: gold relations"] - missed) / figs["held_back: gold relations"], 4
    )
    assert figs["held_back: precision"] == 1.0
    assert "not read" in out.stderr and "Run the command again" in out.stderr

    with StubServer() as server:  # the model answers properly now: only the refused batch is asked again
        server.fallback["/v1/responses"] = oracle
        again = _bench_openai(server, "--split", "held_back", "--batch-size", "50", *ws)
        assert again.exit_code == 0, again.output
        assert len(server.requests) == 1
        assert json.loads(_input_json(server.requests[0][1]))["statements"][0]["candidate_id"] == broken_first
    figs = {f["name"]: f["value"] for f in json.loads(again.stdout)["figures"]}
    assert figs["held_back: recall"] == 1.0 and figs["held_back: sentences not read (unusable answer)"] == 0


def test_backend_option_is_refused_for_other_sections():
    from click.testing import CliRunner

    from aieco.cli import main

    out = CliRunner().invoke(main, ["bench", "store", "--backend", "openai"])
    assert out.exit_code != 0 and "extraction section only" in out.output
    out = CliRunner().invoke(main, ["bench", "store", "--split", "dev"])
    assert out.exit_code != 0 and "--split" in out.output


def test_hedge_flags_follow_the_labelling_guide(gold):
    """Of the labelled relations the reader finds, the hedge flag agrees with the label (guide: "could", "may",
    "might" hedge; a scenario's "would" states its channel) — development part, the held-back part not read."""
    vocab = load_vocabulary()
    agree = total = 0
    for g in gold:
        if g.split != "dev":
            continue
        want = {(r.src, r.dst, r.sign): r.hedged for r in g.relations}
        for r in read_sentence(g.text, vocab):
            key = (r.src, r.dst, r.sign.value)
            if key in want:
                total += 1
                agree += want[key] == r.hedged
    # 0.95 until round 14 joined the development part (session 13): 455 of 483 (0.942) since, its labellers having
    # left plain the channels inside hedged risk-assessment conditionals ("growth could be higher if easier financing
    # conditions … led to a faster rebound in consumption", "inflation might surprise on the downside if …"), which
    # the reader flags hedged (8 readings in 4 sentences). With round 16 in the development part (session 15): 494 of
    # 528 (0.936), its labellers hedging "appeared/seemed" and reported judgements the reader reads plain; 530 of 565
    # (0.938) with session 15's rules; with round 17 too and the rules after its look, 567 of 603 (0.940).
    assert total > 150 and agree / total >= 0.93, (agree, total)


@pytest.mark.parametrize(
    "sentence, hedged",
    [
        ("The economic slowdown would result in an increase in unemployment.", False),
        ("Higher tariffs could reduce trade volumes.", True),
        ("Higher tariffs may reduce trade volumes.", True),
        ("Higher wages tend to raise inflation.", False),
        ("Higher tariffs reduced trade volumes.", False),
    ],
)
def test_would_states_a_scenario_channel_could_and_may_hedge_it(sentence, hedged):
    (r,) = [r for r in read_sentence(sentence, load_vocabulary()) if r.sign.value in "+-"]
    assert r.hedged is hedged


def test_a_spent_budget_ends_the_gold_reading_instead_of_counting_sentences_as_unread(gold, tmp_path):
    from aieco.errors import BudgetStopped
    from aieco.extraction.gold import read_gold
    from aieco.llm.base import LLMClient, OfflineBackend
    from aieco.store import Store

    client = LLMClient(Store(tmp_path / "ws"), OfflineBackend(), analysis_id="extraction-gold", budget=1)
    with pytest.raises(BudgetStopped, match="request budget of 1"):
        read_gold(gold[:4], client, batch_size=2)


def test_a_second_labelling_of_the_sixteenth_round_agrees_with_the_first():
    """tools/labeller_agreement.py: three more labellers labelled round 16 again after its look, blind to the first
    labels (docs/labelling-guide.md, Session 14); the counts the guide states are re-read from their file."""
    agree = _tool("labeller_agreement")
    second = json.loads(agree.SECOND.read_text(encoding="utf-8"))
    gold = load_gold()
    assert set(second) == {g.id for g in gold if 4634 <= int(g.id[1:]) < 5094}
    got = agree.agreement(second, gold)
    assert (got["sentences"], got["gold"], got["second"], got["agreed"]) == (433, 157, 157, 149)
    assert [d[0] for d in got["differ"]][:3] == ["g4713", "g4737", "g4749"] and len(got["differ"]) == 11
    assert agree.relations("NEG:level") == set()
    assert agree.relations("wages>inflation:+:h;policy_rate>real_gdp:-") == {
        ("wages", "inflation", "+"),
        ("policy_rate", "real_gdp", "-"),
    }
    with pytest.raises(ValueError, match="not in the gold set"):
        agree.agreement({"g999999": "NEG:other"}, gold)
