"""The deterministic report writer of the offline backend.

``write_report(context)`` writes the report an economist reads, in paragraphs
(``SentenceDraft.paragraph``):

1. one paragraph per selected channel: where it runs, then the mechanism step by step, each
   step citing its relation (the rendered reference; the quote travels with the citation
   into every export). The direction of the disturbance is carried along the path, so each
   step reads "a fall in X weighs on Y" with the cause's direction and the relation's sign
   agreeing (the ``relation_direction`` rule checks it);
2. the scenario paragraph: the inputs' provenance and estimation sample (from records),
   then cumulative real GDP, peak unemployment, cumulative house-price and equity-price
   change, each against the median (baseline) path;
3. the annual profile, period by period;
4. the bank paragraph when ``cet1_ratio`` is requested: the cross-bank distribution of CET1
   depletion when the bank model supplied it, otherwise why the bank part is absent.

Numbers appear only as ``{{NUM:claim_id}}`` and dates only as ``{{DATE:…}}``; sentences
with numbers use neutral verbs, so their wording never claims a direction the rendered
sign could contradict. Connectives rotate deterministically (by position), so the same
context always gives the same report.
"""

from __future__ import annotations

import re
from collections import defaultdict

from aieco.config import get_settings
from aieco.models.bank import outputs as bank_outputs
from aieco.records import SentenceKind
from aieco.reporting.contract import TOKEN_RE
from aieco.reporting.schema import ClaimBrief, ReportContext, ReportDraft, SentenceDraft

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_CHANNEL_OPEN = (
    "The {ord} channel runs from {src} to {dst}.",
    "A {ord} channel links {src} to {dst}.",
    "The {ord} channel connects {src} with {dst}.",
)
_STEP_LEAD = ("", "In turn, ", "From there, ", "This matters because ", "As a consequence, ", "Next, ")
_CAUSE = {1: "a rise in", -1: "a fall in"}
_EFFECT = {1: ("raises", "pushes up", "lifts"), -1: ("weighs on", "reduces", "lowers")}
_SCENARIO_LEAD = {
    "synthetic": "The figures below come from synthetic model inputs",
    "illustrative": "The figures below come from illustrative model inputs",
    "mixed": "The figures below come from partly synthetic model inputs",
    "real": "The figures below come from published data",
}
_EVIDENCE = {
    "illustrative": " and the cited passages are illustrative",
    "synthetic": " and the cited passages are synthetic",
    "mixed": " and some cited passages are illustrative",
    "real": "",
}
_RELEASE = {
    "vintage": "the publication dates of the data vintages",
    "lag": "documented publication lags",
    "file": "the dates the files state",
}
_BANK_ABSENT = {
    "not_run": "The bank part of this report is absent: no bank capital model ran for this scenario.",
    "stopped": "The bank part of this report is absent: the bank capital models stopped before producing "
    "figures, and the stop is recorded with its reason in the analysis.",
    "gate_failed": "The bank part of this report is absent: the bank capital models did not pass their external "
    "validation gate, so they may not supply conclusions.",
    "no_claims": "The bank part of this report is absent: the bank capital models ran, but no cross-bank figure "
    "was registered as a claim before the run.",
    "not_scenario": "The bank part of this report is absent: the real-data bank model describes an EBA-style "
    "adverse exercise from each bank's starting position and takes no macro path, so it gives no outcome of this "
    "scenario.",
}

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

_OPENERS = (
    "In {when}, the model puts {items}",
    "For {when}, the projection has {items}",
    "The {when} outcome sets {items}",
    "Turning to {when}, the model places {items}",
)
_RANGE_OPENER = "Averaged over {when}, the model puts {items}"
_LISTS = ("{head} and {last}", "{head}, together with {last}", "{head} as well as {last}")


def write_report(context: ReportContext) -> ReportDraft:
    """A structured report with NUM tokens and citations; never a digit in its prose."""
    sentences = _channel_paragraphs(context)
    claims = list(context.claims)
    figures = {(c.variable, c.transformation, c.statistic): c for c in claims if c.period == context.horizon}
    used: set[str] = set()
    sentences += _scenario_paragraph(context, figures, used)
    annual = [
        c
        for c in claims
        if c.claim_id not in used
        and c.statistic in ("selected", "value")
        and not _is_bank(c)
        and c.transformation not in _SUMMARY_TRANSFORMATIONS
    ]
    sentences += [s.model_copy(update={"paragraph": "annual"}) for s in _number_sentences(annual)]
    if context.bank_requested:
        sentences += _bank_paragraph(context, [c for c in claims if _is_bank(c)])
    title = f"Scenario report: {context.risk_label}"
    return ReportDraft(title=title[:1].upper() + title[1:], risk=context.risk, sentences=sentences)


