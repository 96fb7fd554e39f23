"""EBA data dictionaries, text encodings and the items aieco resolves through the dictionaries' labels.

Every EBA exercise numbers its items afresh (2016 stress test 1690802, 2021 stress test 213702,
2024 transparency 2420102 for the same CET1 capital), so no item code is written here: each
:data:`CONCEPTS` entry names the published *label* (a regular expression over the normalised
label) and the template it must come from, and :meth:`EbaDictionary.resolve` finds the code in
whichever dictionary describes the file. A concept that no dictionary row matches, or that
several rows match, is an :class:`~aieco.errors.InputError` naming the labels seen.

Three dictionary layouts are read (xlsx or a CSV extract with the same columns):
stress test 2016 (``Collection, Dataset, Item, Item_TR_15, Item_ST_14, Category, Label, Template``),
stress test 2021 (``Collection, Template No#, Category, Item, Item_2018, Label``) and the
transparency SDD (a title row, then ``CSV, Template, Item, Item_TR_2023 … Item_TR_2014, Category, Label``).
"""

from __future__ import annotations

import codecs
import functools
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pandas as pd

from aieco.errors import InputError

# ----------------------------------------------------------------------------- encodings

_SINGLE_BYTE = {"latin-1", "latin_1", "iso-8859-1", "iso8859-1", "cp1252", "windows-1252", "l1"}


def decode_text(raw: bytes, *, name: str, encoding: str | None = None) -> tuple[str, str]:
    """Decode a file's bytes; returns (text, encoding used).

    A declared ``encoding`` is checked: bytes it cannot decode, or a single-byte declaration
    for a file that is valid multi-byte UTF-8 (which would turn 'Português' into 'PortuguÃªs'),
    are an :class:`InputError`. Without a declaration the encoding is detected: a byte-order
    mark, else strict UTF-8, else Windows-1252 when the file uses its 0x80–0x9F characters,
    else Latin-1 (which decodes any byte).
    """
    if encoding:
        try:
            canonical = codecs.lookup(encoding).name
        except LookupError:
            raise InputError(
                f"unknown text encoding {encoding!r} declared for {name}",
                where=name,
                fix="declare a Python codec name such as utf-8, latin-1 or cp1252",
            ) from None
        try:
            text = raw.decode(canonical)
        except UnicodeDecodeError as err:
            raise InputError(
                f"{name} is not valid {encoding}: byte 0x{raw[err.start]:02x} at offset {err.start} cannot be decoded",
                where=name,
                fix="declare the file's real encoding (EBA's 2021 stress-test CSV is Windows-1252, a "
                "Latin-1 superset) or leave it to detection",
            ) from None
        if encoding.lower().replace("_", "-") in _SINGLE_BYTE or canonical in {"iso8859-1", "cp1252"}:
            if _is_multibyte_utf8(raw):
                raise InputError(
                    f"{name} was declared {encoding} but is UTF-8 with multi-byte characters",
                    where=name,
                    fix="declare utf-8 or leave the encoding to detection",
                )
        return text.lstrip("\ufeff"), canonical
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if raw.startswith(bom):
            try:
                return raw.decode(enc), enc
            except UnicodeDecodeError:
                raise InputError(
                    f"{name} starts with a {enc} byte-order mark but is not {enc}",
                    where=name,
                    fix="re-export the file, or declare its encoding",
                ) from None
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if any(0x80 <= b <= 0x9F for b in raw):
        try:
            return raw.decode("cp1252"), "cp1252"
        except UnicodeDecodeError:
            pass
    return raw.decode("latin-1"), "latin-1"


