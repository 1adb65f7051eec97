"""BPE trainers the way tutorials write them: short, naive (every pair recounted each round), one
correct and the others with one classic bug each. They share no code with bpe_core; the check
(``bpe_core.analysis.check``) must find the first merge where a buggy one parts from the correct
one, and name the bug.

- ``tie="first"``: ``max(stats, key=stats.get)`` over a dict filled in text order (minbpe);
- ``overlapping=False``: a pair counted like ``str.count``, without overlap ("aaa" holds one "aa");
- ``split_specials=False``: special tokens left in the text as ordinary characters;
- ``pattern=None`` / ``pattern=r"\\S+"``: no pre-tokenization / ``text.split()``'s words;
- ``update_counts=False``: counts made once and then only added to: a merge adds its new pairs but
  never takes away the pairs it destroyed;
- ``weighted=False``: each distinct word's pairs counted once, the word's count forgotten.
"""

from __future__ import annotations

from collections import Counter

import regex

GPT2 = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
ENDOFTEXT = "<|endoftext|>"


def words_of(text: str, specials: list[str], pattern: str | None, split_specials: bool) -> Counter:
    pieces = [text]
    if specials and split_specials:
        pieces = regex.split("|".join(regex.escape(s) for s in specials), text)
    words: Counter = Counter()
    for piece in pieces:
        for chunk in [piece] if pattern is None else regex.findall(pattern, piece):
            if chunk:
                words[tuple(bytes([b]) for b in chunk.encode("utf-8"))] += 1
    return words


def count_pairs(words: Counter, overlapping: bool, weighted: bool = True) -> dict:
    stats: dict = {}
    for word, count in words.items():
        n = count if weighted else 1
        ends: dict = {}  # pair -> where its last counted occurrence ended (non-overlapping counting)
        for i in range(len(word) - 1):
            pair = (word[i], word[i + 1])
            if not overlapping and ends.get(pair, -1) > i:
                continue
            stats[pair] = stats.get(pair, 0) + n
            ends[pair] = i + 2
    return stats


def merge_word(word: tuple, pair: tuple) -> tuple:
    out, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def merge_word_from_the_right(word: tuple, pair: tuple) -> tuple:
    """A learner's bug: occurrences replaced from the right ('aaa' with (a, a) becomes 'a aa')."""
    out, i = [], len(word) - 1
    while i >= 0:
        if i > 0 and (word[i - 1], word[i]) == pair:
            out.append(word[i - 1] + word[i])
            i -= 2
        else:
            out.append(word[i])
            i -= 1
    return tuple(reversed(out))


def tutorial_train(
    text: str,
    n_merges: int,
    specials: list[str] = (ENDOFTEXT,),
    *,
    pattern: str | None = GPT2,
    tie: str = "greatest",
    split_specials: bool = True,
    overlapping: bool = True,
    update_counts: bool = True,
    weighted: bool = True,
    from_the_right: bool = False,
) -> list[tuple[bytes, bytes]]:
    words = words_of(text, list(specials), pattern, split_specials)
    merges: list[tuple[bytes, bytes]] = []
    stats = count_pairs(words, overlapping, weighted)
    for _ in range(n_merges):
        if update_counts:
            stats = count_pairs(words, overlapping, weighted)
        stats = {pair: n for pair, n in stats.items() if n > 0}
        if not stats:
            break
        if tie == "first":
            best = max(stats, key=stats.get)
        else:
            best = max(stats, key=lambda pair: (stats[pair], pair))
        merges.append(best)
        if not update_counts:  # the bug: only the new pairs are counted
            del stats[best]
            new = best[0] + best[1]
            for word, n in words.items():
                merged = merge_word(word, best)
                for left, right in zip(merged, merged[1:]):
                    if new in (left, right):
                        stats[left, right] = stats.get((left, right), 0) + n
        merge = merge_word_from_the_right if from_the_right else merge_word
        words = Counter({merge(word, best): n for word, n in words.items()})
    return merges
