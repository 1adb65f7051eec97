"""Classic BPE (Sennrich, Haddow and Birch 2016) written plainly, with the end-of-word mark as its own atom.

A word is its characters followed by END, an atom that is not a string, so text that happens to
read "</w>" is four ordinary characters. A symbol is the tuple of atoms it spans. Training
recounts every adjacent pair in every word each round and merges the most frequent everywhere,
left to right (ties: the greatest pair, comparing symbols as UTF-8 text with END shown as
"</w>", then the pair whose symbols were made first, as bpe_core breaks them). Encoding
merges the lowest-ranked adjacent pair, leftmost first.
Shares no code with bpe_core.
"""

from __future__ import annotations

from collections import Counter

END = object()


def shown(symbol: tuple) -> str:
    return "".join("</w>" if atom is END else atom for atom in symbol)


def sennrich_train(text: str, n_merges: int) -> list[tuple[tuple, tuple]]:
    words = Counter(tuple((character,) for character in word) + ((END,),) for word in text.split())
    # When two symbols read the same ("</w>" the mark, "</w>" the text), the older one wins a tie.
    made = {(character,): order for order, character in enumerate(sorted(set(text) - set(" \t\n\r\x0b\x0c")))}
    made[(END,)] = len(made)
    merges = []
    for _ in range(n_merges):
        pairs: Counter = Counter()
        for word, count in words.items():
            for pair in zip(word, word[1:]):
                pairs[pair] += count
        if not pairs:
            break
        best = max(pairs, key=lambda pair, pairs=pairs: preference(pair, pairs[pair], made))
        merges.append(best)
        made.setdefault(best[0] + best[1], len(made))
        words = Counter({merge_everywhere(word, best): count for word, count in words.items()})
    return merges


def preference(pair: tuple, count: int, made: dict) -> tuple:
    left, right = pair
    return count, shown(left).encode(), shown(right).encode(), -made[left], -made[right]


def merge_everywhere(word: tuple, pair: tuple) -> tuple:
    out, i = [], 0
    while i < len(word):
        if word[i : i + 2] == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def sennrich_encode(text: str, merges: list[tuple[tuple, tuple]]) -> list[list[str]]:
    """Each word's symbols, shown as text."""
    rank = {pair: r for r, pair in enumerate(merges)}
    encoded = []
    for word in text.split():
        parts = [(character,) for character in word] + [(END,)]
        while len(parts) > 1:
            ranked = [(rank.get(pair, float("inf")), i) for i, pair in enumerate(zip(parts, parts[1:]))]
            best, i = min(ranked)
            if best == float("inf"):
                break
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        encoded.append([shown(part) for part in parts])
    return encoded
