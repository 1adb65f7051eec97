"""Naive trainers for each tie rule, written the way the tutorials write them (no code shared with bpe_core).

- ``minbpe_train``: minbpe's loop: every chunk of the text in order, a fresh dict of pair counts
  each round filled by walking the chunks, ``max(stats, key=stats.get)`` (the first pair seen wins a tie).
- ``paper_train_classic``: the loop printed in Sennrich et al. (2016): a dict of space-separated
  words with ``</w>``, ``max(pairs, key=pairs.get)``, ``re`` to merge.
- ``chosen_train``: recount every pair each round and let ``choose(pairs)`` pick (the smallest pair,
  Hugging Face's ids, ...).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import regex


def pieces(text: str, pattern: str | None, specials: list[str]) -> list[str]:
    """The text's chunks in order, special tokens removed."""
    parts = [text]
    if specials:
        parts = regex.split("|".join(regex.escape(s) for s in sorted(specials, key=len, reverse=True)), text)
    out: list[str] = []
    for part in parts:
        if part:
            out.extend([part] if pattern is None else regex.findall(pattern, part))
    return out


def minbpe_train(text: str, n_merges: int, pattern: str | None, specials: list[str] = ()) -> list:
    ids = [list(chunk.encode("utf-8")) for chunk in pieces(text, pattern, list(specials))]
    vocab = {i: bytes([i]) for i in range(256)}
    merges = []
    for i in range(n_merges):
        stats: dict = {}
        for chunk in ids:
            for pair in zip(chunk, chunk[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats:
            break
        pair = max(stats, key=stats.get)
        new = 256 + i
        ids = [replace(chunk, pair, new) for chunk in ids]
        vocab[new] = vocab[pair[0]] + vocab[pair[1]]
        merges.append((vocab[pair[0]], vocab[pair[1]]))
    return merges


def replace(chunk: list, pair: tuple, new: object) -> list:
    out, i = [], 0
    while i < len(chunk):
        if i + 1 < len(chunk) and (chunk[i], chunk[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(chunk[i])
            i += 1
    return out


def paper_train_classic(text: str, n_merges: int) -> list[tuple[str, str]]:
    vocab = {}
    for word in text.split():
        key = " ".join(word) + " </w>"
        vocab[key] = vocab.get(key, 0) + 1
    merges = []
    for _ in range(n_merges):
        pairs: dict = {}
        for word, freq in vocab.items():
            symbols = word.split()
            for i in range(len(symbols) - 1):
                pairs[symbols[i], symbols[i + 1]] = pairs.get((symbols[i], symbols[i + 1]), 0) + freq
        if not pairs:
            break
        best = max(pairs, key=pairs.get)
        bigram = re.compile(r"(?<!\S)" + re.escape(" ".join(best)) + r"(?!\S)")
        vocab = {bigram.sub("".join(best), word): freq for word, freq in vocab.items()}
        merges.append(best)
    return merges


def chosen_train(words: Counter, n_merges: int, choose: Callable[[Counter, list], tuple]) -> list[tuple]:
    """``words``: tuples of symbols with counts; ``choose(pairs, merges so far)`` picks the pair to merge."""
    merges: list[tuple] = []
    for _ in range(n_merges):
        pairs: Counter = Counter()
        for word, count in words.items():
            for pair in zip(word, word[1:]):
                pairs[pair] += count
        if not pairs:
            break
        best = choose(pairs, merges)
        merges.append(best)
        words = Counter({tuple(replace(list(word), best, best[0] + best[1])): n for word, n in words.items()})
    return merges


def gpt2_alphabet() -> dict[int, str]:
    """GPT-2's byte -> printable character: printable Latin-1 bytes stand for themselves, the rest
    are moved to U+0100 onwards, in byte order."""
    keep = [b for b in range(256) if (33 <= b <= 126) or (161 <= b <= 172) or (174 <= b <= 255)]
    table = {b: chr(b) for b in keep}
    moved = [b for b in range(256) if b not in table]
    table.update({b: chr(256 + n) for n, b in enumerate(moved)})
    return table


def hf_choice(base_id: Callable[[object], int]) -> Callable[[Counter, list], tuple]:
    """Hugging Face's rule: highest count, then the smallest (left id, right id); a merged symbol's
    id is after every base symbol, in the order merges first made it."""

    def choose(pairs: Counter, merges: list) -> tuple:
        made: dict = {}
        for left, right in merges:
            made.setdefault(left + right, len(made))

        def ident(symbol: object) -> int:
            return 10**7 + made[symbol] if symbol in made else base_id(symbol)

        return min(pairs, key=lambda p: (-pairs[p], ident(p[0]), ident(p[1])))

    return choose
