"""Knowledge-graph commands: vocab, graph build, graph render, paths."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path as FilePath
from typing import Any

import click
from tqdm import tqdm

from aieco.cli.backtest import executor_option
from aieco.cli.base import CliState, common, emit, main, pass_state
from aieco.errors import InputError


@main.command()
@common
@pass_state
def vocab(state: CliState) -> None:
    """List the controlled vocabulary: variable ids, labels, synonyms, model variables."""
    from aieco.vocab import load_vocabulary

    v = load_vocabulary()
    rows = [
        {
            "variable_id": x.variable_id,
            "label": x.label,
            "synonyms": x.synonyms,
            "adverse_direction": x.adverse_direction.value if x.adverse_direction else None,
            "model_variable": x.model_variable,
            "reference": v.reference(x.variable_id) if x.model_variable else None,
        }
        for x in v.variables.values()
    ]

    def human(rs: list[dict[str, Any]]) -> str:
        return "\n".join(
            f"{r['variable_id']:<28} {r['label']}"
            + (f"  [model: {r['model_variable']}]" if r["model_variable"] else "")
            + f"\n{'':<28} {', '.join(r['synonyms'])}"
            for r in rs
        )

    emit(state, rows, human)


@main.group()
def graph() -> None:
    """Build and draw the relation graph."""


def _cap(value: str | None) -> int | None | str:
    """--max-candidates: a positive number, or "none" for no cap (default: the settings' cap)."""
    from aieco.extraction.build import SETTINGS_CAP

    if value is None:
        return SETTINGS_CAP
    if value.strip().lower() == "none":
        return None
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise InputError(
            f"--max-candidates {value!r} is not a positive number or 'none'",
            where="aieco graph build",
            fix="e.g. --max-candidates 600, or --max-candidates none",
        )
    return n


@graph.command("build")
@click.option(
    "--condition",
    type=click.Choice(["G0", "G1", "G2"]),
    default="G0",
    show_default=True,
    help="G0 screen, G1 decomposition, G2 verification.",
)
@click.option(
    "--max-candidates",
    "max_candidates",
    default=None,
    metavar="N|none",
    help="Candidate sentences to extract (default: settings.graph.candidate_cap; 'none': all).",
)
@click.option(
    "--request",
    "request_file",
    type=click.Path(path_type=FilePath, exists=True, dir_okay=False),
    default=None,
    help="Analysis request whose channel queries rank candidates under the cap.",
)
@click.option(
    "--reader",
    type=click.Choice(["rules", "learned", "combined", "strict"]),
    default="combined",
    show_default=True,
    help="Offline reader: the rules, the learned pair classifier, or both (rules first, the classifier for pairs "
    "the rules leave silent; at least as good as the rules on the blind rounds 10 to 15), or strict (both, less the "
    "rule readings the classifier all but rules out: more precise blind, fewer relations; docs/labelling-guide.md).",
)
@executor_option
@common
@pass_state
def graph_build(
    state: CliState,
    condition: str,
    max_candidates: str | None,
    request_file: FilePath | None,
    reader: str,
    executor: str | None,
    workers: int | None,
) -> None:
    """Extract relations from every registered passage (offline backend) and store them."""
    from aieco.evaluation.conditions import build_condition
    from aieco.records import SourceLocation

    cap = _cap(max_candidates)
    queries = []
    if request_file is not None:
        from aieco.request import load_request

        req = load_request(request_file)
        queries = [q for r in req.risks for q in req.channel_queries(r.name)]

    bars: dict[str, tqdm] = {}

    def progress(step: str, done: int, total: int) -> None:
        bar = bars.get(step)
        if bar is None:
            bar = bars[step] = tqdm(total=total, desc=step, file=sys.stderr, disable=state.json)
        bar.update(done - bar.n)

    from contextlib import nullcontext

    from aieco.executors import make_executor

    with state.store() as store, make_executor(executor, workers) if executor else nullcontext() as ex:
        # recorded with the passages read, so `aieco evaluate` can check conditions share their input
        report = build_condition(
            store,
            condition,
            store.find(SourceLocation, kind="passage"),
            progress=progress,
            max_candidates=cap,
            queries=queries,
            executor=ex,
            reader=reader,
        )
    for bar in bars.values():
        bar.close()
    from aieco.extraction.gold import reader_note, recorded_scores

    if recorded_scores(reader) is None and not state.json:
        # the note's figures come from the score record; a stale one means reading the whole gold set now, the
        # held-back part included (a look at a blind round for anyone tuning the reader)
        click.echo(
            f"the recorded gold-set figures are out of date (gold set, vocabulary, learned artefact or reader code "
            f"changed since `python -m aieco.extraction.scores`): scoring the {reader} reader on the whole gold set, "
            f"held-back part included, for the note (about 20 s) …",
            err=True,
        )

    emit(
        state,
        {**report.model_dump(), "reader": reader, "reader_note": reader_note(["offline"], reader=reader)},
        lambda r: (
            f"{r['condition']}: {r['locations']} passages, {r['candidates']} candidate sentences "
            f"({r['dropped_by_cap']} skipped by the cap of {r['cap']}, ranked by {r['ranking']}), "
            f"{r['proposed']} proposed, {r['accepted']} accepted, "
            f"rejected {sum(r['rejected'].values())} {r['rejected'] or ''} in {r['seconds']} s\n"
            + (
                f"{r['resumed']} of the {r['requests']} requests were answered by calls an earlier build of this "
                "workspace recorded, not run again: they give that build's reading, even if the reader has changed "
                "since (build in a new workspace to read them afresh)\n"
                if r["resumed"]
                else ""
            )
            + f"{r['reader_note']}"
        ),
    )


@graph.command("render")
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=FilePath),
    default=FilePath("graph.html"),
    show_default=True,
    help="HTML file to write.",
)
@click.option("--as-of", "as_of", type=click.DateTime(["%Y-%m-%d"]), default=None, help="Cutoff date t of A(t).")
@click.option("--condition", default="G0", show_default=True)
@click.option("--role", "roles", multiple=True, default=("generation",), show_default=True)
@common
@pass_state
def graph_render(state: CliState, out: FilePath, as_of: Any, condition: str, roles: tuple[str, ...]) -> None:
    """Write the channel graph as a self-contained HTML page (opens offline)."""
    from aieco.graph.build import as_of_relations, load_relations
    from aieco.graph.render import write_graph_page
    from aieco.records import Source, SourceLocation

    with state.store(create=False) as store:
        rels = as_of_relations(
            load_relations(store, condition=condition),
            as_of.date() if as_of else None,
            roles=roles,
            condition=condition,
        )
        sources = {s.source_id: s for s in store.find(Source, source_id=sorted({r.source_id for r in rels}))}
        locs = {x.location_id: x for x in store.find(SourceLocation, location_id=sorted({r.location_id for r in rels}))}
    path = write_graph_page(out, rels, sources, locs)
    state.record_output(path)
    emit(state, {"path": str(path), "relations": len(rels)}, f"wrote {path} ({len(rels)} relations)")


