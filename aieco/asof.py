"""One as-of rule: what an analysis may see at its information cutoff (paper §2.2).

:class:`AsOf` holds the cutoff, the allowed roles and the jurisdiction scope of a request.
Eligibility of sources and locations (``aieco.sources.eligibility``), retrieval, the
relation graph's as-of edge set A(t) (``aieco.graph.build``), the vintage selection of
observed values (``aieco.models.vintages``) and the dashboard all decide through it, so
they cannot disagree.

Scope matching is case-insensitive and follows a jurisdiction hierarchy: a requested
jurisdiction admits itself and every jurisdiction that contains it (a euro-area request
admits ``EU`` and ``GLOBAL`` material), unless the request excludes it. A country admits
the euro area only when it is a euro-area member listed in :data:`PARENTS`. Every refusal
comes with its :class:`~aieco.records.ExclusionReason` and a sentence saying why.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Literal

from pydantic import Field, field_validator

from aieco.errors import InputError
from aieco.records import ExclusionReason, FrozenModel, Role

GLOBAL = "GLOBAL"

VintagePolicy = Literal["strict", "approximate"]
POLICIES: tuple[str, ...] = ("strict", "approximate")
#: Release rules each vintage policy accepts (``aieco.models.vintages`` explains the policies).
POLICY_RULES: dict[str, frozenset[str]] = {
    "strict": frozenset({"vintage", "file"}),
    "approximate": frozenset({"vintage", "file", "lag"}),
}

# child -> the jurisdiction that directly contains it; GLOBAL contains everything.
PARENTS: dict[str, str] = {
    "EA": "EU",
    "EU": GLOBAL,
    **{
        c: "EA"
        for c in (
            "AT",
            "BE",
            "CY",
            "DE",
            "EE",
            "ES",
            "FI",
            "FR",
            "GR",
            "HR",
            "IE",
            "IT",
            "LT",
            "LU",
            "LV",
            "MT",
            "NL",
            "PT",
            "SI",
            "SK",
        )
    },
    **{c: "EU" for c in ("BG", "CZ", "DK", "HU", "PL", "RO", "SE")},
}
ALIASES = {"EA19": "EA", "EA20": "EA", "EU27": "EU", "EU27_2020": "EU", "WORLD": GLOBAL, "GL": GLOBAL}


def normalise(jurisdiction: str | None) -> str:
    """Upper-case, aliases resolved (``ea20`` → ``EA``); empty or None stays ``""``."""
    code = (jurisdiction or "").strip().upper()
    return ALIASES.get(code, code)


#: Codes of the Eurostat/ECB conventions that are not ISO 3166 country codes.
EXTRA_CODES = frozenset({"UK", "EL"})


def iso_country_codes() -> frozenset[str]:
    """The ISO 3166-1 alpha-2 codes as the IANA time-zone database lists them (``iso3166.tab`` of the
    ``tzdata`` package, else the system's zoneinfo); empty when neither is present."""
    from importlib import resources
    from pathlib import Path

    candidates = []
    try:
        candidates.append(resources.files("tzdata").joinpath("zoneinfo", "iso3166.tab"))
    except ModuleNotFoundError:
        pass
    candidates.append(Path("/usr/share/zoneinfo/iso3166.tab"))
    for path in candidates:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        return frozenset(line.split("\t", 1)[0] for line in text.splitlines() if line and not line.startswith("#"))
    return frozenset()


def unknown_jurisdictions(codes: Iterable[str]) -> list[str]:
    """The codes that name no jurisdiction: not in the hierarchy, not an alias, not an ISO country code.

    Without an ISO table on the machine only the hierarchy's codes are known for sure, so
    nothing else is refused rather than everything.
    """
    iso = iso_country_codes()
    known = {*PARENTS, GLOBAL, *ALIASES, *EXTRA_CODES, *iso}
    return [c for c in codes if normalise(c) not in known and (iso or not normalise(c).isalpha())]


def containers(jurisdiction: str) -> tuple[str, ...]:
    """``jurisdiction`` and every jurisdiction containing it, innermost first (``EA`` → EA, EU, GLOBAL)."""
    code = normalise(jurisdiction)
    chain = [code]
    while chain[-1] != GLOBAL:
        chain.append(PARENTS.get(chain[-1], GLOBAL))
    return tuple(chain)


class AsOf(FrozenModel):
    """Cutoff, allowed roles, jurisdiction scope and vintage policy of one request.

    ``cutoff`` None means no date limit; ``scope`` None means every jurisdiction;
    ``exclude`` names jurisdictions the request refuses even when the hierarchy admits them;
    ``vintage_policy`` None accepts every release rule (callers that already chose their values).
    The request builds it once (:meth:`of_request`) and every consumer — eligibility, retrieval,
    A(t), the macro model's vintage selection, the bank data — receives that same object.
    """

    cutoff: date | None
    roles: frozenset[Role] = frozenset({Role.generation})
    scope: tuple[str, ...] | None = None
    exclude: tuple[str, ...] = ()
    vintage_policy: VintagePolicy | None = Field(
        None, description="strict | approximate (aieco.models.vintages); None accepts every release rule."
    )

    @classmethod
    def at(cls, cutoff: date | str | None, policy: str | None = None) -> AsOf:
        """The as-of rule of a bare cutoff (a date or ISO text, as a command line or a test gives it) and
        vintage policy; the one place a policy name from outside a request is checked.

        Raises
        ------
        InputError
            An unknown policy or a cutoff that is not an ISO date.
        """
        if policy is not None and policy not in POLICIES:
            raise InputError(
                f"vintage policy {policy!r} is not one of {', '.join(POLICIES)}",
                where="vintage_policy",
                fix="use 'strict' (true vintages) or 'approximate' (documented publication lags)",
            )
        if cutoff is not None and not isinstance(cutoff, date):
            try:
                cutoff = date.fromisoformat(str(cutoff))
            except ValueError as exc:
                raise InputError(
                    f"cutoff {cutoff!r} is not a date", where="cutoff", fix="write it as YYYY-MM-DD"
                ) from exc
        return cls(cutoff=cutoff, vintage_policy=policy)

    @field_validator("roles", mode="before")
    @classmethod
    def _roles(cls, v: Iterable[Role | str]) -> frozenset[Role]:
        return frozenset(Role(r) for r in v)

    @field_validator("scope", mode="before")
    @classmethod
    def _scope(cls, v: Iterable[str] | None) -> tuple[str, ...] | None:
        return None if v is None else tuple(sorted({normalise(j) for j in v}))

    @field_validator("exclude", mode="before")
    @classmethod
    def _exclude(cls, v: Iterable[str]) -> tuple[str, ...]:
        return tuple(sorted({normalise(j) for j in v}))

    @classmethod
    def of_request(cls, request, roles: Iterable[Role | str] | None = None) -> AsOf:
        """The as-of rule of an AnalysisRequest (``roles``: the plan's admissible roles, else the request's)."""
        return cls(
            cutoff=request.cutoff,
            roles=request.allowed_roles if roles is None else roles,
            scope=request.jurisdictions,
            exclude=request.excluded_jurisdictions,
            vintage_policy=request.vintage_policy,
        )

    # ------------------------------------------------------------------ the admitted jurisdictions

    @property
    def admitted(self) -> frozenset[str] | None:
        """Every jurisdiction the scope admits (None: all)."""
        if self.scope is None:
            return None
        return frozenset(c for j in self.scope for c in containers(j)) - set(self.exclude)

    # ------------------------------------------------------------------ one reason per rule

    def date_reason(self, published: date | None) -> tuple[ExclusionReason, str] | None:
        if self.cutoff is None:  # no date limit (e.g. the whole graph)
            return None
        if published is None:
            return ExclusionReason.unknown_date, "publication date unknown"
        if published > self.cutoff:
            return ExclusionReason.after_cutoff, f"published {published} after cutoff {self.cutoff}"
        return None

    def scope_reason(self, jurisdiction: str | None) -> tuple[ExclusionReason, str] | None:
        if self.scope is None:
            return None
        code = normalise(jurisdiction)
        if code in self.exclude:
            return ExclusionReason.scope, f"jurisdiction {jurisdiction} excluded by the request"
        if code not in (self.admitted or ()):
            return ExclusionReason.scope, (
                f"jurisdiction {jurisdiction or '(none)'} not in scope "
                f"{', '.join(self.scope)} (admits {', '.join(sorted(self.admitted or ()))})"
            )
        return None

    def role_reason(self, role: Role, where: str = "source role") -> tuple[ExclusionReason, str] | None:
        if role in self.roles:
            return None
        return ExclusionReason.role, f"{where} {role.value} not in {sorted(r.value for r in self.roles)}"

    def reason(
        self, *, published: date | None, jurisdiction: str | None, role: Role | None = None
    ) -> tuple[ExclusionReason, str] | None:
        """The first reason that excludes an item, in the order date, cutoff, scope, role; None if admitted."""
        return (
            self.date_reason(published)
            or self.scope_reason(jurisdiction)
            or (self.role_reason(role) if role is not None else None)
        )

    def admits(self, *, published: date | None, jurisdiction: str | None, role: Role | None = None) -> bool:
        return self.reason(published=published, jurisdiction=jurisdiction, role=role) is None

    def released(self, release_date: date | None) -> bool:
        """An observed value is released by the cutoff when its release date is known and on or before it."""
        return release_date is not None and (self.cutoff is None or release_date <= self.cutoff)

    @property
    def release_rules(self) -> frozenset[str] | None:
        """The release rules the vintage policy accepts (None: every rule)."""
        return None if self.vintage_policy is None else POLICY_RULES[self.vintage_policy]

    def accepts_rule(self, release_rule: str | None) -> bool:
        """Whether the vintage policy accepts a value dated by ``release_rule`` (no rule: only without a policy)."""
        return self.vintage_policy is None or (
            release_rule is not None and release_rule in POLICY_RULES[self.vintage_policy]
        )

    def usable(self, release_date: date | None, release_rule: str | None) -> bool:
        """The release rule of observed values: released by the cutoff and dated by a rule the policy accepts."""
        return self.released(release_date) and self.accepts_rule(release_rule)
