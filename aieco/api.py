"""aieco's Python API for notebook work: a workspace's records as pandas DataFrames.

>>> from aieco import api
>>> ws = api.open_workspace("store")               # an existing workspace (or create=True)
>>> ws.analyses()                                   # one row per analysis
>>> an = ws.run_request("my_request.toml")          # runs the algorithm; returns the analysis id
>>> ws.request(an)                                  # the request it ran, as a mapping to edit and run again
>>> ws.stages(an), ws.paths(an)                     # stage records (stops with reasons), ranked signed paths
>>> ws.runs(an), ws.output_points(run_id)           # ModelRun rows and their output points
>>> ws.claims(an), ws.reports(an)                   # claims (value, unit, run) and reports
>>> ws.report_text(report_id)                       # a report rendered from its claims
>>> ws.export(report_id, "pdf", "report.pdf")       # any export format to a file

Every frame is read from the store (nothing is recomputed) and carries the record ids, so a
figure can be traced to its ModelRun; ``request_fields()`` describes the request format field by
field (what docs/request.md and the dashboard's request form are built from).
"""

from __future__ import annotations

import enum
import types
import typing
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pandas as pd
from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from aieco.errors import InputError

if TYPE_CHECKING:
    from aieco.store import Store

__all__ = ["RequestField", "Workspace", "open_workspace", "request_fields", "request_reference"]


# --------------------------------------------------------------------------- a workspace


def _frame(rows: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=columns)


