"""What the guided talk's steps show: built-in texts and the small tokenizers trained on them.

Every training here is bounded (built-in texts of at most 60 K characters, vocab at most 2,000:
about 0.1 s on this machine), so it runs in the page, once per server (``st.cache_resource``: the
results are shared by every session and read-only); anything bigger goes through ``ui.training``.
"""

from __future__ import annotations

import streamlit as st

from bpe_core import ClassicTokenizer
from bpe_core import analysis as voc
from playground.corpora import WIKIPEDIA_AAABDAAABAC, load_sample
from playground.trained import Request, Trained, train_job
from runtime.store import text_digest

BYTES_SENTENCE = "Hi, 世界! 🙂"
"""Step 1: ASCII (one byte each), Chinese (three) and an emoji (four)."""
PAIRS_TEXT = WIKIPEDIA_AAABDAAABAC
BOUNDARY_TEXT = "Tokenizers split text into tokens, not words: unbelievable, tokenization, 2026."
PARTIAL_TEXT = "字节对编码 🙂 naïve café"
THREE_TEXT = "def tokenize(text):\n    return text.split()\n编码 🙂"  # short: three columns fit a 720p slide
CLASSIC_TEXT = "The tokenizer merges pairs. 分词器合并字节对。 🙂"
REAL_CORPUS = "python-reference-excerpt"
REAL_VOCAB = 2_000
MIXED_VOCAB = 420


def request(corpus: str, label: str, text: str, kind: str, vocab: int) -> Request:
    pattern = "gpt2" if kind == "byte" else None
    return Request(corpus, label, text_digest(text), kind, vocab, pattern or "none", pattern, ())


@st.cache_resource(show_spinner=False, max_entries=8)
def trained(corpus: str, kind: str, vocab: int) -> Trained:
    """A tokenizer trained on a built-in text (``corpus``: a sample's slug, or "aaabdaaabac")."""
    text = PAIRS_TEXT if corpus == "aaabdaaabac" else load_sample(corpus)
    return train_job(text, request(corpus, corpus, text, kind, vocab))


def real() -> Trained:
    """Steps 4 and 7: English prose (the Python language reference shipped with Python)."""
    return trained(REAL_CORPUS, "byte", REAL_VOCAB)


def mixed(kind: str) -> Trained:
    """Step 9: the English / Chinese sample, byte-level or classic."""
    return trained("mixed-english-chinese", kind, MIXED_VOCAB)


@st.cache_resource(show_spinner=False)
def real_curve() -> list[tuple[int, float]]:
    """Bytes per token at every vocab size of :func:`real` on its own text, sampled for a chart."""
    tokenizer = real().tokenizer
    if isinstance(tokenizer, ClassicTokenizer):  # not reached: real() is byte-level
        raise TypeError("the curve needs a byte-level tokenizer")
    return voc.sample_curve(voc.bytes_per_token_curve(tokenizer, load_sample(REAL_CORPUS)), 300)
