"""What a workspace holds, in two questions: has anything changed, and is it empty.

Pure queries over the store used by the dashboard (its cache key, its first-launch
decision) and by `aieco bench dashboard`.
"""

from __future__ import annotations

from aieco.records import Analysis, ModelRun, Relation, Source, digest
from aieco.store import Store


def workspace_digest(store: Store) -> str:
    """A digest that changes whenever a record or artifact is added (the cache key).

    Every table (artifacts included) is hash-chained and only ever grows, and each insert
    moves its table's head in ``chain_heads``; the heads identify the state of a workspace
    in one small read (no count over every table).
    """
    return digest({"heads": {t: list(v) for t, v in store.chain_heads().items()}})


def is_empty(store: Store) -> bool:
    """True when the workspace holds no sources, relations or analyses yet."""
    counts = store.table_counts()
    return not any(counts[t] for t in (Source.table, Relation.table, Analysis.table, ModelRun.table))
