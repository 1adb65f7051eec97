"""The two short trainers the Merges page shows beside its player: real code, held to ``bpe_core`` by tests.

Each is the whole algorithm in about 25 lines, written to be read: count every adjacent pair, take the most
frequent (a tie goes by the rule, :data:`RULES`), merge it in every word, record it. ``bpe_core.train`` and
``train_classic`` make the same merges, only faster (tests/test_code_view.py holds them to it).

A comment is written once in English and once in Chinese, split by `` ‖ ``: the page shows the session's
language (:mod:`.code_view`). The lines the view points at are found by the words they hold, so these functions
can be edited freely as long as those lines keep their words (``code_view.STEPS``).

>>> train_classic({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 3, "first")[0]
(('e', 's'), 9, [('e', 's'), ('s', 't'), ('t', '</w>')])
"""

from __future__ import annotations

from bpe_core.training.ties import gpt2_byte_order

Pair = tuple[bytes, bytes]
RULES = {
    "greatest": lambda tied, ids: max(tied),  # the greatest pair (CS336) ‖ 字典序最大的符号对（CS336）
    "smallest": lambda tied, ids: min(tied),  # the smallest pair ‖ 字典序最小的符号对
    "first": lambda tied, ids: tied[0],  # the first seen (minbpe, Sennrich) ‖ 最先出现的（minbpe、Sennrich）
    "hf": lambda tied, ids: min(tied, key=lambda pair: (ids[pair[0]], ids[pair[1]])),  # smallest ids (HF) ‖ id 最小
}


def byte_ids() -> dict[bytes, int]:
    """The bytes' ids in Hugging Face's order (GPT-2's printable characters first): the ``"hf"`` rule's key."""
    order = gpt2_byte_order()
    return {bytes([b]): order[b] for b in range(256)}


def train(words: dict[bytes, int], n_merges: int, rule: str = "greatest") -> list[tuple[Pair, int, list[Pair]]]:
    # words: each pre-token's count, in the order first seen ‖ 每个预分词的次数，按首次出现的顺序
    splits = {word: [bytes([b]) for b in word] for word in words}  # start from bytes ‖ 从单个字节开始
    ids, merges = byte_ids(), []
    for _ in range(n_merges):
        counts: dict[Pair, int] = {}  # count every adjacent pair ‖ 统计每个相邻的符号对
        for word, n in words.items():
            symbols = splits[word]
            for pair in zip(symbols, symbols[1:]):
                counts[pair] = counts.get(pair, 0) + n
        if not counts:
            break  # no pair left to merge ‖ 没有可合并的符号对了
        top = max(counts.values())  # the highest count ‖ 最高的出现次数
        tied = [pair for pair, n in counts.items() if n == top]  # every pair with it ‖ 所有达到它的符号对
        best = tied[0] if len(tied) == 1 else RULES[rule](tied, ids)  # a tie goes by the rule ‖ 平局按规则决定
        merges.append((best, top, tied))  # record the merge ‖ 记录这次合并
        new = best[0] + best[1]
        ids.setdefault(new, len(ids))
        for symbols in splits.values():  # merge it in every word ‖ 在每个词中合并它
            i = 0
            while i < len(symbols) - 1:
                if (symbols[i], symbols[i + 1]) == best:
                    symbols[i : i + 2] = [new]
                i += 1
    return merges


def train_classic(words: dict[str, int], n_merges: int, rule: str = "greatest") -> list[tuple]:
    # words: each word (split on whitespace) and its count ‖ 每个词（按空白切分）的次数
    splits = {word: [*word, "</w>"] for word in words}  # characters, then </w> ‖ 字符，再加词尾 </w>
    alphabet = sorted({c for word in words for c in word}) + ["</w>"]
    ids, merges = {symbol: i for i, symbol in enumerate(alphabet)}, []
    for _ in range(n_merges):
        counts: dict[tuple[str, str], int] = {}  # count every adjacent pair ‖ 统计每个相邻的符号对
        for word, n in words.items():
            symbols = splits[word]
            for pair in zip(symbols, symbols[1:]):
                counts[pair] = counts.get(pair, 0) + n
        if not counts:
            break  # no pair left to merge ‖ 没有可合并的符号对了
        top = max(counts.values())  # the highest count ‖ 最高的出现次数
        tied = [pair for pair, n in counts.items() if n == top]  # every pair with it ‖ 所有达到它的符号对
        best = tied[0] if len(tied) == 1 else RULES[rule](tied, ids)  # a tie goes by the rule ‖ 平局按规则决定
        merges.append((best, top, tied))  # record the merge ‖ 记录这次合并
        new = best[0] + best[1]
        ids.setdefault(new, len(ids))
        for symbols in splits.values():  # merge it in every word ‖ 在每个词中合并它
            i = 0
            while i < len(symbols) - 1:
                if (symbols[i], symbols[i + 1]) == best:
                    symbols[i : i + 2] = [new]
                i += 1
    return merges
