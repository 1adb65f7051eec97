"""Parity-aware BPE (Foroutan, Meister et al. 2025, arXiv 2508.04796), as a variant of ``train``.

Training sees several texts, one per language. Each round it takes the language that is
*compressed worst* right now and merges that language's most frequent pair (ties: the greatest
pair by bytes, as everywhere in this engine), in every language's text. So no language is left
behind: the paper's "fair-max" rule, their ``base`` variant.

How "compressed worst" is measured (``measure``):

- ``"tokens_per_byte"`` (default, for any texts): the most tokens per byte of the language's own
  training text. This is the paper's ``--ratio`` mode with every ratio 1: compression rate =
  initial length / current length, and the lowest rate is chosen; our initial length is the
  text's bytes, since training starts from bytes.
- ``"tokens"`` (for parallel texts, the same content in each language): the most tokens, the
  paper's rule on its multi-parallel development set (here the training texts themselves).

Compared exactly (integers, no floats). Ties between languages go to the one listed first (the
paper's code takes the first of equal ones too). A language with no text (no bytes outside
special tokens) is never chosen. When the worst language has no pair left, the next worst that
has one is taken (the paper's code stops training there instead); training stops when no
language has a pair left. With one language this is exactly ``train``.

Each language has its own engine (``WordEngine``); the chosen pair is merged in all of them, and each
merge's replaced occurrences keep every language's token count exact. The trace's ``count``,
``replaced`` and runner-up ``candidates`` are those of the chosen language.

>>> result = train_parity({"en": "the cat the hat " * 3, "de": "der Hut " * 3}, 260)
>>> result.chosen_languages  # both start at 1 token per byte: the first listed goes first
['en', 'de', 'en', 'de']
>>> result.merges
[(b't', b'h'), (b'u', b't'), (b'th', b'e'), (b'e', b'r')]
>>> result.token_counts
{'en': [48, 42, 42, 36, 36], 'de': [24, 24, 21, 21, 18]}
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Literal

from .byte_level import TrainResult, check_settings, count_special_tokens, train_counts

# Everything this module needs from the engine, in one place.
from .counting import count_text
from .merge_engine import MergeEngine, PositionEngine
from .shape import ProgressCallback, Reporter
from .word_engine import WordEngine

Measure = Literal["tokens_per_byte", "tokens"]
MEASURES: tuple[Measure, ...] = ("tokens_per_byte", "tokens")


@dataclass
class ParityResult(TrainResult):
    """``train``'s result, with each language's compression over training."""

    languages: tuple[str, ...] = ()
    """The languages, in the order given (which breaks ties between them)."""
    chosen_languages: list[str] = field(default_factory=list, repr=False)
    """The language whose pair each merge was, by rank."""
    token_counts: dict[str, list[int]] = field(default_factory=dict, repr=False)
    """Each language's token count after k merges, for k = 0 .. number of merges."""
    byte_counts: dict[str, int] = field(default_factory=dict)
    """Each language's bytes (outside special tokens): its token count before any merge."""
    measure: Measure = "tokens_per_byte"

    def tokens_per_byte(self, language: str, merges: int | None = None) -> float:
        """The language's tokens per byte after ``merges`` merges (default: all of them)."""
        counts = self.token_counts[language]
        tokens = counts[-1 if merges is None else merges]
        return tokens / self.byte_counts[language] if self.byte_counts[language] else 0.0


