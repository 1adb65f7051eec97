"""Merge ranks: the order in which merges apply, read from a list of merges or from a vocabulary
given as ranks, and each merge recovered from the ranks alone.

A tiktoken file lists each token with its rank, which is also its id; it does not store the
merges. Encoding needs only the order of the merged (multi-byte) tokens; which two tokens made
each one can be found when asked for (a GPT-2 export, a merge tree), as Hugging Face's converter
(``transformers``' ``TikTokenConverter``) finds them:

- :func:`derive_merges` gives one merge per token, the player's list: the two parts tiktoken's own rule
  leaves when it encodes the token's bytes with only the merges ranked below it. A few tokens of the
  open models' vocabularies (Llama 3's ``b'.:.:'``, added on top of cl100k) cannot be made so; each
  still gets a merge, the first of its splits in :func:`all_split_merges`' order.
- :func:`all_split_merges` lists what the converter writes into a ``tokenizer.json``: *every* split of
  each token into two tokens, ordered by the token's rank, then the left part's id, then the right's.
  With ``ignore_merges`` (a pre-token that is a token is kept whole) Hugging Face's pair-by-pair BPE
  then merges whatever tiktoken would, so it encodes as tiktoken does on vocabularies that are not
  the output of one BPE run (Llama 3, Qwen).

>>> ranks = merge_ranks_from_token_ranks({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4})
>>> ranks, derive_merges(ranks)
({b'ab': 0, b'abc': 1}, [(b'a', b'b'), (b'ab', b'c')])
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from typing import Protocol

NO_RANK = 1 << 30
"""Above every merge rank: "this pair does not merge" wherever ranks are compared as integers (the
one-piece loop, the byte batch's keys). A vocabulary needs fewer merges than this."""


def merge_ranks_from_merges(merges: list[tuple[bytes, bytes]], vocabulary: Container[bytes]) -> dict[bytes, int]:
    """The rank of the merge that makes each token (the first, if two make the same token); a merge
    that uses or makes a token not in the vocabulary is a ValueError.

    >>> merge_ranks_from_merges([(b"a", b"b"), (b"ab", b"c")], {b"a", b"b", b"c", b"ab", b"abc"})
    {b'ab': 0, b'abc': 1}
    """
    merge_rank: dict[bytes, int] = {}
    for rank, (left, right) in enumerate(merges):
        for part in (left, right):
            if part not in vocabulary:
                raise ValueError(f"merge {rank} ({left!r}, {right!r}) uses {part!r}, which is not in the vocab")
        merged = left + right
        if merged not in vocabulary:
            raise ValueError(f"merge {rank} ({left!r}, {right!r}) makes {merged!r}, which is not in the vocab")
        merge_rank.setdefault(merged, rank)
    return merge_rank


def merge_ranks_from_token_ranks(token_ranks: Mapping[bytes, int]) -> dict[bytes, int]:
    """Each multi-byte token's merge rank: its place among the multi-byte tokens, by their ranks."""
    multi_byte = {token: rank for token, rank in token_ranks.items() if len(token) > 1}
    ordered = sorted(multi_byte, key=multi_byte.__getitem__)  # ranks are distinct: no ties to break
    return dict(zip(ordered, range(len(ordered))))


def derive_merges(merge_rank: Mapping[bytes, int]) -> list[tuple[bytes, bytes]]:
    """Recover each token's merge from ranks alone (see :func:`merge_parts`), in rank order.

    >>> derive_merges({b"ab": 0, b"ba": 1, b"abab": 2})  # abab: bpe below it leaves ab, ab
    [(b'a', b'b'), (b'b', b'a'), (b'ab', b'ab')]
    >>> derive_merges({b"abc": 0, b"ab": 1})  # abc comes first: bpe below it leaves a, b, c; a split anyway
    [(b'ab', b'c'), (b'a', b'b')]
    """
    ordered = sorted(merge_rank.items(), key=lambda item: item[1])
    return [merge_parts(token, rank, merge_rank.get) for token, rank in ordered]


def all_split_merges(merge_rank: Mapping[bytes, int], token_id: Mapping[bytes, int]) -> list[tuple[bytes, bytes]]:
    """Every split of every merged token into two tokens, as Hugging Face's ``TikTokenConverter`` lists
    them: grouped by the token's merge rank, within a token by the left part's id, then the right's.

    ``token_id`` holds every regular token (single bytes too); for a tiktoken vocabulary ids are ranks,
    so this is the converter's order exactly.

    >>> ids = {b"a": 0, b"b": 1, b"ab": 2, b"ba": 3, b"aba": 4}
    >>> all_split_merges({b"ab": 0, b"ba": 1, b"aba": 2}, ids)
    [(b'a', b'b'), (b'b', b'a'), (b'a', b'ba'), (b'ab', b'a')]
    """
    found: list[tuple[int, int, int, bytes, bytes]] = []
    for token, rank in merge_rank.items():
        for cut in range(1, len(token)):
            left, right = token[:cut], token[cut:]
            left_id, right_id = token_id.get(left), token_id.get(right)
            if left_id is not None and right_id is not None:
                found.append((rank, left_id, right_id, left, right))
    found.sort(key=lambda entry: entry[:3])
    return [(left, right) for _, _, _, left, right in found]


def merge_parts(token: bytes, rank: int, rank_of: Callable[[bytes], int | None]) -> tuple[bytes, bytes]:
    """The two tokens whose merge made ``token`` (merge rank ``rank``; ``rank_of`` gives any token's).

    Found by BPE-encoding the token with only the merges ranked below its own: for a proper BPE
    vocabulary that leaves exactly two parts, the pair that made it. A token that cannot be made so
    (tokens added to a vocabulary after its BPE run) gets the split of it into two tokens whose parts
    come first: the left part's rank (single bytes before every merged token), then the right's, as
    Hugging Face's converter orders them. A token with no split into two tokens gets its first BPE part
    and the rest, which is no token (:func:`unmade_by_merges`).

    >>> ranks = {b"ab": 0, b"abc": 1}
    >>> merge_parts(b"abc", 1, ranks.get)
    (b'ab', b'c')
    """

    if len(token) == 2:  # its one pair is itself, not below its own rank
        return token[:1], token[1:]
    parts = parts_below(token, rank, rank_of)
    if len(parts) == 2:
        return parts[0], parts[1]
    splits = []
    for cut in range(1, len(token)):
        left, right = token[:cut], token[cut:]
        left_rank = -1 if len(left) == 1 else rank_of(left)
        right_rank = -1 if len(right) == 1 else rank_of(right)
        if left_rank is not None and right_rank is not None:
            splits.append(((left_rank, left, right_rank, right), (left, right)))
    if not splits:  # no merge can make it: it is only ever a pre-token kept whole (see unmade_by_merges)
        return parts[0], b"".join(parts[1:])
    return min(splits)[1]


class RankLookup(Protocol):
    """What :func:`merge_loop` asks ranks of: ``get(pair, NO_RANK)``, as a dict of merge ranks answers."""

    def get(self, pair: bytes, default: int, /) -> int: ...


def merge_loop(merge_rank: RankLookup, parts: list[bytes]) -> list[bytes]:
    """tiktoken's loop from any state of a piece (its parts so far, changed in place and returned): the lowest rank
    first, the leftmost of equal ones (one token can be a pair twice: abab), as
    :func:`~bpe_core.encoding.educational.bpe`; each adjacent pair's rank is kept, and after a merge only the two
    pairs that touch the new part are ranked again. The rule's state is only the parts, so a piece that the byte
    batch leaves half merged is finished here exactly.

    >>> merge_loop({b"ab": 0, b"abc": 1, b"cd": 2}, [b"ab", b"c", b"d"])  # "ab" merged already
    [b'abc', b'd']
    """
    ranks = [merge_rank.get(left + right, NO_RANK) for left, right in zip(parts, parts[1:])]
    while ranks:
        lowest = min(ranks)
        if lowest == NO_RANK:
            break
        index = ranks.index(lowest)
        parts[index : index + 2] = [parts[index] + parts[index + 1]]
        del ranks[index]
        if index < len(ranks):
            ranks[index] = merge_rank.get(parts[index] + parts[index + 1], NO_RANK)
        if index > 0:
            ranks[index - 1] = merge_rank.get(parts[index - 1] + parts[index], NO_RANK)
    return parts


class _RanksBelow:
    """The ranks of ``rank_of`` below ``ceiling``; the others do not merge."""

    def __init__(self, rank_of: Callable[[bytes], int | None], ceiling: int):
        self._rank_of, self._ceiling = rank_of, ceiling

    def get(self, pair: bytes, default: int, /) -> int:
        found = self._rank_of(pair)
        return found if found is not None and found < self._ceiling else default


def parts_below(token: bytes, ceiling: int, rank_of: Callable[[bytes], int | None]) -> list[bytes]:
    """``token``'s bytes after :func:`merge_loop` with only the merges ranked below ``ceiling`` (``rank_of`` gives
    any token's rank, None for none). It looks up only the pairs beside each merge, where the educational loop looks
    every pair up after every merge (deriving Llama 3's 127,744 merges: 2.11 -> 1.3 CPU-s).

    >>> ranks = {b"aa": 0, b"ab": 1, b"aab": 2}
    >>> parts_below(b"aaab", 3, ranks.get), parts_below(b"aaab", 1, ranks.get)
    ([b'aa', b'ab'], [b'aa', b'a', b'b'])
    >>> parts_below(b"abc", 1, {b"ab": 0, b"abc": 1}.get)
    [b'ab', b'c']
    """
    return merge_loop(_RanksBelow(rank_of, ceiling), [token[i : i + 1] for i in range(len(token))])


def unmade_by_merges(merges: Iterable[tuple[bytes, bytes]], tokens: Container[bytes]) -> list[bytes]:
    """The tokens whose merge in ``merges`` joins something that is not a token: no merge can make them.

    Qwen 3.6 has 83 (Chinese phrases such as 毛泽东 given whole): tiktoken emits one only when a pre-token
    is exactly it. :func:`merge_parts` still gives each a pair (its bytes' first BPE part and the rest), so
    that ``merges[k]`` stays the merge of rank ``k``; formats that rebuild tokens from merges refuse them.

    >>> unmade_by_merges(derive_merges({b"abc": 0}), {b"a", b"b", b"c", b"abc"})
    [b'abc']
    """
    return [left + right for left, right in merges if left not in tokens or right not in tokens]
