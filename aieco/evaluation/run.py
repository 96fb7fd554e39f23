"""`evaluate`: the evaluation of one graph condition against a benchmark, with its records.

Order (appendix "Evaluation Records"): read the benchmark file, collect the evaluated
graph, store an EvaluationRecord with the digests of benchmark, graph, manifest and
configuration (phase=registered) — only then validate and score, store the result
tables as an artifact and a second EvaluationRecord (phase=result). An invalid
benchmark is recorded as a stop with its reason and re-raised as StageStopped.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path as FilePath

import pandas as pd

from aieco.config import get_settings
from aieco.errors import InputError, StageStopped
from aieco.evaluation.agreement import AgreementResult, Repetition, agreement
from aieco.evaluation.benchmark import (
    SCORABLE_SIGNS,
    Benchmark,
    BenchmarkChannel,
    RelationKey,
    demo_benchmark_path,
    load_benchmark,
)
from aieco.evaluation.comparison import (
    compare_graph_conditions,
    compare_retrieval_conditions,
    graph_condition,
    require_same_graph,
)
from aieco.evaluation.conditions import ConditionInput, inputs_table, prepare_conditions, require_same_passages
from aieco.evaluation.contribution import ContributionResult, source_contribution
from aieco.evaluation.measures import ChannelPrediction, MeasureTables, score_benchmark
from aieco.evaluation.retrieval_conditions import ALL_PATHS, retrieval_candidates
from aieco.graph.build import as_of_relations, load_relations, relation_graph
from aieco.graph.paths import enumerate_paths
from aieco.records import (
    ChannelQuery,
    Derivation,
    EvaluationRecord,
    Movement,
    Path,
    Relation,
    Role,
    Source,
    StageRecord,
    StageStatus,
    digest,
    sha256_hex,
    utc_now,
)
from aieco.sources.eligibility import eligible_locations
from aieco.store import Store
from aieco.vocab import load_vocabulary

ProgressFn = Callable[[int, int], None]


@dataclass(frozen=True)
class EvaluationResult:
    """Everything one evaluation computed, with the ids of its two records."""

    registration: EvaluationRecord
    record: EvaluationRecord
    benchmark: Benchmark
    measures: MeasureTables
    graph_conditions: pd.DataFrame
    graph_inputs: pd.DataFrame
    retrieval_conditions: pd.DataFrame
    retrieval_inputs: pd.DataFrame
    direct_comparator: pd.DataFrame | None
    contribution: ContributionResult | None
    agreement: AgreementResult
    notes: list[str]
    document_titles: dict[str, str]

    def tables(self) -> dict[str, pd.DataFrame]:
        """The result tables as stored (named DataFrames)."""
        out = {
            "risks": self.measures.risks.reset_index(),
            "channels": self.measures.channels.reset_index(),
            "graph_conditions": self.graph_conditions,
            "graph_inputs": self.graph_inputs,
            "retrieval_conditions": self.retrieval_conditions,
            "retrieval_inputs": self.retrieval_inputs,
            "agreement": self.agreement.frame(),
            "notes": pd.DataFrame({"note": self.notes}),
        }
        if self.direct_comparator is not None:
            out["direct_comparator"] = self.direct_comparator
        if self.contribution is not None:
            table = self.contribution.table()
            table.insert(1, "title", table["document"].map(self.document_titles).fillna(""))
            out["contribution"] = table
        return out


def evaluated_relations(store: Store, condition: str, cutoff: date | None) -> list[Relation]:
    """The as-of edge set A(t) of one graph condition (generation roles), as the graph search uses it."""
    return as_of_relations(load_relations(store, condition=condition), cutoff, condition=condition)


def graph_keys(relations: Sequence[Relation]) -> set[RelationKey]:
    """Distinct signed relations of a graph; only '+'/'-' steps form admissible paths."""
    return {relation_key(r) for r in relations if r.sign in SCORABLE_SIGNS}


def enumerated_paths(
    relations: Sequence[Relation], benchmark: Benchmark, condition: str, max_len: int
) -> dict[str, list[Path]]:
    """Every admissible path between each benchmark channel's endpoints, ranked by S(C).

    The graph search's own enumeration with no top-k cut, so the best score attainable over
    all paths and over the top 5 come from one ranking.
    """
    graph = relation_graph(relations)
    out = {}
    for c in benchmark.channels:
        q = ChannelQuery.create(
            risk=c.risk,
            source_var=c.source,
            source_movement=Movement.increase,
            target_var=c.target,
            target_movement=Movement.increase,
            max_len=max_len,
            top_k=ALL_PATHS,
            feedback_loop=c.feedback_loop,
        )
        out[c.id] = enumerate_paths(graph, q, graph_condition=condition)
    return out


def relation_key(r: Relation) -> RelationKey:
    return (r.src_var, r.dst_var, r.sign.value)


def path_keys(p: Path) -> list[RelationKey]:
    """A stored path as its ordered signed relation keys."""
    return [(a, b, s.value) for a, b, s in zip(p.variables, p.variables[1:], p.signs, strict=False)]


def passage_variables(store: Store, cutoff: date) -> list[set[str]]:
    """Vocabulary variables of every eligible generation passage (for candidate-pair coverage).

    Passages are the eligible text considered for extraction: an upper bound on what a
    sentence-level candidate screen can extract.
    """
    vocab = load_vocabulary()
    locs = eligible_locations(store, cutoff=cutoff, roles=[Role.generation], kinds=("passage",)).eligible
    return [set(vocab.variables_in(loc.text)) for loc in locs]


def stage_output(store: Store, analysis_id: str, stage: str) -> dict | None:
    """The stored output of the latest completed attempt of one stage, if any."""
    done = [
        r
        for r in store.find(StageRecord, analysis_id=analysis_id, stage=stage)
        if r.status == StageStatus.completed and r.output_digest
    ]
    return store.get_json(max(done, key=lambda r: r.ended_at).output_digest) if done else None


def selected_paths(
    store: Store, analysis_id: str, risk: str, derivations: Sequence[Derivation] = ()
) -> list[str] | None:
    """Path ids the evidence agent selected for a risk (its path_selection stage output).

    Falls back to the paths a stored derivation assessed; None when the risk was not reached.
    """
    out = stage_output(store, analysis_id, f"{risk}/path_selection")
    if out is not None:
        return [sel["path_id"] for sel in out.get("selections", [])]
    for d in derivations:
        if d.analysis_id == analysis_id and d.risk == risk:
            return [a["path_id"] for a in d.assessed if "path_id" in a]
    return None


def _predictions(
    benchmark: Benchmark,
    candidates: dict[str, list[Path]],
    stored: Sequence[Path],
    selections: dict[str, list[str]],
    top_k: int,
) -> dict[str, ChannelPrediction]:
    """Candidate, first-ranked and selected paths of each benchmark channel.

    ``candidates`` maps a channel id to its ranked candidate paths; a stored path answers a
    channel when its risk and endpoints match; ``selections`` maps a risk to the path ids
    selected for it.
    """
    by_id = {p.path_id: p for p in stored}

    def answers(c: BenchmarkChannel, p: Path) -> bool:
        return p.risk == c.risk and p.variables[0] == c.source and p.variables[-1] == c.target

    out = {}
    for c in benchmark.channels:
        mine = sorted(candidates.get(c.id, []), key=lambda p: (p.rank, p.path_id))
        sel = [by_id[i] for i in selections.get(c.risk, []) if i in by_id and answers(c, by_id[i])]
        out[c.id] = ChannelPrediction(
            all_paths=[path_keys(p) for p in mine],
            top_paths=[path_keys(p) for p in mine if p.rank <= top_k],
            first_ranked=path_keys(mine[0]) if mine else None,
            selected=path_keys(sel[0]) if sel else None,
        )
    return out


def repetitions(
    store: Store, analysis_ids: Sequence[str], risks: Sequence[str], derivations: Sequence[Derivation] = ()
) -> list[Repetition]:
    """Each analysis as a repetition: its reached risks' selections and (risk, subject) warnings.

    A repetition is completed when none of its stage attempts stopped or failed.
    """
    reps = []
    for a in analysis_ids:
        selections, warnings = {}, set()
        for risk in risks:
            sel = selected_paths(store, a, risk, derivations)
            if sel is not None:
                selections[risk] = frozenset(sel)
            out = stage_output(store, a, f"{risk}/path_selection") or {}
            warnings |= {(risk, w["subject"]) for w in out.get("warnings", [])}
        stages = store.find(StageRecord, analysis_id=a)
        completed = bool(stages) and all(st.status == StageStatus.completed for st in stages)
        reps.append(Repetition(a, selections, frozenset(f"{r}: {w}" for r, w in warnings), completed))
    return reps


def _manifest_digest(store: Store) -> str:
    return digest(sorted((s.source_id, s.sha256, s.role.value, str(s.publication_date)) for s in store.all(Source)))


def evaluate(
    store: Store,
    benchmark_path: str | FilePath | None = None,
    *,
    condition: str = "G0",
    conditions: Sequence[str] = ("G0", "G1", "G2"),
    build_missing: bool = True,
    analysis_ids: Sequence[str] | None = None,
    cutoff: date | None = None,
    n_orderings: int = 50_000,
    seed: int | None = None,
    workers: int = 2,
    direct_backend: str = "offline",
    progress: ProgressFn | None = None,
) -> EvaluationResult:
    """Score the graph of ``condition`` (and its paths) against the benchmark; store the records.

    Parameters
    ----------
    store : the workspace.
    benchmark_path : benchmark TOML (default: the demo's).
    condition : graph condition evaluated (G0…); paths of other graphs are refused.
    conditions : graph conditions compared on the same eligible passages; an executable one
        without relations is built over exactly those passages when ``build_missing``;
        conditions read from different passages are refused (IntegrityError).
    analysis_ids : analyses whose paths and derivations are scored (default: every analysis
        holding paths of ``condition``).
    cutoff : information cutoff for the as-of graph (default: settings.scenario.cutoff).
    n_orderings, seed, workers : average marginal contributions (seed default: settings).
    direct_backend : backend of the Direct comparator; offline records it as not applicable.
    progress : progress(done, total) over the contribution blocks.
    """
    s = get_settings()
    graph_condition(condition)
    cutoff = cutoff or s.scenario.cutoff
    seed = s.scenario.seed if seed is None else seed
    bpath = FilePath(benchmark_path) if benchmark_path else demo_benchmark_path()
    if not bpath.is_file():
        raise InputError(
            f"benchmark file {bpath} not found",
            where=str(bpath),
            fix="pass --benchmark FILE or use the demo's aieco/demo/benchmark.toml",
        )
    compared = list(dict.fromkeys([condition, *conditions]))
    for c in compared:
        graph_condition(c)
    if not graph_condition(condition).executable:
        raise InputError(
            f"graph condition {condition} is a specified configuration with no execution path here",
            fix="evaluate G0, G1 or G2",
        )
    inputs: list[ConditionInput] = prepare_conditions(store, compared, cutoff, build_missing=build_missing)
    require_same_passages(inputs)
    relations = evaluated_relations(store, condition, cutoff)
    if analysis_ids is None:
        analysis_ids = sorted({p.analysis_id for p in store.find(Path, graph_condition=condition)})
    paths = store.find(Path, analysis_id=list(analysis_ids)) if analysis_ids else []
    derivations = store.find(Derivation, analysis_id=list(analysis_ids)) if analysis_ids else []
    require_same_graph([*paths, *derivations], condition)
    params = {
        "condition": condition,
        "conditions": compared,
        "passages": {i.condition: i.passages_digest for i in inputs},
        "cutoff": cutoff,
        "n_orderings": n_orderings,
        "seed": seed,
        "max_len": s.graph.max_path_length,
        "top_paths": s.graph.top_paths,
    }
    registration = EvaluationRecord.create(
        phase="registered",
        benchmark_path=str(bpath),
        benchmark_digest=sha256_hex(bpath.read_bytes()),
        graph_condition=condition,
        graph_digest=digest(sorted(r.relation_id for r in relations)),
        manifest_digest=_manifest_digest(store),
        config_digest=digest({"settings": s.model_dump(mode="json"), "evaluation": params}),
        analysis_ids=list(analysis_ids),
        status="registered",
        created_at=utc_now(),
    )
    store.put(registration)  # digests are on record before anything is scored

    def finish(status: str, reason: str = "", result_digest: str | None = None) -> EvaluationRecord:
        rec = EvaluationRecord.create(
            **registration.model_dump(
                exclude={"evaluation_id", "phase", "status", "reason", "registration_id", "result_digest", "created_at"}
            ),
            phase="result",
            registration_id=registration.evaluation_id,
            status=status,
            reason=reason,
            result_digest=result_digest,
            created_at=utc_now(),
        )
        store.put(rec)
        return rec

    try:
        benchmark = load_benchmark(bpath, vocabulary=load_vocabulary().variables)
    except StageStopped as stop:
        finish("stopped", stop.reason)
        raise
    notes: list[str] = []
    passages = passage_variables(store, cutoff)
    max_len, top_k = s.graph.max_path_length, s.graph.top_paths
    # Each analysis ran under one retrieval condition (written on its paths); the main measures and
    # agreement use GraphRAG analyses, each retrieval condition's selections its own analyses.
    rc_of = {p.analysis_id: p.retrieval_condition for p in paths}
    graph_rag = [a for a in analysis_ids if rc_of.get(a, "graph") == "graph"]

    def first_selections(ids: Sequence[str]) -> dict[str, list[str]]:
        """Selections of the first analysis (by id) that reached each risk; agreement covers the others."""
        out: dict[str, list[str]] = {}
        for a in ids:
            for risk in benchmark.risks:
                if risk not in out and (sel := selected_paths(store, a, risk, derivations)) is not None:
                    out[risk] = sel
        return out

    selections = first_selections(graph_rag)
    by_graph, graphs = {}, {}
    for c in [i.condition for i in inputs]:
        rels = relations if c == condition else evaluated_relations(store, c, cutoff)
        graphs[c] = graph_keys(rels)
        by_graph[c] = _predictions(
            benchmark, enumerated_paths(rels, benchmark, c, max_len), paths, selections if c == condition else {}, top_k
        )
    graph = graphs[condition]
    measures = score_benchmark(benchmark, graph, by_graph[condition], passages, max_len)
    graph_table = compare_graph_conditions(benchmark, graphs, by_graph, passages, max_len, selected={condition})
    graph_inputs = inputs_table(inputs, {c: len(g) for c, g in graphs.items()})
    notes += [
        f"{i.condition}: relations without a build record; the passages it read cannot be checked"
        for i in inputs
        if i.origin == "unrecorded"
    ]
    candidates = retrieval_candidates(
        store,
        benchmark,
        relations,
        cutoff=cutoff,
        graph_condition=condition,
        max_len=max_len,
        direct_backend=direct_backend,
    )
    by_retrieval = {
        rc: _predictions(
            benchmark,
            candidates.paths[rc],
            paths,
            first_selections([a for a in analysis_ids if rc_of.get(a) == rc]),
            top_k,
        )
        for rc in candidates.paths
    }
    retrieval_inputs = candidates.frame()
    direct_table = None
    if direct_backend != "offline":  # one recorded LLM call; its numbers are an evaluation comparator only
        from aieco.evaluation.direct import direct_comparator
        from aieco.llm import make_backend

        direct_table, call_id = direct_comparator(store, benchmark, make_backend(direct_backend, store=store))
        is_direct = retrieval_inputs["condition"] == "direct"
        retrieval_inputs.loc[is_direct, "status"] = "comparator recorded"
        retrieval_inputs.loc[is_direct, "reason"] = (
            f"LLM call {call_id} ({direct_backend}); its annual values are stored only in this evaluation's "
            "direct_comparator table — never a ModelRun, never in a report — and derive no channel to score"
        )
    stopped = (
        {rc: set(g["risk"]) for rc, g in retrieval_inputs[retrieval_inputs.status == "stopped"].groupby("condition")}
        if len(retrieval_inputs)
        else {}
    )
    retrieval_table = compare_retrieval_conditions(
        benchmark, graph, by_retrieval, max_len, stopped=stopped, selected=set(rc_of.values())
    )
    if any(rc != "graph" for rc in rc_of.values()):
        notes.append(
            "Document RAG and Hybrid candidates are retrieved with the benchmark's query text; their "
            "selected-path measures come from analyses retrieved with the request's query text"
        )
    docs: dict[str, set[RelationKey]] = defaultdict(set)
    for r in relations:
        if r.sign in SCORABLE_SIGNS:
            docs[r.source_id].add(relation_key(r))
    contribution = (
        source_contribution(
            benchmark, docs, n_orderings=n_orderings, seed=seed, max_len=max_len, workers=workers, progress=progress
        )
        if docs
        else None
    )
    if contribution is None:
        notes.append(f"no eligible {condition} relations in the workspace: no source contribution")
    reps = repetitions(store, graph_rag, benchmark.risks, derivations)
    titles = {x.source_id: x.title for x in store.find(Source, source_id=sorted(docs))} if docs else {}
    result = EvaluationResult(
        registration=registration,
        record=registration,
        benchmark=benchmark,
        measures=measures,
        graph_conditions=graph_table,
        graph_inputs=graph_inputs,
        retrieval_conditions=retrieval_table,
        retrieval_inputs=retrieval_inputs,
        direct_comparator=direct_table,
        contribution=contribution,
        agreement=agreement(reps),
        notes=notes,
        document_titles=titles,
    )
    record = finish("scored", result_digest=store.put_tables(result.tables()))
    return EvaluationResult(**{**result.__dict__, "record": record})
