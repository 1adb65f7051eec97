"""What a training run is asked for (:class:`Request`) and what it gives (:class:`Trained`).

No Streamlit here: :func:`train_job` runs in a worker process (``runtime.jobs``), so this module must
import quickly and everything it returns must pickle.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final

import bpe_core
from bpe_core.training.superword import MAX_WORDS, train_superword
from playground.corpora import UPLOAD, sample_name
from playground.heldout_texts import parallel_texts, split_corpus
from playground.i18n import N_, t
from playground.kinds import Kind, kind_of
from playground.packed_trace import PackedTrace

STATS_SAMPLE_BYTES = 256 * 1024
"""Bytes per token is measured on (at most) this much of the corpus."""
PARITY_MEASURE: Final = "tokens"
"""Parity-aware training on a parallel corpus: each merge goes to the language with the most tokens for the same
content (``bpe_core.train_parity``'s rule on parallel texts)."""
TIE_TAGS: Final = {"first": N_("ties: first seen"), "hf": N_("ties: Hugging Face"), "smallest": N_("ties: smallest")}
"""What a tokenizer's label says of a tie rule other than the default (the greatest pair: said nothing)."""
WINDOW_CHARS = 1500
"""The start of the training text shown tokenized on Train and replayed on Merges."""


@dataclass(frozen=True)
class Request:
    """Everything that decides a tokenizer: equal requests give equal tokenizers."""

    corpus: str  # a sample's slug, "paste" or "upload"
    corpus_label: str
    text_digest: str
    kind: str  # a trained kind of playground.kinds: "byte", "classic", "parity" or "superword"
    vocab_size: int
    pattern_choice: str  # gpt2 | cl100k | o200k | whitespace | none | custom
    pattern: str | None  # what bpe_core.train gets: a name, the custom regex, or None
    special_tokens: tuple[str, ...]
    holdout: int = 0  # percent of the corpus's lines held out from training (playground.heldout_texts.split_corpus)
    languages: tuple[str, ...] = ()  # a parallel corpus's languages (kind "parity" trains them fairly)
    transition: int | None = None  # superword: merges made within pre-tokens before merging across them
    max_words: int | None = None  # superword: the most words a token may hold
    tie_break: str = "greatest"  # bpe_core.train's rule for pairs of equal count (byte and classic kinds)

    @property
    def key(self) -> str:
        """A digest of the request (the corpus by its digest), for caches."""
        parts: list[Any] = [self.text_digest, self.kind, self.vocab_size, self.pattern, self.special_tokens]
        if self.holdout or self.languages:  # only then: the keys of earlier requests (saved work) stay as they were
            parts += [self.holdout, self.languages]
        if kind_of(self.kind).uses("transition"):  # superword tokens' stages
            parts += [self.transition, self.max_words]
        if self.tie_break != "greatest":  # only then: the default's key (saved work) stays as it was
            parts += ["ties", self.tie_break]
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:24]

    def settings(self) -> dict[str, Any]:
        """The session field values (``playground.session``) that describe this request, for its link: the
        pattern and regex only for a kind that takes the user's (classic BPE has none, superword its own).

        >>> Request("toy", "Toy", "d", "byte", 300, "custom", r"\\w+|\\W", ("<s>",)).settings()["regex"]
        '\\\\w+|\\\\W'
        """
        kind = kind_of(self.kind)
        user_pattern = kind.uses("pattern")
        return {
            "corpus": self.corpus,
            "kind": self.kind,
            "vocab": self.vocab_size,
            "pattern": self.pattern_choice if user_pattern else None,
            "regex": self.pattern if user_pattern and self.pattern_choice == "custom" else None,
            "specials": " ".join(self.special_tokens),
            "holdout": self.holdout,
            **({"ties": self.tie_break} if kind.uses("ties") else {}),
            **({"transition": self.transition} if kind.uses("transition") else {}),
            **({"maxwords": self.max_words} if kind.uses("maxwords") else {}),
        }

    def as_kind(self, kind: Kind, pattern_choice: str = "none", pattern: str | None = None) -> Request:
        """The same corpus and vocab size trained as ``kind``, with the pattern given where that kind takes the
        user's (``playground.kinds``): what Compare trains beside a tokenizer.

        >>> superword = Request("toy", "Toy", "d", "superword", 300, "superword", "x", ("<s>",), transition=9)
        >>> superword.as_kind(kind_of("classic"))
        Request(corpus='toy', corpus_label='Toy', text_digest='d', kind='classic', vocab_size=300, \
pattern_choice='classic', pattern=None, special_tokens=(), holdout=0, languages=(), transition=None, \
max_words=None, tie_break='greatest')
        """
        return replace(
            self,
            kind=kind.name,
            pattern_choice=kind.pattern_choice(pattern_choice),
            pattern=kind.pattern_for(pattern),
            special_tokens=kind.specials_for(self.special_tokens),
            transition=self.transition if kind.uses("transition") else None,
            max_words=self.max_words if kind.uses("maxwords") else None,
            tie_break=self.tie_break if kind.uses("ties") else "greatest",
        )

    @property
    def label(self) -> str:
        """What the pages call this tokenizer, in the session's language (a built-in corpus by its name)."""
        return self.label_for(self.vocab_size)

    def label_for(self, vocab_size: int) -> str:
        """:attr:`label` of a result with ``vocab_size`` tokens (fewer than asked when training stopped early)."""
        corpus = self.corpus_label if self.corpus == UPLOAD else sample_name(self.corpus)
        pattern = kind_of(self.kind).describe(self.pattern_choice, self.transition)
        if self.tie_break != "greatest":
            pattern = t("{pattern} · {ties}", pattern=pattern, ties=t(TIE_TAGS.get(self.tie_break, self.tie_break)))
        if self.holdout:
            pattern = t("{pattern} · {n}% held out", pattern=pattern, n=self.holdout)
        if vocab_size != self.vocab_size:
            return t(
                "{corpus} · vocab {vocab:,} (of {asked:,} asked) · {pattern}",
                corpus=corpus,
                vocab=vocab_size,
                asked=self.vocab_size,
                pattern=pattern,
            )
        return t("{corpus} · vocab {vocab:,} · {pattern}", corpus=corpus, vocab=self.vocab_size, pattern=pattern)


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

    @property
    def tokenizer(self) -> bpe_core.TokenizerShape:
        return self.result.tokenizer

    @property
    def num_merges(self) -> int:
        return len(self.trace)

    @property
    def label(self) -> str:
        if not self.result.stopped_early:
            return self.request.label
        tokenizer = self.tokenizer  # an id for what training never saw (<unk>) comes on top of the size asked
        return self.request.label_for(tokenizer.n_vocab - (tokenizer.unknown_id is not None))


