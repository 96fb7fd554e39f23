"""Views of reports: the reports list, sentences, exports, output tests and the chain behind one number.

Read-only, like every view module (see :mod:`dashboard.shared`).
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

from aieco.records import (
    Claim,
    ModelOutputPoint,
    ModelRun,
    OutputTest,
    Path,
    Report,
    ReportSentence,
    Restriction,
)
from aieco.reporting.export import export_report
from aieco.review import citation_notes
from aieco.store import Store
from dashboard.graph_views import relations_frame
from dashboard.runs_views import request_of_run, run_labels
from dashboard.shared import _frame, _short, _unique, _when, analysis_labels, provenance_of_analysis, variable_labels

REPORT_COLUMNS = [
    "report_id",
    "analysis_id",
    "risk",
    "title",
    "status",
    "failure_rule",
    "claims",
    "relations",
    "graph_condition",
]


def reports_frame(store: Store) -> pd.DataFrame:
    from aieco.api import report_rows

    return _frame(report_rows(store), REPORT_COLUMNS)


def report_sentences(store: Store, report_id: str) -> list[dict[str, Any]]:
    """The report's sentences in order, each with its rendered text and its claims' points."""
    out = []
    labels = variable_labels(store)
    for s in sorted(store.find(ReportSentence, report_id=report_id), key=lambda s: s.position):
        claims = []
        for cid in s.claim_ids:
            c = store.get(Claim, cid)
            if c is None:
                claims.append({"claim_id": cid, "missing": True})
                continue
            p = store.get(ModelOutputPoint, c.point_id)
            claims.append(
                {
                    "claim_id": cid,
                    "missing": False,
                    "run_id": c.run_id,
                    "point_id": c.point_id,
                    "variable_label": labels.get(c.variable, c.variable),
                    "model_id": c.model_id,
                    "variable": c.variable,
                    "unit": c.unit,
                    "period": c.period,
                    "rounding": c.rounding,
                    "value": p.value if p else None,
                }
            )
        out.append(
            {
                "position": s.position,
                "kind": s.kind.value,
                "rendered": s.rendered or s.template,
                "status": s.status,
                "failure": s.failure,
                "claims": claims,
                "cited_relation_ids": list(s.cited_relation_ids),
            }
        )
    return out


EXPORT_FORMATS = {
    "html": ("HTML", "html", "text/html"),
    "md": ("Markdown", "md", "text/markdown"),
    "tex": ("LaTeX", "tex", "application/x-tex"),
    "pdf": ("PDF", "pdf", "application/pdf"),
    "json": ("JSON bundle", "json", "application/json"),
}


def report_export(store: Store, report_id: str, fmt: str) -> bytes:
    """The report exported by the reporting library (re-rendered from its claims first)."""
    return export_report(store, report_id, fmt)


def report_file_name(store: Store, report_id: str, fmt: str) -> str:
    """The download's file name, from the report's title (never its id)."""
    from aieco.reporting.export import export_file_name

    return export_file_name(store, report_id, fmt)


def report_of_claim(store: Store, claim_id: str) -> str | None:
    """The report whose sentences carry ``claim_id`` (the first one stored), if any."""
    for r in store.all(Report):
        if claim_id in r.claim_ids:
            return r.report_id
    return None


def claim_of_point(store: Store, point_id: str) -> str | None:
    """The claim registered on a point, if any."""
    found = store.find(Claim, point_id=point_id, limit=1)
    return found[0].claim_id if found else None


OUTPUT_TEST_COLUMNS = [
    "claim_id",
    "phase",
    "variable",
    "horizon",
    "model_id",
    "result",
    "reported_value",
    "stored_value",
    "tolerance",
    "detail",
    "run_id",
]


def output_tests_frame(store: Store, analysis_id: str) -> pd.DataFrame:
    rows = [
        {
            "claim_id": t.claim_id,
            "phase": t.phase,
            "variable": t.variable,
            "horizon": t.horizon,
            "model_id": t.model_id,
            "result": t.result,
            "reported_value": t.reported_value,
            "stored_value": t.stored_value,
            "tolerance": t.tolerance,
            "detail": t.detail,
            "run_id": t.run_id,
        }
        for t in store.find(OutputTest, analysis_id=analysis_id)
    ]
    return _frame(rows, OUTPUT_TEST_COLUMNS)


def report_labels(store: Store, analysis_id: str | None = None) -> dict[str, str]:
    """One unique entry per report: risk — title · analysis · status (of one analysis, or all)."""
    analyses = analysis_labels(store)
    reports = [r for r in store.all(Report) if analysis_id is None or r.analysis_id == analysis_id]
    labels = {
        r.report_id: (
            f"{r.risk.replace('_', ' ')} — {r.title} · {r.status}"
            + ("" if analysis_id else f" · {analyses.get(r.analysis_id, r.analysis_id)}")
        )
        for r in reports
    }
    return _unique(labels)


CHAIN_COLUMNS = [
    "path",
    "step",
    "from",
    "sign",
    "to",
    "evidence_class",
    "quote",
    "source",
    "publisher",
    "publication_date",
    "page",
    "representative",
    "relation_id",
    "reading",
]


#: What a model run's inputs are, where the analyst reads the chain (the raw key stays in the details).
INPUT_LABELS = {
    "observations": "Macro observations released by the cutoff",
    "restrictions": "Sign restrictions from the channel paths",
    "cutoff": "Information cutoff",
    "vintage_policy": "Vintage policy (strict or approximate release dates)",
    "taken": "Scenarios already selected for other risks (excluded)",
    "draws": "Number of simulated draws",
    "macro_history": "Macro history for the bank fit",
    "panel": "Bank panel (CET1 capital, RWA, income)",
    "options": "Model options",
    "official": "Official stress-test starting figures per bank",
    "params": "Fitted coefficients",
    "fixed_effects": "Bank fixed effects",
    "residuals": "Fit residuals (for resampling)",
    "scenario": "Macro scenario per country and period",
    "start_state": "Each bank's starting state",
    "seed": "Random seed",
    "horizon": "Projection horizon",
    "settings": "Settings",
    "request": "Model request",
    "graph": "Channel graph",
    "relations": "Relations",
}


def input_label(key: str) -> str:
    """The readable name of a model run's input ('taken' → 'Scenarios already selected …'); others in words."""
    return INPUT_LABELS.get(key, key.replace("_", " ").capitalize())


