"""Superword tokens: SuperBPE (Liu, Hayase et al. 2025, arXiv 2503.13423), as a variant of ``train``.

Two stages, one run of merges (one trace, ranks 0, 1, 2, ... across both):

1. Up to ``transition`` merges exactly as ``train`` makes them, inside GPT-2 pre-tokens (subwords).
2. The text is cut into *chunks* by :data:`SUPERWORD_PATTERN`, which keeps several words together,
   and merging goes on inside the chunks (superwords such as `` by the way``).

Training and encoding agree by construction. The tokenizer is an ordinary :class:`Tokenizer`
whose pattern is :data:`SUPERWORD_PATTERN`: it merges by rank inside each chunk, so every
stage-1 merge applies before any stage-2 merge. Stage 2 therefore starts from each chunk as stage
1's merges encode it *by the encoder's rule* (lowest rank first, leftmost; a chunk that is a token
is that token), not from the stage-1 pre-tokens: inside a chunk a stage-1 merge may apply across
a former pre-token boundary, and encoding will apply it too (GPT-2 cuts ``"a\\n\\nb"`` into ``"a"``,
``"\\n"``, ``"\\n"``, ``"b"`` but ``"a\\n\\n\\nb"`` into ``"a"``, ``"\\n\\n"``, ``"\\n"``, ``"b"``; once stage 1
has learned ``"\\n"`` + ``"\\n"``, the chunk ``"a\\n\\nb"`` starts stage 2 as ``"a"``, ``"\\n\\n"``, ``"b"``).

SuperBPE's rules, as in the authors' code (``scripts/extend_tokenizer.sh`` of PythonNut/superbpe
and the trainer of alisawuffles/tokenizers-superbpe, commit a27d8bf):

- Chunks: the split regex below isolates numbers, runs of two or more punctuation characters (with
  trailing newlines or slashes) and runs of spaces before other whitespace or the end; the text
  between those matches is one chunk. So superwords may hold single punctuation and newlines
  (``".\\nThe"``), never a number or a punctuation run.
- A merge is never chosen if its token would hold more than ``max_words`` words (4 in SuperBPE),
  counting words as the non-empty pieces between spaces (``b" by the way"``: 3; ``"a\\nb"``: 1),
  or if it would hold ``": "`` (their special case for a colon followed by a space).

Differences, all deliberate: SuperBPE isolates numbers as ``\\p{N}{1,3}`` because its stage 1
splits digits in groups of three; our stage 1 is GPT-2's, so a number chunk is a GPT-2 number
pre-token (`` ?\\p{N}++``) and stage 1's number tokens stay usable. The paper's first version
isolated only digits (no punctuation or space rule); we follow the authors' current scripts.
SuperBPE starts stage 2 by replaying the stage-1 merges pair by pair (Hugging Face's encoder);
we use our encoder's rule, tiktoken's, which ranks a join by the bytes it makes: the two differ
only where one token can be made from two different pairs, or a chunk is itself a token.

>>> result = train_superword("by the way 1 by the way 2 " * 10, 269, transition=10)
>>> result.merges[10:]  # stage 2
[(b' the', b' way'), (b' by', b' the way'), (b'by', b' the way')]
>>> tokenizer = result.tokenizer
>>> [tokenizer.decode([i]) for i in tokenizer.encode("so by the way")]
['s', 'o', ' by the way']
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise

# Everything this module needs from the engine, in one place.
from ..encoding.lifetimes import PERMANENT, merge_lifetimes
from ..pretokenize import pretokenize
from ..pretokenize.superword import SUPERWORD_PATTERN
from .byte_level import TrainResult, check_settings, count_special_tokens, train, train_counts
from .counting import count_text
from .merge_engine import PAIR_SHIFT, MergeEngine
from .shape import ProgressCallback, Reporter
from .word_engine import WordEngine

STAGE1_PATTERN = "gpt2"
"""Stage 1 pre-tokenizes as ``train`` does by default."""
MAX_WORDS = 4
COLON_SPACE = b": "

_RIGHT_MASK = (1 << PAIR_SHIFT) - 1


def words_in(token: bytes) -> int:
    """SuperBPE's word count: the non-empty pieces between spaces.

    >>> words_in(b" by the way"), words_in(b"way, by"), words_in(b"  "), words_in(b"a\\nb")
    (3, 2, 0, 1)
    """
    return sum(1 for piece in token.split(b" ") if piece)


def superword_allowed(token: bytes, max_words: int = MAX_WORDS) -> bool:
    """Whether stage 2 may make this token (at most ``max_words`` words, no ``": "``).

    >>> superword_allowed(b" by the way"), superword_allowed(b"note: the"), superword_allowed(b"a b c", 2)
    (True, False, False)
    """
    return COLON_SPACE not in token and words_in(token) <= max_words


class _CappedWordEngine(WordEngine):
    """A WordEngine whose queue never holds a pair that ``superword_allowed`` refuses, so such a pair
    is never chosen (SuperBPE drops it when it surfaces; the outcome is the same). Its count is
    still kept: it costs nothing and a refused pair stays refused."""

    def __init__(self, words: Iterable[tuple[Sequence[int], int]], symbols: Sequence[bytes], max_words: int):
        self._max_words = max_words
        self._allowed: dict[int, bool] = {}
        super().__init__(words, symbols)

    def _is_allowed(self, pair: int) -> bool:
        allowed = self._allowed.get(pair)
        if allowed is None:
            token = self.symbol_bytes[pair >> PAIR_SHIFT] + self.symbol_bytes[pair & _RIGHT_MASK]
            allowed = self._allowed[pair] = superword_allowed(token, self._max_words)
        return allowed

    # The only two ways into the queue.
    def _start_queue(self) -> None:
        super()._start_queue()
        self._heap = [entry for entry in self._heap if self._is_allowed(entry[3])]
        heapq.heapify(self._heap)

    def _push(self, pairs: Iterable[int]) -> None:
        super()._push([pair for pair in pairs if self._is_allowed(pair)])


class _TwoStageEngine(MergeEngine):
    """Stage 1's engine until ``transition`` merges (or no pair is left), then stage 2's: the
    chunks as stage 1's merges encode them, in a capped engine. Symbol ids run on across both."""

    def __init__(
        self,
        words: Iterable[tuple[bytes, int]],
        symbols: Sequence[bytes],
        chunks: Mapping[str, int],
        transition: int,
        max_words: int,
    ):
        super().__init__(symbols)
        self._active: MergeEngine = WordEngine(words, symbols)
        self._chunks, self._transition, self._max_words = chunks, transition, max_words
        self._merges: list[tuple[bytes, bytes]] = []
        self.stage1_merges: int | None = None
        """How many merges stage 1 made; None until stage 2 starts."""
        self.stage2_start_seconds = 0.0

    def best(self, runners_up: int = 0) -> tuple[tuple[int, int, int], list[tuple[int, int, int]]] | None:
        if self.stage1_merges is None:
            found = self._active.best(runners_up) if len(self._merges) < self._transition else None
            if found is not None:
                return found
            self._start_stage2()
        return self._active.best(runners_up)

    def merge(self, a: int, b: int) -> tuple[int, int]:
        new, replaced = self._active.merge(a, b)
        self._merges.append((self.symbol_bytes[a], self.symbol_bytes[b]))
        self._new_symbol(a, b)  # the same id: both engines append one symbol per merge
        return new, replaced

    def _start_stage2(self) -> None:
        started = time.perf_counter()
        self.stage1_merges = len(self._merges)
        encode = _ChunkEncoder(self.symbol_bytes, self._merges).encode
        encoded = ((encode(chunk), count) for chunk, count in self._chunks.items())
        self._active = _CappedWordEngine(encoded, self.symbol_bytes, self._max_words)
        self.stage2_start_seconds = time.perf_counter() - started


