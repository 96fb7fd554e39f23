"""The source manifest (DESIGN §5): a TOML list of ``[[source]]`` entries.

Paths are relative to the manifest file and must resolve (symlinks followed) inside the
manifest's folder, or inside a folder the caller allows with ``allow_outside`` (the CLI's
``--allow-outside DIR``): a manifest cannot make aieco read any file on the machine.
Every problem found while reading the manifest
is reported at once, each naming the manifest, the entry (index and path), the field and
the fix; a manifest with any such problem registers nothing.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from aieco.asof import unknown_jurisdictions
from aieco.errors import InputError
from aieco.records import Role, SourceKind

#: File suffix → source kind.
KIND_BY_SUFFIX: dict[str, SourceKind] = {
    ".pdf": SourceKind.pdf,
    ".xlsx": SourceKind.xlsx,
    ".xlsm": SourceKind.xlsx,
    ".csv": SourceKind.csv,
    ".txt": SourceKind.text,
    ".md": SourceKind.text,
    ".html": SourceKind.text,
    ".htm": SourceKind.text,
}

ENTRY_FIELDS = {
    "path",
    "title",
    "publisher",
    "publication_date",
    "role",
    "jurisdiction",
    "role_override",
    "series",
    "illustrative",
    "note",
    "encoding",
    "kind",
}
REQUIRED_FIELDS = ("path", "title", "publisher", "role")
ROLES = ", ".join(r.value for r in Role)


class RoleOverride(BaseModel):
    """A page- or sheet-level role replacing the source role (``[[source.role_override]]``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Role
    pages: list[int] = Field(default_factory=list, description="1-based pages the role applies to.")
    sheets: list[str] = Field(default_factory=list, description="Worksheet names the role applies to.")
    spec: str = Field("", description="The page range as written in the manifest, e.g. '12-14'.")

    def as_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role.value}
        if self.pages:
            out["pages"] = self.spec
        if self.sheets:
            out["sheets"] = list(self.sheets)
        return out


