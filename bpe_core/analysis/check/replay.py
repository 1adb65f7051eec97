"""Hypotheses about how a learner's trainer works, each replayed on the learner's own merges.

A :class:`Hypothesis` is one way to train (a tie rule, a pre-tokenization pattern, special tokens
split out or not, pairs counted with or without overlap, words weighted by their counts or not).
:func:`reproduced` replays the learner's merges under it: before each merge it asks which pair the
hypothesis would merge next, then applies the learner's merge (whatever it predicted), so every round
starts from the learner's own state.
It returns how many of the learner's merges in a row the hypothesis predicts, and what it saw at
one round of interest (the first that differs from the project's training).

>>> from bpe_core.analysis.check.replay import Hypothesis, reproduced
>>> hypothesis = Hypothesis("tie:first", "tie-break", "first", pattern="gpt2")
>>> reproduced(hypothesis, "ab ba", [(b"a", b"b"), (b" ", b"b"), (b" b", b"a")], (), watch=0).agreed
3
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...pretokenize import count_pretokens, split_on_special
from ...training.merge_engine import MergeEngine, SymbolKey, greatest_key
from ...training.ties import FirstSeenQueue, engine_factory_for, gpt2_byte_order, hf_key, smallest_key
from ...training.word_engine import WordEngine

END_OF_WORD = b"</w>"
SPLIT_PATTERN = r"\S+"
"""The pattern that stands for ``text.split()``: words without their whitespace."""
WINDOW = 200
"""How many merges past the round of interest a hypothesis is held to (more says little more)."""


@dataclass(frozen=True)
class Hypothesis:
    """One way a trainer may work; ``cause`` is what the check reports when it explains the learner's merges."""

    name: str
    cause: str
    tie_break: str
    pattern: str | None = "gpt2"
    split_specials: bool = True
    overlapping: bool = True
    classic: bool = False
    weighted: bool = True
    """False: each distinct word counts once, however often the text holds it (a word's count left out)."""


@dataclass
class Seen:
    """What a hypothesis saw at the round of interest, before the learner's merge there."""

    predicted: tuple[bytes, bytes, int] | None
    """The pair it would merge, with its count."""
    learner_count: int
    """How often the learner's pair occurs under this hypothesis's counting."""
    other_count: int = 0
    """How often the other pair asked about (bpe_core's choice) occurs under this counting."""
    top: list[tuple[bytes, bytes, int]] = field(default_factory=list)
    """The leading pairs in this hypothesis's order (the project's hypothesis fills it)."""
    ties: list[tuple[bytes, bytes, int]] = field(default_factory=list)
    """Every pair with the top count, in this hypothesis's order (the project's hypothesis fills it)."""


@dataclass
class Outcome:
    agreed: int
    """How many of the learner's merges in a row, from the first, this hypothesis predicts."""
    seen: Seen | None


