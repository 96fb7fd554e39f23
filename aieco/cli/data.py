"""`aieco data add FILE…`: load series files (or a manifest's ``[[series]]``) into the workspace."""

from __future__ import annotations

from pathlib import Path

import click

from aieco.cli.base import CliState, common, emit, main, pass_state
from aieco.errors import InputError


@main.group()
def data() -> None:
    """Series data: observed values with release dates."""


@data.command("add")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--manifest",
    type=click.Path(path_type=Path),
    default=None,
    help="Also load the [[series]] entries of this manifest.",
)
@click.option(
    "--allow-outside",
    "allow_outside",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A folder outside the manifest's folder whose files its [[series]] may name (repeatable).",
)
@click.option("--variable", default=None, help="Vocabulary variable (for files that do not name a known series).")
@click.option("--unit", default=None, help="Unit of the values.")
@click.option("--frequency", type=click.Choice(["A", "H", "Q", "M", "D"]), default=None, help="Frequency.")
@click.option("--jurisdiction", default=None, help="Jurisdiction (default: the file's, or EA).")
@click.option(
    "--release-date",
    "release_date",
    default=None,
    help="Date the file states it was released, YYYY-MM-DD (rule 'file').",
)
@click.option("--map", "mapping", multiple=True, help="Generic CSV column mapping, e.g. period=Date value=Close.")
@click.option(
    "--provenance",
    type=click.Choice(["real", "synthetic", "illustrative"]),
    default=None,
    help="Provenance of the values (default real; SYNTHETIC series keys are synthetic).",
)
@common
@pass_state
def add(
    state: CliState,
    files: tuple[Path, ...],
    manifest: Path | None,
    allow_outside: tuple[Path, ...],
    variable: str | None,
    unit: str | None,
    frequency: str | None,
    jurisdiction: str | None,
    release_date: str | None,
    mapping: tuple[str, ...],
    provenance: str | None,
) -> None:
    """Load series FILES (ECB Data Portal, SDMX-CSV, Eurostat TSV, FRED, BIS, real-time vintages, generic CSV).

    Every file is parsed before anything is written; one bad file writes nothing.
    """
    from aieco.sources.series.manifest import add_series, entry_from_options, series_entries

    pairs = {}
    for m in mapping:
        key, sep, col = m.partition("=")
        if not sep or not key.strip() or not col.strip():
            raise InputError(f"--map {m!r} is not NAME=COLUMN", where="--map", fix="e.g. --map period=Date")
        pairs[key.strip()] = col.strip()
    options = {
        "variable": variable,
        "unit": unit,
        "frequency": frequency,
        "jurisdiction": jurisdiction,
        "release_date": release_date,
        "mapping": pairs,
        "provenance": provenance,
    }
    try:
        entries = [entry_from_options(f, options) for f in files]
    except ValueError:
        raise InputError(
            f"--release-date {release_date!r} is not a date", where="--release-date", fix="write YYYY-MM-DD"
        ) from None
    if manifest:
        entries += series_entries(manifest, allow_outside)
    if not entries:
        raise InputError("no series file given", where="aieco data add", fix="name files or pass --manifest")
    with state.store() as store:
        loads = add_series(store, entries)

    def human(rows: list) -> str:
        lines = [
            f"{r['values']:>7} values ({r['new']} new)  {r['path']}\n         "
            + ", ".join(f"{k} {v}" for k, v in r["by_rule"].items())
            for r in rows
        ]
        return "\n".join(lines)

    emit(state, [vars(x) for x in loads], human)


@data.command("load-real")
@common
@pass_state
def load_real(state: CliState) -> None:
    """Load the real euro-area series shipped in the package (aieco/data/real, provenance real)."""
    from aieco.sources.series.pack import PACK, PACK_DIR, load_real_pack

    with state.store() as store:
        new = load_real_pack(store)
    emit(
        state,
        {"new": new, "files": [f"{e.name}.csv" for e in PACK], "folder": str(PACK_DIR)},
        lambda r: f"{r['new']} new real values from {len(r['files'])} shipped extracts in {r['folder']}",
    )


@data.command("load-official")
@common
@pass_state
def load_official(state: CliState) -> None:
    """Load the official euro-area projections shipped in the package (Eurosystem/ECB staff, ECB SPF)."""
    from aieco.sources.official import SHIPPED, load_official, read_projections, rounds_of

    rounds = rounds_of(read_projections())
    with state.store() as store:
        new = load_official(store)
    emit(
        state,
        {
            "new": new,
            "file": str(SHIPPED),
            "rounds": [
                {"series_key": r.series_key, "published": r.publication_date.isoformat(), "values": len(r.projections)}
                for r in rounds
            ],
        },
        lambda r: f"{r['new']} new official projection values from {len(r['rounds'])} rounds in {r['file']}",
    )
