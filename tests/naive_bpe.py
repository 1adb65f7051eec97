"""A deliberately naive BPE trainer, written the way the source documents explain it.

Every round recounts every adjacent pair in every word, picks the most frequent (ties: the
greatest pair by bytes), and rewrites every word. It shares no code with bpe_core beyond the
regex strings, which is the point: the fast trainer must agree with it merge for merge.
"""

from __future__ import annotations

from collections import Counter

import regex


def naive_pretokens(text: str, pattern: str | None, special_tokens: list[str]) -> Counter[str]:
    if special_tokens:
        alternation = "|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True))
        pieces = regex.split(alternation, text)
    else:
        pieces = [text]
    counts: Counter[str] = Counter()
    for piece in pieces:
        if not piece:
            continue
        counts.update([piece] if pattern is None else regex.findall(pattern, piece))
    return counts


def naive_merge_loop(words: Counter, n_merges: int, tie_key=lambda pair: pair) -> list[tuple]:
    """Recount every pair, merge the best everywhere, repeat. Ties: the greatest tie_key(pair)."""
    merges = []
    for _ in range(n_merges):
        pairs = naive_pair_counts(words)
        if not pairs:
            break
        best = max(pairs, key=lambda pair: (pairs[pair], tie_key(pair)))
        merges.append(best)
        words = naive_merge_pair(words, best)
    return merges


def naive_pair_counts(words: Counter) -> Counter:
    """Every adjacent pair's count, recounted from scratch."""
    pairs: Counter = Counter()
    for word, count in words.items():
        for pair in zip(word, word[1:]):
            pairs[pair] += count
    return pairs


def naive_merge_pair(words: Counter, best: tuple) -> Counter:
    """Every word with each occurrence of the pair best merged, left to right."""
    rewritten: Counter = Counter()
    for word, count in words.items():
        out, i = [], 0
        while i < len(word):
            if i + 1 < len(word) and (word[i], word[i + 1]) == best:
                out.append(word[i] + word[i + 1])
                i += 2
            else:
                out.append(word[i])
                i += 1
        rewritten[tuple(out)] += count
    return rewritten


def naive_train(
    text: str, n_merges: int, pattern: str | None, special_tokens: list[str] = ()
) -> list[tuple[bytes, bytes]]:
    words: Counter = Counter()
    for word, count in naive_pretokens(text, pattern, list(special_tokens)).items():
        words[tuple(bytes([b]) for b in word.encode("utf-8"))] += count
    return naive_merge_loop(words, n_merges)


def naive_encode(text: str, merges: list[tuple[bytes, bytes]], pattern: str | None) -> list[bytes]:
    """Apply merges in rank order, pair by pair, to each pre-token (the minbpe way)."""
    rank = {pair: r for r, pair in enumerate(merges)}
    tokens = []
    for piece in [text] if pattern is None else regex.findall(pattern, text):
        tokens.extend(naive_apply_merges([bytes([b]) for b in piece.encode("utf-8")], rank))
    return tokens


def naive_encode_classic(text: str, merges: list[tuple[str, str]]) -> list[list[str]]:
    """Sennrich's encoding: each word's characters + '</w>', merges applied in rank order."""
    rank = {pair: r for r, pair in enumerate(merges)}
    return [naive_apply_merges([*word, "</w>"], rank) for word in text.split()]


def naive_apply_merges(parts: list, rank: dict[tuple, int]) -> list:
    """Merge the lowest-ranked adjacent pair (leftmost among equals) until none has a rank."""
    parts = list(parts)
    while len(parts) > 1:
        ranked = [(rank.get(pair, float("inf")), i) for i, pair in enumerate(zip(parts, parts[1:]))]
        best, i = min(ranked)
        if best == float("inf"):
            break
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return parts


def naive_train_classic(text: str, n_merges: int) -> list[tuple[str, str]]:
    """Sennrich et al.'s loop on words of characters + '</w>' (ties: greatest pair by UTF-8 bytes)."""
    words = Counter(tuple(word) + ("</w>",) for word in text.split())
    return naive_merge_loop(words, n_merges, lambda pair: (pair[0].encode(), pair[1].encode()))
