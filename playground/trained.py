"""What a training run gives (:class:`Trained`) for what it is asked (:class:`Request`, ``playground.request``).

No Streamlit here: :func:`train_job` runs in a worker process (``runtime.jobs``), so this module must
import quickly and everything it returns must pickle.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import bpe_core
from bpe_core.training.superword import MAX_WORDS, train_superword
from playground.bases import base_tokenizer, extend_text, is_file
from playground.heldout_texts import parallel_texts, split_corpus
from playground.i18n import t
from playground.kinds import kind_of
from playground.packed_trace import PackedTrace
from playground.request import TIE_TAGS, Request, options_tag

__all__ = ["TIE_TAGS", "Request", "Trained", "options_tag", "stop_reason_text", "train_job", "train_parts"]

STATS_SAMPLE_BYTES = 256 * 1024
"""Bytes per token is measured on (at most) this much of the corpus."""
PARITY_MEASURE: Final = "tokens"
"""Parity-aware training on a parallel corpus: each merge goes to the language with the most tokens for the same
content (``bpe_core.train_parity``'s rule on parallel texts)."""
WINDOW_CHARS = 1500
"""The start of the training text shown tokenized on Train and replayed on Merges."""


@dataclass
class Trained:
    """A trained tokenizer and what the pages show about it. Its records live packed (``trace``: about 90 bytes
    a merge, see :mod:`playground.packed_trace`); ``result.trace`` is left empty."""

    request: Request
    result: bpe_core.TrainResult | bpe_core.ClassicResult
    corpus_chars: int
    corpus_bytes: int
    window_text: str
    stats: dict[str, Any]  # see _stats: sample_bytes, truncated, bpt_before, bpt_after, seconds
    trace: PackedTrace
    extras: dict[str, Any] = field(default_factory=dict)  # views derived once (player frames, tables)
    base: bpe_core.Tokenizer | None = None  # the loaded tokenizer it continues (a built-in one: by its name only)

    @property
    def tokenizer(self) -> bpe_core.TokenizerShape:
        return self.result.tokenizer

    @property
    def num_merges(self) -> int:
        return len(self.trace)

    @property
    def weight(self) -> int:
        """What the caches weigh it by: its merges, and the tokens of the base it continues (it holds a copy of them:
        Llama 3 + 8,000 merges weighs 136,256, not 8,000)."""
        return self.num_merges + self.request.base_size

    @property
    def label(self) -> str:
        if not self.result.stopped_early:
            return self.request.label
        tokenizer = self.tokenizer  # an id for what training never saw (<unk>) comes on top of the size asked
        return self.request.label_for(tokenizer.n_vocab - (tokenizer.unknown_id is not None))


_NO_PAIR_LEFT = re.compile(r"no pair left to merge after ([0-9,]+) merges?( \(those left are skipped: .*\))?")
_BELOW_MIN_COUNT = re.compile(
    r"the best pair occurs ([0-9,]+) times?, below min_frequency ([0-9,]+): ([0-9,]+) merges?"
)


def stop_reason_text(reason: str | None) -> str:
    """Why training stopped early, in the session's language: the library's reasons are English sentences, those
    training can give (no pair left; the best pair below the minimum pair count, named as its box is) are
    translated here, anything else is shown as the library wrote it.

    >>> stop_reason_text("no pair left to merge after 35,132 merges")
    'no pair left to merge after 35,132 merges'
    >>> stop_reason_text("no pair left to merge after 1 merges")
    'no pair left to merge after 1 merge'
    >>> stop_reason_text("the best pair occurs 3 times, below min_frequency 5: 0 merges")
    'the most frequent pair occurs 3 times, below the minimum pair count 5, after 0 merges'
    """
    below = _BELOW_MIN_COUNT.fullmatch(reason or "")
    if below is not None:
        count, least, merges = (int(group.replace(",", "")) for group in below.groups())
        return t(
            "the most frequent pair occurs {count:,} times, below the minimum pair count {least:,}, after {n:,} merges",
            count=count,
            least=least,
            n=merges,
        )
    found = _NO_PAIR_LEFT.fullmatch(reason or "")
    if found is None:
        return reason or ""
    n = int(found.group(1).replace(",", ""))
    said = t("no pair left to merge after 1 merge") if n == 1 else t("no pair left to merge after {n:,} merges", n=n)
    if found.group(2):
        said += t(" (the pairs left would make tokens longer than the longest token, or tokens already there)")
    return said


def symbols_of(tokenizer: bpe_core.TokenizerShape, n_symbols: int) -> list[bytes]:
    """The bytes of symbols 0 .. n_symbols - 1 as the trainer named them (the trace's ids): a byte-level
    tokenizer's tokens (the same objects as its vocabulary), a classic one's symbols as UTF-8. An id no token has
    (a hole in cl100k's ids, below a continued tokenizer's new ones) is empty bytes."""
    if not isinstance(tokenizer, bpe_core.Tokenizer):
        return list(map(tokenizer.token_bytes, range(n_symbols)))
    vocab = tokenizer.vocab
    return [vocab.get(identifier, b"") for identifier in range(n_symbols)]


def train_job(text: str, request: Request, progress: Callable[[int, int], None] | None = None) -> Trained:
    """Train as ``request`` says and measure the result. ``text`` is the whole corpus: the part the request holds
    out is cut here (``playground.heldout_texts.split_corpus``), never trained on, and measured. The app's jobs
    get the corpus already cut (:func:`train_parts`, from ``playground.runs``)."""
    return train_parts(split_corpus(text, request.holdout, request.languages), request, progress)


def train_parts(
    parts: tuple[str, str],
    request: Request,
    progress: Callable[[int, int], None] | None = None,
    base: bpe_core.Tokenizer | None = None,
) -> Trained:
    """:func:`train_job` of a corpus already cut into ``(training part, held-out part)`` (runs in a worker
    process): the training part is trained on, the held-out part (if any) measured. A request that continues a
    base gets it as ``base`` when it is a loaded file (a built-in one is built here, by its name)."""
    text, heldout = parts
    min_frequency, max_length = request.min_frequency, request.max_token_length or None
    records: list[bpe_core.MergeRecord] | None = None
    result: bpe_core.TrainResult | bpe_core.ClassicResult
    if request.base:
        base = base if base is not None else base_tokenizer(request.base, {})
        result, records = extend_text(text, base, request.vocab_size, progress, min_frequency, max_length)
    elif request.kind == "classic":
        result = bpe_core.train_classic(
            text,
            request.vocab_size,
            progress=progress,
            tie_break=request.tie_break,
            limit_alphabet=request.limit_alphabet or None,
            initial_alphabet=request.initial_alphabet,
            min_frequency=min_frequency,
            max_token_length=max_length,
        )
    elif request.kind == "parity":
        result = bpe_core.train_parity(
            parallel_texts(text, request.languages),
            request.vocab_size,
            measure=PARITY_MEASURE,
            special_tokens=list(request.special_tokens),
            pattern=request.pattern,
            progress=progress,
        )
    elif request.kind == "superword":
        result = train_superword(
            text,
            request.vocab_size,
            transition=request.transition or 0,
            max_words=request.max_words or MAX_WORDS,
            special_tokens=request.special_tokens,
            progress=progress,
        )
    else:
        result = bpe_core.train(
            text,
            request.vocab_size,
            special_tokens=list(request.special_tokens),
            pattern=request.pattern,
            progress=progress,
            tie_break=request.tie_break,
            min_frequency=min_frequency,
            max_token_length=max_length,
        )
    if isinstance(result, bpe_core.TrainResult):
        # Nothing on the pages reads them, and pickling them back from the job would cost more than
        # the rest of the result (~5 MB for 10 MB of text).
        result.pretoken_counts = {}
    # The records travel back, and stay, as columns: about 90 bytes a merge instead of ~1 KB of objects.
    records = result.trace if records is None else records
    first = records[0].new_id if records else 0
    trace = PackedTrace.from_records(records, symbols_of(result.tokenizer, first + len(records)))
    result.trace = []
    return Trained(
        request=request,
        result=result,
        corpus_chars=len(text),
        corpus_bytes=len(text.encode("utf-8", errors="surrogatepass")),
        window_text=_window(text),
        stats=_stats(result.tokenizer, heldout or text, kind_of(request.kind).keeps_whitespace, base)
        | {"heldout": bool(heldout)},
        trace=trace,
        base=base if request.base and is_file(request.base) else None,
    )


def _window(text: str) -> str:
    if len(text) <= WINDOW_CHARS:
        return text
    cut = text.rfind("\n", WINDOW_CHARS // 2, WINDOW_CHARS)
    if cut < 0:
        cut = text.rfind(" ", WINDOW_CHARS // 2, WINDOW_CHARS)
    return text[: cut + 1 if cut > 0 else WINDOW_CHARS]


def _stats(
    tokenizer: bpe_core.TokenizerShape, text: str, keeps_whitespace: bool, base: bpe_core.Tokenizer | None = None
) -> dict:
    """Bytes per token before and after training, on (the start of) the corpus (of its words only, for a kind
    that drops whitespace); before a continued training: with its base."""
    data = text.encode("utf-8", errors="surrogatepass")
    truncated = len(data) > STATS_SAMPLE_BYTES
    sample = data[:STATS_SAMPLE_BYTES].decode("utf-8", errors="ignore") if truncated else text
    started = time.perf_counter()
    if not keeps_whitespace:
        words = sample.split()
        n_bytes = sum(len(word.encode("utf-8", errors="surrogatepass")) for word in words)
        before = sum(len(word) + 1 for word in words)  # characters + </w>
        after = len(tokenizer.encode(sample))
    else:
        n_bytes = len(sample.encode("utf-8", errors="surrogatepass"))
        before = n_bytes if base is None else len(base.encode(sample))
        after = len(tokenizer.encode(sample))
    return {
        "sample_bytes": n_bytes,
        "truncated": truncated,
        "bpt_before": n_bytes / before if before else 0.0,
        "bpt_after": n_bytes / after if after else 0.0,
        "seconds": time.perf_counter() - started,
    }