class Replay:
    """An engine under a hypothesis, driven by the learner's merges (given as bytes)."""

    def __init__(self, hypothesis: Hypothesis, text: str, special_tokens: tuple[str, ...]):
        self.hypothesis = hypothesis
        if hypothesis.classic:
            words = Counter(text.split())
            characters = sorted({character for word in words for character in word})
            symbols = [*(c.encode("utf-8") for c in characters), END_OF_WORD]
            index = {character: n for n, character in enumerate(characters)}
            sequences: list[tuple[Sequence[int], int]] = [
                ([index[c] for c in word] + [len(characters)], count if hypothesis.weighted else 1)
                for word, count in words.items()
            ]
            base_rank: list[int] = list(range(len(symbols)))
        else:
            specials = list(special_tokens) if hypothesis.split_specials else []
            if hypothesis.pattern == SPLIT_PATTERN:  # text.split(): the whitespace is dropped, no pattern does that
                pieces = (piece for piece, special in split_on_special(text, specials) if not special)
                counts = Counter(word for piece in pieces for word in piece.split())
            else:
                counts = count_pretokens(text, hypothesis.pattern, specials)
            symbols = [bytes([byte]) for byte in range(256)]
            sequences = [  # bytes: the fast path
                (word.encode("utf-8"), count if hypothesis.weighted else 1) for word, count in counts.items()
            ]
            base_rank = gpt2_byte_order()
        # Without pre-tokenization each piece is one long sequence: the positional layout, unless pairs are
        # counted without overlap, which reads words (the word layout is exact there too, if slower).
        positional = hypothesis.pattern is None and hypothesis.overlapping and not hypothesis.classic
        factory = engine_factory_for(hypothesis.tie_break, positional, base_rank)
        self.engine: MergeEngine = factory(sequences, symbols)
        self.ids: dict[bytes, list[int]] = {}
        rule_key: SymbolKey = {"greatest": greatest_key, "smallest": smallest_key}.get(
            hypothesis.tie_break, hf_key(base_rank)
        )
        self._key_of = rule_key
        self._keys: list[tuple[int, ...]] = []
        for identifier, symbol in enumerate(symbols):
            self._register(identifier, symbol)
        self._doubles = {a for _, a, b in self.engine.live_pairs() if a == b}

    def _register(self, identifier: int, symbol: bytes) -> None:
        self.ids.setdefault(symbol, []).append(identifier)
        self._keys.append(self._key_of(identifier, symbol))

    def pair_ids(self, left: bytes, right: bytes) -> tuple[int, int] | None:
        """The symbols the pair stands for now: of those with these bytes, the pair that occurs most."""
        best: tuple[int, int, int] | None = None
        for a in self.ids.get(left, ()):
            for b in self.ids.get(right, ()):
                count = self.engine.pair_count(a, b)
                if count > 0 and (best is None or count > best[0]):
                    best = (count, a, b)
        return None if best is None else (best[1], best[2])

    def apply(self, left: bytes, right: bytes) -> bool:
        """Merge the learner's pair; False when it does not occur in this hypothesis's text at all."""
        pair = self.pair_ids(left, right)
        if pair is None:
            return False
        new, _ = self.engine.merge(*pair)
        self._register(new, self.engine.symbol_bytes[new])
        if self.engine.pair_count(new, new):
            self._doubles.add(new)
        return True

    def count(self, left: bytes, right: bytes) -> int:
        pair = self.pair_ids(left, right)
        return 0 if pair is None else self._count(*pair)

    def _count(self, a: int, b: int) -> int:
        if self.hypothesis.overlapping or a != b:
            return self.engine.pair_count(a, b)
        return non_overlapping_count(self.engine, a)

    def preference(self, a: int, b: int) -> tuple:
        """Smaller is preferred among pairs of equal count, under this hypothesis's tie rule."""
        if isinstance(self.engine, FirstSeenQueue):
            return (self.engine.first_position(a, b),)
        return (self._keys[a], self._keys[b])

    def ranked(self, limit: int) -> list[tuple[int, int, int]]:
        """The leading ``limit`` pairs in this hypothesis's order, as (count, left id, right id)."""
        best = self.engine.best(limit if self.hypothesis.overlapping else limit + len(self._doubles))
        if best is None:
            return []
        entries = [best[0], *best[1]]
        if not self.hypothesis.overlapping:  # only (x, x) counts change, and only downwards
            entries = [entry for entry in entries if entry[1] != entry[2]]
            entries += [(non_overlapping_count(self.engine, x), x, x) for x in self._doubles]
            entries = [entry for entry in entries if entry[0] > 0]
            entries.sort(key=lambda entry: (-entry[0], self.preference(entry[1], entry[2])))
        return entries[:limit]

    def shown(self, entry: tuple[int, int, int]) -> tuple[bytes, bytes, int]:
        symbols = self.engine.symbol_bytes
        return symbols[entry[1]], symbols[entry[2]], entry[0]

    def ties(self, count: int) -> list[tuple[bytes, bytes, int]]:
        """Every pair that occurs ``count`` times, in this hypothesis's order."""
        tied = [(c, a, b) for c, a, b in self.engine.live_pairs() if c == count]
        tied.sort(key=lambda entry: self.preference(entry[1], entry[2]))
        return [self.shown(entry) for entry in tied]


def non_overlapping_count(engine: MergeEngine, x: int) -> int:
    """How often (x, x) occurs counted without overlap: a run of n x's holds n // 2, not n - 1."""
    if not isinstance(engine, WordEngine):
        raise TypeError("non-overlapping counts need the word layout")
    total = 0
    for word, weight in engine.words_holding(x, x):
        run = 0
        for symbol in [*word, -1]:
            if symbol == x:
                run += 1
            else:
                total += weight * (run // 2)
                run = 0
    return total


def reproduced(
    hypothesis: Hypothesis,
    text: str,
    merges: list[tuple[bytes, bytes]],
    special_tokens: tuple[str, ...],
    *,
    watch: int,
    details: bool = False,
    other: tuple[bytes, bytes] | None = None,
) -> Outcome:
    """Replay ``merges`` under ``hypothesis``: how many it predicts in a row, and what it saw at round
    ``watch`` (reached even past an earlier miss, so that every rule's choice there can be shown)."""
    replay = Replay(hypothesis, text, special_tokens)
    seen: Seen | None = None
    agreed: int | None = None
    for rank in range(min(len(merges), watch + WINDOW)):
        left, right = merges[rank]
        top = replay.ranked(10 if details and rank == watch else 1)
        predicted = replay.shown(top[0]) if top else None
        if rank == watch:
            seen = Seen(predicted, replay.count(left, right), replay.count(*other) if other else 0)
            if details and predicted is not None:
                seen.top = [replay.shown(entry) for entry in top]
                seen.ties = replay.ties(predicted[2]) if hypothesis.overlapping else []
        if agreed is None and (predicted is None or predicted[:2] != (left, right)):
            agreed = rank
        if (agreed is not None and rank >= watch) or not replay.apply(left, right):
            return Outcome(rank if agreed is None else agreed, seen)
    return Outcome(min(len(merges), watch + WINDOW) if agreed is None else agreed, seen)
