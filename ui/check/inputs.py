"""The learner's inputs: the text their trainer trained on (a built-in corpus, or the session's pasted or uploaded
text, shared with the Train page), its settings, and their merges (pasted lines, or files read when uploaded: a
refused file keeps the last good merges and says why, as plain text)."""

from __future__ import annotations

from functools import partial

import streamlit as st

from playground import check as model
from playground.corpora import CORPUS_CHOICES, PASTE, UPLOAD, load_sample, sample_name
from playground.i18n import N_, listed, t
from playground.patterns import NAMED_OR_NONE, PATTERN_LABELS
from playground.session import Session
from playground.text import plain
from ui.callbacks import guarded
from ui.uploads import corpus_paste_box, corpus_upload_box

OWN_TEXT = {PASTE: N_("Paste the text"), UPLOAD: N_("Upload the text")}
INPUTS = {"paste": N_("Paste merges"), "upload": N_("Upload files")}


def text_inputs(s: Session) -> None:
    """The text the learner's trainer trained on: a built-in corpus (the Train page's choice at first), or the
    session's pasted or uploaded text (the same the Train page uses)."""
    if s.check_corpus not in CORPUS_CHOICES:
        s.check_corpus = s.corpus
    st.selectbox(
        t("Training text"),
        CORPUS_CHOICES,
        key=Session.check_corpus.key,
        persist_state="session",
        format_func=lambda c: t(OWN_TEXT[c]) if c in OWN_TEXT else sample_name(c),
    )
    if s.check_corpus == PASTE:
        corpus_paste_box(s, height=150)
    elif s.check_corpus == UPLOAD:
        corpus_upload_box(s)
    else:  # a built-in text: the learner's own trainer needs it too (they had to read it from the app's sources)
        slug = s.check_corpus
        st.download_button(
            t("Download this text (.txt) for your trainer"),
            data=partial(load_sample, slug),  # read on the click only
            file_name=f"{slug}.txt",
            mime="text/plain",
            icon=":material/download:",
            on_click="ignore",
            key="check_text_download",
        )


def settings_inputs(s: Session) -> None:
    """The learner's trainer's settings: special tokens, pre-tokenization, classic ``</w>`` words."""
    st.toggle(
        t("Classic BPE </w>"),
        help=t("Words split on whitespace, each ending in </w> (Sennrich et al.): checked against classic training."),
        key=Session.check_classic.key,
        persist_state="session",
    )
    st.selectbox(
        t("Pre-tokenization"),
        NAMED_OR_NONE,
        format_func=lambda p: t(PATTERN_LABELS[p]),
        key=Session.check_pattern.key,
        disabled=s.check_classic,
        persist_state="session",
    )
    st.text_input(
        t("Special tokens (separated by spaces)"),
        key=Session.check_specials.key,
        max_chars=Session.check_specials.max_chars,
        disabled=s.check_classic,
        persist_state="session",
    )


def merges_inputs(s: Session) -> None:
    """The learner's merges: pasted lines, or a merges file (and its vocab.json, checked against it)."""
    st.radio(
        t("Your merges"),
        tuple(INPUTS),
        format_func=lambda k: t(INPUTS[k]),
        key=Session.check_input.key,
        horizontal=True,
        persist_state="session",
    )
    if s.check_input == "paste":
        st.text_area(
            t("One merge a line, in order"),
            key=Session.check_paste.key,
            height=200,
            placeholder="t h\nth e\nĠ t",
            persist_state="session",
        )
        return
    st.file_uploader(
        t("Merges: merges.txt (GPT-2, CS336), a minbpe .model or a tokenizer.json"),
        type=["txt", "model", "json", "merges"],
        key=Session.check_file.key,
        on_change=store_files,
        args=(s,),
    )
    st.file_uploader(
        t("Optional: the vocab.json written beside merges.txt"),
        type=["json", "txt"],
        key=Session.check_vocab.key,
        on_change=store_files,
        args=(s,),
    )
    if s.check_problem:
        st.error(plain(s.check_problem, limit=600), icon=":material/error:")
    if s.check_uploaded is not None:
        learner = s.check_uploaded
        using = N_("Still using the last good file: {n:,} merges.") if s.check_problem else N_("{n:,} merges read.")
        st.caption(t(using, n=len(learner.merges)))


@guarded
def store_files(s: Session) -> None:
    """A merges or vocab file was uploaded or removed: read them, or say why not (the last good merges stay)."""
    s.check_problem = ""
    merges, vocab = s.check_file, s.check_vocab
    if merges is None:
        s.check_uploaded = None
        return
    given = (vocab.name, vocab.getvalue()) if vocab is not None else None
    try:
        learner = model.merges_from_files(merges.name, merges.getvalue(), given)
    except model.CheckInputError as error:
        s.check_problem = t(error.message)
        return
    s.check_uploaded = learner
    found = []
    if learner.special_tokens and not s.check_classic:
        s.check_specials = " ".join(learner.special_tokens)
        found.append(t("special tokens"))
    if (name := model.named_pattern(learner.pattern)) is not None:
        s.check_pattern = name
        found.append(t("pre-tokenization"))
    if found:
        s.notice("info", t("Settings taken from {name}: {what}.", name=plain(merges.name), what=listed(found)))
