"""Building the relation table: screen (G0), optional decomposition (G1) or verification (G2),
extraction through the LLM client, validation, and one transaction of Relation records."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from aieco.config import get_settings
from aieco.errors import InputError
from aieco.extraction.schemas import (
    DecompositionRequest,
    ExtractionRequest,
    Passage,
    ProposedRelation,
    Statement,
    VerificationItem,
    VerificationRequest,
)
from aieco.extraction.screen import Candidate, apply_cap, candidate_for, screen_candidates
from aieco.extraction.tasks import DECOMPOSITION_TASK, EXTRACTION_TASK, VERIFICATION_TASK, extraction_task
from aieco.extraction.validate import to_relation
from aieco.llm.base import LLMClient, OfflineBackend, Task
from aieco.progress import report
from aieco.records import ChannelQuery, Relation, Source, SourceLocation
from aieco.store import Store
from aieco.vocab import Vocabulary, load_vocabulary

CONDITIONS = ("G0", "G1", "G2")
ProgressFn = Callable[[str, int, int], None]
"""progress(step, done, total) with step in decomposition|extraction|verification."""


class BuildReport(BaseModel):
    """Counts of one relation build."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    condition: str
    locations: int = Field(description="Passage locations read.")
    sentences: int = Field(description="Sentences (or G1 statements) screened.")
    candidates: int = Field(description="Candidates sent to extraction (after the cap).")
    dropped_by_cap: int = Field(description="Candidates skipped by the cap (not extracted).")
    cap: int | None = Field(None, description="The candidate cap applied (None: every candidate processed).")
    ranking: str = Field("document order", description="How candidates were chosen under the cap.")
    requests: int = Field(description="LLM task requests made (every one a recorded LLMCall).")
    resumed: int = Field(
        0,
        description=(
            "Of those, requests answered by a call an earlier build recorded (resumed, not run again): their answers "
            "are the earlier reading, even if the reader has changed since."
        ),
    )
    proposed: int
    accepted: int
    rejected: dict[str, int] = Field(description="Rejected proposals by reason.")
    stored: int = Field(description="New Relation rows written (existing ids are kept).")
    seconds: float


def _batches(items: Sequence, size: int) -> list[Sequence]:
    return [items[i : i + size] for i in range(0, len(items), size)]


#: ``max_candidates`` default: the settings' candidate cap.
SETTINGS_CAP = "settings"


def _screen_task(vocab: Vocabulary, locations: list[SourceLocation]) -> tuple[list[Candidate], int]:
    """Uncapped candidates and sentence count of one document's passages (an executor's task)."""
    screen = screen_candidates(locations, vocab, cap=None)
    return screen.candidates, screen.sentences


def screen_documents(
    locations: Sequence[SourceLocation], vocab: Vocabulary, executor: Any
) -> tuple[list[Candidate], int]:
    """The candidate screen with one task per document on ``executor``; candidates in passage order.

    Consecutive passages of one source form one task, so the concatenation keeps the order the
    sequential screen sees and the cap (applied by the caller) chooses the same candidates.
    """
    runs: list[list[SourceLocation]] = []
    for loc in locations:
        if runs and runs[-1][0].source_id == loc.source_id:
            runs[-1].append(loc)
        else:
            runs.append([loc])
    done = dict(executor.map_unordered(_screen_task, runs, shared=vocab))
    found = [c for i in range(len(runs)) for c in done[i][0]]
    return found, sum(done[i][1] for i in range(len(runs)))


def _decomposed_candidates(
    client: LLMClient, locs: list[SourceLocation], vocab: Vocabulary, batch_size: int, tick: ProgressFn
) -> tuple[list[Candidate], int, dict[str, str], int]:
    """G1/G2: candidates from the decomposed statements, statements read, quote by candidate id, requests made."""
    candidates_all: list[Candidate] = []
    quote_of: dict[str, str] = {}
    sentences = requests = 0
    outs = client.run_many(
        DECOMPOSITION_TASK,
        [
            DecompositionRequest(passages=[Passage(location_id=loc.location_id, text=loc.text) for loc in batch])
            for batch in _batches(locs, batch_size)
        ],
        stage="decomposition",
        progress=lambda done, total: tick("decomposition", done, total),
    )
    for out in outs:
        requests += 1
        for st in out.statements:
            sentences += 1
            variables = vocab.variables_in(st.text)
            if len(variables) >= 2:
                cand = candidate_for(st.location_id, st.text, variables)
                quote_of[cand.candidate_id] = st.quote
                candidates_all.append(cand)
    return candidates_all, sentences, quote_of, requests