def paths_json(paths: list, relations: dict, locations: dict) -> list[dict[str, Any]]:
    """The `paths --json` shape of DESIGN §5."""
    out = []
    for p in paths:
        rels = []
        for rid in p.relation_ids:
            r = relations[rid]
            loc = locations.get(r.location_id)
            entry: dict[str, Any] = {
                "relation_id": rid,
                "src": r.src_var,
                "dst": r.dst_var,
                "sign": r.sign.value,
                "quote": r.quote,
                "source_id": r.source_id,
            }
            if loc is not None and loc.page is not None:
                entry["page"] = loc.page
            elif loc is not None:
                entry["cell"] = f"{loc.sheet}!{loc.cell}" if loc.sheet else loc.cell
            rels.append(entry)
        out.append(
            {
                "rank": p.rank,
                "score": p.score,
                "variables": p.variables,
                "signs": [s.value for s in p.signs],
                "composed_sign": p.composed_sign.value,
                "relations": rels,
            }
        )
    return out


@main.command()
@click.option("--from", "src", required=True, help="Source variable id.")
@click.option("--to", "dst", required=True, help="Target variable id.")
@click.option("--as-of", "as_of", type=click.DateTime(["%Y-%m-%d"]), default=None, help="Cutoff date t of A(t).")
@click.option("--condition", default="G0", show_default=True, help="Graph condition of the relations.")
@click.option("--role", "roles", multiple=True, default=("generation",), show_default=True)
@click.option("--max-len", type=int, default=None, help="Most relations per path (default 5).")
@common
@pass_state
def paths(
    state: CliState, src: str, dst: str, as_of: Any, condition: str, roles: tuple[str, ...], max_len: int | None
) -> None:
    """Ranked signed paths from one variable to another, with scores and quotes."""
    from aieco.graph.build import as_of_relations, load_relations, relation_graph
    from aieco.graph.paths import enumerate_paths
    from aieco.records import Source, SourceLocation
    from aieco.review import citation_notes
    from aieco.scenario.channels import channel_query

    query = channel_query("adhoc", src, "increase", dst, "increase", max_len=max_len, feedback_loop=src == dst)
    cutoff: date | None = as_of.date() if as_of else None
    with state.store(create=False) as store:
        rels = as_of_relations(load_relations(store, condition=condition), cutoff, roles=roles, condition=condition)
        if not rels:
            raise InputError(
                f"no accepted {condition} relations in A(t) of {state.workspace}",
                fix="run `aieco graph build` after `aieco ingest`, or widen --as-of/--role",
            )
        found = enumerate_paths(relation_graph(rels), query, graph_condition=condition)
        used = {rid for p in found for rid in p.relation_ids}
        by_id = {r.relation_id: r for r in rels if r.relation_id in used}
        locs = {
            x.location_id: x
            for x in store.find(SourceLocation, location_id=sorted({r.location_id for r in by_id.values()}))
        }
        titles = {
            x.source_id: x.title for x in store.find(Source, source_id=sorted({r.source_id for r in by_id.values()}))
        }
        reading = citation_notes(store, sorted(by_id))
    data = paths_json(found, by_id, locs)
    for row in data:  # who read each relation and the analyst's decision in force
        for r in row["relations"]:
            r["reading"] = reading.get(r["relation_id"], "")

    def human(rows: list[dict[str, Any]]) -> str:
        if not rows:
            return f"no admissible path from {src} to {dst}"
        lines = []
        for row in rows:
            steps = zip(row["signs"], row["variables"][1:], strict=True)
            chain = row["variables"][0] + "".join(f" ({s})→ {v}" for s, v in steps)
            lines.append(f"#{row['rank']}  S={row['score']:.3f}  composed {row['composed_sign']}  {chain}")
            for r in row["relations"]:
                where = f"p.{r['page']}" if "page" in r else r.get("cell", "")
                lines.append(
                    f"     {r['src']} ({r['sign']})→ {r['dst']}: “{r['quote']}” "
                    f"[{titles.get(r['source_id'], r['source_id'])}, {where}; {r['reading']}]"
                )
        return "\n".join(lines)

    emit(state, data, human)