class _ChunkEncoder:
    """A chunk's ids with stage 1's merges, by the encoder's rule: the final tokenizer's.

    The same ids as a ``Tokenizer`` of these merges given the whole chunk as one piece, but faster
    (docs10m, 5 MB: 1.8 s, not 5.3 s), since most of a chunk's work repeats: a merge makes a
    token of the two parts it joins, so it never joins across a boundary whose two bytes stand
    together in no token. Cut there (between GPT-2 pre-tokens, where that is nearly always so),
    a chunk's parts are merged alone, each distinct part once; only the whole chunk may be
    emitted whole as a token (tiktoken's shortcut), never a part.
    """

    def __init__(self, symbols: Sequence[bytes], merges: Sequence[tuple[bytes, bytes]]):
        self._id: dict[bytes, int] = {}
        for identifier, symbol in enumerate(symbols):
            self._id.setdefault(symbol, identifier)
        self._rank: dict[bytes, int] = {}
        for rank, (left, right) in enumerate(merges):
            self._rank.setdefault(left + right, rank)
        self._inside = {token[i : i + 2] for token in self._rank for i in range(len(token) - 1)}
        self._parts: dict[bytes, list[int]] = {}

    def encode(self, chunk: str) -> list[int]:
        whole = self._id.get(chunk.encode("utf-8"))
        if whole is not None:
            return [whole]
        ids: list[int] = []
        part = b""
        for pretoken in pretokenize(chunk, STAGE1_PATTERN):
            data = pretoken.encode("utf-8")
            if part and part[-1:] + data[:1] not in self._inside:
                ids += self._encode_part(part)
                part = b""
            part += data
        return ids + self._encode_part(part)

    def _encode_part(self, part: bytes) -> list[int]:
        ids = self._parts.get(part)
        if ids is None:
            rank = self._rank
            lifetimes = merge_lifetimes(len(part), lambda start, _middle, stop: rank.get(part[start:stop]))
            cuts = [0, *(index + 1 for index, lifetime in enumerate(lifetimes) if lifetime == PERMANENT), len(part)]
            ids = self._parts[part] = [self._id[part[start:stop]] for start, stop in pairwise(cuts)]
        return ids


