"""Views of the knowledge graph: relations, the channel graph figure, review status and the paths graph search finds.

Read-only, like every view module (see :mod:`dashboard.shared`).
"""

from __future__ import annotations

import math
from datetime import date
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from aieco.errors import AiecoError
from aieco.graph.build import GENERATION_ROLES, as_of_relations, load_relations
from aieco.graph.render import render as render_graph
from aieco.records import (
    ChannelQuery,
    Path,
    Relation,
    Report,
    Restriction,
    SourceLocation,
)
from aieco.review import citation_notes
from aieco.store import Store
from dashboard.shared import _frame, _sources_by_id, variable_labels

RELATION_COLUMNS = [
    "relation_id",
    "src_var",
    "dst_var",
    "sign",
    "evidence_class",
    "verb",
    "quote",
    "title",
    "publisher",
    "publication_date",
    "page",
    "cell",
    "role",
    "confidence",
    "graph_condition",
    "review_decision",
    "location_id",
    "source_id",
]


def relations_frame(
    store: Store,
    *,
    published_by: date | None = None,
    condition: str | None = None,
    relation_ids: list[str] | None = None,
) -> pd.DataFrame:
    """Stored relations with their quote and source, optionally filtered.

    ``published_by`` keeps relations whose source was published on or before that date;
    ``condition`` keeps one graph condition (G0, G1, …); ``relation_ids`` keeps a subset.
    """
    where: dict[str, Any] = {}
    if condition:
        where["graph_condition"] = condition
    if relation_ids is not None:
        where["relation_id"] = list(relation_ids)
    sources = _sources_by_id(store)
    locs = {}
    rows = []
    for r in store.find(Relation, **where):
        if published_by is not None and (r.publication_date is None or r.publication_date > published_by):
            continue
        if r.location_id not in locs:
            locs[r.location_id] = store.get(SourceLocation, r.location_id)
        loc = locs[r.location_id]
        s = sources.get(r.source_id)
        rows.append(
            {
                "relation_id": r.relation_id,
                "src_var": r.src_var,
                "dst_var": r.dst_var,
                "sign": r.sign.value,
                "evidence_class": r.evidence_class.value,
                "verb": r.verb,
                "quote": r.quote,
                "title": s.title if s else "",
                "publisher": s.publisher if s else "",
                "publication_date": r.publication_date,
                "page": loc.page if loc else None,
                "cell": (f"{loc.sheet}!{loc.cell}" if loc and loc.sheet else (loc.cell if loc else None)),
                "role": r.role.value,
                "confidence": r.confidence,
                "graph_condition": r.graph_condition,
                "review_decision": r.review_decision,
                "location_id": r.location_id,
                "source_id": r.source_id,
            }
        )
    return _frame(rows, RELATION_COLUMNS)


def as_of_relation_ids(
    store: Store, as_of: date | None, condition: str, roles: tuple[str, ...] = tuple(r.value for r in GENERATION_ROLES)
) -> list[str]:
    """Ids of the as-of edge set A(t) of a graph condition (the graph area's definition)."""
    return [
        r.relation_id
        for r in as_of_relations(load_relations(store, condition=condition), as_of, roles=roles, condition=condition)
    ]


def channel_graph_html(store: Store, relation_ids: tuple[str, ...], title: str = "Channel graph") -> str:
    """The interactive pyvis page (resources in-line, works offline) of the given relations."""
    relations = store.find(Relation, relation_id=list(relation_ids))
    sources = _sources_by_id(store)
    locations = {
        loc.location_id: loc
        for loc in store.find(SourceLocation, location_id=sorted({r.location_id for r in relations}))
    }
    return render_graph(relations, sources, locations, title=title)


def graph_conditions(store: Store) -> list[str]:
    """Graph conditions present among stored relations (G0, G1, …)."""
    return sorted({r.graph_condition for r in store.all(Relation)})


