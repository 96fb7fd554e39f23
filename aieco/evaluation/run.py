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
from aieco.evaluation.contribution import ContributionResult, source_contribution
from aieco.evaluation.measures import ChannelPrediction, MeasureTables, score_benchmark
from aieco.records import (
    Derivation,
    EvaluationRecord,
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
from aieco.store import Store

ProgressFn = Callable[[int, int], None]


@dataclass(frozen=True)
class EvaluationResult:
    """Everything one evaluation computed, with the ids of its two records."""

    registration: EvaluationRecord
    record: EvaluationRecord
    benchmark: Benchmark
    measures: MeasureTables
    graph_conditions: pd.DataFrame
    retrieval_conditions: pd.DataFrame
    contribution: ContributionResult | None
    agreement: AgreementResult
    notes: list[str]

    def tables(self) -> dict[str, pd.DataFrame]:
        """The result tables as stored (named DataFrames)."""
        out = {
            "risks": self.measures.risks.reset_index(),
            "channels": self.measures.channels.reset_index(),
            "graph_conditions": self.graph_conditions,
            "retrieval_conditions": self.retrieval_conditions,
            "agreement": self.agreement.frame(),
            "notes": pd.DataFrame({"note": self.notes}),
        }
        if self.contribution is not None:
            out["contribution"] = self.contribution.table()
        return out


def eligible_relations(store: Store, condition: str, cutoff: date | None) -> list[Relation]:
    """Accepted, signed generation relations of one graph condition published by the cutoff."""
    rels = store.find(Relation, graph_condition=condition, review_decision="accepted")
    return [r for r in rels if r.sign in SCORABLE_SIGNS and r.role == Role.generation
            and (cutoff is None or (r.publication_date is not None and r.publication_date <= cutoff))]


def relation_key(r: Relation) -> RelationKey:
    return (r.src_var, r.dst_var, r.sign.value)


def path_keys(p: Path) -> list[RelationKey]:
    """A stored path as its ordered signed relation keys."""
    return [(a, b, s.value) for a, b, s in zip(p.variables, p.variables[1:], p.signs, strict=False)]


def passage_variables(store: Store, cutoff: date) -> list[set[str]] | None:
    """Vocabulary variables of every eligible generation passage (for candidate-pair coverage).

    None while the eligibility filter (aieco.sources) or the vocabulary matcher (aieco.vocab)
    is not installed in this checkout; the coverage is then reported as not computed.
    """
    try:
        from aieco.sources.eligibility import eligible_locations
        from aieco.vocab import load_vocabulary
    except ImportError:
        return None
    vocab = load_vocabulary()
    locs = eligible_locations(store, cutoff=cutoff, roles=[Role.generation], kinds=("passage",)).eligible
    return [set(vocab.variables_in(loc.text)) for loc in locs]


def _stage_output(store: Store, analysis_id: str, stage: str) -> dict | None:
    """The stored output of the latest completed attempt of one stage, if any."""
    done = [r for r in store.find(StageRecord, analysis_id=analysis_id, stage=stage)
            if r.status == StageStatus.completed and r.output_digest]
    return store.get_json(max(done, key=lambda r: r.ended_at).output_digest) if done else None


def selected_paths(store: Store, analysis_id: str, risk: str,
                   derivations: Sequence[Derivation] = ()) -> list[str] | None:
    """Path ids the evidence agent selected for a risk (its path_selection stage output).

    Falls back to the paths a stored derivation assessed; None when the risk was not reached.
    """
    out = _stage_output(store, analysis_id, f"{risk}/path_selection")
    if out is not None:
        return [sel["path_id"] for sel in out.get("selections", [])]
    for d in derivations:
        if d.analysis_id == analysis_id and d.risk == risk:
            return [a["path_id"] for a in d.assessed if "path_id" in a]
    return None


def _predictions(benchmark: Benchmark, paths: Sequence[Path], selections: dict[str, list[str]],
                 top_k: int) -> dict[str, ChannelPrediction]:
    """Candidate, first-ranked and selected paths of each benchmark channel.

    A stored path answers a channel when its risk and endpoints match; ``selections`` maps
    a risk to the path ids selected for it.
    """
    by_id = {p.path_id: p for p in paths}

    def answers(c: BenchmarkChannel, p: Path) -> bool:
        return p.risk == c.risk and p.variables[0] == c.source and p.variables[-1] == c.target

    out = {}
    for c in benchmark.channels:
        mine = sorted((p for p in paths if answers(c, p)), key=lambda p: (p.rank, p.path_id))
        sel = [by_id[i] for i in selections.get(c.risk, []) if i in by_id and answers(c, by_id[i])]
        out[c.id] = ChannelPrediction(
            all_paths=[path_keys(p) for p in mine],
            top_paths=[path_keys(p) for p in mine if p.rank <= top_k],
            first_ranked=path_keys(mine[0]) if mine else None,
            selected=path_keys(sel[0]) if sel else None,
        )
    return out


def repetitions(store: Store, analysis_ids: Sequence[str], risks: Sequence[str],
                derivations: Sequence[Derivation] = ()) -> list[Repetition]:
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
            out = _stage_output(store, a, f"{risk}/path_selection") or {}
            warnings |= {(risk, w["subject"]) for w in out.get("warnings", [])}
        stages = store.find(StageRecord, analysis_id=a)
        completed = bool(stages) and all(st.status == StageStatus.completed for st in stages)
        reps.append(Repetition(a, selections, frozenset(f"{r}: {w}" for r, w in warnings), completed))
    return reps


def _manifest_digest(store: Store) -> str:
    return digest(sorted((s.source_id, s.sha256, s.role.value, str(s.publication_date)) for s in store.all(Source)))


def evaluate(store: Store, benchmark_path: str | FilePath | None = None, *, condition: str = "G0",
             analysis_ids: Sequence[str] | None = None, cutoff: date | None = None,
             n_orderings: int = 50_000, seed: int | None = None, workers: int = 2,
             progress: ProgressFn | None = None) -> EvaluationResult:
    """Score the graph of ``condition`` (and its paths) against the benchmark; store the records.

    Parameters
    ----------
    store : the workspace.
    benchmark_path : benchmark TOML (default: the demo's).
    condition : graph condition evaluated (G0…); paths of other graphs are refused.
    analysis_ids : analyses whose paths and derivations are scored (default: every analysis
        holding paths of ``condition``).
    cutoff : information cutoff for the as-of graph (default: settings.scenario.cutoff).
    n_orderings, seed, workers : average marginal contributions (seed default: settings).
    progress : progress(done, total) over the contribution blocks.
    """
    s = get_settings()
    graph_condition(condition)
    cutoff = cutoff or s.scenario.cutoff
    seed = s.scenario.seed if seed is None else seed
    bpath = FilePath(benchmark_path) if benchmark_path else demo_benchmark_path()
    if not bpath.is_file():
        raise InputError(f"benchmark file {bpath} not found", where=str(bpath),
                         fix="pass --benchmark FILE or use the demo's aieco/demo/benchmark.toml")
    relations = eligible_relations(store, condition, cutoff)
    if analysis_ids is None:
        analysis_ids = sorted({p.analysis_id for p in store.find(Path, graph_condition=condition)})
    paths = store.find(Path, analysis_id=list(analysis_ids)) if analysis_ids else []
    derivations = store.find(Derivation, analysis_id=list(analysis_ids)) if analysis_ids else []
    require_same_graph([*paths, *derivations], condition)
    params = {"condition": condition, "cutoff": cutoff, "n_orderings": n_orderings, "seed": seed,
              "max_len": s.graph.max_path_length, "top_paths": s.graph.top_paths}
    registration = EvaluationRecord.create(
        phase="registered", benchmark_path=str(bpath), benchmark_digest=sha256_hex(bpath.read_bytes()),
        graph_condition=condition, graph_digest=digest(sorted(r.relation_id for r in relations)),
        manifest_digest=_manifest_digest(store),
        config_digest=digest({"settings": s.model_dump(mode="json"), "evaluation": params}),
        analysis_ids=list(analysis_ids), status="registered", created_at=utc_now())
    store.put(registration)  # digests are on record before anything is scored

    def finish(status: str, reason: str = "", result_digest: str | None = None) -> EvaluationRecord:
        rec = EvaluationRecord.create(**registration.model_dump(exclude={"evaluation_id", "phase", "status", "reason",
                                                                         "registration_id", "result_digest",
                                                                         "created_at"}),
                                      phase="result", registration_id=registration.evaluation_id,
                                      status=status, reason=reason, result_digest=result_digest,
                                      created_at=utc_now())
        store.put(rec)
        return rec

    try:
        benchmark = load_benchmark(bpath)
    except StageStopped as stop:
        finish("stopped", stop.reason)
        raise
    notes = []
    passages = passage_variables(store, cutoff)
    if passages is None:
        notes.append("candidate-pair coverage not computed: needs aieco.sources.eligibility and aieco.vocab")
    graph = {relation_key(r) for r in relations}
    max_len = s.graph.max_path_length
    # Selections of the first analysis (by id) that reached each risk; agreement covers the others.
    selections: dict[str, list[str]] = {}
    for a in analysis_ids:
        for risk in benchmark.risks:
            if risk not in selections and (sel := selected_paths(store, a, risk, derivations)) is not None:
                selections[risk] = sel
    preds = _predictions(benchmark, paths, selections, s.graph.top_paths)
    measures = score_benchmark(benchmark, graph, preds, passages, max_len)
    graphs = {c: {relation_key(r) for r in eligible_relations(store, c, cutoff)}
              for c in sorted({r.graph_condition for r in store.find(Relation)} | {condition})}
    by_graph = {condition: preds}
    graph_table = compare_graph_conditions(benchmark, graphs, by_graph, passages, max_len)
    by_retrieval = {rc: _predictions(benchmark, [p for p in paths if p.retrieval_condition == rc], selections,
                                     s.graph.top_paths)
                    for rc in sorted({p.retrieval_condition for p in paths})}
    retrieval_table = compare_retrieval_conditions(benchmark, graph, by_retrieval, max_len)
    docs: dict[str, set[RelationKey]] = defaultdict(set)
    for r in relations:
        docs[r.source_id].add(relation_key(r))
    contribution = (source_contribution(benchmark, docs, n_orderings=n_orderings, seed=seed, max_len=max_len,
                                        workers=workers, progress=progress) if docs else None)
    if contribution is None:
        notes.append(f"no eligible {condition} relations in the workspace: no source contribution")
    reps = repetitions(store, analysis_ids, benchmark.risks, derivations)
    result = EvaluationResult(registration=registration, record=registration, benchmark=benchmark,
                              measures=measures, graph_conditions=graph_table, retrieval_conditions=retrieval_table,
                              contribution=contribution, agreement=agreement(reps), notes=notes)
    record = finish("scored", result_digest=store.put_tables(result.tables()))
    return EvaluationResult(**{**result.__dict__, "record": record})
