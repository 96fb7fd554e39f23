"""The extraction, decomposition and verification tasks (structured LLM tasks with offline implementations)."""

from __future__ import annotations

from functools import partial

from aieco.errors import InputError
from aieco.extraction.decompose import decompose_offline
from aieco.extraction.learned import READERS, read_with, reader_of
from aieco.extraction.prompts.decompose import DECOMPOSE_PASSAGE
from aieco.extraction.prompts.extract import EXTRACT_RELATIONS
from aieco.extraction.prompts.verify import VERIFY_RELATION
from aieco.extraction.rules import read_sentence
from aieco.extraction.schemas import (
    DecompositionRequest,
    DecompositionResult,
    ExtractionRequest,
    ExtractionResult,
    ProposedRelation,
    VerificationRequest,
    VerificationResult,
)
from aieco.extraction.verify import verify_offline
from aieco.llm.base import Task
from aieco.vocab import load_vocabulary


def extract_offline(request: ExtractionRequest, reader: str = "rules") -> ExtractionResult:
    """Offline implementation of relation extraction: the rule reader (or ``reader``: learned, combined) on each
    statement.

    A hedged reading ("may", "could", "might") is kept, with lower confidence, and flagged in its verb; a
    scenario's conditional ("would") is stated, not hedged (docs/labelling-guide.md).
    """
    vocab = load_vocabulary()
    out = []
    for st in request.statements:
        for r in read_sentence(st.text, vocab) if reader == "rules" else read_with(reader, st.text, vocab):
            out.append(
                ProposedRelation(
                    candidate_id=st.candidate_id,
                    src_var=r.src,
                    dst_var=r.dst,
                    sign=r.sign.value,
                    evidence_class=r.evidence_class.value,
                    verb=r.verb + (" [hedged]" if r.hedged else ""),
                    quote=st.text,
                    confidence=r.confidence,
                    horizon=r.horizon,
                    reader=reader_of(r),
                )
            )
    return ExtractionResult(relations=out)


EXTRACTION_TASK: Task[ExtractionRequest, ExtractionResult] = Task(
    name="relation_extraction",
    prompt=EXTRACT_RELATIONS,
    input_schema=ExtractionRequest,
    output_schema=ExtractionResult,
    offline=extract_offline,
)


def extraction_task(reader: str = "rules") -> Task[ExtractionRequest, ExtractionResult]:
    """The extraction task read offline by ``reader``; its own task name keeps each reader's recorded calls apart."""
    if reader not in READERS:
        raise InputError(f"unknown reader {reader!r}", where="--reader", fix=f"choose one of {', '.join(READERS)}")
    if reader == "rules":
        return EXTRACTION_TASK
    return Task(
        name=f"relation_extraction:{reader}",
        prompt=EXTRACT_RELATIONS,
        input_schema=ExtractionRequest,
        output_schema=ExtractionResult,
        offline=partial(extract_offline, reader=reader),
    )


DECOMPOSITION_TASK: Task[DecompositionRequest, DecompositionResult] = Task(
    name="passage_decomposition",
    prompt=DECOMPOSE_PASSAGE,
    input_schema=DecompositionRequest,
    output_schema=DecompositionResult,
    offline=decompose_offline,
)

VERIFICATION_TASK: Task[VerificationRequest, VerificationResult] = Task(
    name="relation_verification",
    prompt=VERIFY_RELATION,
    input_schema=VerificationRequest,
    output_schema=VerificationResult,
    offline=verify_offline,
)