def _is_multibyte_utf8(raw: bytes) -> bool:
    if all(b < 0x80 for b in raw):
        return False
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def read_text(path: Path, encoding: str | None = None) -> tuple[str, str]:
    """A text file's content and the encoding used (declared or detected, see :func:`decode_text`)."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"file {path} does not exist", where=str(path), fix="pass the path of the EBA file")
    return decode_text(path.read_bytes(), name=path.name, encoding=encoding)


# ----------------------------------------------------------------------------- dictionaries


def normalise_label(label: str) -> str:
    """Lower case, single spaces, '_ ' (the SDD's comma) as ', ', no surrounding spaces."""
    text = re.sub(r"\s+", " ", str(label)).strip().lower()
    return text.replace("_ ", ", ")


@dataclass(frozen=True)
class DictionaryItem:
    """One row of an EBA data dictionary."""

    code: int
    label: str
    template: str
    previous: tuple[int, ...] = ()  # the same item's codes in earlier exercises


@dataclass(frozen=True)
class Term:
    """One signed dictionary item of a concept."""

    sign: int
    code: int
    label: str


@dataclass(frozen=True)
class Concept:
    """An item aieco needs, found by label within templates; alternatives are tried in order.

    Each alternative is a tuple of ``(sign, label pattern)``; the concept's value is the signed
    sum of the matched items (e.g. interest income minus interest expenses where a dictionary
    has no net interest income row).
    """

    name: str
    unit: str
    templates: str  # regular expression over the normalised template name
    alternatives: tuple[tuple[tuple[int, str], ...], ...]
    note: str = ""


_CAP = r"(tra_)?cap(ital)?"
_PL = r"(tra_)?p&l"
#: The items of the issue, by published label (signs as reported: losses and expenses negative
#: in the stress-test P&L templates).
CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "cet1_capital",
        "EUR mn",
        _CAP,
        (
            (
                (
                    1,
                    r"common equity tier 1 capital \(net of deductions and after "
                    r"applying transitional adjustments\)",
                ),
            ),
        ),
    ),
    Concept("total_risk_exposure_amount", "EUR mn", _CAP, (((1, r"total risk exposure amount"),),)),
    Concept(
        "cet1_ratio",
        "ratio",
        _CAP,
        (((1, r"common equity tier 1 capital ratio ?(- ?transitional period|\(transitional( period)?\))"),),),
    ),
    Concept(
        "net_interest_income",
        "EUR mn",
        _PL,
        (((1, r"net interest income"),), ((1, r"interest income"), (-1, r"\(?interest expenses?\)?"))),
    ),
    Concept("net_fee_commission_income", "EUR mn", _PL, (((1, r"net fee and commission income"),),)),
    Concept(
        "impairments",
        "EUR mn",
        _PL,
        (
            (
                (
                    1,
                    r"\(?impairment( or \(-\) reversal of impairment| \(-\) or reversal of impairment \(\+\)) on "
                    r"financial assets not measured at fair value through profit or loss\)?",
                ),
            ),
        ),
    ),
    Concept(
        "operating_expenses",
        "EUR mn",
        _PL,
        (
            ((1, r"\(administrative expenses\)"), (1, r"\(depreciation\)")),
            ((1, r"other income and expenses not listed above - net"),),
        ),
        note="the stress-test P&L templates have no administrative-expense row: their 'Other income and "
        "expenses not listed above - net' (negative = net expense) holds operating expenses together "
        "with provisions and other impairments",
    ),
    Concept("profit", "EUR mn", _PL, (((1, r"profit or \(-\) loss for the year"),),)),
    # further P&L and capital rows the accounting validation uses
    Concept("total_operating_income", "EUR mn", _PL, (((1, r"total operating income( - |, )net"),),)),
    Concept(
        "profit_before_tax", "EUR mn", _PL, (((1, r"profit or \(-\) loss before tax from continuing operations"),),)
    ),
    Concept(
        "attributable_net_of_dividends",
        "EUR mn",
        _PL,
        (((1, r"attributable to owners of the parent net of estimated dividends"),),),
    ),
    Concept("accumulated_oci", "EUR mn", _CAP, (((1, r"accumulated other comprehensive income"),),)),
    Concept("transitional_adjustments", "EUR mn", _CAP, (((1, r"transitional adjustments"),),)),
)
#: The eight items of issue #16 (the rest serve the accounting validation).
CORE_CONCEPTS = (
    "cet1_capital",
    "total_risk_exposure_amount",
    "cet1_ratio",
    "net_interest_income",
    "net_fee_commission_income",
    "impairments",
    "operating_expenses",
    "profit",
)


@dataclass(frozen=True)
class EbaDictionary:
    """An EBA data dictionary: item code → label and template, and earlier codes of each item."""

    name: str
    collection: str
    items: dict[int, DictionaryItem]
    release_date: date | None = None  # the workbook's last-modified stamp, when it has one
    code_map: dict[int, int] = field(default_factory=dict)  # any exercise's code → this dictionary's code

    def current(self, code: int) -> int:
        """This dictionary's code for an item code of any exercise it lists."""
        return self.code_map.get(int(code), int(code))

    def resolve(self, concept: Concept) -> tuple[Term, ...]:
        """The signed items that make up ``concept`` in this dictionary."""
        pool = [it for it in self.items.values() if re.fullmatch(concept.templates, normalise_label(it.template))]
        for alternative in concept.alternatives:
            terms = []
            for sign, pattern in alternative:
                hits = [it for it in pool if re.fullmatch(pattern, normalise_label(it.label))]
                if len(hits) > 1:
                    raise InputError(
                        f"{self.name}: label pattern for {concept.name} matches {len(hits)} items "
                        f"({', '.join(str(h.code) for h in hits)})",
                        where=self.name,
                        fix="use the exercise's own data dictionary",
                    )
                if not hits:
                    break
                terms.append(Term(sign, hits[0].code, hits[0].label))
            else:
                return tuple(terms)
        raise InputError(
            f"{self.name} has no item labelled like {concept.name} in templates "
            f"/{concept.templates}/ ({len(pool)} items there)",
            where=self.name,
            fix="pass the data dictionary published with the EBA file",
        )

    def resolve_all(self, names: tuple[str, ...] | None = None) -> dict[str, tuple[Term, ...]]:
        wanted = [c for c in CONCEPTS if names is None or c.name in names]
        return {c.name: self.resolve(c) for c in wanted}

    def __deepcopy__(self, memo: dict[int, object]) -> EbaDictionary:
        """The dictionary itself: it is never changed once read, and pandas deep-copies a frame's
        ``attrs`` (where the EBA readers keep it) on every operation, which cost seconds per import."""
        return self