_NO_PAIR_LEFT = re.compile(r"no pair left to merge after ([0-9,]+) merges?")


def stop_reason_text(reason: str | None) -> str:
    """Why training stopped early, in the session's language: the library's reasons are English sentences, the
    one training can give (no pair left) is translated here, anything else is shown as the library wrote it.

    >>> stop_reason_text("no pair left to merge after 35,132 merges")
    'no pair left to merge after 35,132 merges'
    >>> stop_reason_text("no pair left to merge after 1 merges")
    'no pair left to merge after 1 merge'
    """
    found = _NO_PAIR_LEFT.fullmatch(reason or "")
    if found is None:
        return reason or ""
    n = int(found.group(1).replace(",", ""))
    return t("no pair left to merge after 1 merge") if n == 1 else t("no pair left to merge after {n:,} merges", n=n)


def symbols_of(tokenizer: bpe_core.TokenizerShape, n_symbols: int) -> list[bytes]:
    """The bytes of symbols 0 .. n_symbols - 1 as the trainer named them (the trace's ids): a byte-level
    tokenizer's tokens (the same objects as its vocabulary), a classic one's symbols as UTF-8."""
    return list(map(tokenizer.token_bytes, range(n_symbols)))


def train_job(text: str, request: Request, progress: Callable[[int, int], None] | None = None) -> Trained:
    """Train as ``request`` says and measure the result. ``text`` is the whole corpus: the part the request holds
    out is cut here (``playground.heldout_texts.split_corpus``), never trained on, and measured. The app's jobs
    get the corpus already cut (:func:`train_parts`, from ``playground.runs``)."""
    return train_parts(split_corpus(text, request.holdout, request.languages), request, progress)


def train_parts(
    parts: tuple[str, str], request: Request, progress: Callable[[int, int], None] | None = None
) -> Trained:
    """:func:`train_job` of a corpus already cut into ``(training part, held-out part)`` (runs in a worker
    process): the training part is trained on, the held-out part (if any) measured."""
    text, heldout = parts
    if request.kind == "classic":
        result: bpe_core.TrainResult | bpe_core.ClassicResult = bpe_core.train_classic(
            text, request.vocab_size, progress=progress, tie_break=request.tie_break
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
        )
    if isinstance(result, bpe_core.TrainResult):
        # Nothing on the pages reads them, and pickling them back from the job would cost more than
        # the rest of the result (~5 MB for 10 MB of text).
        result.pretoken_counts = {}
    # The records travel back, and stay, as columns: about 90 bytes a merge instead of ~1 KB of objects.
    records = result.trace
    base = records[0].new_id if records else 0
    trace = PackedTrace.from_records(records, symbols_of(result.tokenizer, base + len(records)))
    result.trace = []
    return Trained(
        request=request,
        result=result,
        corpus_chars=len(text),
        corpus_bytes=len(text.encode("utf-8", errors="surrogatepass")),
        window_text=_window(text),
        stats=_stats(result.tokenizer, heldout or text, kind_of(request.kind).keeps_whitespace)
        | {"heldout": bool(heldout)},
        trace=trace,
    )


def _window(text: str) -> str:
    if len(text) <= WINDOW_CHARS:
        return text
    cut = text.rfind("\n", WINDOW_CHARS // 2, WINDOW_CHARS)
    if cut < 0:
        cut = text.rfind(" ", WINDOW_CHARS // 2, WINDOW_CHARS)
    return text[: cut + 1 if cut > 0 else WINDOW_CHARS]


def _stats(tokenizer: bpe_core.TokenizerShape, text: str, keeps_whitespace: bool) -> dict:
    """Bytes per token before and after training, on (the start of) the corpus (of its words only, for a kind
    that drops whitespace)."""
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
        before, after = n_bytes, len(tokenizer.encode(sample))
    return {
        "sample_bytes": n_bytes,
        "truncated": truncated,
        "bpt_before": n_bytes / before if before else 0.0,
        "bpt_after": n_bytes / after if after else 0.0,
        "seconds": time.perf_counter() - started,
    }
