"""`aieco bench [SECTION…]`: the performance suite (JSON with --json)."""

from __future__ import annotations

import click

from aieco.benchmarks import SECTIONS, run_section
from aieco.cli.base import CliState, common, emit, main, pass_state


@main.command()
@click.argument("sections", nargs=-1)
@click.option("--quick", is_flag=True, help="Smaller sizes, for a smoke run.")
@common
@pass_state
def bench(state: CliState, sections: tuple[str, ...], quick: bool) -> None:
    """Run benchmark sections (all when none is named)."""
    results = [run_section(s, quick=quick) for s in (sections or tuple(SECTIONS))]

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
