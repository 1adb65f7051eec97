"""Languages: what the same content costs in tokens in each language, for the trained tokenizer (whole and cut
to a size), files loaded this session and the reference tokenizers: tokens per sentence and the premium
against English, as a chart and tables (``ui.compare.premiums``), on a parallel text (the built-in sample, or
the user's own files, which never go into links); below, standard and parity-aware BPE at the same size
(``ui.compare.parity``).
"""

from __future__ import annotations

import json
from functools import cache

import streamlit as st

from bpe_core.analysis.parallel import parallel_sample
from playground.corpora import parallel_parts
from playground.i18n import N_, t
from playground.references import MAX_SHOWN_VOCAB
from playground.session import PARALLEL_CHOICES, TRAINED, Session
from playground.text import plain
from runtime.store import text_digest
from ui import own_text, tokenizer_output
from ui.compare import parity, texts
from ui.compare.common import Subject, content_key
from ui.compare.premiums import Measured, Parallel, costs, costs_table, language_name, premium_chart, spread_table
from ui.uploads import upload_status

PARALLEL_LABELS = {
    "default": N_("For this tokenizer: {name}"),
    "all": N_("Built-in parallel sample: 40 everyday sentences in 21 languages"),
    "heldout": N_("Built-in parallel sample, sentences 31–40 of each language (held out from the parallel corpus)"),
    "own": N_("Your own parallel files: one .txt per language, line i the same sentence (never put in links)"),
}
DEFAULT_NAMES = {"all": N_("all 40 sentences, 21 languages"), "heldout": N_("sentences 31–40 (held out)")}
"""What "for this tokenizer" stands for, short: the whole label was cut with an ellipsis in the box."""


def default_for(subject: Subject) -> str:
    """The parallel text ``default`` stands for: the held-out sentences for a tokenizer trained on the parallel
    corpus, else all of the built-in sample."""
    trained = subject.trained
    return "heldout" if trained is not None and trained.request.languages else "all"


def resolved(s: Session, subject: Subject) -> str:
    return s.parallel if s.parallel != "default" else default_for(subject)


@cache
def built_in(choice: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    sample = parallel_sample()
    held = {code: text.splitlines() for code, text in parallel_parts(sample)[1].items()}
    chosen = sample if choice == "all" else held
    return tuple((code, tuple(lines)) for code, lines in chosen.items())


def parallel_for(s: Session, choice: str) -> Parallel | None:
    """The parallel text of ``choice`` (None: own files not given yet)."""
    if choice == "own":
        own = s.parallel_own
        if not own:
            return None
        return Parallel(own, text_digest(json.dumps(own, ensure_ascii=False)), t("your parallel files"))
    found = built_in(choice)
    texts_ = {code: list(lines) for code, lines in found}
    return Parallel(texts_, _digest(choice), t(PARALLEL_LABELS[choice]))


@cache
def _digest(choice: str) -> str:
    return text_digest(json.dumps(built_in(choice), ensure_ascii=False))


def measured(s: Session, subject: Subject) -> list[Measured]:
    """The view's tokenizers: the one compared (cut to ``s.cut_vocab`` too, by its own rule: a trained tokenizer,
    a file, any built-in model), the trained one, files loaded this session and the chosen references, each once."""
    found: list[Measured] = []
    if s.trained is not None:  # "this tokenizer" when it is the one compared, else named as what it is
        mine = t("this tokenizer") if subject.choice == TRAINED else t("the trained tokenizer")
        found.append(Measured(mine, s.trained.tokenizer, s.trained.request.key))
    if subject.choice != TRAINED:
        found.insert(0, Measured(subject.label, subject.tokenizer, subject.key))
    if s.cut_vocab:
        label = t("this tokenizer at {n:,}", n=s.cut_vocab)
        if subject.choice != TRAINED:
            label = t("{name} at {n:,}", name=subject.label, n=s.cut_vocab)
        found.insert(1, Measured(label, subject.tokenizer, subject.key, s.cut_vocab))
    for label, tokenizer in s.loaded.items():
        found.append(Measured(tokenizer_output.file_title(label, tokenizer), tokenizer, content_key(tokenizer)))
    for name in s.refs:
        found.append(
            Measured(
                tokenizer_output.REFERENCE_LABELS[name], tokenizer_output.reference_tokenizer(name), f"reference-{name}"
            )
        )
    unique: dict[tuple[str, int | None], Measured] = {}
    for item in found:
        unique.setdefault((item.key, item.vocab_size), item)
    return list(unique.values())


def inputs(s: Session, subject: Subject) -> None:
    default = default_for(subject)
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.selectbox(
            t("Parallel text"),
            PARALLEL_CHOICES,
            key=Session.parallel.key,
            persist_state="session",
            format_func=lambda c: t(PARALLEL_LABELS[c], name=t(DEFAULT_NAMES[default])),
        )
        if s.parallel == "own":
            st.file_uploader(
                t("Parallel files (one .txt per language: de.txt, zh.txt, …)"),
                type=["txt"],
                accept_multiple_files=True,
                key=Session.parallel_files.key,
                on_change=own_text.store_parallel_files,
                args=(s,),
            )
            upload_status(None, s.parallel_problem)
    with right:
        tokenizer_output.choose_references(s, t("Reference tokenizers"))
        st.number_input(  # every tokenizer Compare studies is cut by its own rule (bpe_core.analysis.ladder)
            t("Also the chosen tokenizer cut to vocab size"),
            min_value=1,
            max_value=MAX_SHOWN_VOCAB,
            step=100,
            value=None,
            key=Session.cut_vocab.key,
            persist_state="session",
            placeholder=t("e.g. 1000"),
        )


def render(s: Session, subject: Subject) -> None:
    inputs(s, subject)
    parallel = parallel_for(s, resolved(s, subject))
    if parallel is None:
        st.info(
            t(
                "Upload one .txt file per language (its name is the language: en.txt, zh.txt, …), each with the same "
                "number of lines, line i the same sentence in every file."
            )
        )
        return
    texts.check_overlap(s, s.trained, parallel.as_text())
    baseline = "en" if "en" in parallel.texts else next(iter(parallel.texts))
    found = [(item, result) for item in measured(s, subject) if (result := costs(item, parallel, baseline))]
    if not found:
        st.info(t("Choose at least one tokenizer to measure."))
        return
    st.vega_lite_chart(premium_chart(found), width="stretch")
    sentences = len(next(iter(parallel.texts.values())))
    st.caption(
        t(
            "Premium: a language's tokens ÷ {baseline}'s tokens for the same {n:,} sentences (each sentence "
            "encoded on its own), on {text}. 2.0 means twice the tokens: twice the cost and half the context for "
            "the same content.",
            baseline=language_name(baseline),
            n=sentences,
            text=plain(parallel.label),
        )
    )
    spread_table(found)
    costs_table(found)
    own = resolved(s, subject) == "own"
    parity.render(s, parallel.texts if own else parallel_sample(), not own, baseline)
