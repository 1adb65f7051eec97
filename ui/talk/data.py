"""What the guided talk's steps show: built-in texts and the small tokenizers trained on them.

Every training here goes the one way to train (``ui.page_training.train`` over ``playground.runs``): a job with a
progress bar and Cancel, under the job limits, its result in the shared cache (the texts are built in, so every
session and Compare read the same result). The talk's are small (built-in texts of at most 60 K characters, vocab
at most 2,000: about 0.1 s), so a step trains by itself, as a cheap link does; above ``BPE_AUTO_TRAIN_SECONDS``,
or after a Cancel, it waits for a click. A step whose tokenizer is not trained yet draws nothing more.
"""

from __future__ import annotations

from typing import cast

import streamlit as st

from bpe_core import Tokenizer, analysis
from playground.corpora import WIKIPEDIA_AAABDAAABAC, load_sample
from playground.i18n import N_, language, t
from playground.kinds import BYTE, kind_of
from playground.text import plain
from playground.trained import Request, Trained
from runtime.store import text_digest
from ui import page_training, state
from ui.compare.common import remembered

BYTES_SENTENCE = "Hi, 世界! 🙂"
"""Step 1: ASCII (one byte each), Chinese (three) and an emoji (four)."""
PAIRS_CORPUS = "aaabdaaabac"
PAIRS_TEXT = WIKIPEDIA_AAABDAAABAC
BOUNDARY_TEXT = "Tokenizers split text into tokens, not words: unbelievable, tokenization, 2026."
ZH_BOUNDARY_TEXT = "我们今天学习分词：常用词是一个词元，生僻词被切成碎片，比如鹦鹉、饕餮。"
"""Step 5 in Chinese: GPT-4's tokenizer keeps common words whole (我们, 一个), most characters one token each, and cuts
rarer ones into byte pieces (鹦鹉, 饕餮, and 词 itself: it saw little Chinese)."""
PARTIAL_TEXT = "字节对编码 🙂 naïve café"
THREE_TEXT = "def tokenize(text):\n    return text.split()\n编码 🙂"  # short: three columns fit a 720p slide
ZH_THREE_TEXT = "常见的中文词是一个词元。"  # short: GPT-2 cuts each character into byte tokens
"""Step 8 in Chinese: a Chinese sentence (Qwen's vocabulary has its words whole, GPT-2's cuts characters)."""
CLASSIC_TEXT = "The tokenizer merges pairs. 分词器合并字节对。 🙂"
REAL_CORPUS = "python-reference-excerpt"
ZH_REAL_CORPUS = "chinese-classics"
"""Steps 4 and 7 in Chinese: the Four Books, so a room reading Chinese watches merges of its own language (the first
ones join a character's three bytes) and sees real tokenizers' bytes per token on Chinese."""
REAL_VOCAB = 2_000
MIXED_VOCAB = 420


def request(corpus: str, label: str, text: str, kind: str, vocab: int) -> Request:
    """GPT-2's pattern for a kind that takes one (byte-level), none for one that has none (classic)."""
    plain = Request(corpus, label, text_digest(text), BYTE.name, vocab, "gpt2", "gpt2", ())
    return plain.as_kind(kind_of(kind), "gpt2", "gpt2")


def job(corpus: str, kind: str, vocab: int) -> tuple[Request, str]:
    """The request of a talk tokenizer and its text (``corpus``: a sample's slug, or :data:`PAIRS_CORPUS`)."""
    text = PAIRS_TEXT if corpus == PAIRS_CORPUS else load_sample(corpus)
    return request(corpus, corpus, text, kind, vocab), text


def trained(corpus: str, kind: str, vocab: int) -> Trained | None:
    """A tokenizer trained on a built-in text, or None while it is not (waiting for a click, or stopped: said)."""
    s = state.current()
    wanted, text = job(corpus, kind, vocab)
    key = f"talk_{corpus}_{kind}_{vocab}"
    if not page_training.affordable(s, wanted, text, N_("This step shows"), key=key, own=False):
        return None
    label = t("Training {label}", label=wanted.label)
    cancelled = t("Training cancelled: this step trains it when you click.")
    try:
        return page_training.train(s, wanted, text, label, key=key, cancelled=cancelled)
    except page_training.STOPPED as failure:
        st.error(t("Training stopped: {reason}.", reason=plain(failure, limit=600)))
        return None


def pairs() -> Trained | None:
    """Steps 2 and 3: three merges of “aaabdaaabac”."""
    return trained(PAIRS_CORPUS, "byte", 259)


def real_corpus(lang: str | None = None) -> str:
    """The sample steps 4 and 7 train on: English prose (the Python language reference), or the Four Books in
    Chinese (``lang``: the session's language when not given)."""
    return ZH_REAL_CORPUS if (lang or language()) == "zh" else REAL_CORPUS


def real_corpus_name() -> str:
    """What :func:`real_corpus` is, for "merges learned from …" (marked for the catalog: show it through ``t``)."""
    return N_("the Four Books") if real_corpus() == ZH_REAL_CORPUS else N_("the Python language reference")


def boundary_text() -> str:
    """Step 5's sentence, in the session's language."""
    return ZH_BOUNDARY_TEXT if language() == "zh" else BOUNDARY_TEXT


def real() -> Trained | None:
    """Steps 4 and 7: a real corpus in the session's language (:func:`real_corpus`)."""
    return trained(real_corpus(), "byte", REAL_VOCAB)


def mixed(kind: str) -> Trained | None:
    """Step 9: the English / Chinese sample, byte-level or classic."""
    return trained("mixed-english-chinese", kind, MIXED_VOCAB)


def real_curve() -> list[tuple[int, float]] | None:
    """Bytes per token at every vocab size of :func:`real` on its own text, sampled for a chart (kept with
    Compare's results: ``playground.caches``)."""
    found, corpus = real(), real_corpus()
    if found is None:
        return None

    def curve() -> list[tuple[int, float]]:
        tokenizer = cast(Tokenizer, found.tokenizer)  # real() trains the byte kind: a byte-level Tokenizer
        return analysis.sample_curve(analysis.bytes_per_token_curve(tokenizer, load_sample(corpus)), 300)

    return remembered(("talk-curve", found.request.key), curve)