class ManifestEntry(BaseModel):
    """One ``[[source]]`` entry, validated; ``file`` is the resolved absolute path."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int = Field(description="1-based position of the entry in the manifest.")
    path: str = Field(description="Path as written in the manifest.")
    file: Path = Field(description="Absolute path of the file.")
    title: str
    publisher: str
    publication_date: date | None
    role: Role
    jurisdiction: str = "EA"
    kind: SourceKind
    role_overrides: list[RoleOverride] = Field(default_factory=list)
    series: dict[str, Any] = Field(default_factory=dict)
    illustrative: bool = False
    note: str = ""
    encoding: str | None = Field(None, description="Text encoding of a CSV/text file (default UTF-8).")

    def role_for_page(self, page: int) -> Role | None:
        """The override role of a PDF page, or None when the source role applies."""
        return role_for_page(self.role_overrides, page)

    def role_for_sheet(self, sheet: str) -> Role | None:
        return role_for_sheet(self.role_overrides, sheet)


def role_for_page(overrides: list[RoleOverride], page: int) -> Role | None:
    for o in overrides:
        if page in o.pages:
            return o.role
    return None


def role_for_sheet(overrides: list[RoleOverride], sheet: str) -> Role | None:
    for o in overrides:
        if sheet in o.sheets:
            return o.role
    return None


def parse_pages(spec: str | int) -> list[int]:
    """``"12-14"`` → [12, 13, 14]; ``"3, 5-6"`` → [3, 5, 6]; pages are 1-based."""
    if isinstance(spec, int) and not isinstance(spec, bool):
        parts = [str(spec)]
    elif isinstance(spec, str) and spec.strip():
        parts = [p.strip() for p in spec.split(",")]
    else:
        raise ValueError('expected a page range string such as "12-14"')
    pages: list[int] = []
    for part in parts:
        m = re.fullmatch(r"(\d+)\s*(?:-\s*(\d+))?", part)
        if not m:
            raise ValueError(f"{part!r} is not a page or page range")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if lo < 1 or hi < lo:
            raise ValueError(f"{part!r} is not an increasing range of pages starting at 1")
        pages.extend(range(lo, hi + 1))
    return sorted(set(pages))


def _parse_date(value: Any) -> date | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        if value.strip().lower() in ("", "unknown"):
            return None
        return date.fromisoformat(value.strip())
    raise ValueError(f"{value!r} is not a date")


def load_manifest(manifest_path: str | Path, allow_outside: Sequence[str | Path] = ()) -> list[ManifestEntry]:
    """Read and validate a manifest; raise one InputError listing every problem.

    Each entry's file must resolve inside the manifest's folder or one of ``allow_outside``.
    """
    manifest = Path(manifest_path)
    if not manifest.is_file():
        raise InputError(f"manifest {manifest} not found", fix="pass the path of an existing manifest TOML file")
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(
            f"manifest {manifest} is not valid TOML: {exc}",
            where=str(manifest),
            fix="correct the TOML syntax (dates are written 2024-12-31 or as a quoted string)",
        ) from exc
    raw = data.get("source")
    if not isinstance(raw, list) or not raw:
        raise InputError(
            f"manifest {manifest} has no [[source]] entries",
            where=str(manifest),
            fix="add one [[source]] table per file (see DESIGN §5)",
        )
    base = manifest.resolve().parent
    allowed = [base, *(Path(d).resolve() for d in allow_outside)]
    entries, problems = [], []
    for i, item in enumerate(raw, start=1):
        entry, errs = _validate_entry(i, item, base)
        if entry is not None and not any(_within(entry.file, d) for d in allowed):
            errs, entry = (
                [
                    f"path {entry.path!r} resolves to {entry.file}, outside the manifest's folder {base}; "
                    "move the file into that folder or pass --allow-outside DIR for the folder holding it"
                ],
                None,
            )
        problems += [
            f"{manifest}: source #{i} ({item.get('path', '?') if isinstance(item, dict) else '?'}): {e}" for e in errs
        ]
        if entry is not None:
            entries.append(entry)
    problems += [f"{manifest}: {p}" for p in _conflicting_copies(entries)]
    if problems:
        raise InputError(
            f"manifest {manifest} has {len(problems)} problem(s):\n  " + "\n  ".join(problems),
            where=str(manifest),
            fix="correct the fields named above and run `aieco ingest` again",
        )
    return entries


def _validate_entry(index: int, item: Any, base: Path) -> tuple[ManifestEntry | None, list[str]]:
    if not isinstance(item, dict):
        return None, ["entry is not a table"]
    errs: list[str] = []
    for key in sorted(set(item) - ENTRY_FIELDS):
        errs.append(f"field {key!r} is unknown; allowed fields: {', '.join(sorted(ENTRY_FIELDS))}")
    for key in REQUIRED_FIELDS:
        if not isinstance(item.get(key), str) or not item[key].strip():
            errs.append(f'field {key!r} is missing or empty; add {key} = "…"')
    role = None
    if isinstance(item.get("role"), str):
        try:
            role = Role(item["role"])
        except ValueError:
            errs.append(f"field 'role' = {item['role']!r} is not a known role; use one of {ROLES}")
    try:
        pub = _parse_date(item.get("publication_date"))
    except ValueError:
        pub = None
        errs.append(
            f"field 'publication_date' = {item.get('publication_date')!r} is not a date; "
            'write it as 2024-12-31 (TOML date) or "unknown"'
        )
    if pub is not None and pub > date.today():
        errs.append(f"field 'publication_date' = {pub} is after today ({date.today()}); give the date it was published")
    jurisdiction = str(item.get("jurisdiction", "EA"))
    if unknown_jurisdictions([jurisdiction]):
        errs.append(
            f"field 'jurisdiction' = {jurisdiction!r} is not known; use an ISO 3166 country code, EA, EU or GLOBAL"
        )
    kind = None
    path = item.get("path") if isinstance(item.get("path"), str) else None
    if path:
        suffix = Path(path).suffix.lower()
        given = item.get("kind")
        try:
            kind = SourceKind(given) if given else KIND_BY_SUFFIX.get(suffix)
        except ValueError:
            errs.append(f"field 'kind' = {given!r} is unknown; use one of {', '.join(k.value for k in SourceKind)}")
        if kind is None and not given:
            errs.append(
                f"file type {suffix or '(none)'!r} is not supported; use .pdf, .xlsx, .csv, .txt, .md or .html "
                'or set kind = "text"'
            )
    overrides = []
    for j, o in enumerate(item.get("role_override", []) or [], start=1):
        try:
            overrides.append(_validate_override(o))
        except ValueError as exc:
            errs.append(f"role_override #{j}: {exc}")
    series = item.get("series", {})
    if not isinstance(series, dict):
        errs.append("field 'series' must be a table ([source.series])")
    if errs or role is None or path is None or kind is None:
        return None, errs
    return ManifestEntry(
        index=index,
        path=path,
        file=(base / path).resolve(),  # symlinks resolved before the confinement check
        title=item["title"].strip(),
        publisher=item["publisher"].strip(),
        publication_date=pub,
        role=role,
        jurisdiction=jurisdiction,
        kind=kind,
        role_overrides=overrides,
        series=series,
        illustrative=bool(item.get("illustrative", False)),
        note=str(item.get("note", "")),
        encoding=item.get("encoding"),
    ), []


def _conflicting_copies(entries: Sequence[ManifestEntry]) -> list[str]:
    """Entries whose files hold the same bytes but are described differently: the source id is the
    bytes' digest, so manifest order would decide which description is kept; refused instead."""
    import hashlib
    from collections import defaultdict

    by_size: dict[int, list[ManifestEntry]] = defaultdict(list)
    for e in entries:
        if e.file.is_file():
            by_size[e.file.stat().st_size].append(e)
    out = []
    for group in by_size.values():
        if len(group) < 2:
            continue  # only files of equal size can hold the same bytes: hash those alone
        by_digest: dict[str, list[ManifestEntry]] = defaultdict(list)
        for e in group:
            by_digest[hashlib.sha256(e.file.read_bytes()).hexdigest()].append(e)
        for same in by_digest.values():
            first = same[0]
            for other in same[1:]:
                differ = [
                    f"{name}: {b!r} here, {a!r} there"
                    for name, a, b in zip(DESCRIBED, _description(first), _description(other), strict=True)
                    if a != b
                ]
                if differ:
                    out.append(
                        f"entry #{other.index} ({other.path}) holds the same bytes as entry #{first.index} "
                        f"({first.path}) but describes them otherwise ({'; '.join(differ)}); describe the file once"
                    )
    return out