class Workspace:
    """An aieco workspace opened for reading (and running requests); use it as a context manager or
    call :meth:`close`. Every method returns a DataFrame read from the stored records."""

    def __init__(self, path: str | Path, *, create: bool = False):
        from aieco.store import Store

        self.path = Path(path).expanduser().absolute()  # a relative path is this folder's, once
        self.store = Store(self.path, create=create)

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.store.close()

    def __repr__(self) -> str:
        return f"Workspace({str(self.path)!r})"

    # -- running ------------------------------------------------------------------------

    def run_request(self, request: str | Path | dict[str, Any], *, backend: str | None = None) -> str:
        """Run an analysis request (a TOML file or a mapping of its fields) and return its analysis id;
        every stage is recorded in the workspace (a stop is recorded, not raised)."""
        from aieco.analysis.pipeline import analyze
        from aieco.request import load_request, parse_request

        parsed = parse_request(request, where="request mapping") if isinstance(request, dict) else None
        parsed = parsed or load_request(Path(request).expanduser().absolute())
        return analyze(self.store, parsed, backend=backend).analysis_id

    # -- reading ------------------------------------------------------------------------

    def analyses(self) -> pd.DataFrame:
        """One row per analysis: id, title, cutoff, horizon, vintage policy, risks, when it ran, and how
        many of its stages (latest attempts) completed, stopped and failed."""
        from aieco.records import Analysis, StageRecord

        rows = []
        for an in sorted(self.store.all(Analysis), key=lambda a: a.created_at):
            latest: dict[str, Any] = {}
            for rec in self.store.find(StageRecord, analysis_id=an.analysis_id):
                latest[rec.stage] = rec.status.value
            statuses = list(latest.values())
            req = an.request
            rows.append(
                {
                    "analysis_id": an.analysis_id,
                    "title": req.get("title") or an.label,
                    "cutoff": req.get("cutoff"),
                    "horizon": req.get("horizon"),
                    "vintage_policy": req.get("vintage_policy", "strict"),
                    "risks": ", ".join(r["name"] for r in req.get("risks", [])),
                    "created_at": an.created_at,
                    **{k: statuses.count(k) for k in ("completed", "stopped", "failed")},
                }
            )
        columns = ["analysis_id", "title", "cutoff", "horizon", "vintage_policy", "risks", "created_at"]
        return _frame(rows, [*columns, "completed", "stopped", "failed"])

    def request(self, analysis_id: str) -> dict[str, Any]:
        """The request an analysis ran, as a mapping (edit it and pass it to :meth:`run_request`)."""
        from aieco.records import Analysis
        from aieco.request import AnalysisRequest

        an = self.store.get(Analysis, analysis_id)
        if an is None:
            raise InputError(f"no analysis {analysis_id} in the workspace {self.path}", fix="see ws.analyses()")
        return {k: v for k, v in an.request.items() if k in AnalysisRequest.model_fields}

    def stages(self, analysis_id: str) -> pd.DataFrame:
        """Every stage attempt of an analysis in order, with status and reason (a stop is a result)."""
        from aieco.records import StageRecord

        rows = [
            {
                "stage": r.stage,
                "status": r.status.value,
                "reason": r.reason,
                "started_at": r.started_at,
                "seconds": (r.ended_at - r.started_at).total_seconds(),
            }
            for r in self.store.find(StageRecord, analysis_id=analysis_id)
        ]
        return _frame(rows, ["stage", "status", "reason", "started_at", "seconds"])

    def paths(self, analysis_id: str) -> pd.DataFrame:
        """The ranked signed paths of an analysis: risk, rank, variables, step signs, composed sign, S(C)."""
        from aieco.records import Path as ChannelPath

        rows = [
            {
                "risk": p.risk,
                "rank": p.rank,
                "path": " → ".join(p.variables),
                "signs": " ".join(s.value for s in p.signs),
                "composed_sign": p.composed_sign.value,
                "score": p.score,
                "documents": p.n_docs,
                "relation_ids": list(p.relation_ids),
                "path_id": p.path_id,
                "query_id": p.query_id,
            }
            for p in self.store.find(ChannelPath, analysis_id=analysis_id)
        ]
        frame = _frame(
            rows,
            ["risk", "rank", "path", "signs", "composed_sign", "score", "documents"]
            + ["relation_ids", "path_id", "query_id"],
        )
        return frame.sort_values(["risk", "query_id", "rank"], ignore_index=True)

    def runs(self, analysis_id: str | None = None) -> pd.DataFrame:
        """ModelRun rows (of one analysis, or all): model, status, reason, seed, digests, seconds."""
        from aieco.records import ModelRun

        runs = self.store.find(ModelRun, analysis_id=analysis_id) if analysis_id else list(self.store.all(ModelRun))
        rows = [
            {
                "run_id": r.run_id,
                "analysis_id": r.analysis_id,
                "model_id": r.model_id,
                "status": r.status.value,
                "reason": r.reason,
                "seed": r.seed,
                "seconds": (r.ended_at - r.started_at).total_seconds(),
                "output_digest": r.output_digest,
                "package_version": r.package_version,
            }
            for r in runs
        ]
        return _frame(
            rows,
            ["run_id", "analysis_id", "model_id", "status", "reason", "seed", "seconds", "output_digest"]
            + ["package_version"],
        )

    def output_points(self, run_id: str) -> pd.DataFrame:
        """A run's stored output points: variable, unit, transformation, period, statistic, value …"""
        from aieco.records import ModelOutputPoint

        columns = ["point_id", "variable", "unit", "transformation", "period", "statistic", "quantile"]
        columns += ["simulation_id", "entity", "risk", "value", "table_name", "row", "column"]
        rows = [p.model_dump(include=set(columns)) for p in self.store.find(ModelOutputPoint, run_id=run_id)]
        return _frame(rows, columns)

    def claims(self, analysis_id: str) -> pd.DataFrame:
        """The analysis's claims with the stored value of their output point, its unit and period, the
        run and model that produced it, and the latest OutputTest result (pass / fail / pending)."""
        from aieco.records import Claim, ModelOutputPoint, OutputTest

        results: dict[str, str] = {}
        for t in self.store.find(OutputTest, analysis_id=analysis_id):
            if t.phase == "result" or t.claim_id not in results:
                results[t.claim_id] = t.result
        rows = []
        for c in self.store.find(Claim, analysis_id=analysis_id):
            point = self.store.get(ModelOutputPoint, c.point_id)
            rows.append(
                {
                    "claim_id": c.claim_id,
                    "risk": c.risk,
                    "variable": c.variable,
                    "period": c.period,
                    "statistic": c.statistic,
                    "entity": c.entity,
                    "value": point.value if point is not None else None,
                    "unit": c.unit,
                    "transformation": c.transformation,
                    "test": results.get(c.claim_id, "pending"),
                    "run_id": c.run_id,
                    "model_id": c.model_id,
                    "point_id": c.point_id,
                }
            )
        columns = ["claim_id", "risk", "variable", "period", "statistic", "entity", "value", "unit"]
        return _frame(rows, [*columns, "transformation", "test", "run_id", "model_id", "point_id"])

    def reports(self, analysis_id: str | None = None) -> pd.DataFrame:
        """Stored reports (of one analysis, or all): risk, title, status and the failing rule."""
        columns = ["report_id", "analysis_id", "risk", "title", "status", "failure_rule", "claims", "relations"]
        return _frame(report_rows(self.store, analysis_id), columns)

    def report_text(self, report_id: str) -> str:
        """A passed report re-rendered from its claims, as Markdown (each number links to its point)."""
        from aieco.reporting.export import export_report

        return export_report(self.store, report_id, "md").decode("utf-8")

    def export(self, report_id: str, fmt: str, path: str | Path | None = None) -> Path:
        """Write a report export (html | md | tex | pdf | json) to ``path`` (default: a file named from
        the report's title in the current folder) and return the path."""
        from aieco.reporting.export import export_file_name, export_report

        data = export_report(self.store, report_id, fmt)
        target = Path(path or export_file_name(self.store, report_id, fmt)).expanduser().absolute()
        target.write_bytes(data)
        return target