def risk_relation_ids(store: Store, risk: str) -> list[str]:
    """Relations used by the stored paths of ``risk`` (every pooled relation of every step)."""
    ids: dict[str, None] = {}
    for p in store.find(Path, risk=risk):
        for step in p.evidence:
            for rid in step:
                ids[rid] = None
        for rid in p.relation_ids:
            ids[rid] = None
    return list(ids)


def risks(store: Store) -> list[str]:
    """Risks named by stored channel queries, paths, restrictions or reports."""
    names: dict[str, None] = {}
    for cls in (ChannelQuery, Path, Restriction, Report):
        for rec in store.all(cls):
            names[rec.risk] = None
    return list(names)


OPPOSING_COLUMNS = ["src_var", "dst_var", "sign_a", "quote_a", "source_a", "sign_b", "quote_b", "source_b"]


def opposing_relations(relations: pd.DataFrame) -> pd.DataFrame:
    """Pairs of accepted relations on the same edge with opposite signs, side by side."""
    rows = []
    accepted = relations[relations["review_decision"] == "accepted"] if len(relations) else relations
    for (src, dst), group in accepted.groupby(["src_var", "dst_var"], sort=True):
        plus = group[group["sign"] == "+"]
        minus = group[group["sign"] == "-"]
        for _, a in plus.iterrows():
            for _, b in minus.iterrows():
                rows.append(
                    {
                        "src_var": src,
                        "dst_var": dst,
                        "sign_a": a["sign"],
                        "quote_a": a["quote"],
                        "source_a": f"{a['title']} ({a['publication_date']}, p. {a['page']})",
                        "sign_b": b["sign"],
                        "quote_b": b["quote"],
                        "source_b": f"{b['title']} ({b['publication_date']}, p. {b['page']})",
                    }
                )
    return _frame(rows, OPPOSING_COLUMNS)


EVIDENCE_SYMBOLS = {
    "causal": "diamond",
    "structural": "square",
    "predictive": "circle",
    "accounting": "cross",
    "institutional": "triangle-up",
    "descriptive": "circle-open",
    "policy judgment": "star",
    "unknown": "x",
}


SIGN_NAMES = {"+": "positive (+)", "-": "negative (−)", "non-monotone": "non-monotone", "ambiguous": "ambiguous"}


SIGN_COLOURS = {"+": "#1a7f37", "-": "#cf222e", "non-monotone": "#9a6700", "ambiguous": "#8250df"}


GRAPH_SEED = 7


def graph_layout(edges: list[tuple[str, str]]) -> dict[str, tuple[float, float]]:
    """Node positions in layers, left to right along the direction of transmission.

    A variable's layer is its longest distance from a variable nothing points to (cycles
    collapsed first); within a layer variables are ordered by the mean height of what
    points to them, ties by id. Deterministic: the same edges always draw the same picture.
    """
    import networkx as nx

    g = nx.DiGraph()
    g.add_edges_from(sorted(set(edges)))
    if not g.nodes:
        return {}
    cond = nx.condensation(g)
    depth: dict[int, int] = {}
    for n in nx.lexicographical_topological_sort(cond):
        depth[n] = max((depth[p] + 1 for p in cond.predecessors(n)), default=0)
    layer = {v: depth[cond.graph["mapping"][v]] for v in g.nodes}
    pos: dict[str, tuple[float, float]] = {}
    for k in range(max(layer.values()) + 1):
        members = sorted(v for v in g.nodes if layer[v] == k)

        def height(v: str) -> float:
            placed = [pos[u][1] for u in g.predecessors(v) if u in pos]
            return sum(placed) / len(placed) if placed else 0.0

        members.sort(key=lambda v: (-height(v), v))
        n = len(members)
        for i, v in enumerate(members):
            pos[v] = (float(k), (n - 1) / 2 - i + (0.25 if k % 2 else 0.0))
    return dict(sorted(pos.items()))


def _wrap(label: str, width: int = 18) -> str:
    """A node label broken into lines of about ``width`` characters (plotly's <br>)."""
    lines, line = [], ""
    for word in label.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return "<br>".join([*lines, line])