class _ParityEngine(MergeEngine):
    """One WordEngine per language behind the one-engine face ``run_merges`` expects."""

    def __init__(
        self, pretokens: Mapping[str, Mapping[str, int]], symbols: Sequence[bytes], measure: Measure, positional: bool
    ):
        super().__init__(symbols)
        self.measure = measure
        # As in train_counts: a whole text as one piece (no pattern) wants the positional layout.
        engine_class = PositionEngine if positional else WordEngine
        self.engines: dict[str, MergeEngine] = {}
        self.byte_counts: dict[str, int] = {}
        for language, counts in pretokens.items():
            words = [(pretoken.encode("utf-8"), count) for pretoken, count in counts.items()]
            self.engines[language] = engine_class(words, symbols)
            self.byte_counts[language] = sum(len(word) * count for word, count in words)
        self.tokens = dict(self.byte_counts)
        self.token_counts: dict[str, list[int]] = {language: [tokens] for language, tokens in self.tokens.items()}
        self.chosen: list[str] = []
        self._choice: str | None = None

    def worst_first(self) -> list[str]:
        """The languages with text, worst compressed first (ties: in the order given)."""
        with_text = [language for language, size in self.byte_counts.items() if size]
        if self.measure == "tokens":
            return sorted(with_text, key=lambda language: -self.tokens[language])
        return sorted(with_text, key=lambda language: -Fraction(self.tokens[language], self.byte_counts[language]))

    def best(self, runners_up: int = 0) -> tuple[tuple[int, int, int], list[tuple[int, int, int]]] | None:
        for language in self.worst_first():
            found = self.engines[language].best(runners_up)
            if found is not None:
                self._choice = language
                return found
        return None

    def merge(self, a: int, b: int) -> tuple[int, int]:
        assert self._choice is not None, "merge() follows best()"
        chosen_replaced = 0
        for language, engine in self.engines.items():
            new, replaced = engine.merge(a, b)
            self.tokens[language] -= replaced
            self.token_counts[language].append(self.tokens[language])
            if language == self._choice:
                chosen_replaced = replaced
        self.chosen.append(self._choice)
        return self._new_symbol(a, b), chosen_replaced  # the same id as every language's engine


def train_parity(
    texts: Mapping[str, str],
    vocab_size: int,
    *,
    measure: Measure = "tokens_per_byte",
    special_tokens: Iterable[str] = (),
    pattern: str | None = "gpt2",
    progress: ProgressCallback | None = None,
) -> ParityResult:
    """Train a byte-level BPE tokenizer on ``{language: text}``, each round for the language that is
    compressed worst (see the module docstring for ``measure``).

    The tokenizer is an ordinary ``Tokenizer`` (ids: bytes, 256 + rank, special tokens last);
    ``vocab_size``, ``special_tokens``, ``pattern`` and ``progress`` are as in ``train``.

    >>> train_parity({"a": "ab ab", "b": ""}, 257).chosen_languages
    ['a']
    """
    started = time.perf_counter()
    if not isinstance(texts, Mapping) or not texts:
        raise ValueError("texts must be a non-empty mapping of language -> text")
    for language, text in texts.items():
        if not isinstance(language, str) or not isinstance(text, str):
            raise TypeError(
                f"texts must map language names (str) to texts (str), got {language!r}: {type(text).__name__}"
            )
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, not {measure!r}")
    specials, n_merges = check_settings(vocab_size, special_tokens, pattern)
    report = Reporter(progress, len(texts) + n_merges)
    pretokens: dict[str, Mapping[str, int]] = {}
    for done, (language, text) in enumerate(texts.items(), 1):
        pretokens[language] = count_text(text, pattern, specials)
        report(done)
    merged: dict[str, int] = {}
    for counts in pretokens.values():
        for pretoken, count in counts.items():
            merged[pretoken] = merged.get(pretoken, 0) + count
    engines: list[_ParityEngine] = []

    def per_language(_words: Iterable[tuple[bytes, int]], symbols: list[bytes]) -> MergeEngine:
        engines.append(_ParityEngine(pretokens, symbols, measure, positional=pattern is None))
        return engines[0]

    result = train_counts(
        merged,
        vocab_size,
        special_tokens=specials,
        pattern=pattern,
        progress=lambda done: report(len(texts) + done),
        started=started,
        engine_factory=per_language,
    )
    result.special_token_count = sum(count_special_tokens(text, specials) for text in texts.values())
    result.settings.update(kind="parity", measure=measure, languages=list(texts))
    engine = engines[0]
    return ParityResult(
        **{item.name: getattr(result, item.name) for item in fields(TrainResult)},
        languages=tuple(texts),
        chosen_languages=engine.chosen,
        token_counts=engine.token_counts,
        byte_counts=engine.byte_counts,
        measure=measure,
    )
