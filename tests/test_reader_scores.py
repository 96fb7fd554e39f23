"""The recorded reader scores (aieco/data/reader_scores.json) are the scores the gold set gives today, and a record
whose inputs changed is never used."""

from __future__ import annotations

import json

from aieco.extraction import gold as gold_module
from aieco.extraction import score_record, scores


def test_the_record_is_current_and_equals_the_scores_computed_now():
    """The record's digest is today's, and it equals the scores computed now: every split for the rules (through
    the offline extraction task), the held-back part for the learned, combined and strict readers. (Their development
    figures take the encoder over 4,131 sentences, about 40 s each: ``python -m aieco.extraction.scores --check``
    recomputes the whole record and compares.)"""
    data = json.loads(score_record.RECORD.read_text(encoding="utf-8"))
    assert data["inputs_sha256"] == score_record.inputs_digest(), (
        "aieco/data/reader_scores.json is out of date: after the held-back round's one look, "
        "run `python -m aieco.extraction.scores`"
    )
    gold = gold_module.load_gold()
    rules = {s.split: s for s in gold_module.evaluate(gold=gold)[0]}
    assert gold_module.recorded_scores("rules") == rules
    held = gold_module.reader_split_scores(("learned", "combined", "strict"), gold, "held_back")
    for reader in ("learned", "combined", "strict"):
        recorded = gold_module.recorded_scores(reader)
        assert set(recorded) == {"dev", "held_back"}
        assert recorded["held_back"] == held[reader], reader
    # the rule reader read sentence by sentence (reader_split_score) scores as the offline extraction task does,
    # and the combined reader adds to it
    by_sentence = gold_module.reader_split_score("rules", gold, "dev")
    task = rules["dev"]
    assert (by_sentence.proposed, by_sentence.true_positives, by_sentence.gold_relations) == (
        task.proposed,
        task.true_positives,
        task.gold_relations,
    )
    combined = gold_module.recorded_scores("combined")["dev"]
    assert combined.proposed >= task.proposed and combined.true_positives >= task.true_positives
    assert combined.gold_relations == task.gold_relations and combined.sentences == task.sentences


def test_the_check_compares_the_whole_record(monkeypatch):
    """``--check``: every reader's figures computed now against the record, differences named."""
    recorded = {r: gold_module.recorded_scores(r) for r in score_record.READERS}
    monkeypatch.setattr(scores, "compute_scores", lambda: recorded)
    assert scores.check_record() == []
    changed = {**recorded, "learned": {**recorded["learned"], "dev": recorded["learned"]["held_back"]}}
    monkeypatch.setattr(scores, "compute_scores", lambda: changed)
    assert scores.check_record() == ["learned dev"]


def test_a_record_of_other_inputs_is_not_used(tmp_path, monkeypatch):
    stale = json.loads(score_record.RECORD.read_text(encoding="utf-8"))
    stale["inputs_sha256"] = "0" * 64
    path = tmp_path / "reader_scores.json"
    path.write_text(json.dumps(stale), encoding="utf-8")
    assert score_record.recorded("rules", path) is None
    assert score_record.recorded("combined", tmp_path / "missing.json") is None
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    assert score_record.recorded("combined", tmp_path / "bad.json") is None


def test_the_digest_covers_the_labels_the_vocabulary_the_artefact_and_the_reader_code(tmp_path):
    package = tmp_path / "aieco"
    watched = ("data/extraction_gold.jsonl", "data/vocabulary.toml", "data/learned_reader.json", "extraction/rules.py")
    for rel in (*watched[:3], "vocab.py"):
        (package / rel).parent.mkdir(parents=True, exist_ok=True)
        (package / rel).write_text("x", encoding="utf-8")
    (package / "extraction").mkdir()
    (package / "extraction" / "rules.py").write_text("x", encoding="utf-8")
    before = score_record.inputs_digest(package)
    for rel in (
        "data/extraction_gold.jsonl",
        "data/vocabulary.toml",
        "data/learned_reader.json",
        "extraction/rules.py",
    ):
        (package / rel).write_text("y", encoding="utf-8")
        assert score_record.inputs_digest(package) != before, rel
        (package / rel).write_text("x", encoding="utf-8")
    assert score_record.inputs_digest(package) == before
    (package / "data" / "unrelated.csv").write_text("z", encoding="utf-8")
    assert score_record.inputs_digest(package) == before


def test_the_reader_note_uses_the_record_without_reading_the_gold_set(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the gold set was read although the record is current")

    monkeypatch.setattr(gold_module, "reader_split_score", refuse)
    monkeypatch.setattr(gold_module, "evaluate", refuse)
    gold_module.other_reader_scores.cache_clear()
    gold_module.offline_reader_scores.cache_clear()
    try:
        note = gold_module.reader_note(["offline"], reader="combined")
        recorded = gold_module.recorded_scores("combined")
        assert f"{recorded['held_back'].proposed} relations it proposed" in note
        assert gold_module.reader_note(["offline"], reader="rules")
    finally:
        gold_module.other_reader_scores.cache_clear()
        gold_module.offline_reader_scores.cache_clear()
