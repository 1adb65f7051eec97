"""The extended :class:`~bpe_core.Tokenizer`: the base's ids, merges and specials, the new ones after."""

from __future__ import annotations

from collections.abc import Mapping

from ...encoding.tokenizer import Tokenizer
from ..shape import MergeRecord


def extended_tokenizer(
    base: Tokenizer, trace: list[MergeRecord], specials: Mapping[str, int] | None = None
) -> Tokenizer:
    """The base with the new tokens and merges appended (its pattern, specials and normalization kept),
    and the new ``specials``.

    A base whose merges rank in the order of its ids (tiktoken ranks, ours) stays ranks-based, so its
    merges are never derived; any other gets its merges listed with the new ones after."""
    new = {record.new_id: record.token for record in trace}
    ranks = base.mergeable_ranks
    merge_rank = base.merge_ranks
    by_id = sorted((token for token in ranks if token in merge_rank), key=ranks.__getitem__)
    ranks_based = len(ranks) + len(base.special_tokens) == len(base.vocab) and all(
        merge_rank[token] == rank for rank, token in enumerate(by_id)
    )
    if ranks_based:
        tokenizer = Tokenizer.from_ranks(
            ranks | {token: identifier for identifier, token in new.items()},
            base.special_tokens | dict(specials or {}),
            base.pattern,
            name=base.name,
            normalization=base.normalization,
        )
    else:
        merges = base.merges + [(record.left, record.right) for record in trace]
        tokenizer = Tokenizer(
            base.vocab | new,
            merges,
            base.special_tokens | dict(specials or {}),
            base.pattern,
            name=base.name,
            normalization=base.normalization,
        )
    tokenizer.pattern_source = base.pattern_source
    return tokenizer
