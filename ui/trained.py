"""What a training run is asked for (:class:`Request`) and what it gives (:class:`Trained`).

No Streamlit here: :func:`train_job` runs in a worker process (``runtime.jobs``), so this module must
import quickly and everything it returns must pickle.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import bpe_core
from ui.corpora import UPLOAD, sample_name
from ui.i18n import t

STATS_SAMPLE_BYTES = 256 * 1024
"""Bytes per token is measured on (at most) this much of the corpus."""
WINDOW_CHARS = 1500
"""The start of the training text shown tokenized on Train and replayed on Merges."""


@dataclass(frozen=True)
class Request:
    """Everything that decides a tokenizer: equal requests give equal tokenizers."""

    corpus: str  # a sample's slug, "paste" or "upload"
    corpus_label: str
    text_digest: str
    kind: str  # "byte" or "classic"
    vocab_size: int
    pattern_choice: str  # gpt2 | cl100k | o200k | whitespace | none | custom
    pattern: str | None  # what bpe_core.train gets: a name, the custom regex, or None
    special_tokens: tuple[str, ...]

    @property
    def key(self) -> str:
        """A digest of the request (the corpus by its digest), for caches."""
        blob = json.dumps([self.text_digest, self.kind, self.vocab_size, self.pattern, self.special_tokens])
        return hashlib.sha256(blob.encode()).hexdigest()[:24]

    def settings(self) -> dict[str, Any]:
        """The session field values (``ui.session``) that describe this request, for its link: the
        pattern and regex only for byte-level BPE (classic BPE has none).

        >>> Request("toy", "Toy", "d", "byte", 300, "custom", r"\\w+|\\W", ("<s>",)).settings()["regex"]
        '\\\\w+|\\\\W'
        """
        byte_level = self.kind == "byte"
        return {
            "corpus": self.corpus,
            "kind": self.kind,
            "vocab": self.vocab_size,
            "pattern": self.pattern_choice if byte_level else None,
            "regex": self.pattern if byte_level and self.pattern_choice == "custom" else None,
            "specials": " ".join(self.special_tokens),
        }

    @property
    def label(self) -> str:
        """What the pages call this tokenizer, in the session's language (a built-in corpus by its name)."""
        return self.label_for(self.vocab_size)

    def label_for(self, vocab_size: int) -> str:
        """:attr:`label` of a result with ``vocab_size`` tokens (fewer than asked when training stopped early)."""
        corpus = self.corpus_label if self.corpus == UPLOAD else sample_name(self.corpus)
        pattern = t("classic </w>") if self.kind == "classic" else t("pattern {name}", name=self.pattern_choice)
        if vocab_size != self.vocab_size:
            return t("{corpus} · vocab {vocab:,} (of {asked:,} asked) · {pattern}", corpus=corpus, vocab=vocab_size,
                     asked=self.vocab_size, pattern=pattern)
        return t("{corpus} · vocab {vocab:,} · {pattern}", corpus=corpus, vocab=self.vocab_size, pattern=pattern)


@dataclass
class Trained:
    """A trained tokenizer and what the pages show about it."""

    request: Request
    result: bpe_core.TrainResult | bpe_core.ClassicResult
    corpus_chars: int
    corpus_bytes: int
    window_text: str
    stats: dict[str, Any]  # see _stats: sample_bytes, truncated, bpt_before, bpt_after, seconds
    extras: dict[str, Any] = field(default_factory=dict)  # views derived once (player frames, tables)
    packed_trace: bytes | None = None
    """``result.trace`` pickled, until a page first asks for it (see :func:`train_job`)."""

    @property
    def tokenizer(self) -> bpe_core.Tokenizer | bpe_core.ClassicTokenizer:
        return self.result.tokenizer

    @property
    def trace(self) -> list[bpe_core.MergeRecord]:
        packed = self.packed_trace  # read once: another session's thread may unpack it meanwhile
        if packed is not None:
            self.result.trace = pickle.loads(packed)
            self.packed_trace = None
        return self.result.trace

    @property
    def num_merges(self) -> int:
        return self.tokenizer.num_merges if self.packed_trace is not None else len(self.result.trace)

    @property
    def label(self) -> str:
        if not self.result.stopped_early:
            return self.request.label
        tokenizer = self.tokenizer  # classic: <unk> comes on top of the symbols, as in the request's count
        return self.request.label_for(tokenizer.unknown_id if self.is_classic else tokenizer.n_vocab)

    @property
    def is_classic(self) -> bool:
        return self.request.kind == "classic"


def train_job(text: str, request: Request, progress: Callable[[int, int], None] | None = None) -> Trained:
    """Train as ``request`` says and measure the result (runs in a worker process)."""
    if request.kind == "classic":
        result = bpe_core.train_classic(text, request.vocab_size, progress=progress)
    else:
        result = bpe_core.train(
            text,
            request.vocab_size,
            special_tokens=list(request.special_tokens),
            pattern=request.pattern,
            progress=progress,
        )
    if hasattr(result, "pretoken_counts"):
        # Nothing on the pages reads them, and pickling them back from the job would cost more than
        # the rest of the result (~5 MB for 10 MB of text).
        result.pretoken_counts = {}
    # The trace (thousands of records with their runner-ups) travels back from the job as one
    # bytes object: unpickling it costs the server ~0.15 s for 8,000 merges, which the Train page
    # (it shows none of it) should not wait for; the Merges page unpacks it on first use.
    packed_trace = pickle.dumps(result.trace, pickle.HIGHEST_PROTOCOL)
    result.trace = []
    return Trained(
        request=request,
        result=result,
        corpus_chars=len(text),
        corpus_bytes=len(text.encode("utf-8", errors="surrogatepass")),
        window_text=_window(text),
        stats=_stats(result.tokenizer, text, request.kind == "classic"),
        packed_trace=packed_trace,
    )


def _window(text: str) -> str:
    if len(text) <= WINDOW_CHARS:
        return text
    cut = text.rfind("\n", WINDOW_CHARS // 2, WINDOW_CHARS)
    if cut < 0:
        cut = text.rfind(" ", WINDOW_CHARS // 2, WINDOW_CHARS)
    return text[: cut + 1 if cut > 0 else WINDOW_CHARS]


def _stats(tokenizer: Any, text: str, classic: bool) -> dict:
    """Bytes per token before and after training, on (the start of) the corpus."""
    data = text.encode("utf-8", errors="surrogatepass")
    truncated = len(data) > STATS_SAMPLE_BYTES
    sample = data[:STATS_SAMPLE_BYTES].decode("utf-8", errors="ignore") if truncated else text
    started = time.perf_counter()
    if classic:
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