def channel_graph_figure(
    relations: pd.DataFrame, labels: dict[str, str], *, highlight: tuple[str, ...] = ()
) -> go.Figure:
    """The channel graph as a plotly figure: one arrow per edge, coloured by sign, one clickable marker per relation.

    Each relation is a marker on its edge (shape = evidence class, colour = sign) whose
    ``customdata`` is its relation id, so a click on it selects that relation. The legend
    lists the signs and evidence classes present.
    """
    pos = graph_layout(list(zip(relations["src_var"], relations["dst_var"], strict=True)))
    fig = go.Figure()
    marked = set(highlight)
    # Edges as a few line traces with an arrow marker at their end (one trace per colour and width)
    # and their sign labels as one text trace: the browser draws a handful of traces instead of two
    # annotations per edge (each measured and laid out on its own), which cost most of a page switch.
    lines: dict[tuple[str, bool], tuple[list, list, list]] = {}
    label_x, label_y, label_text, label_colour = [], [], [], []
    for (src, dst), group in relations.groupby(["src_var", "dst_var"], sort=True):
        (x0, y0), (x1, y1) = pos[src], pos[dst]
        signs = sorted(set(group["sign"]))
        colour = SIGN_COLOURS.get(signs[0], "#6e7781") if len(signs) == 1 else "#6e7781"
        wide = bool(marked & set(group["relation_id"]))
        # stand off the nodes' markers: start and end a little inside the segment
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        a, b = min(0.12 / length, 0.3), max(1 - 0.16 / length, 0.7)
        xs, ys, sizes = lines.setdefault((colour, wide), ([], [], []))
        xs += [x0 + a * dx, x0 + b * dx, None]
        ys += [y0 + a * dy, y0 + b * dy, None]
        sizes += [0, 15 if wide else 12, 0]
        n = len(group)
        label_x.append(x0 + 0.5 * dx)
        label_y.append(y0 + 0.5 * dy)
        label_text.append(
            "<b>" + "/".join({"+": "+", "-": "−"}.get(s, s) for s in signs) + (f" ×{n}" if n > 1 else "") + "</b>"
        )
        label_colour.append(colour)
    for (colour, wide), (xs, ys, sizes) in lines.items():
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines+markers",
                line={"color": colour, "width": 3.5 if wide else 1.8},
                marker={"symbol": "arrow", "angleref": "previous", "size": sizes, "color": colour},
                opacity=0.8,
                hoverinfo="skip",
                showlegend=False,
                unselected={"marker": {"opacity": 1}},
            )
        )
    fig.add_trace(
        go.Scatter(
            x=label_x,
            y=label_y,
            mode="text",
            text=label_text,
            textposition="top center",
            textfont={"size": 15, "color": label_colour},
            hoverinfo="skip",
            showlegend=False,
        )
    )
    for sign in [s for s in SIGN_COLOURS if s in set(relations["sign"])]:
        for ev in [e for e in EVIDENCE_SYMBOLS if e in set(relations["evidence_class"])]:
            sel = relations[(relations["sign"] == sign) & (relations["evidence_class"] == ev)]
            if sel.empty:
                continue
            xs, ys = [], []
            for _, r in sel.iterrows():
                group = relations[(relations["src_var"] == r["src_var"]) & (relations["dst_var"] == r["dst_var"])]
                k = list(group["relation_id"]).index(r["relation_id"])
                t = (k + 1) / (len(group) + 1) * 0.5 + 0.25  # spread along the middle half of the edge
                (x0, y0), (x1, y1) = pos[r["src_var"]], pos[r["dst_var"]]
                xs.append(x0 + t * (x1 - x0))
                ys.append(y0 + t * (y1 - y0))
            fig.add_trace(
                go.Scatter(
                    x=xs,
                    y=ys,
                    mode="markers",
                    name=f"{SIGN_NAMES[sign]} · {ev}",
                    legendgroup=sign,
                    marker={
                        "symbol": EVIDENCE_SYMBOLS[ev],
                        "size": 13,
                        "color": SIGN_COLOURS[sign],
                        "line": {"width": 1, "color": "white"},
                    },
                    unselected={"marker": {"opacity": 0.6}},
                    selected={"marker": {"size": 20}},
                    customdata=sel.assign(
                        src=sel["src_var"].map(lambda v: labels.get(v, v)),
                        dst=sel["dst_var"].map(lambda v: labels.get(v, v)),
                    )[["relation_id", "src", "dst", "title", "publication_date", "page"]]
                    .astype(str)
                    .to_numpy(),
                    hovertemplate=(
                        "%{customdata[1]} → %{customdata[2]}<br>%{customdata[3]} (%{customdata[4]}, "
                        "p. %{customdata[5]})<br><i>click for the quote</i><extra></extra>"
                    ),
                )
            )
    nodes = sorted(pos)
    # The variables' labels drawn by the node trace itself, above each marker on a white halo: one
    # text layer rather than one annotation per node (each annotation is measured and laid out on its own).
    fig.add_trace(
        go.Scatter(
            x=[pos[n][0] for n in nodes],
            y=[pos[n][1] for n in nodes],
            mode="markers+text",
            name="variable",
            text=[_wrap(labels.get(n, n)) for n in nodes],
            textposition="top center",
            textfont={"size": 13, "color": "#1f2328", "shadow": "0 0 2px #fff, 0 0 3px #fff, 0 0 4px #fff"},
            unselected={"marker": {"opacity": 1}},
            marker={"size": 22, "color": "#1f4e79", "line": {"width": 2, "color": "white"}},
            hoverinfo="text",
            hovertext=[f"{labels.get(n, n)} [{n}]" for n in nodes],
            showlegend=False,
        )
    )
    depth = max((len([n for n in nodes if pos[n][0] == x]) for x in {pos[n][0] for n in nodes}), default=1)
    fig.update_layout(
        height=max(420, 125 * depth + 140),
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        plot_bgcolor="white",
        xaxis={"visible": False, "range": [-0.6, max((p[0] for p in pos.values()), default=0) + 0.6]},
        yaxis={"visible": False},
        clickmode="event+select",
        legend={
            "title": "sign · evidence class (one marker per relation)",
            "orientation": "h",
            "yanchor": "bottom",
            "y": 1.0,
            "x": 0,
        },
        dragmode="pan",
    )
    return fig


