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
from collections.abc import Callable

from aieco.config import get_settings
from aieco.models.bank import outputs as bank_outputs
from aieco.records import SentenceKind
from aieco.reporting.contract import TOKEN_RE
from aieco.reporting.schema import ClaimBrief, ReportContext, ReportDraft, SentenceDraft

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_CHANNEL_OPEN = (
    "The {ord} channel runs from {src} to {dst}",
    "A {ord} channel links {src} to {dst}",
    "The {ord} channel connects {src} with {dst}",
)
_CAUSE = {1: "a rise in", -1: "a fall in"}
_MOVE = {1: "rise", -1: "fall"}
_EFFECT = {1: ("raises", "pushes up", "lifts"), -1: ("weighs on", "reduces", "lowers")}
#: A step after the first starts from the movement the previous step gave its variable.
_NEXT_STEP = (
    "the {move} in {src} in turn {verb} {dst}",
    "the resulting {move} in {src} {verb} {dst}",
    "that {move} in {src} then {verb} {dst}",
)
_SCENARIO_LEAD = {
    "synthetic": "The figures that follow are model projections computed from synthetic inputs",
    "illustrative": "The figures that follow are model projections computed from illustrative inputs",
    "mixed": "The figures that follow are model projections computed from partly synthetic inputs",
    "real": "The figures that follow are model projections computed from published data",
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
    "In {when}, the selected path has {items}",
    "For {when}, the model puts {items}",
)
_RANGE_OPENER = "Averaged over {when}, the model puts {items}"
_CONTINUE = (
    "In the same year, the model also puts {items}",
    "For the same year, the projection also has {items}",
    "That year, the selected path also has {items}",
)
_PAIRS = ("{head} and {last}", "{head} as well as {last}")


def write_report(context: ReportContext) -> ReportDraft:
    """A structured report with NUM tokens and citations; never a digit in its prose."""
    sentences = _channel_paragraphs(context)
    sentences += _channel_gaps(context)
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
    annual.sort(key=lambda c: _ANNUAL_ORDER.get(c.variable, len(_ANNUAL_ORDER)))  # stable: periods keep order
    sentences += [s.model_copy(update={"paragraph": "annual"}) for s in _number_sentences(annual)]
    if context.bank_requested:
        sentences += _bank_paragraph(context, [c for c in claims if _is_bank(c)])
    title = f"Scenario report: {context.risk_label}"
    return ReportDraft(title=title[:1].upper() + title[1:], risk=context.risk, sentences=sentences)


#: The annual profile reads activity first, then prices and rates, then asset prices.
_ANNUAL_ORDER = {
    v: k
    for k, v in enumerate(
        ("real_gdp", "unemployment", "inflation", "long_term_rate", "policy_rate", "house_prices", "equity_prices")
    )
}

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
    """One paragraph per selected path: where it runs, then each step with its citation.

    The disturbance starts with the registered movement of the path's first variable (a rise
    unless ``path_directions`` says a fall); each step's effect has the direction the
    relation's sign gives it, and the next step starts from there ("the resulting fall in
    X …"). The opening and the first step share a sentence ("The first channel runs from A to
    C: a rise in A weighs on B."); steps an earlier channel told are not repeated but named
    ("it follows the first channel as far as B, and the fall in B then …").
    """
    relations = {r.relation_id: r for r in context.relations}
    out: list[SentenceDraft] = []
    told: dict[str, int] = {}  # relation id -> index of the channel that told it
    channel = 0
    directions = list(context.path_directions)
    for number, path in enumerate(context.paths or [[r.relation_id] for r in context.relations]):
        steps = [relations[rid] for rid in path if rid in relations]
        if not steps or len(steps) != len(path) or all(r.relation_id in told for r in steps):
            continue  # a path with a relation outside the accepted set is never told
        paragraph = f"channel:{channel + 1}"
        opening = _CHANNEL_OPEN[channel % len(_CHANNEL_OPEN)].format(
            ord=_ORDINALS[channel % len(_ORDINALS)],
            src=_noun_phrase(steps[0].src_label),
            dst=_noun_phrase(steps[-1].dst_label),
        )
        direction = directions[number] if number < len(directions) else 1
        written = 0
        shared_with: int | None = None  # the earlier channel whose steps this one just followed
        for k, rel in enumerate(steps):
            effect = direction * (1 if rel.sign == "+" else -1)
            if rel.relation_id in told:
                shared_with = told[rel.relation_id]
                direction = effect
                continue
            told[rel.relation_id] = channel
            turn = k + channel
            verb = _EFFECT[effect][turn % len(_EFFECT[effect])]
            src, dst = _noun_phrase(rel.src_label), _noun_phrase(rel.dst_label)
            move = _MOVE[direction]
            if shared_with is not None:
                step = (
                    f"it follows the {_ORDINALS[shared_with % len(_ORDINALS)]} channel as far as {src}, "
                    f"and the {move} in {src} then {verb} {dst}"
                )
                text = f"{opening}: {step}." if not written else _cap(step) + "."
            elif not written:
                text = f"{opening}: {_CAUSE[direction]} {src} {verb} {dst}."
            else:
                text = _cap(_NEXT_STEP[turn % len(_NEXT_STEP)].format(move=move, src=src, verb=verb, dst=dst)) + "."
            out.append(
                SentenceDraft(
                    kind=SentenceKind.qualitative,
                    template=_cap(text),
                    paragraph=paragraph,
                    cited_relation_ids=[rel.relation_id],
                )
            )
            written += 1
            shared_with = None
            direction = effect
        channel += 1
    return out


