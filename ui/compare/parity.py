"""Standard and parity-aware BPE at the same size, on the same parallel corpus: how evenly each spreads the cost
across languages (max/min and Gini of the premiums), measured on sentences neither was trained on.

Both train through the one way to train (``ui.page_training.train`` over ``playground.runs``, as jobs with a progress
bar and Cancel, ``ui.compare.algorithms.train_all``) on a click, on the first three quarters of
each language's sentences (of the built-in sample: exactly the Train page's parallel corpus, so a tokenizer
trained there is reused) and are measured on the last quarter.
"""

from __future__ import annotations

import json

import streamlit as st

from playground.corpora import PARALLEL_HELD_OUT, UPLOAD, parallel_parts, sample_name
from playground.i18n import t
from playground.session import ParallelTexts, Session
from playground.text import plain
from playground.trained import Request, Trained
from runtime.store import text_digest
from ui.compare.algorithms import result_of, train_all
from ui.compare.premiums import Measured, Parallel, costs, premium_chart, spread_table

PARALLEL_SLUG = "parallel-sample"
PATTERN = "gpt2"
SPECIALS = ("<|endoftext|>",)
"""The Train page's defaults, so that the pair of the built-in sample is what the Train page trains."""


def pair_requests(sentences: ParallelTexts, built_in: bool, vocab_size: int) -> tuple[str, list[tuple[str, Request]]]:
    """The training text (each language's first three quarters, one after the other) and the two requests,
    standard and parity-aware, at ``vocab_size``: the built-in sample's as the Train page makes them, the user's
    files as an upload."""
    train = "".join(parallel_parts(sentences, PARALLEL_HELD_OUT)[0].values())
    corpus, label = (PARALLEL_SLUG, sample_name(PARALLEL_SLUG, lang="en")) if built_in else (UPLOAD, "parallel files")
    standard = Request(
        corpus, label, text_digest(train), "byte", vocab_size, PATTERN, PATTERN, SPECIALS, languages=tuple(sentences)
    )
    parity = Request(**{**vars(standard), "kind": "parity"})
    return train, [(t("standard BPE"), standard), (t("parity-aware BPE"), parity)]


def held_out(sentences: ParallelTexts) -> Parallel:
    """The last quarter of each language's sentences: what the pair is measured on."""
    held = {code: text.splitlines() for code, text in parallel_parts(sentences, PARALLEL_HELD_OUT)[1].items()}
    return Parallel(held, text_digest(json.dumps(held, ensure_ascii=False)), t("the held-out sentences"))


def trained(s: Session, request: Request) -> Trained | None:
    """A member of the pair trained before: on this page, or on the Train page (the same request)."""
    found = result_of(s, request)
    return found if isinstance(found, Trained) else None


def render(s: Session, sentences: ParallelTexts, built_in: bool, baseline: str) -> None:
    st.subheader(t("Standard and parity-aware BPE at the same size"))
    st.number_input(
        t("Vocab size of both"),
        min_value=300,
        max_value=20_000,
        step=100,
        key=Session.pair_vocab.key,
        persist_state="session",
    )
    try:
        text, wanted = pair_requests(sentences, built_in, s.pair_vocab)
    except ValueError:  # a language of fewer than two sentences: nothing to hold out
        st.info(t("Comparing them needs at least two sentences a language: one to train on, one to measure."))
        return
    share = f"{1 - PARALLEL_HELD_OUT:.0%}"
    if any(trained(s, request) is None for _, request in wanted):
        st.caption(
            t(
                "Both are trained on the first {share} of each language's sentences and measured on the rest. "
                "Parity-aware BPE gives each merge to the language that needs the most tokens so far "
                "(Foroutan et al. 2025).",
                share=share,
            )
        )
        if not st.button(t("Train both and compare ▶"), type="primary", key="parity_run"):
            return
        train_all(s, wanted, text)
    measured_on = held_out(sentences)
    found = []
    for name, request in wanted:
        result = trained(s, request)
        if result is None:
            reason = plain(result_of(s, request) or t("not trained"), limit=400)
            st.warning(t("{name} could not be trained: {reason}", name=name, reason=reason))
            continue
        item = Measured(name, result.tokenizer, request.key)
        if (measured := costs(item, measured_on, baseline)) is not None:
            found.append((item, measured))
    if not found:
        return
    spread_table(found)
    st.vega_lite_chart(premium_chart(found), width="stretch")
    sentences_each = len(next(iter(measured_on.texts.values())))
    st.caption(
        t(
            "Both at vocab {vocab:,}, trained on the first {share} of each language's sentences; measured on the "
            "other {n:,} of each language, which neither saw.",
            vocab=s.pair_vocab,
            share=share,
            n=sentences_each,
        )
    )
