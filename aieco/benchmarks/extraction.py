"""Relation extraction on the hand-labelled gold set (aieco/data/extraction_gold.jsonl).

Figures per split (dev, held_back): precision, recall, and false positives on negative
sentences, for the chosen backend (offline reader by default; ``--backend openai`` reads the
same sentences through any configured OpenAI-compatible endpoint). Targets for the offline
reader: precision >= 0.80 and recall >= 0.50; the held-back split should be within 0.1 of dev.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from aieco.benchmarks import Figure
from aieco.extraction.gold import SplitScore, evaluate, load_gold


def figures(scores: list[SplitScore], documents: dict[str, int] | None = None) -> list[Figure]:
    """Figures per split; ``documents`` (split → number of documents) adds each split's size in documents."""
    out: list[Figure] = []
    for s in scores:
        out += [
            Figure(name=f"{s.split}: sentences", value=s.sentences, unit="sentences"),
            *(
                [Figure(name=f"{s.split}: documents", value=documents[s.split], unit="documents")]
                if documents and s.split in documents
                else []
            ),
            Figure(name=f"{s.split}: precision", value=s.precision, unit="share", target=0.80, better="higher"),
            Figure(name=f"{s.split}: recall", value=s.recall, unit="share", target=0.50, better="higher"),
            Figure(
                name=f"{s.split}: false positives on negatives", value=s.false_positives_on_negatives, unit="relations"
            ),
            Figure(
                name=f"{s.split}: negative sentences with a false positive",
                value=s.negatives_with_false_positive,
                unit=f"of {s.negatives}",
            ),
            Figure(name=f"{s.split}: gold relations", value=s.gold_relations, unit="relations"),
            Figure(name=f"{s.split}: proposed signed relations", value=s.proposed, unit="relations"),
        ]
    by = {s.split: s for s in scores}
    if "dev" in by and "held_back" in by:
        for m in ("precision", "recall"):
            gap = abs(getattr(by["dev"], m) - getattr(by["held_back"], m))
            out.append(Figure(name=f"|dev - held_back| {m}", value=round(gap, 4), unit="share", target=0.1))
    return out


def split_documents(gold) -> dict[str, int]:
    docs: dict[str, set[str]] = {"all": set()}
    for g in gold:
        docs.setdefault(g.split, set()).add(g.document)
        docs["all"].add(g.document)
    return {k: len(v) for k, v in docs.items()}


def run(quick: bool = False, backend: str = "offline", base_url: str | None = None) -> list[Figure]:
    gold = load_gold()
    if backend == "offline":
        return figures(evaluate(gold=gold), split_documents(gold))
    from aieco.llm.backends import make_backend
    from aieco.llm.base import LLMClient
    from aieco.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "ws")
        client = LLMClient(
            store,
            make_backend(backend, store=store, base_url=base_url),
            analysis_id=f"extraction-gold-{backend}",
            budget=len(gold) + 10,
        )
        return figures(evaluate(client, gold), split_documents(gold))