def report_rows(store: Store, analysis_id: str | None = None) -> list[dict[str, Any]]:
    """One mapping per stored report (of one analysis, or all): ids, risk, title, status, the failing rule
    and sentence, how many claims and relations it cites, its graph condition."""
    from aieco.records import Report
    from aieco.review import superseding_decisions

    reports = store.find(Report, analysis_id=analysis_id) if analysis_id else list(store.all(Report))
    return [
        {
            "report_id": r.report_id,
            "analysis_id": r.analysis_id,
            "risk": r.risk,
            "title": r.title,
            "status": r.status,
            "failure_rule": r.failure_rule,
            "failure_position": r.failure_position,
            "claims": len(r.claim_ids),
            "relations": len(r.relation_ids),
            "graph_condition": r.graph_condition,
            # review decisions made since that take a cited relation out of use (issue 29 item 4)
            "superseded_by": superseding_decisions(store, r),
        }
        for r in reports
    ]


def open_workspace(path: str | Path, *, create: bool = False) -> Workspace:
    """Open the workspace folder ``path`` (``create=True``: create it when missing)."""
    target = Path(path).expanduser().absolute()
    if not create and not (target / "aieco.db").is_file():
        raise InputError(
            f"no aieco workspace at {target} (looked for {target / 'aieco.db'})",
            fix="pass the folder of a workspace (`aieco default -w DIR` builds one), or create=True",
        )
    return Workspace(target, create=create)


# --------------------------------------------------------------------------- the request format


@dataclass(frozen=True)
class RequestField:
    """One field of a request model, as a form or a reference table shows it."""

    name: str
    #: date | choice | choices | bool | int | float | text | list | table
    kind: str
    type: str
    description: str
    required: bool
    default: Any = None
    optional: bool = False  # may be left empty (None)
    options: tuple[Any, ...] = ()
    item: str = ""  # list items: int | float | text
    ge: float | None = None
    le: float | None = None
    gt: float | None = None
    min_length: int | None = None
    pattern: str | None = None
    model: type[BaseModel] | None = None  # the row model of a table field


def _unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(annotation)) == 2:
            return args[0], True
    return annotation, False


def _options(annotation: Any) -> tuple[Any, ...]:
    if typing.get_origin(annotation) is Literal:
        return typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return tuple(m.value for m in annotation)
    return ()


def _scalar_kind(annotation: Any) -> str:
    if _options(annotation):
        return "choice"
    if annotation is bool:
        return "bool"
    if annotation is int:
        return "int"
    if annotation is float:
        return "float"
    if annotation is date:
        return "date"
    return "text"


