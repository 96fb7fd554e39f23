"""The channel graph page: a self-contained pyvis HTML file that draws with no network.

Nodes are variables; each relation is one edge coloured by its sign; its tooltip shows the
quote, source title, page or cell and evidence class. Every text is HTML-escaped, and the
vis-network script and styles are in-lined (``cdn_resources="in_line"``); the Bootstrap links
pyvis's template adds regardless are removed, so the page loads nothing from the network.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from pathlib import Path as FilePath

from pyvis.network import Network

from aieco.records import Relation, Source, SourceLocation
from aieco.vocab import Vocabulary, load_vocabulary

SIGN_COLOURS = {"+": "#1a7f37", "-": "#cf222e", "non-monotone": "#9a6700", "ambiguous": "#8250df", "absent": "#8c959f"}
REMOTE_TAG = re.compile(
    r"<(?:link|script)\b[^>]*\b(?:href|src)\s*=\s*\"https?://[^\"]*\"[^>]*>(?:\s*</script>)?", re.IGNORECASE | re.DOTALL
)


def edge_tooltip(relation: Relation, source: Source | None, location: SourceLocation | None) -> str:
    """Plain-text tooltip of one relation (HTML-escaped)."""
    where = ""
    if location is not None:
        if location.section:
            where = f"§ {location.section}"
        else:
            where = (
                f"page {location.page}"
                if location.page is not None
                else (f"{location.sheet}!{location.cell}" if location.sheet else f"cell {location.cell}")
            )
    lines = [
        f"{relation.src_var} → {relation.dst_var} ({relation.sign.value})",
        f"“{relation.quote}”",
        f"{source.title if source else relation.source_id}, {where}".rstrip(", "),
        f"evidence class: {relation.evidence_class.value}; confidence {relation.confidence:.2f}",
        f"published {relation.publication_date or 'unknown'}; role {relation.role.value}",
    ]
    return html.escape("\n".join(lines))


def render(
    relations: Iterable[Relation],
    sources: dict[str, Source],
    locations: dict[str, SourceLocation],
    *,
    title: str = "Channel graph",
    vocab: Vocabulary | None = None,
    highlight: Iterable[str] = (),
) -> str:
    """The graph page as one HTML string (relations, with their sources and locations by id)."""
    vocab = vocab or load_vocabulary()
    marked = set(highlight)
    net = Network(height="760px", width="100%", directed=True, cdn_resources="in_line", heading="")
    relations = list(relations)
    for var in sorted({r.src_var for r in relations} | {r.dst_var for r in relations}):
        label = vocab.variables[var].label if var in vocab else var
        model = vocab.model_variable(var)
        net.add_node(
            var,
            label=html.escape(label),
            title=html.escape(f"{label} [{var}]" + (f"; model variable {model}" if model else "")),
            color="#0969da" if model else "#6e7781",
            shape="dot",
            size=18 if model else 12,
        )
    for r in relations:
        net.add_edge(
            r.src_var,
            r.dst_var,
            title=edge_tooltip(r, sources.get(r.source_id), locations.get(r.location_id)),
            color=SIGN_COLOURS[r.sign.value],
            label=html.escape(r.sign.value),
            width=4 if r.relation_id in marked else 1 + 2 * r.confidence,
            arrows="to",
        )
    net.set_options(
        '{"physics": {"solver": "forceAtlas2Based", "stabilization": {"iterations": 150}},'
        ' "edges": {"smooth": {"type": "curvedCW", "roundness": 0.15}}}'
    )
    page = net.generate_html(notebook=False)
    page = REMOTE_TAG.sub("", page)
    heading = f"<title>{html.escape(title)}</title>"
    return page.replace("<head>", "<head>\n" + heading, 1)


def write_graph_page(
    path: str | FilePath,
    relations: Iterable[Relation],
    sources: dict[str, Source],
    locations: dict[str, SourceLocation],
    **kwargs: object,
) -> FilePath:
    """Write :func:`render`'s page to ``path``."""
    out = FilePath(path)
    out.write_text(render(relations, sources, locations, **kwargs), encoding="utf-8")  # type: ignore[arg-type]
    return out