#: What a manifest says about a file; two entries of the same bytes must say the same.
DESCRIBED = ("title", "publisher", "publication_date", "role", "jurisdiction", "kind", "role_override")


def _description(e: ManifestEntry) -> tuple[Any, ...]:
    return (
        e.title,
        e.publisher,
        str(e.publication_date),
        e.role.value,
        e.jurisdiction,
        e.kind.value,
        repr(e.role_overrides),
    )


def _within(file: Path, folder: Path) -> bool:
    return folder == file or folder in file.parents


def _validate_override(o: Any) -> RoleOverride:
    if not isinstance(o, dict):
        raise ValueError("is not a table")
    extra = set(o) - {"role", "pages", "sheets"}
    if extra:
        raise ValueError(f'unknown field(s) {sorted(extra)}; use role with pages = "12-14" or sheets = ["…"]')
    try:
        role = Role(o.get("role"))
    except ValueError:
        raise ValueError(f"role {o.get('role')!r} is not a known role; use one of {ROLES}") from None
    if ("pages" in o) == ("sheets" in o):
        raise ValueError('give exactly one of pages = "12-14" or sheets = ["Sheet"]')
    if "pages" in o:
        return RoleOverride(role=role, pages=parse_pages(o["pages"]), spec=str(o["pages"]))
    sheets = o["sheets"]
    if isinstance(sheets, str):
        sheets = [sheets]
    if not isinstance(sheets, list) or not all(isinstance(s, str) for s in sheets):
        raise ValueError("sheets must be a list of worksheet names")
    return RoleOverride(role=role, sheets=sheets)
