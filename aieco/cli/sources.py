"""Source commands: ingest a manifest, search eligible sources, list the registry."""

from __future__ import annotations

import textwrap
from datetime import date
from pathlib import Path

import click

from aieco.cli.backtest import executor_option
from aieco.cli.base import CliState, common, emit, main, pass_state
from aieco.config import get_settings
from aieco.errors import InputError
from aieco.records import Role, Source


@main.command()
@click.argument("manifest", type=click.Path(path_type=Path))
@click.option(
    "--allow-outside",
    "allow_outside",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A folder outside the manifest's folder whose files the manifest may name (repeatable).",
)
@executor_option
@common
@pass_state
@click.pass_context
def ingest(
    ctx: click.Context,
    state: CliState,
    manifest: Path,
    allow_outside: tuple[Path, ...],
    executor: str | None,
    workers: int | None,
) -> None:
    """Register and parse the sources listed in MANIFEST (exit 1 if any file fails).

    Files must lie inside the manifest's folder (symlinks resolved) unless --allow-outside names theirs.
    """
    from aieco.sources.manifest import load_manifest
    from aieco.sources.registry import ingest as run_ingest
    from aieco.sources.series.manifest import add_series, series_entries

    series = series_entries(manifest, allow_outside)  # [[series]] tables: loaded as observed values
    if series and not has_sources(manifest):
        with state.store() as store:
            loads = add_series(store, series)
        emit(
            state,
            {"series": [vars(x) for x in loads]},
            lambda r: "\n".join(f"{x['values']:>7} values ({x['new']} new)  {x['path']}" for x in r["series"]),
        )
        return
    total = len(load_manifest(manifest, allow_outside))  # validates before anything is written
    from tqdm import tqdm

    with state.store() as store, tqdm(total=total, unit="file", desc="ingest", disable=None, leave=False) as bar:

        def progress(done: int, _total: int, path: str) -> None:
            bar.set_postfix_str(Path(path).name[-40:])
            bar.update(done - bar.n)

        if executor is None:  # the registry's own choice (in process, or its process pool for large inputs)
            report = run_ingest(store, manifest, progress=progress, allow_outside=allow_outside, workers=workers)
        else:
            from aieco.executors import make_executor

            with make_executor(executor, workers) as ex:
                report = run_ingest(store, manifest, progress=progress, allow_outside=allow_outside, executor=ex)
        loads = add_series(store, series) if series else []

    def human(r: dict) -> str:
        lines = []
        for f in r["files"]:
            if f["status"] == "failed":
                lines.append(f"FAILED     {f['path']}: {f['reason']}")
            else:
                lines.append(
                    f"{f['status']:<10} {f['path']} → {f['source_id']} "
                    f"({f['pages']} pages/sheets, {f['locations']} locations)"
                )
                lines += [f"           warning: {w}" for w in f["warnings"][:5]]
        c = report.counts
        lines.append(f"{c['registered']} registered, {c['unchanged']} unchanged, {c['failed']} failed")
        lines += [f"series: {x.values} values ({x.new} new)  {x.path}" for x in loads]
        return "\n".join(lines)

    emit(state, report.model_dump(mode="json") | {"counts": report.counts, "series": [vars(x) for x in loads]}, human)
    if not report.ok:
        ctx.exit(1)


def has_sources(manifest: Path) -> bool:
    import tomllib

    try:
        return bool(tomllib.loads(manifest.read_text(encoding="utf-8")).get("source"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return True  # load_manifest reports the problem


@main.command()
@click.argument("query")
@click.option("--as-of", "as_of", default=None, help="Information cutoff YYYY-MM-DD (default: settings cutoff).")
@click.option(
    "--roles",
    default="generation",
    show_default=True,
    help="Comma-separated allowed roles (generation, methods, development, evaluation).",
)
@click.option("--jurisdictions", default=None, help="Comma-separated jurisdictions in scope (default: all).")
@click.option("--top-k", type=int, default=None, help="Passages returned (default: settings, 20).")
@common
@pass_state
def search(
    state: CliState, query: str, as_of: str | None, roles: str, jurisdictions: str | None, top_k: int | None
) -> None:
    """Hybrid retrieval (BM25 + LSA, reciprocal rank fusion) over eligible sources."""
    from aieco.retrieval import search as run_search

    cutoff = _parse_cutoff(as_of)
    role_list = _parse_roles(roles)
    scope = [j.strip() for j in jurisdictions.split(",") if j.strip()] if jurisdictions else None
    with state.store(create=False) as store:
        hits = run_search(store, query, as_of=cutoff, roles=role_list, jurisdictions=scope, top_k=top_k)

    def human(hs: list) -> str:
        if not hs:
            return f"no eligible passage matches {query!r} at {cutoff}"
        lines = []
        for h in hs:
            where = f"p. {h['page']}" if h["page"] is not None else ""
            if h["cell"]:
                where = f"{h['sheet'] + '!' if h['sheet'] else where + ' '}{h['cell']}"
            lines.append(
                f"{h['rank']:>2}. {h['score']:.4f}  {h['title']} ({h['publisher']}, "
                f"{h['publication_date']}) {where}  [{h['location_id']}]"
            )
            quote = " ".join(h["quote"].split())
            lines.append(
                textwrap.indent(textwrap.fill(f"“{quote[:400]}{'…' if len(quote) > 400 else ''}”", width=100), "      ")
            )
        return "\n".join(lines)

    emit(state, [h.model_dump(mode="json") for h in hits], human)


@main.command("sources")
@common
@pass_state
def list_sources(state: CliState) -> None:
    """List the registered sources with their dates, roles and location counts."""
    from aieco.records import SourceLocation

    with state.store(create=False) as store:
        rows = []
        for s in store.all(Source):
            rows.append(s.model_dump(mode="json") | {"locations": store.count(SourceLocation, source_id=s.source_id)})

    def human(rs: list) -> str:
        if not rs:
            return "no sources registered (run `aieco ingest MANIFEST`)"
        lines = [f"{'source_id':<26} {'published':<10} {'role':<11} {'kind':<5} {'locs':>6}  title"]
        for r in rs:
            flag = " [illustrative]" if r["illustrative"] else ""
            lines.append(
                f"{r['source_id']:<26} {str(r['publication_date'] or 'unknown'):<10} {r['role']:<11} "
                f"{r['kind']:<5} {r['locations']:>6}  {r['title']} — {r['publisher']}{flag}"
            )
        return "\n".join(lines)

    emit(state, rows, human)


def _parse_cutoff(value: str | None) -> date:
    if value is None:
        return get_settings().scenario.cutoff
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InputError(
            f"--as-of {value!r} is not a date", fix="write the cutoff as YYYY-MM-DD, e.g. 2024-12-31"
        ) from None


def _parse_roles(value: str) -> list[Role]:
    out = []
    for part in (p.strip() for p in value.split(",") if p.strip()):
        try:
            out.append(Role(part))
        except ValueError:
            raise InputError(
                f"--roles: {part!r} is not a role",
                fix=f"use a comma-separated list of {', '.join(r.value for r in Role)}",
            ) from None
    return out
