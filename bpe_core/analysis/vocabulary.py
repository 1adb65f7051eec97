"""What a vocabulary holds, for the Compare page's vocabulary explorer: one row per token (its merge
round, the pair count when it was merged, how often a text uses it), the length histogram, and the
tokens that were learned but are never emitted (a token's merge tree: :mod:`.merge_tree`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..encoding.tokenizer import Tokenizer

__all__ = ["TokenInfo", "length_histogram", "never_emitted", "token_usage", "vocabulary_rows"]


def token_usage(tokenizer: Tokenizer, text: str) -> Counter[int]:
    """How often each token id is emitted when encoding text with the full vocabulary.

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> sorted(token_usage(tokenizer, "aaabdaaabac").items())
    [(97, 1), (99, 1), (100, 1), (258, 2)]
    """
    return Counter(tokenizer.encode(text))


def never_emitted(tokenizer: Tokenizer, text: str, usage: Counter[int] | None = None) -> list[int]:
    """Ids of learned tokens (made by a merge) that encoding text never emits, in merge order.

    A token can be learned yet never emitted: it was only a step towards longer tokens, which
    then replaced it everywhere.

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> never_emitted(tokenizer, "aaabdaaabac")
    [256, 257]
    """
    if usage is None:
        usage = token_usage(tokenizer, text)
    ids = tokenizer.mergeable_ranks
    learned = sorted((rank, ids[token]) for token, rank in tokenizer.merge_ranks.items())
    return [identifier for _, identifier in learned if not usage.get(identifier)]


def length_histogram(tokenizer: Tokenizer, *, learned_only: bool = True) -> Counter[int]:
    """Token length in bytes -> how many tokens have it (learned tokens only, by default).

    >>> import bpe_core
    >>> length_histogram(bpe_core.train("aaabdaaabac", 259).tokenizer)
    Counter({2: 1, 3: 1, 4: 1})
    """
    return Counter(
        len(token) for token in tokenizer.mergeable_ranks if not learned_only or tokenizer.merge_rank(token) is not None
    )


@dataclass(frozen=True)
class TokenInfo:
    """One row of the vocabulary explorer."""

    id: int
    token: bytes
    length: int
    merge_rank: int | None  # rank of the merge that made it; None for single bytes and specials
    count_when_merged: int | None  # pair count in the round it was merged (training trace), if known
    used: int  # how often encoding the text emits it
    special: bool = False


def vocabulary_rows(
    tokenizer: Tokenizer,
    usage: Counter[int] | None = None,
    trace: Sequence | None = None,
    *,
    counts: Sequence[int] | None = None,
) -> list[TokenInfo]:
    """Every token, in id order, with its merge round, count when merged and use count.

    ``trace`` is a training trace (``TrainResult.trace``): record r gives the count of merge r; or give those
    counts alone (``counts[r]``), as an app that keeps its trace packed does.

    >>> import bpe_core
    >>> result = bpe_core.train("aaabdaaabac", 259)
    >>> row = vocabulary_rows(result.tokenizer, Counter({258: 2}), result.trace)[258]
    >>> (row.token, row.merge_rank, row.count_when_merged, row.used)
    (b'aaab', 2, 2, 2)
    """
    usage = usage or Counter()
    by_rank = dict(enumerate(counts)) if counts is not None else {record.rank: record.count for record in trace or ()}
    special_ids = set(tokenizer.special_tokens.values())
    rows = []
    for identifier, token in sorted(tokenizer.vocab.items()):
        special = identifier in special_ids
        rank = None if special else tokenizer.merge_rank(token)
        rows.append(
            TokenInfo(
                id=identifier,
                token=token,
                length=len(token),
                merge_rank=rank,
                count_when_merged=by_rank.get(rank) if rank is not None else None,
                used=usage.get(identifier, 0),
                special=special,
            )
        )
    return rows
