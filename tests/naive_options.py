"""Naive references for the trainers' options and for extending a tokenizer, written plainly: every
round recounts every pair in every word and merges the best everywhere, left to right.

- ``naive_train_options``: byte-level training with ``min_frequency`` (stop when the best pair is
  rarer) and ``max_token_length`` (pairs longer than that in bytes are passed over);
- ``naive_classic_options``: classic training with those and a limited alphabet (the most frequent
  characters; a character left out splits its word, as encoding's ``<unk>`` does);
- ``naive_extend``: a base tokenizer's own encoding of each pre-token (by the educational rule,
  not the fast paths), then new merges, never one that makes a token the vocabulary has.

They share no code with bpe_core's trainers (the base's tables are read through its public API).
"""

from __future__ import annotations

from collections import Counter

from naive_bpe import naive_merge_pair, naive_pretokens
from naive_sennrich import END, merge_everywhere, preference

from bpe_core.encoding.educational import SimpleTokenizer


def naive_loop(words: Counter, n_merges: int, min_frequency: int, allowed) -> list[tuple]:
    """Merge the most frequent allowed pair (ties: the greatest) until n_merges, none left, or too rare."""
    merges: list[tuple] = []
    while len(merges) < n_merges:
        pairs: Counter = Counter()
        for word, count in words.items():
            for pair in zip(word, word[1:]):
                pairs[pair] += count
        candidates = [(count, pair) for pair, count in pairs.items() if allowed(pair)]
        if not candidates:
            break
        count, best = max(candidates)
        if count < min_frequency:
            break
        merges.append(best)
        words = naive_merge_pair(words, best)
    return merges


def naive_train_options(
    text: str, n_merges: int, pattern: str | None, min_frequency: int = 0, max_token_length: int | None = None
) -> list[tuple[bytes, bytes]]:
    words: Counter = Counter()
    for word, count in naive_pretokens(text, pattern, []).items():
        words[tuple(bytes([b]) for b in word.encode("utf-8"))] += count
    limit = max_token_length or float("inf")
    return naive_loop(words, n_merges, min_frequency, lambda pair: len(pair[0]) + len(pair[1]) <= limit)


def naive_alphabet(text: str, limit: int | None, initial: str = "") -> list[str]:
    """The limit most frequent characters (initial ones first; equal counts: smaller code point)."""
    counts = Counter(character for word in text.split() for character in word)
    ranked = sorted(set(counts) | set(initial), key=lambda c: (c not in initial, -counts[c], ord(c)))
    return sorted(ranked[:limit] if limit is not None else ranked)


def naive_classic_options(
    text: str,
    n_merges: int,
    *,
    min_frequency: int = 0,
    max_token_length: int | None = None,
    limit_alphabet: int | None = None,
    initial_alphabet: str = "",
) -> list[tuple[tuple, tuple]]:
    alphabet = naive_alphabet(text, limit_alphabet, initial_alphabet)
    words: Counter = Counter()
    for word in text.split():
        run: list[tuple] = []
        for character in word:
            if character in alphabet:
                run.append((character,))
            else:  # an unknown character: no pair spans it
                words[tuple(run)] += 1
                run = []
        words[(*run, (END,))] += 1
    made = {(character,): order for order, character in enumerate(alphabet)}
    made[(END,)] = len(made)
    limit = max_token_length or float("inf")

    def length(symbol: tuple) -> int:
        return sum(atom is not END for atom in symbol)

    merges: list[tuple[tuple, tuple]] = []
    while len(merges) < n_merges:
        pairs: Counter = Counter()
        for word, count in words.items():
            for pair in zip(word, word[1:]):
                pairs[pair] += count
        pairs = Counter({pair: count for pair, count in pairs.items() if length(pair[0]) + length(pair[1]) <= limit})
        if not pairs:
            break
        best = max(pairs, key=lambda pair, pairs=pairs: preference(pair, pairs[pair], made))
        if pairs[best] < min_frequency:
            break
        merges.append(best)
        made.setdefault(best[0] + best[1], len(made))
        words = Counter({merge_everywhere(word, best): count for word, count in words.items()})
    return merges


def naive_extend(
    base, documents: list[str], n_merges: int, min_frequency: int = 0, max_token_length: int | None = None
) -> list[tuple[bytes, bytes]]:
    simple = SimpleTokenizer.of(base)
    vocab = base.vocab
    words: Counter = Counter()
    for document in documents:
        for piece, count in naive_pretokens(document, base.pattern_regex, list(base.special_tokens)).items():
            words[tuple(vocab[i] for i in simple.encode_pretoken(piece.encode("utf-8")))] += count
    known = set(base.mergeable_ranks)
    limit = max_token_length or float("inf")

    def allowed(pair: tuple) -> bool:
        return pair[0] + pair[1] not in known and len(pair[0]) + len(pair[1]) <= limit

    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < n_merges:  # one merge at a time: each made token is known from then on
        found = naive_loop(words, 1, min_frequency, allowed)
        if not found:
            break
        merges.extend(found)
        known.add(found[0][0] + found[0][1])
        words = naive_merge_pair(words, found[0])
    return merges
