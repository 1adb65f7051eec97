"""Three ways to train on the same corpus at the same vocab size: byte-level BPE with pre-tokenization,
without it (merges may cross words), and classic character-level BPE with ``</w>`` (Sennrich et al.).

The trainings start only on a click, each as a killable job with a progress bar and Cancel (the one way to
train: ``ui.page_training.train``, whose cache they share with the Train page), on at most :data:`ALGO_CORPUS_LIMIT`
characters of the corpus.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace

import pandas as pd
import streamlit as st

from bpe_core.pretokenize import pattern_regex
from playground import runs
from playground.i18n import t
from playground.kinds import BYTE, CLASSIC, TEXT, kind_of
from playground.session import Session
from playground.text import human_bytes, plain
from playground.trained import Request, Trained
from runtime.store import text_digest
from ui import page_training, tokenizer_output
from ui.compare import texts
from ui.compare.common import Subject, View, draw_views, neighbour_diffs, summary

ALGO_CORPUS_LIMIT = 600_000
"""Characters of the corpus the three trainings use (its start), so a click never waits minutes."""


def variants(trained: Trained, corpus: texts.Text) -> list[tuple[str, Request]]:
    """(name, request) of each way to train, from the tokenizer's own request and the (cut) corpus."""
    base = trained.request
    text = corpus.text[:ALGO_CORPUS_LIMIT]
    digest = corpus.digest if len(text) == len(corpus.text) else text_digest(text)
    request = replace(base, text_digest=digest)
    pattern, choice = (base.pattern, base.pattern_choice) if _own_pattern(base) else ("gpt2", "gpt2")
    out = []
    if kind_of(base.kind).plain_twin:  # itself first, on the same (cut) corpus: then plain BPE at its size
        out.append((t("superword tokens, from merge {n:,}", n=base.transition or 0), request))
    if pattern is not None:
        out.append((t("byte-level, pattern {name}", name=choice), request.as_kind(BYTE, choice, pattern)))
    out.append((t("byte-level, no pre-tokenization"), request.as_kind(BYTE, "none", None)))
    out.append((t("classic char-level </w>"), request.as_kind(CLASSIC)))
    return out


def result_of(s: Session, request: Request) -> Trained | str | None:
    """A variant trained before (by this session, another, or the Train page: the same request), or the message
    of its failure; None when it has not been tried."""
    return page_training.cached(s, request) or runs.failure(request)


def _own_pattern(request: Request) -> bool:
    """Whether the variants take the tokenizer's own pattern: plain BPE on a text with the user's pattern (the
    others, parity-aware and superword, are set beside GPT-2's)."""
    kind = kind_of(request.kind)
    return kind.user_pattern and kind.trains_on == TEXT


def train_all(s: Session, wanted: list[tuple[str, Request]], text: str) -> None:
    """Train each variant not yet known, one job after the other (``ui.page_training.train``); a failure is kept as its
    message (``playground.runs.failure``)."""
    for index, (name, request) in enumerate(wanted, 1):
        if result_of(s, request) is not None:
            continue
        label = t("Training {i}/{n}: {name}", i=index, n=len(wanted), name=name)
        cancelled = t("Comparing algorithms cancelled: click the button to train the rest.")
        with suppress(*page_training.STOPPED):  # shown by the view, from playground.runs.failure
            page_training.train(s, request, text, label, key=f"algos_{index}", cancelled=cancelled)


def render(s: Session, subject: Subject) -> None:
    corpus = texts.training_text(s, subject.trained) if subject.trained is not None else None
    if corpus is None or subject.trained is None:
        st.info(
            t(
                "Comparing algorithms retrains on the training corpus, which is not at hand (a tokenizer loaded from "
                "files has none, or the corpus changed since training): train a tokenizer on the Train page."
            )
        )
        return
    wanted = variants(subject.trained, corpus)
    text = corpus.text[:ALGO_CORPUS_LIMIT]
    vocab = subject.trained.request.vocab_size
    start = t(" — its start") if len(text) < len(corpus.text) else ""
    st.markdown(
        t(
            "The same corpus ({corpus}{start}, {size} used) and vocab size **{vocab:,}**, trained three ways: "
            "byte-level BPE with pre-tokenization, without it (merges may cross words), and classic "
            "character-level BPE with `</w>` (Sennrich et al.).",
            corpus=texts.name(corpus),
            start=start,
            size=human_bytes(len(text.encode())),
            vocab=vocab,
        )
    )
    if _own_pattern(subject.trained.request) and subject.trained.request.pattern is not None:
        st.caption(t("The pre-tokenization pattern of the first variant:"))
        st.code(pattern_regex(subject.trained.request.pattern), language=None)
    st.text_area(
        t("Sample text (Chinese shows the byte vs character difference)"),
        key=Session.algo_text.key,
        height=100,
        persist_state="session",
    )
    if any(result_of(s, request) is None for _, request in wanted):
        if not st.button(t("Train the variants and compare ▶"), type="primary", key="algos_run"):
            st.caption(t("Training takes a few seconds for the built-in samples."))
            return
        train_all(s, wanted, text)
    results = [(name, result_of(s, request)) for name, request in wanted]
    comparison(s.algo_text or "", results)


def comparison(sample: str, results: list[tuple[str, Trained | str | None]], table: bool = True) -> None:
    """The variants on ``sample``: a table of their bytes per token (unless ``table`` is False) and the sample
    as each cuts it."""
    rows, views = [], []
    for name, result in results:
        if not isinstance(result, Trained):
            st.warning(f"{plain(name)}: {plain(result or t('not trained'), limit=400)}")
            continue
        encoded = tokenizer_output.encode(result.tokenizer, sample)
        rows.append(
            {
                t("algorithm"): plain(name),
                t("training"): f"{result.result.seconds:.2f} s",
                t("corpus bytes/token"): f"{result.stats['bpt_after']:.3f}",
                t("sample tokens"): f"{encoded.n_tokens:,}",
                t("sample bytes/token"): f"{encoded.n_bytes / encoded.n_tokens:.3f}" if encoded.n_tokens else "–",
            }
        )
        views.append(
            (
                View(name, summary(encoded.n_tokens, encoded.n_bytes), encoded.tokens, encoded.ids),
                not result.tokenizer.byte_level,
            )
        )
    if not rows:
        return
    if table:
        st.table(pd.DataFrame(rows), hide_index=True)
        st.caption(
            t(
                "Bytes per token = UTF-8 bytes of the text / tokens (on the corpus: its first 256 KB). Classic "
                "BPE drops whitespace (a word ends in `</w>`) and maps characters never seen in training to "
                "`<unk>`; byte-level BPE keeps every byte, so a Chinese character it has not merged shows as "
                "⟨byte⟩ pieces."
            )
        )
    byte_level = [view for view, classic in views if not classic]
    # Classic symbols are not byte spans of the same text (whitespace is dropped): no outlines there; nor on a lone
    # byte-level view, which has no neighbour to differ from (it said "0 outlined" beside a classic one).
    diffs = iter(neighbour_diffs(byte_level, sample)) if len(byte_level) > 1 else None
    outlines = [None if classic or diffs is None else next(diffs) for _, classic in views]
    draw_views([view for view, _ in views], outlines, len(views))