def channel_relation_ids(store: Store, analysis_id: str | None, risk: str) -> dict[str, list[str]]:
    """Per channel query of ``risk`` (labelled 'source movement → target movement'), the relations of its paths."""
    labels = variable_labels(store)
    queries = {q.query_id: q for q in store.find(ChannelQuery, risk=risk)}
    out: dict[str, list[str]] = {}
    paths = store.find(Path, analysis_id=analysis_id, risk=risk) if analysis_id else store.find(Path, risk=risk)
    for p in paths:
        q = queries.get(p.query_id)
        name = (
            (
                f"{labels.get(q.source_var, q.source_var)} {q.source_movement.value} → "
                f"{labels.get(q.target_var, q.target_var)} {q.target_movement.value}"
            )
            if q
            else p.query_id
        )
        ids = out.setdefault(name, [])
        for rid in [*p.relation_ids, *(r for step in p.evidence for r in step)]:
            if rid not in ids:
                ids.append(rid)
    return out


def graph_relations(
    store: Store, *, as_of: date | None, condition: str, roles: tuple[str, ...], review: str = "accepted"
) -> list[str]:
    """Relation ids shown on the graph: as of a publication date, one condition and roles, by review status.

    ``review='accepted'`` is the paper's as-of edge set A(t); ``'rejected'`` and ``'all'``
    apply the same date, role and condition rules to the rejected (or every) relation.
    """
    in_use = as_of_relation_ids(store, as_of, condition, roles)  # A(t), the analyst's decisions applied
    if review == "accepted":
        return in_use
    from aieco.asof import AsOf

    rule = AsOf(cutoff=as_of, roles=roles)  # the one as-of rule, applied to rejected relations too
    rels = load_relations(store, condition=condition, accepted_only=False)
    used = set(in_use)
    return [
        r.relation_id
        for r in rels
        if (review == "all" or r.relation_id not in used)  # rejected: by validation or by the analyst
        and rule.admits(published=r.publication_date, jurisdiction=r.jurisdiction, role=r.role)
    ]