def _channel_gaps(context: ReportContext) -> list[SentenceDraft]:
    """One sentence naming the registered channels the workspace's relations form no path for (a stop
    of that channel is a result: said, never told as a mechanism). It says what was searched (the
    relations read from this workspace's documents up to the cutoff), not what all public sources state."""
    gaps = list(dict.fromkeys((g.src_label, g.dst_label) for g in context.channels_without_path))
    if not gaps:
        return []
    named = [f"from {_noun_phrase(a)} to {_noun_phrase(b)}" for a, b in gaps]
    listed, one = _listed(named), len(named) == 1
    text = (
        f"The request also registers {'a channel' if one else 'channels'} {listed}, but the relations read from "
        f"this workspace's documents published on or before {{{{DATE:cutoff}}}} form no admissible path for "
        f"{'it' if one else 'them'}, so "
        f"{'it plays' if one else 'they play'} no part in this scenario."
    )
    return [SentenceDraft(kind=SentenceKind.temporal, template=text, paragraph="channel:none")]


def _listed(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _scenario_paragraph(
    context: ReportContext, figures: dict[tuple[str, str, str], ClaimBrief], used: set[str]
) -> list[SentenceDraft]:
    """Provenance and sample, then the horizon figures against the median path."""
    out = [SentenceDraft(kind=SentenceKind.temporal, template=_provenance_sentence(context), paragraph="scenario")]
    observed = _last_observed_sentence(context)
    if observed:
        out.append(SentenceDraft(kind=SentenceKind.temporal, template=observed, paragraph="scenario"))

    def tok(variable: str, transformation: str, statistic: str = "selected") -> str | None:
        c = figures.get((variable, transformation, statistic))
        return None if c is None else f"{{{{NUM:{c.claim_id}}}}}"

    def add(template: str, *parts: str | None) -> None:
        if any(p is None for p in parts):
            return
        ids = [m.group(2) for m in TOKEN_RE.finditer(template) if m.group(1) == "NUM"]
        used.update(ids)
        out.append(SentenceDraft(kind=SentenceKind.numerical, template=template, claim_ids=ids, paragraph="scenario"))

    names = {c.variable: c.label for c in context.claims}

    def name(variable: str, default: str) -> str:
        return _noun_phrase(names.get(variable, default))

    gdp, gdp_med, gdp_dev = (
        tok("real_gdp", "cumulative_change"),
        tok("real_gdp", "cumulative_change", "median"),
        tok("real_gdp", "deviation_from_median"),
    )
    real_gdp = name("real_gdp", "real GDP")
    add(
        f"In this scenario, cumulative {real_gdp} growth over {{{{DATE:horizon}}}} (annual averages compounded) "
        f"comes to {gdp}, against {gdp_med} in the baseline; in the last quarter of {{{{DATE:horizon_end}}}} the "
        f"level of {real_gdp} stands {gdp_dev} away from the baseline level at that date.",
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
        f"{_cap(name('unemployment', 'unemployment rate'))} peaks at {u} (quarterly); in that quarter the baseline "
        f"stands at {u_med}, a gap of {u_dev}.",
        u,
        u_med,
        u_dev,
    )
    house, equity = name("house_prices", "house prices"), name("equity_prices", "equity prices")
    forms = {
        "house_prices": "Cumulatively (annual averages compounded), {v} change by {cum} over the horizon, against "
        "{med} in the baseline; in the horizon's last quarter their level stands {dev} away from the baseline level.",
        "equity_prices": "For {v}, the cumulative change of the annual average over the horizon is {cum}, against "
        "{med} in the baseline; in the horizon's last quarter the level stands {dev} away from the baseline level.",
    }
    for variable, v in (("house_prices", house), ("equity_prices", equity)):
        cum, med, dev = (
            tok(variable, "cumulative_change"),
            tok(variable, "cumulative_change", "median"),
            tok(variable, "deviation_from_median"),
        )
        if cum and med and dev:
            add(_cap(forms[variable].format(v=v, cum=cum, med=med, dev=dev)), cum, med, dev)
    gdp_ptt, hp_ptt = tok("real_gdp", "peak_to_trough"), tok("house_prices", "peak_to_trough")
    if gdp_ptt and hp_ptt:
        add(
            f"From peak to trough within the horizon, {real_gdp} moves by {gdp_ptt} and {house} by {hp_ptt}.",
            gdp_ptt,
            hp_ptt,
        )
    else:
        for v, ptt in ((real_gdp, gdp_ptt), (house, hp_ptt)):
            add(f"From peak to trough within the horizon, {v} moves by {ptt}.", ptt)
    rate, rate_med = tok("long_term_rate", "end_level"), tok("long_term_rate", "end_level", "median")
    add(
        f"{_cap(name('long_term_rate', 'long-term interest rate'))} ends the horizon at {rate}, against {rate_med} "
        "in the baseline in the same quarter.",
        rate,
        rate_med,
    )
    out += _unrestricted(context, name)
    out += _stated_magnitudes(context)
    return out


#: A number with a unit in a cited quote: the passage states a magnitude of its own.
_MAGNITUDE = re.compile(r"\d+(?:[.,]\d+)?\s*(?:percentage points?|pp\b|%|per ?cent|basis points|bps?\b)", re.I)


def _stated_magnitudes(context: ReportContext) -> list[SentenceDraft]:
    """Reconcile magnitudes that cited quotes state with the model's figures: the quote describes its own
    publication's scenario, the figure is this model's; say so instead of leaving two numbers unexplained."""
    with_figures = {c.variable for c in context.claims}
    cited = [r for r in context.relations if r.dst_var in with_figures and _MAGNITUDE.search(r.quote or "")]
    if not cited:
        return []
    labels = sorted({_noun_phrase(r.dst_label) for r in cited})
    text = (
        f"A cited passage states its own magnitude for {_listed(labels)}: it describes the scenario of that "
        "publication, with its own baseline and severity, while the figures above are this model's projection under "
        "the analysis's restrictions, so they are not expected to coincide."
    )
    return [SentenceDraft(kind=SentenceKind.temporal, template=text, paragraph="scenario")]


def _unrestricted(context: ReportContext, name: Callable[[str, str], str]) -> list[SentenceDraft]:
    """One sentence naming the variables with figures that no channel restricts: the selected draw is
    chosen for the restricted variables, so the others' values are the model's response in that draw
    (an economist must not read them as an effect the evidence states)."""
    labels = [name(v, v.replace("_", " ")) for v in context.unrestricted_variables]
    if not labels:
        return []
    listed, one = _listed(labels), len(labels) == 1
    text = (
        f"No channel of this scenario restricts {listed}: {'its path is' if one else 'their paths are'} the "
        "model's conditional response given the restricted variables, not a direction the cited evidence sets."
    )
    return [SentenceDraft(kind=SentenceKind.temporal, template=text, paragraph="scenario")]


#: The order in which the starting point is told (activity, prices, rates, asset prices).
_OBSERVED_ORDER = ("real_gdp", "inflation", "unemployment", "long_term_rate", "house_prices", "equity_prices")
_OBSERVED_NAMES = {
    "real_gdp": "real GDP",
    "inflation": "consumer prices",
    "unemployment": "unemployment",
    "long_term_rate": "the long-term interest rate",
    "house_prices": "residential property prices",
    "equity_prices": "equity prices",
}


def _last_observed_sentence(context: ReportContext) -> str:
    """The starting point: each variable's last quarter observed by the cutoff, which every path takes as data."""
    p = context.provenance
    if p is None or not p.last_observed:
        return ""
    names = {c.variable: _noun_phrase(c.label) for c in context.claims}
    items = [
        f"{names.get(v, _OBSERVED_NAMES.get(v, v.replace('_', ' ')))} to {{{{DATE:{p.last_observed[v]}}}}}"
        for v in _OBSERVED_ORDER
        if v in p.last_observed
    ]
    return (
        "Every quarter observed by {{DATE:cutoff}} is data in every path, not a simulated value: the last observed "
        f"quarters are {_listed(items)}."
    )


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
        if p.estimator == "minnesota":
            text += " (a Bayesian VAR: coefficients shrunk towards random walks and white noise, a Minnesota prior)"
        elif p.estimator == "ols":
            text += " (by least squares)"
    text += " and only values released by {{DATE:cutoff}} enter it"
    if p.release_rules:
        rules = [_RELEASE[r] for r in p.release_rules]
        text += ", with release dates taken from " + (
            rules[0] if len(rules) == 1 else ", ".join(rules[:-1]) + " and " + rules[-1]
        )
    text += "."
    if p.baseline == "anchored":
        who = p.baseline_publisher or "official staff"
        text += (
            f" The baseline is the model's central path anchored to the latest {who} projections published by "
            "{{DATE:cutoff}}, with the other variables following from the model; the model's unconditional baseline "
            "is kept beside it in the run's tables."
        )
    elif p.baseline == "unconditional":
        text += (
            " No official projection published by {{DATE:cutoff}} is in the workspace, so the baseline is the "
            "model's unconditional central path."
        )
    if p.selection_rule == "calibrated":
        text += (
            " The scenario is the model's expected path given that the variables this risk's channels restrict move "
            "in their directions at the target severity (a conditional forecast)"
            + (
                ", scaled to the severity of the latest official adverse scenario published by {{DATE:cutoff}}"
                if p.severity_scaled
                else ""
            )
            + "; the paper's rule (the single most severe draw) remains selectable."
        )
    elif p.selection_rule == "paper_max":
        text += " The scenario is the single most severe admissible simulated draw (the paper's rule)."
    return text


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
    "bank_eba_scenario": "the severity-scaled model of EBA stress-test CET1 depletion",
}
#: The stated assumptions of a bank model, read in the bank paragraph after its figures (no numbers).
_BANK_ASSUMPTIONS = {
    "bank_eba_scenario": "The model takes each bank's CET1 depletion as proportional to the scenario's fall in "
    "real GDP over the horizon, scaling the depletion that the EBA EU-wide stress tests gave per unit of their "
    "own EU-wide fall in real GDP, with each bank's starting income, impairment and capital position setting "
    "its slope; the fall in real GDP stands for the whole scenario, and banks outside the request's "
    "jurisdiction or whose latest figures are older than the stated limit are left out.",
}