def concept(name: str) -> Concept:
    return next(c for c in CONCEPTS if c.name == name)


def _header_row(table: pd.DataFrame) -> int:
    for i in range(min(6, len(table))):
        cells = [str(c).strip() for c in table.iloc[i].tolist()]
        if "Item" in cells and "Label" in cells:
            return i
    return -1


def read_dictionary(path: Path, *, encoding: str | None = None) -> EbaDictionary:
    """Read an EBA data dictionary (stress test 2016/2021 or transparency SDD; xlsx or CSV extract).

    Parsed once per file content (path, size and modification time).
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(
            f"data dictionary {path} does not exist",
            where=str(path),
            fix="pass the dictionary published with the EBA file",
        )
    st = path.stat()
    return _read_dictionary(str(path.resolve()), st.st_size, st.st_mtime_ns, encoding)


@functools.lru_cache(maxsize=16)
def _read_dictionary(name: str, size: int, mtime_ns: int, encoding: str | None) -> EbaDictionary:
    path = Path(name)
    release = None
    try:
        if path.suffix.lower() in (".xlsx", ".xlsm"):
            raw = pd.read_excel(path, header=None, dtype=str)
            import openpyxl

            props = openpyxl.load_workbook(path, read_only=True).properties
            stamp = props.modified or props.created
            release = stamp.date() if stamp else None
        else:
            import io

            text, _ = read_text(path, encoding)
            raw = pd.read_csv(io.StringIO(text), header=None, dtype=str)
    except InputError:
        raise
    except Exception as err:  # a corrupt workbook or CSV: say which file
        raise InputError(f"{path.name} cannot be read as a data dictionary: {err}", where=str(path)) from None
    head = _header_row(raw)
    if head < 0:
        raise InputError(
            f"{path.name} is not an EBA data dictionary (no Item and Label header)",
            where=str(path),
            fix="use the EBA data dictionary workbook (Data_Dictionary.xlsx, eba_transparency_SDD.xlsx)",
        )
    header = [str(c).strip() for c in raw.iloc[head].tolist()]
    body = raw.iloc[head + 1 :].reset_index(drop=True)
    body.columns = range(len(header))
    col = {h: i for i, h in reversed(list(enumerate(header)))}
    template_col = next((col[h] for h in ("Template", "Template No#") if h in col), None)
    previous_cols = [i for i, h in enumerate(header) if h.startswith("Item_")]
    if "Collection" in col:
        collection = str(body[col["Collection"]].dropna().iloc[0]).strip()
    elif "CSV" in col:
        collection = "TR"
    else:
        collection = path.stem
    items: dict[int, DictionaryItem] = {}
    code_map: dict[int, int] = {}
    for _, row in body.iterrows():
        code = pd.to_numeric(row[col["Item"]], errors="coerce")
        if pd.isna(code):
            continue
        code = int(code)
        prev = tuple(int(p) for p in (pd.to_numeric(row[i], errors="coerce") for i in previous_cols) if not pd.isna(p))
        template = "" if template_col is None or pd.isna(row[template_col]) else str(row[template_col])
        items[code] = DictionaryItem(code, str(row[col["Label"]]), template, prev)
        for p in prev:
            code_map.setdefault(p, code)
    if not items:
        raise InputError(f"{path.name} lists no items", where=str(path))
    return EbaDictionary(path.name, collection, items, release, code_map)


SCENARIO_KINDS = {"actual": r"actual figures", "baseline": r"baseline scenario", "adverse": r"adverse scenario"}


def read_scenarios(path: Path) -> dict[int, str]:
    """Scenario code → label from a lookup CSV (``Scenario,Label``) or a metadata workbook's Scenario sheet."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"scenario lookup {path} does not exist", where=str(path))
    if path.suffix.lower() == ".xlsx":
        sheets = pd.read_excel(path, sheet_name=None, header=None, dtype=str)
        table = next((t for n, t in sheets.items() if n.strip().lower() == "scenario"), None)
        if table is None:
            raise InputError(f"{path.name} has no Scenario sheet", where=str(path))
    else:
        import io

        text, _ = read_text(path)
        table = pd.read_csv(io.StringIO(text), header=None, dtype=str)
    for i in range(min(6, len(table))):
        cells = [str(c).strip() for c in table.iloc[i].tolist()]
        if "Scenario" in cells:
            k = cells.index("Scenario")
            out = {}
            for _, row in table.iloc[i + 1 :].iterrows():
                code = pd.to_numeric(row.iloc[k], errors="coerce")
                if not pd.isna(code) and k + 1 < len(row) and not pd.isna(row.iloc[k + 1]):
                    out[int(code)] = str(row.iloc[k + 1]).strip()
            if out:
                return out
    raise InputError(f"{path.name} is not a scenario lookup", where=str(path), fix="expected columns Scenario,Label")


def scenario_kind(label: str) -> str | None:
    """'actual', 'baseline' or 'adverse' for a scenario label (restated figures are none of them)."""
    norm = normalise_label(label)
    return next((k for k, pat in SCENARIO_KINDS.items() if re.fullmatch(pat, norm)), None)
