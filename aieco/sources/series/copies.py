"""Dated public copies of series files: the ``file`` release rule from a repository's history.

A file committed to a public git repository on date D held values that were public by D.
``aieco/data/dated_copies.toml`` registers such copies by their git blob id (the hash of the
file's bytes). :func:`copy_of` recognises a file whose bytes equal a registered copy, and
:func:`with_dated_copy` adds, beside the values a reader dated by the file's own dates or the
documented publication lag, the same values with release date D and rule ``file`` (the UTC
calendar date of the commit) — the dates the ``strict`` vintage policy accepts. A copy dated
before a value's reference period ended is never a release of that value: the vintage
selection refuses such dates (:func:`aieco.models.vintages.select_as_of`).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from aieco.errors import InputError
from aieco.records import ObservedValue, ReleaseRule

SHIPPED = Path(__file__).resolve().parents[2] / "data" / "dated_copies.toml"
#: Copies committed after the default cutoff: sources of the shipped extensions, never release dates.
LATER = SHIPPED.with_name("later_copies.toml")
FIELDS = ("name", "repo", "commit", "committed", "path", "blob", "publisher", "note")


@dataclass(frozen=True)
class DatedCopy:
    """One registered copy: where it was committed, when, and the git blob id of its bytes."""

    name: str
    repo: str  # owner/name on GitHub
    commit: str  # the earliest commit holding these bytes (40 hex digits)
    committed: str  # committer date, ISO 8601 with offset (``git log --format=%cI``)
    path: str  # the file's path in that commit
    blob: str  # git blob id (``git hash-object FILE``)
    publisher: str
    note: str

    @property
    def date(self) -> date:
        """The commit's calendar date in UTC: the release date of every value the copy holds."""
        return datetime.fromisoformat(self.committed).astimezone(UTC).date()

    @property
    def label(self) -> str:
        """The vintage label of the copy's values: ``owner/name@commit7``."""
        return f"{self.repo}@{self.commit[:7]}"


def git_blob_id(path: str | Path) -> str:
    """The git blob id of a file's bytes (what ``git hash-object`` prints)."""
    data = Path(path).read_bytes()
    return hashlib.sha1(b"blob %d\x00" % len(data) + data, usedforsecurity=False).hexdigest()


def parse_copies(data: dict[str, Any], where: str) -> tuple[DatedCopy, ...]:
    """Validate the ``[[copy]]`` tables of a registry."""
    out = []
    for i, item in enumerate(data.get("copy", []), start=1):
        at = f"{where} [[copy]] #{i}"
        missing = [f for f in FIELDS if not isinstance(item.get(f), str) or not item[f].strip()]
        if missing:
            raise InputError(
                f"dated copy #{i} lacks {', '.join(missing)}", where=at, fix=f"give every copy {', '.join(FIELDS)}"
            )
        if not re.fullmatch(r"[0-9a-f]{40}", item["commit"]) or not re.fullmatch(r"[0-9a-f]{40}", item["blob"]):
            raise InputError(
                f"dated copy {item['name']!r}: commit and blob must be 40 lower-case hex digits",
                where=at,
                fix="copy them from `git log --format=%H` and `git rev-parse COMMIT:PATH`",
            )
        try:
            stamp = datetime.fromisoformat(item["committed"])
        except ValueError:
            stamp = None
        if stamp is None or stamp.tzinfo is None:
            raise InputError(
                f"dated copy {item['name']!r}: committed {item['committed']!r} is not an ISO date-time with offset",
                where=at,
                fix="use git's %cI format, e.g. 2024-03-21T17:06:43+01:00",
            )
        out.append(DatedCopy(**{f: item[f].strip() for f in FIELDS}))
    names = [c.name for c in out]
    if len(set(names)) != len(names):
        raise InputError(f"{where}: a dated copy name is used twice", where=where, fix="give each copy its own name")
    return tuple(out)


@lru_cache(maxsize=4)
def dated_copies(path: Path = SHIPPED) -> tuple[DatedCopy, ...]:
    """The registered copies (the shipped registry by default)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(
            f"dated-copy registry {path} cannot be read: {exc}", where=str(path), fix="restore the registry"
        ) from None
    return parse_copies(data, str(path))


def copy_named(name: str, registry: Path = SHIPPED) -> DatedCopy:
    for c in dated_copies(registry):
        if c.name == name:
            return c
    raise InputError(f"no copy named {name!r}", where=str(registry), fix=f"register it in {registry.name}")


def copy_of(path: str | Path) -> DatedCopy | None:
    """The registered copy whose bytes equal the file's, if any."""
    blob = git_blob_id(path)
    return next((c for c in dated_copies() if c.blob == blob), None)


def as_copy_values(values: list[ObservedValue], copy: DatedCopy) -> list[ObservedValue]:
    """The values again, released on the copy's date (rule ``file``, vintage the copy's label)."""
    out = []
    for v in values:
        fields = v.model_dump(exclude={"observation_id"})
        fields.update(release_date=copy.date, release_rule=ReleaseRule.file, vintage=copy.label)
        out.append(ObservedValue.create(**fields))
    return out


def with_dated_copy(path: str | Path, values: list[ObservedValue]) -> list[ObservedValue]:
    """``values`` plus, when ``path`` is a registered dated copy, the same values dated by the copy.

    Values the file dates as true vintages (rule ``vintage``) get no copy: a vintage date is
    exact already.
    """
    copy = copy_of(path)
    if copy is None:
        return values
    return values + as_copy_values([v for v in values if v.release_rule is not ReleaseRule.vintage], copy)