_SUMMARY_TRANSFORMATIONS = {
    "cumulative_change",
    "deviation_from_median",
    "peak",
    "peak_deviation_from_median",
    "peak_to_trough",
    "end_level",
}


def _is_bank(c: ClaimBrief) -> bool:
    return c.variable.startswith("cet1") or c.variable in bank_outputs.VARIABLES


def _channel_paragraphs(context: ReportContext) -> list[SentenceDraft]:
    """One paragraph per selected path: its opening, then each step with its citation.

    The disturbance starts with the registered movement of the path's first variable (a rise
    unless ``path_directions`` says a fall); each step's effect has the direction the
    relation's sign gives it, and the next step starts from there.
    """
    relations = {r.relation_id: r for r in context.relations}
    out: list[SentenceDraft] = []
    seen: set[str] = set()
    channel = 0
    directions = list(context.path_directions)
    for number, path in enumerate(context.paths or [[r.relation_id] for r in context.relations]):
        steps = [relations[rid] for rid in path if rid in relations]
        if not steps or len(steps) != len(path) or all(r.relation_id in seen for r in steps):
            continue  # a path with a relation outside the accepted set is never told
        paragraph = f"channel:{channel + 1}"
        opening = _CHANNEL_OPEN[channel % len(_CHANNEL_OPEN)].format(
            ord=_ORDINALS[channel % len(_ORDINALS)],
            src=_noun_phrase(steps[0].src_label),
            dst=_noun_phrase(steps[-1].dst_label),
        )
        out.append(
            SentenceDraft(
                kind=SentenceKind.qualitative,
                template=_cap(opening),
                paragraph=paragraph,
                cited_relation_ids=[steps[0].relation_id],
            )
        )
        direction = directions[number] if number < len(directions) else 1
        told_before = {r.relation_id for r in steps} & seen
        for k, rel in enumerate(steps):
            effect = direction * (1 if rel.sign == "+" else -1)
            if rel.relation_id not in seen:
                seen.add(rel.relation_id)
                if k and steps[k - 1].relation_id in told_before:
                    lead = "Beyond the steps told above, "
                else:
                    lead = _STEP_LEAD[0 if k == 0 else 1 + (k + channel) % (len(_STEP_LEAD) - 1)]
                verb = _EFFECT[effect][(k + channel) % len(_EFFECT[effect])]
                text = f"{lead}{_CAUSE[direction]} {_noun_phrase(rel.src_label)} {verb} {_noun_phrase(rel.dst_label)}."
                out.append(
                    SentenceDraft(
                        kind=SentenceKind.qualitative,
                        template=_cap(text),
                        paragraph=paragraph,
                        cited_relation_ids=[rel.relation_id],
                    )
                )
            direction = effect
        channel += 1
    return out


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _scenario_paragraph(
    context: ReportContext, figures: dict[tuple[str, str, str], ClaimBrief], used: set[str]
) -> list[SentenceDraft]:
    """Provenance and sample, then the horizon figures against the median path."""
    out = [SentenceDraft(kind=SentenceKind.temporal, template=_provenance_sentence(context), paragraph="scenario")]

    def tok(variable: str, transformation: str, statistic: str = "selected") -> str | None:
        c = figures.get((variable, transformation, statistic))
        return None if c is None else f"{{{{NUM:{c.claim_id}}}}}"

    def add(template: str, *parts: str | None) -> None:
        if any(p is None for p in parts):
            return
        ids = [m.group(2) for m in TOKEN_RE.finditer(template) if m.group(1) == "NUM"]
        used.update(ids)
        out.append(SentenceDraft(kind=SentenceKind.numerical, template=template, claim_ids=ids, paragraph="scenario"))

    gdp, gdp_med, gdp_dev = (
        tok("real_gdp", "cumulative_change"),
        tok("real_gdp", "cumulative_change", "median"),
        tok("real_gdp", "deviation_from_median"),
    )
    add(
        f"In the selected scenario, cumulative real GDP growth over {{{{DATE:horizon}}}} comes to {gdp}, against "
        f"{gdp_med} on the median path, so that by the end of {{{{DATE:horizon_end}}}} the level of real GDP "
        f"deviates from that baseline by {gdp_dev}.",
        gdp,
        gdp_med,
        gdp_dev,
    )
    u, u_med, u_dev = (
        tok("unemployment", "peak"),
        tok("unemployment", "peak", "median"),
        tok("unemployment", "peak_deviation_from_median"),
    )
    add(
        f"The unemployment rate peaks at {u}, compared with a peak of {u_med} on the median path, a gap of {u_dev}.",
        u,
        u_med,
        u_dev,
    )
    for variable, lead in (("house_prices", "House prices"), ("equity_prices", "Equity prices")):
        cum, med, dev = (
            tok(variable, "cumulative_change"),
            tok(variable, "cumulative_change", "median"),
            tok(variable, "deviation_from_median"),
        )
        connective = "Meanwhile, h" if variable == "house_prices" else "E"
        add(
            f"{connective}{lead[1:]} show a cumulative change of {cum} over the horizon, against {med} on the "
            f"median path, and end the horizon with a deviation of {dev} from that baseline.",
            cum,
            med,
            dev,
        )
    gdp_ptt, hp_ptt = tok("real_gdp", "peak_to_trough"), tok("house_prices", "peak_to_trough")
    if gdp_ptt and hp_ptt:
        add(
            f"Measured from peak to trough within the horizon, real GDP moves by {gdp_ptt} and house prices by "
            f"{hp_ptt}.",
            gdp_ptt,
            hp_ptt,
        )
    else:
        for variable, ptt in (("real GDP", gdp_ptt), ("house prices", hp_ptt)):
            add(f"Measured from peak to trough within the horizon, {variable} moves by {ptt}.", ptt)
    rate, rate_med = tok("long_term_rate", "end_level"), tok("long_term_rate", "end_level", "median")
    add(
        f"The long-term interest rate ends the horizon at {rate}, against {rate_med} on the median path.",
        rate,
        rate_med,
    )
    return out