def reader_note_of(store: Store, relation_ids: tuple[str, ...]) -> str | None:
    """How far to trust the machine reading of these relations (the gold-set figures of the offline reader that
    read them; one note per offline reader when several did)."""
    from aieco.extraction.gold import reader_note
    from aieco.review import backend_of, offline_reader_of

    extractors = [r.extractor for r in store.find(Relation, relation_id=list(relation_ids))]
    readers = sorted({offline_reader_of(e) for e in extractors if backend_of(e) == "offline"}) or ["rules"]
    notes = [reader_note([backend_of(e) for e in extractors], reader=readers[0])]
    notes += [reader_note(["offline"], reader=x) for x in readers[1:]]
    return " ".join(n for n in notes if n) or None


def reading_of(store: Store, relation_ids: tuple[str, ...]) -> dict[str, str]:
    """Who read each relation and what an analyst decided on it (aieco.review.citation_notes)."""
    return citation_notes(store, relation_ids)


REVIEW_QUEUE_COLUMNS = ["from", "sign", "to", "decision", "quote", "used by", "reading", "reader", "relation_id"]


def review_queue_frame(store: Store, analysis_id: str) -> pd.DataFrame:
    """The relations an analysis rests on (aieco.review.review_queue), labelled for the page."""
    from aieco.review import review_queue

    labels = variable_labels(store)
    done = {
        "accept": "accepted",
        "reject": "rejected since",
        "correct": "corrected since",
        "correction": "an analyst's correction",
        None: "not reviewed",
    }
    rows = [
        {
            "from": labels.get(r["src_var"], r["src_var"]),
            "sign": r["sign"],
            "to": labels.get(r["dst_var"], r["dst_var"]),
            "decision": done[r["decision"]],
            "reading": r["reading"],
            "reader": r["reader"],
            "used by": "; ".join(r["uses"]),
            "quote": r["quote"],
            "relation_id": r["relation_id"],
        }
        for r in review_queue(store, analysis_id)
    ]
    return _frame(rows, REVIEW_QUEUE_COLUMNS)


def review_status(store: Store, relation_ids: tuple[str, ...]) -> dict[str, str]:
    """Each relation's review status as the analyst reads it: in use, rejected (by validation or by
    the analyst), corrected by the analyst (its correction is in use), an analyst's correction …"""
    from aieco.review import review_table

    out = {}
    for row in review_table(store, list(relation_ids)):
        if row["validation"] != "accepted":
            status = "rejected by validation"
        elif row["decision"] == "reject":
            status = "rejected by analyst"
        elif row["decision"] == "correct":
            status = "corrected by analyst"
        elif row["is_correction"]:
            status = "analyst's correction" if row["in_use"] else "superseded correction"
        elif row["decision"] == "accept":
            status = "accepted by analyst"
        else:
            status = "in use"
        out[row["relation_id"]] = status
    return out


CURRENT_PATH_COLUMNS = ["channel", "rank", "path", "composed_sign", "score", "relation_ids"]


def _channel_text(labels: dict[str, str], source: str, source_movement: str, target: str, target_movement: str) -> str:
    return f"{labels.get(source, source)} {source_movement} → {labels.get(target, target)} {target_movement}"