def _extract(
    client: LLMClient,
    candidates: list[Candidate],
    vocab: Vocabulary,
    batch_size: int,
    tick: ProgressFn,
    quote_of: dict[str, str],
    task: Task = EXTRACTION_TASK,
) -> tuple[list[ProposedRelation], int]:
    """The extraction task on every candidate, in batches: the proposals and the requests made."""
    proposals: list[ProposedRelation] = []
    requests = 0
    allowed = sorted(vocab.variables)
    outs = client.run_many(
        task,
        [
            ExtractionRequest(
                statements=[
                    Statement(candidate_id=c.candidate_id, location_id=c.location_id, text=c.text) for c in batch
                ],
                variables=allowed,
            )
            for batch in _batches(candidates, batch_size)
        ],
        stage="relation_extraction",
        progress=lambda done, total: tick("extraction", done, total),
    )
    for out in outs:
        requests += 1
        for p in out.relations:
            if p.candidate_id in quote_of:  # G1 keeps the exact quote of the passage span
                p = p.model_copy(update={"quote": quote_of[p.candidate_id]})
            proposals.append(p)
    return proposals, requests


def _verify(
    client: LLMClient, proposals: list[ProposedRelation], batch_size: int, tick: ProgressFn
) -> tuple[dict[int, str | None], int]:
    """G2: the verification task's verdict on each proposal (None: supported) and the requests made."""
    items = [
        VerificationItem(index=i, src_var=p.src_var, dst_var=p.dst_var, sign=p.sign, quote=p.quote)
        for i, p in enumerate(proposals)
    ]
    vbatches = _batches(items, batch_size)
    verdicts: dict[int, str | None] = {i: "not_verified: no verdict returned" for i in range(len(items))}
    requests = 0
    outs = client.run_many(
        VERIFICATION_TASK,
        [VerificationRequest(candidates=list(batch)) for batch in vbatches],
        stage="verification",
        progress=lambda done, total: tick("verification", done, total),
    )
    for batch, out in zip(vbatches, outs, strict=True):
        requests += 1
        asked = {item.index for item in batch}
        for v in out.verdicts:
            if v.index in asked:
                verdicts[v.index] = None if v.verdict == "supported" else f"not_verified: {v.verdict}: {v.reason}"
    return verdicts, requests


def _relations(
    store: Store,
    proposals: list[ProposedRelation],
    candidates: list[Candidate],
    locs: list[SourceLocation],
    all_locations: bool,
    vocab: Vocabulary,
    condition: str,
    client: LLMClient,
    verdicts: dict[int, str | None],
    reader: str = "rules",
) -> list[Relation]:
    """Each proposal validated into a Relation, with its location and source."""
    by_id = {c.candidate_id: c for c in candidates}
    # Only locations registered in the store may carry a relation (validation, first check).
    if all_locations:
        loc_cache = {loc.location_id: loc for loc in locs}
    else:
        loc_cache = {
            loc.location_id: loc
            for loc in store.find(SourceLocation, location_id=sorted({c.location_id for c in candidates}))
        }
    src_cache: dict[str, Source | None] = {}
    extractor = f"{EXTRACTION_TASK.prompt.name}@{EXTRACTION_TASK.prompt.version}/{client.backend.name}"
    extractor += f"/reader={reader}" if reader != "rules" else ""
    # a language model's proposals are attributed to its backend and model, whatever the answer says
    llm = None if client.backend.name == "offline" else f"llm:{client.backend.name}/{client.model}"
    relations: list[Relation] = []
    for i, p in enumerate(proposals):
        cand = by_id.get(p.candidate_id)
        location = None
        if cand is not None:
            location = loc_cache.get(cand.location_id)
        source = None
        if location is not None:
            if location.source_id not in src_cache:
                src_cache[location.source_id] = store.get(Source, location.source_id)
            source = src_cache[location.source_id]
        extra = verdicts.get(i) if condition == "G2" else None
        relations.append(
            to_relation(
                p,
                location_id=cand.location_id if cand else p.candidate_id,
                location=location,
                source=source,
                vocab=vocab,
                condition=condition,
                extractor=extractor,
                extra_reason=extra,
                reader=llm,
            )
        )
    return relations