def claim_chain(store: Store, claim_id: str) -> dict[str, Any]:
    """The chain behind one reported number, in reading order.

    claim → its OutputTests → the ModelRun (inputs with provenance) → the restrictions on
    the claim's own variable (else every restriction of the run's request, said so) → the
    selected path each restriction came from, step by step → the quote and page of every
    relation pooled on that step.
    """
    claim = store.require(Claim, claim_id)
    point = store.require(ModelOutputPoint, claim.point_id)
    run = store.require(ModelRun, claim.run_id)
    labels = variable_labels(store)
    request = request_of_run(store, run)
    restrictions = store.find(Restriction, restriction_id=list(request.restriction_ids)) if request else []
    own = [r for r in restrictions if claim.variable in (r.variable, r.model_variable)]
    chosen = own or restrictions
    tests = [
        {
            "phase": t.phase,
            "result": t.result,
            "reported_value": t.reported_value,
            "stored_value": t.stored_value,
            "tolerance": t.tolerance,
            "detail": t.detail,
            "test_id": t.test_id,
        }
        for t in store.find(OutputTest, claim_id=claim_id)
    ]
    prov = provenance_of_analysis(store, run.analysis_id)

    def input_provenance(name: str) -> str:
        if name in ("restrictions", "graph", "relations"):
            return prov["evidence"]
        if name in ("cutoff", "horizon", "seed", "settings", "request"):
            return "request parameter"
        return prov["data"]

    inputs = [
        {"input": input_label(k), "provenance": input_provenance(k), "key": k, "digest": _short(v)}
        for k, v in run.input_digests.items()
    ]
    restriction_rows = [
        {
            "variable": labels.get(r.variable, r.variable),
            "direction": "increase" if r.direction == 1 else "decrease",
            "priority": r.priority,
            "horizon": r.horizon,
            "aggregation": r.aggregation,
            "derivation": r.derivation,
            "restriction_id": r.restriction_id,
        }
        for r in chosen
    ]
    paths = store.find(Path, path_id=sorted({r.path_id for r in chosen if r.path_id}))
    supporting = {rid for r in chosen for rid in r.supporting_relation_ids}
    steps = []
    for p in paths:
        chain = " → ".join(labels.get(v, v) for v in p.variables)
        for i, pooled in enumerate(p.evidence or [[rid] for rid in p.relation_ids]):
            rep = p.relation_ids[i] if i < len(p.relation_ids) else None
            ids = [rid for rid in pooled if rid in supporting or rid == rep]
            frame = relations_frame(store, relation_ids=ids)
            frame = frame.sort_values("relation_id", key=lambda s: s != rep, kind="stable")
            for _, rel in frame.iterrows():
                steps.append(
                    {
                        "path": chain,
                        "step": i + 1,
                        "from": labels.get(rel["src_var"], rel["src_var"]),
                        "sign": rel["sign"],
                        "to": labels.get(rel["dst_var"], rel["dst_var"]),
                        "evidence_class": rel["evidence_class"],
                        "quote": rel["quote"],
                        "source": rel["title"],
                        "publisher": rel["publisher"],
                        "publication_date": rel["publication_date"],
                        "page": rel["page"],
                        "representative": rel["relation_id"] == rep,
                        "relation_id": rel["relation_id"],
                    }
                )
    reading = citation_notes(store, [step["relation_id"] for step in steps])
    for step in steps:
        step["reading"] = reading.get(step["relation_id"], "")
    runs = run_labels(store, run.analysis_id)
    return {
        "claim": {
            "claim_id": claim.claim_id,
            "variable": labels.get(claim.variable, claim.variable),
            "variable_id": claim.variable,
            "period": claim.period,
            "unit": claim.unit,
            "statistic": claim.statistic,
            "entity": claim.entity,
            "rounding": claim.rounding,
            "value": point.value,
            "point_id": point.point_id,
            "table": point.table_name,
            "row": point.row,
            "column": point.column,
        },
        "own_restrictions": bool(own),
        "tests": pd.DataFrame(
            tests, columns=["phase", "result", "reported_value", "stored_value", "tolerance", "detail", "test_id"]
        ),
        "run": {
            "label": runs.get(run.run_id, run.run_id),
            "run_id": run.run_id,
            "model_id": run.model_id,
            "status": run.status.value,
            "seed": run.seed,
            "started_at": _when(run.started_at),
            "output_digest": _short(run.output_digest),
            "code_digest": _short(run.code_digest),
        },
        "provenance": prov,
        "inputs": pd.DataFrame(inputs, columns=["input", "provenance", "key", "digest"]),
        "restrictions": pd.DataFrame(
            restriction_rows,
            columns=["variable", "direction", "priority", "horizon", "aggregation", "derivation", "restriction_id"],
        ),
        "chain": _frame(steps, CHAIN_COLUMNS),
    }


_IN_PAGE_LINK = re.compile(r'<a ([^>]*?)href="#([^"]+)"([^>]*)>')


def embeddable_export(html: str) -> str:
    """The exported HTML made safe to show inside the app's frame.

    In-page links (a number to its output point, a citation to its note) scroll inside
    the frame instead of navigating it — an ``href="#…"`` in a frame built from a string
    resolves against the app's address and would load the dashboard inside itself; any
    other link opens in a new tab.
    """
    body = _IN_PAGE_LINK.sub(
        lambda m: (
            f'<a {m.group(1)}href="javascript:void(0)" onclick="var t=document.getElementById(\'{m.group(2)}\')'
            f"||document.getElementsByName('{m.group(2)}')[0];if(t){{t.scrollIntoView()}};return false;\""
            f"{m.group(3)}>"
        ),
        html,
    )
    return body.replace("<head>", '<head>\n<base target="_blank">', 1) if "<head>" in body else body
