"""`aieco vocab`, `aieco graph build`, `aieco graph render`, `aieco paths`."""

from __future__ import annotations

import json

from click.testing import CliRunner
from graph_corpus import register_documents

from aieco.cli import main
from aieco.store import Store


def run(*args):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result


def test_vocab_json():
    result = run("vocab", "--json")
    rows = json.loads(result.output)
    assert result.exit_code == 0 and len(rows) >= 40
    gdp = next(r for r in rows if r["variable_id"] == "real_gdp")
    assert gdp["model_variable"] == "real_gdp" and "gdp" in gdp["synonyms"] and gdp["reference"] == "zero"


def test_build_paths_and_render(tmp_path):
    ws = tmp_path / "ws"
    with Store(ws) as store:
        register_documents(store)
    built = run("graph", "build", "--workspace", str(ws), "--json")
    report = json.loads(built.output)
    assert built.exit_code == 0 and report["accepted"] > 10 and report["condition"] == "G0"
    # the default reader is the combined one (at least as good as the rules on the blind rounds 10 to 14)
    assert report["reader"] == "combined"
    assert "rule and learned readers combined" in report["reader_note"] and "not developed on" in report["reader_note"]
    text = run("graph", "build", "--workspace", str(ws), "--reader", "rules")  # the rules alone: their own note
    assert text.exit_code == 0 and "offline rule reader" in text.output and "recall" in text.output

    result = run(
        "paths", "--from", "tariffs", "--to", "real_gdp", "--as-of", "2024-12-31", "--workspace", str(ws), "--json"
    )
    rows = json.loads(result.output)
    assert result.exit_code == 0 and rows[0]["rank"] == 1
    top = rows[0]
    assert set(top) == {"rank", "score", "variables", "signs", "composed_sign", "relations"}
    assert top["variables"] == ["tariffs", "trade_volumes", "real_gdp"] and top["signs"] == ["-", "+"]
    assert top["composed_sign"] == "-"
    first = top["relations"][0]
    assert set(first) == {"relation_id", "src", "dst", "sign", "quote", "source_id", "page", "reading"}
    assert first["reading"] == "read by the offline rule reader; not reviewed by an analyst"
    assert "tariffs" in first["quote"].lower()

    human = run("paths", "--from", "house_prices", "--to", "real_gdp", "--workspace", str(ws))
    assert "#1" in human.output and "“" in human.output
    assert "[Housing report, p.2; read by the offline rule reader; not reviewed by an analyst]" in human.output

    out = tmp_path / "g.html"
    rendered = run("graph", "render", "--out", str(out), "--as-of", "2024-12-31", "--workspace", str(ws))
    assert rendered.exit_code == 0 and out.exists() and "vis.Network" in out.read_text(encoding="utf-8")


def test_paths_on_an_empty_workspace_says_how_to_fix(tmp_path):
    ws = tmp_path / "ws"
    Store(ws).close()
    result = CliRunner().invoke(
        main, ["paths", "--from", "tariffs", "--to", "real_gdp", "--workspace", str(ws), "--json"]
    )
    assert result.exit_code == 2 and "aieco graph build" in json.loads(result.output)["detail"]


def test_paths_with_an_unknown_variable_fails(tmp_path):
    result = CliRunner().invoke(
        main, ["paths", "--from", "moon", "--to", "real_gdp", "--workspace", str(tmp_path / "ws"), "--json"]
    )
    assert result.exit_code == 2 and "moon" in json.loads(result.output)["detail"]


def test_graph_build_g2_condition(tmp_path):
    ws = tmp_path / "ws"
    with Store(ws) as store:
        register_documents(store)
    result = run("graph", "build", "--condition", "G2", "--workspace", str(ws), "--json")
    report = json.loads(result.output)
    assert result.exit_code == 0 and report["condition"] == "G2" and report["accepted"] > 10
    bad = CliRunner().invoke(main, ["graph", "build", "--condition", "G9", "--workspace", str(ws)])
    assert bad.exit_code == 2


def test_a_build_with_another_reader_names_it_in_the_note_the_citations_and_the_dashboard(tmp_path, monkeypatch):
    """--reader combined: the build's note gives that reader's figures, each relation's citation names the reader,
    and the dashboard's note for those relations is the combined reader's (its figures stood in for here)."""
    from aieco.extraction import gold as gold_module
    from aieco.records import Relation
    from aieco.review import backend_of, citation_notes
    from dashboard.graph_views import reader_note_of

    stand_in = {
        "held_back": gold_module.offline_reader_scores()["held_back"],
        "dev": gold_module.offline_reader_scores()["dev"],
    }
    monkeypatch.setattr(gold_module, "other_reader_scores", lambda reader: stand_in)
    ws = tmp_path / "ws"
    with Store(ws) as store:
        register_documents(store)
    built = run("graph", "build", "--workspace", str(ws), "--reader", "combined", "--json")
    report = json.loads(built.output)
    assert built.exit_code == 0 and report["reader"] == "combined"
    assert "offline rule and learned readers combined" in report["reader_note"]
    with Store(ws) as store:
        rels = store.find(Relation)
        assert rels and all(r.extractor.endswith("/offline/reader=combined") for r in rels)
        assert {backend_of(r.extractor) for r in rels} == {"offline"}
        notes = citation_notes(store, [rels[0].relation_id])
        assert notes[rels[0].relation_id].startswith("read by the offline rule and learned readers combined;")
        note = reader_note_of(store, tuple(r.relation_id for r in rels))
        assert note.startswith("Read by the offline rule and learned readers combined.") and "openai" not in note


def test_build_says_when_the_note_has_to_score_the_gold_set_afresh(tmp_path, monkeypatch):
    """The reader note's figures come from the score record; only a stale record makes the build read the whole gold
    set (held-back part included), and then it says so before the wait."""
    import aieco.extraction.gold as gold

    ws = tmp_path / "ws"
    with Store(ws) as store:
        register_documents(store)
    fresh = CliRunner().invoke(main, ["graph", "build", "--workspace", str(ws), "--reader", "rules"])
    assert fresh.exit_code == 0 and "out of date" not in fresh.stderr
    monkeypatch.setattr(gold, "recorded_scores", lambda reader: None)
    stale = CliRunner().invoke(main, ["graph", "build", "--workspace", str(ws), "--reader", "rules"])
    assert stale.exit_code == 0 and "held-back part included" in stale.stderr
    assert "python -m aieco.extraction.scores" in stale.stderr and "offline rule reader" in stale.stdout


def test_a_rebuild_says_how_many_answers_it_took_from_the_earlier_build(tmp_path):
    """Offline answers recorded by an earlier build are resumed, not run again; the build says so, since a reader
    changed in between does not re-read those passages."""
    ws = tmp_path / "ws"
    with Store(ws) as store:
        register_documents(store)
    first = json.loads(run("graph", "build", "--workspace", str(ws), "--reader", "rules", "--json").output)
    assert first["requests"] > 0 and first["resumed"] == 0
    again = run("graph", "build", "--workspace", str(ws), "--reader", "rules")
    assert again.exit_code == 0
    assert f"{first['requests']} of the {first['requests']} requests were answered by calls an earlier build" in (
        again.output
    )
    assert "build in a new workspace to read them afresh" in again.output
