"""`aieco bench [SECTION…]`: the performance suite (JSON with --json)."""

from __future__ import annotations

import click

from aieco.benchmarks import SECTIONS, run_section
from aieco.cli.base import CliState, common, emit, main, pass_state
from aieco.errors import InputError


@main.command()
@click.argument("sections", nargs=-1)
@click.option("--quick", is_flag=True, help="Smaller sizes, for a smoke run.")
@click.option("--backend", default=None, help="LLM backend for the extraction section (offline, openai).")
@click.option("--base-url", default=None, help="OpenAI-compatible endpoint for --backend openai.")
@common
@pass_state
def bench(state: CliState, sections: tuple[str, ...], quick: bool, backend: str | None, base_url: str | None) -> None:
    """Run benchmark sections (all when none is named)."""
    names = sections or tuple(SECTIONS)
    if (backend or base_url) and set(names) != {"extraction"}:
        raise InputError(
            "--backend and --base-url apply to the extraction section only",
            where="aieco bench",
            fix="run `aieco bench extraction --backend openai`",
        )
    results = [run_section(s, quick=quick, backend=backend, base_url=base_url) for s in names]

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