def build_relations(
    store: Store,
    *,
    condition: str = "G0",
    client: LLMClient | None = None,
    locations: Sequence[SourceLocation] | None = None,
    progress: ProgressFn | None = None,
    vocab: Vocabulary | None = None,
    max_candidates: int | None | str = SETTINGS_CAP,
    queries: Sequence[ChannelQuery] = (),
    executor: Any = None,
    reader: str = "rules",
) -> BuildReport:
    """Extract, validate and store relations from every registered passage location.

    Eligibility is not applied here: each Relation carries its source's publication date and
    its location's effective role, and the as-of edge set A(t) filters at query time.

    ``max_candidates`` caps the candidate sentences (default: settings.graph.candidate_cap; None:
    every candidate). Under the cap, candidates are ranked by relevance to ``queries`` (the
    request's channel queries; :func:`aieco.extraction.screen.rank_candidates`), never taken in
    document order alone, and the report states how many were skipped.

    With ``executor`` (:mod:`aieco.executors`), G0's candidate screen runs one task per document
    (:func:`screen_documents`); the cap, the LLM requests and every write stay in this process, so
    the relations and their ids equal the sequential build's.

    ``reader`` chooses the offline reader (:data:`aieco.extraction.learned.READERS`: rules, learned, combined);
    a relation read by another than the rules names it in its extractor, and the learned reader's proposals name
    its artefact, base weights and licence in their verb.
    """
    if condition not in CONDITIONS:
        raise InputError(f"unknown graph condition {condition!r}", fix=f"use one of {', '.join(CONDITIONS)}")
    # the module's EXTRACTION_TASK for the rules (tests substitute it); a task of its own for another reader
    task = EXTRACTION_TASK if reader == "rules" else extraction_task(reader)
    t0 = time.perf_counter()
    settings = get_settings().graph
    vocab = vocab or load_vocabulary()
    cap = settings.candidate_cap if max_candidates == SETTINGS_CAP else max_candidates
    if cap is not None and (not isinstance(cap, int) or cap < 1):
        raise InputError(
            f"the candidate cap must be a positive whole number or None, not {cap!r}",
            where="max_candidates",
            fix="give a number such as 600, or `none` to process all",
        )
    endpoints = sorted({v for q in queries for v in (q.source_var, q.target_var)})
    ranking = (
        "relevance to the channel queries (" + ", ".join(endpoints) + ")"
        if endpoints
        else "first copies first, then document order"
    )
    locs = list(locations) if locations is not None else store.find(SourceLocation, kind="passage")
    locs = [loc for loc in locs if loc.kind == "passage" and loc.text.strip()]
    if client is None:
        client = LLMClient(
            store,
            OfflineBackend(),
            analysis_id=f"knowledge-base-{condition}" + (f"-{reader}" if reader != "rules" else ""),
            budget=10 * (2 * len(locs) + (cap if cap is not None else sum(loc.text.count(".") + 1 for loc in locs)))
            + 10,
        )

    def tick(step: str, done: int, total: int) -> None:
        report(f"relation {step}", done, total, condition)
        if progress is not None:
            progress(step, done, total)

    requests = 0
    resumed_before = client.resumed
    quote_of: dict[str, str] = {}  # G1/G2: candidate id → exact quote of its statement
    # G2 verifies every G1 candidate (paper §5.2), so both decompose the passages first.
    if condition in ("G1", "G2"):
        candidates_all, sentences, quote_of, requests = _decomposed_candidates(
            client, locs, vocab, settings.batch_size, tick
        )
        candidates, dropped = apply_cap(candidates_all, cap, endpoints)
    else:
        if executor is not None:
            found, sentences = screen_documents(locs, vocab, executor)
            candidates, dropped = apply_cap(found, cap, endpoints)
        else:
            screen = screen_candidates(locs, vocab, cap=cap, endpoints=endpoints)
            candidates, sentences, dropped = screen.candidates, screen.sentences, screen.dropped_by_cap

    if reader != "rules" and client.backend.name != "offline":
        raise InputError(
            f"the {reader} reader is an offline reader; the client's backend is {client.backend.name}",
            where="--reader",
            fix="build with the offline backend, or use --reader rules",
        )
    proposals, n = _extract(client, candidates, vocab, settings.batch_size, tick, quote_of, task)
    requests += n
    verdicts: dict[int, str | None] = {}
    if condition == "G2":
        verdicts, n = _verify(client, proposals, settings.batch_size, tick)
        requests += n

    relations = _relations(
        store, proposals, candidates, locs, locations is None, vocab, condition, client, verdicts, reader
    )
    # The vocabulary's Variable records are the graph's nodes; storing them is idempotent (ids are the names).
    store.put_many(list(vocab.variables.values()))
    stored = store.put_many(relations)
    rejected = Counter((r.rejection_reason or "").split(":")[0] for r in relations if r.review_decision == "rejected")
    return BuildReport(
        condition=condition,
        locations=len(locs),
        sentences=sentences,
        candidates=len(candidates),
        dropped_by_cap=dropped,
        cap=cap,
        ranking=ranking,
        requests=requests,
        resumed=client.resumed - resumed_before,
        proposed=len(proposals),
        accepted=sum(r.review_decision == "accepted" for r in relations),
        rejected=dict(sorted(rejected.items())),
        stored=stored,
        seconds=round(time.perf_counter() - t0, 3),
    )