def _type_name(annotation: Any) -> str:
    if typing.get_origin(annotation) is Literal:
        return " | ".join(f'"{a}"' for a in typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return " | ".join(f'"{m.value}"' for m in annotation)
    if typing.get_origin(annotation) is list:
        return f"list of {_type_name(typing.get_args(annotation)[0])}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"table [{annotation.__name__}]"
    return {str: "string", int: "integer", float: "number", bool: "boolean", date: "date"}.get(
        annotation, str(annotation)
    )


def request_fields(model: type[BaseModel] | None = None) -> list[RequestField]:
    """Every field of ``model`` (default: :class:`aieco.request.AnalysisRequest`) in declaration order,
    read from the pydantic model itself, so a field added there appears here without other changes."""
    if model is None:
        from aieco.request import AnalysisRequest

        model = AnalysisRequest
    out = []
    for name, info in model.model_fields.items():
        annotation, optional = _unwrap_optional(info.annotation)
        bounds: dict[str, Any] = {}
        for meta in info.metadata:
            for key in ("ge", "le", "gt", "min_length", "pattern"):
                if getattr(meta, key, None) is not None:
                    bounds[key] = getattr(meta, key)
        required = info.is_required()
        if required:
            default = None
        elif info.default_factory is not None:
            default = info.default_factory()
        else:
            default = None if info.default is PydanticUndefined else info.default
        if isinstance(default, enum.Enum):
            default = default.value
        if isinstance(default, list):
            default = [d.value if isinstance(d, enum.Enum) else d for d in default]
        kind, item, options, row_model = _scalar_kind(annotation), "", _options(annotation), None
        if typing.get_origin(annotation) is list:
            inner = typing.get_args(annotation)[0]
            if isinstance(inner, type) and issubclass(inner, BaseModel):
                kind, row_model = "table", inner
            elif _options(inner):
                kind, options = "choices", _options(inner)
            else:
                kind, item = "list", _scalar_kind(inner)
        out.append(
            RequestField(
                name=name,
                kind=kind,
                type=_type_name(annotation) + (" (may be left out: none)" if optional else ""),
                description=info.description or "",
                required=required,
                default=default,
                optional=optional,
                options=options,
                item=item,
                model=row_model,
                **bounds,
            )
        )
    return out


def _default_text(f: RequestField) -> str:
    if f.required:
        return "required"
    if f.default is None or f.default == []:
        return "none" if f.default is None else "[]"
    if isinstance(f.default, str):
        return f'"{f.default}"'
    if isinstance(f.default, bool):
        return str(f.default).lower()
    if isinstance(f.default, list):
        return "[" + ", ".join(f'"{d}"' if isinstance(d, str) else str(d) for d in f.default) + "]"
    return str(f.default)


def _rule_text(f: RequestField) -> str:
    rules = []
    if f.ge is not None:
        rules.append(f"≥ {f.ge}")
    if f.gt is not None:
        rules.append(f"> {f.gt}")
    if f.le is not None:
        rules.append(f"≤ {f.le}")
    if f.min_length:
        rules.append(f"at least {f.min_length}")
    if f.pattern:
        rules.append(f"matches `{f.pattern}`")
    return ", ".join(rules)


def request_reference() -> str:
    """The request format as Markdown tables, one per TOML table (what docs/request.md holds)."""
    from aieco.request import AnalysisRequest

    sections = [("Top level", "", AnalysisRequest)]
    done: set[type] = set()
    lines: list[str] = []
    while sections:
        title, prefix, model = sections.pop(0)
        if model in done:
            continue
        done.add(model)
        lines += [f"### {title}", ""]
        if model.__doc__:
            lines += [" ".join(model.__doc__.split()), ""]
        lines += ["| field | type | default | rule | meaning |", "|---|---|---|---|---|"]
        for f in request_fields(model):
            cells = [f.type, _default_text(f), _rule_text(f), " ".join(f.description.split())]
            type_, default, rule, meaning = (c.replace("|", "\\|") for c in cells)
            lines.append(f"| `{f.name}` | {type_} | {default} | {rule} | {meaning} |")
            if f.model is not None:
                sections.append((f"`[[{prefix}{f.name}]]`", f"{prefix}{f.name}.", f.model))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
