"""Channel queries: the registered graph queries of a risk program and their registration digest.

``DEMO_CHANNELS`` is the demo's channel design (docs/demo-channels.md): the queries of the
trade-fragmentation, property-correction and market-illiquidity risk programs.
"""

from __future__ import annotations

from collections.abc import Sequence

from aieco.config import get_settings
from aieco.errors import InputError
from aieco.records import ChannelQuery, Movement, digest
from aieco.vocab import Vocabulary, load_vocabulary

#: (label, risk, source, source movement, target, expected target movement)
DEMO_CHANNELS: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("tf1", "trade_fragmentation", "tariffs", "increase", "real_gdp", "decrease"),
    ("tf2", "trade_fragmentation", "geopolitical_risk", "increase", "equity_prices", "decrease"),
    ("tf3", "trade_fragmentation", "tariffs", "increase", "inflation", "increase"),
    ("tf4", "trade_fragmentation", "tariffs", "increase", "unemployment", "increase"),
    ("pc1", "property_correction", "long_term_rate", "increase", "house_prices", "decrease"),
    ("pc2", "property_correction", "house_prices", "decrease", "real_gdp", "decrease"),
    ("pc3", "property_correction", "house_prices", "decrease", "unemployment", "increase"),
    ("mi1", "market_illiquidity", "market_liquidity", "decrease", "equity_prices", "decrease"),
    ("mi2", "market_illiquidity", "market_liquidity", "decrease", "long_term_rate", "increase"),
)


def channel_query(
    risk: str,
    source_var: str,
    source_movement: str,
    target_var: str,
    target_movement: str,
    *,
    max_len: int | None = None,
    top_k: int | None = None,
    feedback_loop: bool = False,
    vocab: Vocabulary | None = None,
) -> ChannelQuery:
    """A ChannelQuery whose endpoints are checked against the vocabulary."""
    vocab = vocab or load_vocabulary()
    for var in (source_var, target_var):
        if var not in vocab:
            raise InputError(
                f"channel query variable {var!r} is not in the vocabulary",
                where=f"risk {risk}",
                fix="run `aieco vocab` for the variable ids",
            )
    for mv in (source_movement, target_movement):
        if mv not in {m.value for m in Movement}:
            raise InputError(
                f"movement {mv!r} is neither increase nor decrease",
                where=f"risk {risk}",
                fix="use 'increase' or 'decrease'",
            )
    s = get_settings().graph
    return ChannelQuery.create(
        risk=risk,
        source_var=source_var,
        source_movement=source_movement,
        target_var=target_var,
        target_movement=target_movement,
        max_len=max_len or s.max_path_length,
        top_k=top_k or s.top_paths,
        feedback_loop=feedback_loop,
    )


def demo_channel_queries(risk: str | None = None) -> list[ChannelQuery]:
    """The demo's registered channel queries (all risks, or one)."""
    return [channel_query(r, sv, sm, tv, tm) for _, r, sv, sm, tv, tm in DEMO_CHANNELS if risk in (None, r)]


def registration_digest(queries: Sequence[ChannelQuery]) -> str:
    """Digest of the registered queries (order-independent), recorded in every Derivation."""
    return digest(sorted((q.model_dump(mode="json") for q in queries), key=lambda d: d["query_id"]))