def train_superword(
    text: str,
    vocab_size: int,
    *,
    transition: int,
    max_words: int = MAX_WORDS,
    special_tokens: Iterable[str] = (),
    progress: ProgressCallback | None = None,
) -> TrainResult:
    """Train a superword (SuperBPE) tokenizer: ``transition`` merges in GPT-2 pre-tokens, the rest
    in :data:`SUPERWORD_PATTERN` chunks, no token over ``max_words`` words (see the module docstring).

    ``vocab_size``, ``special_tokens`` and ``progress`` are as in ``train``. ``settings`` records
    ``kind`` ("superword"), ``transition``, ``stage1_merges`` (fewer when stage 1 ran out of pairs),
    ``max_words`` and ``stage1_pattern``; ``pretoken_counts`` are the stage-2 chunks. With
    ``transition`` at or above the merges the vocab allows, stage 2 never starts and the result is
    ``train``'s (pattern "gpt2").

    >>> train_superword("a b a b", 258, transition=1).merges
    [(b' ', b'b'), (b'a', b' b')]
    """
    started = time.perf_counter()
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    specials, n_merges = check_settings(vocab_size, special_tokens, STAGE1_PATTERN)
    for name, value, least in (("transition", transition, 0), ("max_words", max_words, 1)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if value < least:
            raise ValueError(f"{name} must be at least {least}, got {value}")
    extra = {"kind": "superword", "transition": transition, "max_words": max_words, "stage1_pattern": STAGE1_PATTERN}
    if transition >= n_merges:
        result = train(text, vocab_size, special_tokens=specials, pattern=STAGE1_PATTERN, progress=progress)
        result.settings.update(extra, stage1_merges=len(result.trace))
        return result

    report = Reporter(progress, 2 + n_merges)
    words = count_text(text, STAGE1_PATTERN, specials)
    report(1)
    chunks = count_text(text, SUPERWORD_PATTERN, specials)
    report(2)
    engines: list[_TwoStageEngine] = []

    def two_stages(stage1_words: Iterable[tuple[bytes, int]], symbols: list[bytes]) -> MergeEngine:
        engines.append(_TwoStageEngine(stage1_words, symbols, chunks, transition, max_words))
        return engines[0]

    result = train_counts(
        words,
        vocab_size,
        special_tokens=specials,
        pattern=SUPERWORD_PATTERN,
        progress=lambda done: report(2 + done),
        started=started,
        engine_factory=two_stages,
    )
    engine = engines[0]  # stage 2 has started: transition < n_merges
    result.settings.update(extra, stage1_merges=engine.stage1_merges)
    result.timings["stage2_start"] = engine.stage2_start_seconds
    # The tokenizer's pre-tokens are the chunks: what counts of the training text are made of.
    result.pretoken_counts, result.pretoken_count, result.unique_pretokens = chunks, sum(chunks.values()), len(chunks)
    result.special_token_count = count_special_tokens(text, specials)
    return result
