"""The deterministic report writer of the offline backend.

``write_report(context)`` turns the selected paths (as accepted, cited relations) and the
passed claims into connected prose: a mechanism paragraph that walks each channel step by
step, a temporal sentence fixing the horizon and cutoff, then the model's numbers period by
period. Numbers appear only as ``{{NUM:claim_id}}`` and dates only as ``{{DATE:…}}``; the
numerical sentences use neutral verbs, so their wording never claims a direction the
rendered sign could contradict. The phrasing rotates deterministically (by position), so
the same context always gives the same report.

A claim is named by what its number measures (its transformation): "annual growth in
real GDP", "the annual-average unemployment rate", "the change in annual-average equity
prices", so a growth rate is never read as a level.
"""

from __future__ import annotations

import re
from collections import defaultdict

from aieco.config import get_settings
from aieco.records import SentenceKind
from aieco.reporting.schema import ClaimBrief, RelationBrief, ReportContext, ReportDraft, SentenceDraft

_FIRST_STEP = (
    "A rise in {src} tends to {verb} {dst}.",
    "The channel starts with {src}: a rise there {verbs} {dst}.",
    "An increase in {src} {verbs} {dst}, which opens the channel.",
)
_NEXT_STEP = (
    "In turn, a change in {src} carries through to {dst}, which tends to move {same}.",
    "The movement in {src} then feeds into {dst}, with the cited evidence linking them {same}.",
    "From there, {src} shapes {dst}, and both tend to move {same}.",
)
_VERB = {"+": ("lift", "lifts"), "-": ("weigh on", "weighs on")}
_SAME = {"+": "in the same direction", "-": "in opposite directions"}

#: How each transformation's number reads in prose (appendix "Numerical Definitions and
#: Temporal Aggregation"): growth from annual level sums, annual averages of rates, and the
#: change in the annual-average index. No digits and no direction words, so the numeric
#: contract and the direction check hold whatever the sign.
_MEASURE = {
    "annual_growth": "annual growth in {np}",
    "annual_log_change": "annual growth in {np}",
    "annual_average": "the annual-average {label}",
    "annual_avg_index_growth": "annual {label}",
    "annual_avg_index_change": "the change in annual-average {label}",
}
#: A singular head noun ("rate", "ratio" …) takes the definite article: "the unemployment rate".
#: A label that already names a rate of change ("credit growth") is not wrapped again.
_RATE_OF_CHANGE = re.compile(r"\b(?:growth|inflation)\b")
_SINGULAR_HEAD = re.compile(r"\b(?:rate|ratio|premium|index|spread|standard)\b")

_OPENERS = ("In {when}, the model puts {items}", "For {when}, the projection has {items}",
            "The {when} outcome sets {items}", "Turning to {when}, the model places {items}")
_RANGE_OPENER = "Averaged over {when}, the model puts {items}"
_LISTS = ("{head} and {last}", "{head}, together with {last}", "{head} as well as {last}")


def write_report(context: ReportContext) -> ReportDraft:
    """A structured report with NUM tokens and citations; never a digit in its prose."""
    relations = {r.relation_id: r for r in context.relations}
    sentences: list[SentenceDraft] = []
    seen: set[str] = set()
    for path in context.paths or [[r.relation_id for r in context.relations]]:
        # The step number is the relation's place in its path, so a path whose first
        # relations were already told (a longer channel through a shorter one) continues
        # with a next-step sentence instead of "opening" the channel in its middle.
        for step_no, rid in enumerate(path):
            if rid not in relations or rid in seen:
                continue
            seen.add(rid)
            sentences.append(_mechanism_sentence(relations[rid], step_no, len(sentences)))
    claims = list(context.claims)
    if claims:
        sentences.append(SentenceDraft(
            kind=SentenceKind.temporal,
            template="The projections below cover {{DATE:horizon}} and use information available up to "
                     "{{DATE:cutoff}}."))
        sentences.extend(_number_sentences(claims))
    title = f"Scenario report: {context.risk_label}"
    return ReportDraft(title=title[:1].upper() + title[1:], risk=context.risk, sentences=sentences)


def _mechanism_sentence(rel: RelationBrief, step_no: int, position: int) -> SentenceDraft:
    forms = _FIRST_STEP if step_no == 0 else _NEXT_STEP
    text = forms[position % len(forms)].format(
        src=_noun_phrase(rel.src_label), dst=_noun_phrase(rel.dst_label), verb=_VERB[rel.sign][0],
        verbs=_VERB[rel.sign][1], same=_SAME[rel.sign])
    return SentenceDraft(kind=SentenceKind.qualitative, template=text[:1].upper() + text[1:],
                         cited_relation_ids=[rel.relation_id])


def _noun_phrase(label: str) -> str:
    """The label as it reads inside a sentence: "the long-term interest rate", "real GDP"."""
    if label.lower().startswith(("the ", "a ", "an ")) or not _SINGULAR_HEAD.search(label.lower()):
        return label
    return f"the {label}"


def _measure(claim: ClaimBrief) -> str:
    """What the claim's number is, in words: "annual growth in real GDP" rather than "real GDP"."""
    form = _MEASURE.get(claim.transformation.lower())
    if form is None or (form.startswith("annual growth") and _RATE_OF_CHANGE.search(claim.label.lower())):
        return _noun_phrase(claim.label)
    return form.format(np=_noun_phrase(claim.label), label=claim.label)


def _number_sentences(claims: list[ClaimBrief]) -> list[SentenceDraft]:
    by_period: dict[str, list[ClaimBrief]] = defaultdict(list)
    for c in claims:
        by_period[c.period].append(c)
    out = []
    per = max(1, get_settings().report.max_claims_per_sentence)
    for k, period in enumerate(sorted(by_period, key=lambda p: ("-" in p, p))):
        group = by_period[period]
        # A few claims per sentence at most, so the prose does not become a table.
        for part_no in range(0, len(group), per):
            part = group[part_no:part_no + per]
            items = [f"{_measure(c)} at {{{{NUM:{c.claim_id}}}}}" for c in part]
            listed = items[0] if len(items) == 1 else _LISTS[(k + part_no) % len(_LISTS)].format(
                head=", ".join(items[:-1]), last=items[-1])
            if part_no:
                text = f"In the same period, the model also puts {listed}"
            elif "-" in period:
                text = _RANGE_OPENER.format(when=f"{{{{DATE:{period}}}}}", items=listed)
            else:
                text = _OPENERS[k % len(_OPENERS)].format(when=f"{{{{DATE:{period}}}}}", items=listed)
            out.append(SentenceDraft(kind=SentenceKind.numerical, template=text[:1].upper() + text[1:] + ".",
                                     claim_ids=[c.claim_id for c in part]))
    return out
