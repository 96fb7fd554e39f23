"""G2: verify a candidate relation against its quote."""

from __future__ import annotations

from aieco.extraction.rules import read_sentence
from aieco.extraction.schemas import Verdict, VerificationItem, VerificationRequest, VerificationResult
from aieco.vocab import Vocabulary, load_vocabulary


def verify_item(item: VerificationItem, vocab: Vocabulary) -> Verdict:
    """Re-read the quote independently and compare with the candidate's endpoints and sign."""
    named = set(vocab.variables_in(item.quote))
    if not {item.src_var, item.dst_var} <= named:
        return Verdict(index=item.index, verdict="unsupported", reason="the quote does not name both variables")
    readings = [r for r in read_sentence(item.quote, vocab) if (r.src, r.dst) == (item.src_var, item.dst_var)]
    if not readings:
        return Verdict(
            index=item.index,
            verdict="unsupported",
            reason="the variables co-occur but no directional statement links them",
        )
    signs = {r.sign.value for r in readings}
    if item.sign in signs:
        return Verdict(index=item.index, verdict="supported", reason=f"the quote states sign {item.sign}")
    return Verdict(
        index=item.index,
        verdict="contradicted",
        reason=f"the quote states sign {'/'.join(sorted(signs))}, not {item.sign}",
    )


def verify_offline(request: VerificationRequest) -> VerificationResult:
    """Offline implementation of the G2 task."""
    vocab = load_vocabulary()
    return VerificationResult(verdicts=[verify_item(i, vocab) for i in request.candidates])