def _provenance_sentence(context: ReportContext) -> str:
    p = context.provenance
    if p is None:
        return (
            "The projections cover {{DATE:horizon}} and use information available up to {{DATE:cutoff}}; "
            "the provenance of the inputs is not recorded."
        )
    text = _SCENARIO_LEAD[p.data] + _EVIDENCE[p.evidence]
    if p.data != "real" or p.evidence != "real":
        text += ", so they illustrate the method and are not a forecast"
    text += "; the projections cover {{DATE:horizon}}"
    if p.sample_start and p.sample_end:
        text += (
            f", the model is estimated on quarterly data from {{{{DATE:{p.sample_start}}}}} to "
            f"{{{{DATE:{p.sample_end}}}}}"
        )
    text += " and only values released by {{DATE:cutoff}} enter it"
    if p.release_rules:
        rules = [_RELEASE[r] for r in p.release_rules]
        text += ", with release dates taken from " + (
            rules[0] if len(rules) == 1 else ", ".join(rules[:-1]) + " and " + rules[-1]
        )
    return text + "."


#: What the bank data are, said next to the bank figures (the bank run's recorded provenance).
_BANK_KIND = {
    "synthetic": "synthetic",
    "illustrative": "illustrative",
    "mixed": "partly synthetic",
    "undeclared": "undeclared-provenance",
    "real": "",
}
_BANK_MODELS = {
    "bank_feqar": "the fixed-effects quantile model of bank capital components",
    "bank_feols": "the fixed-effects least-squares model of bank capital components",
}


