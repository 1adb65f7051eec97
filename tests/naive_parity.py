"""A deliberately naive parity-aware BPE trainer (arXiv 2508.04796), written from the description.

Every round: recount every language's tokens and every pair, order the languages with text from
worst to best compressed (most tokens per byte, or most tokens; ties: the order given), take the
first that has a pair, merge its most frequent pair (ties: the greatest pair by bytes) in every
language. It shares no code with bpe_core; pre-tokens come from naive_bpe.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from naive_bpe import naive_merge_pair, naive_pretokens


def naive_train_parity(
    texts: dict[str, str], n_merges: int, pattern: str | None, special_tokens=(), measure: str = "tokens_per_byte"
) -> tuple[list[tuple[bytes, bytes]], list[str], dict[str, list[int]]]:
    """The merges, the language chosen for each, and each language's token count after each merge."""
    words: dict[str, Counter] = {}
    for language, text in texts.items():
        words[language] = Counter()
        for pretoken, count in naive_pretokens(text, pattern, list(special_tokens)).items():
            words[language][tuple(bytes([b]) for b in pretoken.encode("utf-8"))] += count
    sizes = {language: sum(len(w) * c for w, c in counted.items()) for language, counted in words.items()}

    def tokens(language: str) -> int:
        return sum(len(word) * count for word, count in words[language].items())

    history = {language: [tokens(language)] for language in texts}
    merges, chosen = [], []
    for _ in range(n_merges):
        cost = {
            language: Fraction(tokens(language), sizes[language]) if measure == "tokens_per_byte" else tokens(language)
            for language in texts
            if sizes[language]
        }
        order = sorted(cost, key=lambda language: -cost[language])
        best = None
        for language in order:
            pairs: Counter = Counter()
            for word, count in words[language].items():
                for pair in zip(word, word[1:]):
                    pairs[pair] += count
            if pairs:
                best = max(pairs, key=lambda pair: (pairs[pair], pair))
                chosen.append(language)
                break
        if best is None:
            break
        merges.append(best)
        for language in texts:
            words[language] = naive_merge_pair(words[language], best)
            history[language].append(tokens(language))
    return merges, chosen, history
