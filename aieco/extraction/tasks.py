"""The extraction, decomposition and verification tasks (structured LLM tasks with offline implementations)."""

from __future__ import annotations

from aieco.extraction.decompose import decompose_offline
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


def extract_offline(request: ExtractionRequest) -> ExtractionResult:
    """Offline implementation of relation extraction: the lexicon reader on each statement.

    A hedged reading ("may", "could", "might") is kept, with lower confidence, and flagged in its verb; a
    scenario's conditional ("would") is stated, not hedged (docs/labelling-guide.md).
    """
    vocab = load_vocabulary()
    out = []
    for st in request.statements:
        for r in read_sentence(st.text, vocab):
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
