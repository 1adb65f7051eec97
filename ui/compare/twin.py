"""The plain BPE twin of a superword tokenizer: byte-level BPE with GPT-2's pattern, on the same corpus, at the
same vocab size (``ui.superword_settings.plain_twin``). The curve view draws both, so what superword tokens buy is read
off one chart at every size, and at the full size on the held-out text.

The twin trains only on a click, as a killable job with a progress bar and Cancel (``ui.page_training.train``), and is
kept in the one cache of trained results (``playground.runs``, keyed by the request) with the Algorithms view's
variants, so either view trains it once.
"""

from __future__ import annotations

import streamlit as st

from playground.i18n import N_, t
from playground.kinds import kind_of
from playground.session import Session
from playground.text import plain
from playground.trained import Request, Trained
from ui import page_training
from ui.compare.algorithms import result_of
from ui.compare.common import Subject
from ui.compare.texts import Text
from ui.superword_settings import plain_twin

TWIN_LINE = N_("plain BPE, same vocab (every size)")
"""The twin's lines in the chart's legend (shown with playground.i18n.t)."""


def wanted(subject: Subject) -> Request | None:
    """The twin's request when the subject is a superword tokenizer trained in this session, else None."""
    trained = subject.trained
    if trained is None or not kind_of(trained.request.kind).plain_twin:
        return None
    return plain_twin(trained.request)


def twin(s: Session, request: Request, corpus: str | None) -> Trained | None:
    """The twin if trained; else a button that trains it on ``corpus`` (the whole training text)."""
    found = result_of(s, request)
    if isinstance(found, str):  # a failed run is kept as its message
        st.warning(t("Plain BPE could not be trained: {error}", error=plain(found, limit=400)))
        return None
    if found is not None:
        return found
    if corpus is None:
        st.caption(t("Plain BPE at the same size needs the whole training text, which is not at hand here."))
        return None
    st.caption(
        t(
            "Superword tokens against plain BPE: train plain byte-level BPE (pattern gpt2) on the same corpus "
            "at the same vocab size, and its curve is drawn beside this one."
        )
    )
    if not st.button(t("Train plain BPE at vocab {n:,} ▶", n=request.vocab_size), key="twin_run"):
        return None
    try:
        return page_training.train(
            s,
            request,
            corpus,
            t("Training plain BPE at vocab {n:,}", n=request.vocab_size),
            key="twin",
            cancelled=t("Plain BPE was not trained (cancelled): click the button to train it."),
        )
    except page_training.STOPPED as failure:
        st.warning(t("Plain BPE could not be trained: {error}", error=plain(failure, limit=400)))
        return None


def gain_caption(superword_tokens: int, plain_tokens: int, text: Text, vocab: int) -> None:
    """Bytes per token of both at the full size on one text, and how much more a superword token holds."""
    superword, plain_bpt = text.n_bytes / superword_tokens, text.n_bytes / plain_tokens
    st.caption(
        t(
            "At vocab {vocab:,} on {text}: superword tokens {a:.3f} bytes per token, plain BPE {b:.3f} "
            "({gain:+.1%} bytes per token, {fewer:,} fewer tokens).",
            vocab=vocab,
            text=plain(text.label),
            a=superword,
            b=plain_bpt,
            gain=superword / plain_bpt - 1,
            fewer=plain_tokens - superword_tokens,
        )
    )
