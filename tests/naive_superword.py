"""A deliberately naive two-stage (SuperBPE) trainer, written from the description, not from bpe_core.

Stage 1 is naive_bpe's trainer on GPT-2 pre-tokens. Stage 2 cuts the text the way Hugging Face's
``Split(behavior="isolated")`` does (each match of the split regex, and each stretch between two
matches), encodes each chunk with the stage-1 merges by tiktoken's rule (a chunk that is a token
stays whole; else the adjacent pair whose concatenation has the lowest rank, leftmost, until
none), then recounts every pair every round, skipping pairs whose token would hold more than
max_words space-separated words or ": ". Its split regex is typed out again on purpose.
"""

from __future__ import annotations

from collections import Counter

import regex
from naive_bpe import naive_merge_pair, naive_train

from bpe_core.pretokenize import GPT2_PATTERN as GPT2  # the regex strings are all it shares

SPLIT = r" ?\p{N}++| ?[^\s\p{L}\p{N}]{2,}[\r\n/]*| +(?!\S)"


def naive_chunks(text: str, special_tokens: list[str] = ()) -> list[str]:
    """The text's stage-2 chunks in order: split matches and the gaps between them."""
    pieces = [text]
    if special_tokens:
        alternation = "|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True))
        pieces = regex.split(alternation, text)
    chunks = []
    for piece in pieces:
        position = 0
        for match in regex.finditer(SPLIT, piece):
            if match.start() > position:
                chunks.append(piece[position : match.start()])
            chunks.append(match.group())
            position = match.end()
        if position < len(piece):
            chunks.append(piece[position:])
    return chunks


def naive_tiktoken_encode(data: bytes, merges: list[tuple[bytes, bytes]]) -> list[bytes]:
    rank: dict[bytes, int] = {}
    for r, (left, right) in enumerate(merges):
        rank.setdefault(left + right, r)
    if len(data) == 1 or data in rank:
        return [data]
    parts = [data[i : i + 1] for i in range(len(data))]
    while True:
        ranked = [(rank.get(a + b, float("inf")), i) for i, (a, b) in enumerate(zip(parts, parts[1:]))]
        if not ranked or min(ranked)[0] == float("inf"):
            return parts
        _, i = min(ranked)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]


def words(token: bytes) -> int:
    return len([piece for piece in token.split(b" ") if piece])


def naive_train_superword(
    text: str, n_merges: int, transition: int, max_words: int = 4, special_tokens: list[str] = ()
) -> tuple[list[tuple[bytes, bytes]], int]:
    """The merges of both stages, and how many stage 1 made."""
    stage1 = naive_train(text, min(transition, n_merges), GPT2, list(special_tokens))
    if transition >= n_merges:
        return stage1, len(stage1)
    sequences: Counter = Counter()
    for chunk in naive_chunks(text, list(special_tokens)):
        sequences[tuple(naive_tiktoken_encode(chunk.encode("utf-8"), stage1))] += 1
    merges = list(stage1)
    while len(merges) < n_merges:
        pairs: Counter = Counter()
        for sequence, count in sequences.items():
            for pair in zip(sequence, sequence[1:]):
                token = pair[0] + pair[1]
                if words(token) <= max_words and b": " not in token:
                    pairs[pair] += count
        if not pairs:
            break
        best = max(pairs, key=lambda pair: (pairs[pair], pair))
        merges.append(best)
        sequences = naive_merge_pair(sequences, best)
    return merges, len(stage1)