def _bank_paragraph(context: ReportContext, claims: list[ClaimBrief]) -> list[SentenceDraft]:
    """The cross-bank CET1 figures against the threshold, or why the bank part is absent.

    Each figure is a NUM token of a claim registered before the bank run; the data's provenance
    (synthetic banks in the demo) is stated in every sentence that holds a bank figure.
    """
    by = {(c.variable, c.statistic): c for c in claims}
    median, low, high = (by.get((bank_outputs.DEPLETION, f"cross_bank_p{q}")) for q in ("50", "05", "95"))
    below, threshold = by.get((bank_outputs.BELOW, "value")), by.get((bank_outputs.THRESHOLD, "value"))
    count = by.get((bank_outputs.PROJECTED, "value"))
    if context.bank_status != "present" or median is None:
        status = context.bank_status if context.bank_status != "present" else "no_claims"
        return [SentenceDraft(kind=SentenceKind.temporal, template=_BANK_ABSENT[status], paragraph="bank")]

    def tok(c: ClaimBrief) -> str:
        return f"{{{{NUM:{c.claim_id}}}}}"

    kind = _BANK_KIND.get(context.bank_provenance or "undeclared", "undeclared-provenance")
    adj = f"{kind} " if kind else ""
    model = _BANK_MODELS.get(context.bank_model or "", "the bank capital model")
    out = []
    if kind == "undeclared-provenance":
        out.append(
            SentenceDraft(
                kind=SentenceKind.temporal,
                paragraph="bank",
                template="The bank figures that follow come from bank data whose provenance is not recorded, so "
                "they are no conclusion about any real bank.",
            )
        )
    elif kind:
        out.append(
            SentenceDraft(
                kind=SentenceKind.temporal,
                paragraph="bank",
                template=f"The bank figures that follow come from {adj}bank data, not from real institutions, so "
                "they show how the scenario passes into bank capital and describe no actual bank.",
            )
        )
    else:
        out.append(
            SentenceDraft(
                kind=SentenceKind.temporal,
                paragraph="bank",
                template="The bank figures that follow come from the published data of real banks.",
            )
        )
    lead = f"Under the selected scenario, {model} projects the CET1 ratio of each {adj}bank over {{{{DATE:horizon}}}}"
    lead += f", and the number of {adj}banks projected is {tok(count)}." if count is not None else "."
    sentences = [lead]
    text = (
        f"For the median {adj}bank, the CET1 depletion, measured as the starting ratio minus the lowest ratio "
        f"the bank reaches within the horizon, comes to {tok(median)}"
    )
    if low is not None and high is not None:
        text += (
            f"; across the {adj}banks the CET1 depletion runs from {tok(low)} for the least affected tail of the "
            f"distribution to {tok(high)} for the most affected tail"
        )
        if low.sign == -1:
            text += ", a negative depletion meaning that the ratio of such a bank stays above its starting level"
    sentences.append(text + ".")
    if below is not None and threshold is not None:
        sentences.append(
            f"Against a CET1 threshold of {tok(threshold)}, the CET1 minimum requirement plus the capital "
            f"conservation buffer, the number of {adj}banks below the threshold at the low point of their "
            f"projected path is {tok(below)}."
        )
    elif below is not None:
        sentences.append(
            f"The number of {adj}banks below the threshold at the low point of their path is {tok(below)}."
        )
    if kind:
        sentences.append(
            f"Because these banks are {kind}, the figures illustrate the method and are not a conclusion about any "
            "real bank."
        )
    for text in sentences:
        ids = [m.group(2) for m in TOKEN_RE.finditer(text) if m.group(1) == "NUM"]
        out.append(
            SentenceDraft(
                kind=SentenceKind.numerical if ids else SentenceKind.temporal,
                template=text,
                paragraph="bank",
                claim_ids=ids,
            )
        )
    return out


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
            part = group[part_no : part_no + per]
            items = [f"{_measure(c)} at {{{{NUM:{c.claim_id}}}}}" for c in part]
            listed = (
                items[0]
                if len(items) == 1
                else _LISTS[(k + part_no) % len(_LISTS)].format(head=", ".join(items[:-1]), last=items[-1])
            )
            if part_no:
                text = f"In the same period, the model also puts {listed}"
            elif "-" in period:
                text = _RANGE_OPENER.format(when=f"{{{{DATE:{period}}}}}", items=listed)
            else:
                text = _OPENERS[k % len(_OPENERS)].format(when=f"{{{{DATE:{period}}}}}", items=listed)
            out.append(
                SentenceDraft(
                    kind=SentenceKind.numerical,
                    template=text[:1].upper() + text[1:] + ".",
                    claim_ids=[c.claim_id for c in part],
                )
            )
    return out