def _path_row(labels: dict[str, str], channel: str, path: Any = None) -> dict[str, Any]:
    """One row of :data:`CURRENT_PATH_COLUMNS`: a found path (stored or searched now), or the channel's
    'no path' row (``path`` None). ``path`` has rank, variables, signs, composed_sign, score and relation_ids
    (signs and composed_sign as Sign or text)."""
    if path is None:
        return {
            "channel": channel,
            "rank": None,
            "path": "no path",
            "composed_sign": "",
            "score": None,
            "relation_ids": "",
        }
    signs = [getattr(s, "value", s) for s in path.signs]
    chain = labels.get(path.variables[0], path.variables[0]) + "".join(
        f" {s}→ {labels.get(v, v)}" for s, v in zip(signs, path.variables[1:], strict=True)
    )
    return {
        "channel": channel,
        "rank": path.rank,
        "path": chain,
        "composed_sign": getattr(path.composed_sign, "value", path.composed_sign),
        "score": path.score,
        "relation_ids": ", ".join(path.relation_ids),
    }


def stored_paths_frame(store: Store, analysis_id: str, risk: str) -> pd.DataFrame:
    """The paths the analysis found for the risk and the S(C) it computed, read from its records (never
    recomputed: :func:`aieco.analysis.outputs.stored_paths`), in the columns of :func:`current_paths`."""
    from aieco.analysis.outputs import stored_paths

    labels = variable_labels(store)
    rows = []
    for p in stored_paths(store, analysis_id, risk):
        channel = _channel_text(labels, p.source_var, p.source_movement, p.target_var, p.target_movement)
        rows.append(_path_row(labels, channel, p if p.rank is not None else None))
    return _frame(rows, CURRENT_PATH_COLUMNS)


def current_paths(
    store: Store,
    risk: str,
    *,
    as_of: date | None,
    condition: str,
    roles: tuple[str, ...],
    analysis_id: str | None = None,
) -> pd.DataFrame:
    """The risk's channel queries searched now on A(t) with the analyst's review decisions applied
    (a rejected relation's paths are gone, a corrected sign counts): the paths an analysis would find — a
    what-if, beside the stored paths (:func:`stored_paths_frame`). With ``analysis_id`` and the analysis's
    own cutoff, A(t) is that analysis's as-of rule (cutoff, scope, exclusions, vintage policy and roles:
    :func:`aieco.analysis.outputs.analysis_as_of`); otherwise the date and roles chosen on the page."""
    from aieco.analysis.outputs import analysis_as_of
    from aieco.graph.build import as_of_relations, relation_graph
    from aieco.graph.paths import enumerate_paths

    labels = variable_labels(store)
    rule = as_of
    if analysis_id is not None:
        try:
            own = analysis_as_of(store, analysis_id)
        except (AiecoError, ValueError):  # no analysis, or a stored request this version cannot read
            own = None  # the page's date and roles, as the caption says
        if own is not None and (as_of is None or own.cutoff == as_of):
            rule = own
    rels = as_of_relations(load_relations(store, condition=condition), rule, roles=roles, condition=condition)
    graph = relation_graph(rels)
    queries = {q.query_id: q for q in store.find(ChannelQuery, risk=risk)}
    rows = []
    for q in queries.values():
        channel = _channel_text(labels, q.source_var, q.source_movement.value, q.target_var, q.target_movement.value)
        found = enumerate_paths(graph, q, graph_condition=condition)
        rows += [_path_row(labels, channel, p) for p in found] or [_path_row(labels, channel)]
    return _frame(rows, CURRENT_PATH_COLUMNS)


def channel_graph_of(store: Store, relation_ids: tuple[str, ...]) -> go.Figure:
    """:func:`channel_graph_figure` of the given relations, with the vocabulary's labels."""
    return channel_graph_figure(relations_frame(store, relation_ids=list(relation_ids)), variable_labels(store))


def opposing_of(store: Store, relation_ids: tuple[str, ...]) -> pd.DataFrame:
    """:func:`opposing_relations` among the given relations."""
    return opposing_relations(relations_frame(store, relation_ids=list(relation_ids)))
