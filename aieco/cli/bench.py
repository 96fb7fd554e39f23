"""`aieco bench [SECTION…]`: the performance suite (JSON with --json)."""

from __future__ import annotations

import click

from aieco.benchmarks import run_section
from aieco.cli.base import CliState, common, emit, main, pass_state
from aieco.errors import InputError


@main.command()
@click.argument("sections", nargs=-1)
@click.option("--quick", is_flag=True, help="Smaller sizes, for a smoke run.")
@click.option("--backend", default=None, help="LLM backend for the extraction section (offline, openai).")
@click.option("--base-url", default=None, help="OpenAI-compatible endpoint for --backend openai.")
@click.option(
    "--split",
    type=click.Choice(["dev", "held_back", "all"]),
    default=None,
    help="Extraction section: score one part of the gold set only (default: all).",
)
@click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=None,
    help="Extraction section: sentences per LLM request (default 20; fewer for a small local model).",
)
@click.option("--parts", default=None, help="With `all`: comma-separated parts only (ingest, bank, graph_build, …).")
@common
@pass_state
def bench(
    state: CliState,
    sections: tuple[str, ...],
    quick: bool,
    backend: str | None,
    base_url: str | None,
    split: str | None,
    batch_size: int | None,
    parts: str | None,
) -> None:
    """Run benchmark sections; none (or `all`): every figure of the performance targets in one JSON.

    `aieco bench all` measures each target figure with its peer in the same run (about 5 minutes on
    two free cores); name sections (store, sources, bank, …) for their detailed figures.

    `aieco bench extraction --backend openai [--base-url URL]` scores a model on the extraction gold set;
    its calls are recorded in the workspace, so running the command again resumes where answers are missing.
    """
    if not sections or sections == ("all",):
        from aieco.benchmarks.summary import PARTS, run_summary

        chosen = [p.strip() for p in parts.split(",") if p.strip()] if parts else None
        unknown = [p for p in chosen or [] if p not in PARTS]
        if unknown:
            raise InputError(
                f"unknown bench part(s) {unknown}", where="aieco bench all", fix=f"choose from {', '.join(PARTS)}"
            )
        summary = run_summary(chosen)
        emit(state, summary, _human_summary)
        return
    if parts:
        raise InputError("--parts applies to `aieco bench all` only", where="aieco bench")
    names = sections
    if (backend or base_url or split or batch_size) and set(names) != {"extraction"}:
        raise InputError(
            "--backend, --base-url, --split and --batch-size apply to the extraction section only",
            where="aieco bench",
            fix="run `aieco bench extraction --backend openai`",
        )
    results = [
        run_section(
            s,
            quick=quick,
            backend=backend,
            base_url=base_url,
            split=split,
            batch_size=batch_size,
            # the dashboard is measured over the command's workspace (-w / $AIECO_WORKSPACE), and an
            # LLM backend's gold-set calls are recorded there
            workspace=str(state.workspace) if s == "dashboard" or (backend not in (None, "offline")) else None,
        )
        for s in names
    ]

    def human(rs: list | dict) -> str:
        lines = []
        for r in rs if isinstance(rs, list) else [rs]:
            lines.append(f"[{r['section']}]")
            for f in r["figures"]:
                target = ""
                if f["target"] is not None:
                    op = "<=" if f["better"] == "lower" else ">="
                    target = f"  target {op} {f['target']:g} " + ("ok" if f["met"] else "MISSED")
                lines.append(f"  {f['name']:<40} {f['value']:>12.4g} {f['unit']}{target}")
        return "\n".join(lines)

    emit(state, results[0] if len(results) == 1 else results, human if not state.json else None)


def _human_summary(s: dict) -> str:
    lines = [f"[all] {s['command']}  ({s['total_wall_s']:.0f} s wall, {s['total_cpu_s']:.0f} CPU-s)"]
    for f in s["figures"]:
        target = ""
        if f["target"] is not None:
            op = "<=" if f["better"] == "lower" else ">="
            target = f"  target {op} {f['target']:g} " + ("ok" if f["met"] else "MISSED")
        peer = f"  peer {f['peer_value']:.4g} (ratio {f['ratio']:.3g})" if f["peer_value"] is not None else ""
        lines.append(f"  #{f['issue_item']} {f['name']:<42} {f['value']:>11.4g} {f['unit']}{target}{peer}")
    for part, error in s["errors"].items():
        lines.append(f"  part {part} FAILED: {error}")
    return "\n".join(lines)