_START_SOURCE = {
    "transparency": "an EBA EU-wide transparency exercise",
    "stress test": "an EBA EU-wide stress test",
}


def _bank_start_sentences(context: ReportContext) -> list[SentenceDraft]:
    """Where the real banks start from (the application stage's record): one sentence, years as DATE tokens."""
    if not context.bank_starts:
        return []
    parts = [f"year-end {{{{DATE:{s.actual_year}}}}} figures from {_START_SOURCE[s.kind]}" for s in context.bank_starts]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and, for the other banks, " + parts[-1]
    lead = "where a bank reports there, " if len(parts) > 1 else ""
    return [
        SentenceDraft(
            kind=SentenceKind.temporal,
            paragraph="bank",
            template=f"Each real bank in the request's scope starts from its latest actual figures released by the "
            f"cutoff: {lead}{listed}; a bank outside the request's jurisdiction, or whose latest figures are older "
            "than the stated limit, is left out, with its reason in the analysis record.",
        )
    ]


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
        absent = [SentenceDraft(kind=SentenceKind.temporal, template=_BANK_ABSENT[status], paragraph="bank")]
        return absent + _bank_start_sentences(context)

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
    if context.bank_model in _BANK_ASSUMPTIONS:  # bank paragraph (issue 31): the model's stated assumptions
        sentences.append(_BANK_ASSUMPTIONS[context.bank_model])
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
            if len(items) == 1:
                listed = items[0]
            elif len(items) == 2:
                listed = _PAIRS[(k + part_no) % len(_PAIRS)].format(head=items[0], last=items[1])
            else:  # a list of three or more: commas, then "and"
                listed = ", ".join(items[:-1]) + " and " + items[-1]
            if part_no and "-" in period:
                text = f"Over the same period, the model also puts {listed}"
            elif part_no:
                text = _CONTINUE[(k + part_no) % len(_CONTINUE)].format(items=listed)
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
