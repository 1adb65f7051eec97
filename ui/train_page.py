"""The Train page's three parts: the corpus, the settings (what each means comes from the kind's row in
``playground.kinds``), and the result of the last training."""

from __future__ import annotations

import streamlit as st

from playground import extend_form, train_form
from playground.bases import BYTES
from playground.corpora import CORPUS_CHOICES, PASTE, SLUGS, UPLOAD, sample_name
from playground.i18n import N_, t
from playground.kinds import Kind, kind_of
from playground.patterns import PATTERN_CHOICES, PATTERN_LABELS
from playground.session import HOLDOUT_MAX, KINDS, TIE_RULES, Session
from playground.text import human_bytes, plain
from playground.trained import Trained, stop_reason_text
from ui import frame, train_start
from ui.callbacks import guarded
from ui.state import current
from ui.superword_settings import kind_changed, superword_inputs
from ui.tokenizer_output import training_window_html
from ui.uploads import corpus_paste_box, corpus_upload_box

OWN_TEXT = {PASTE: N_("Paste text"), UPLOAD: N_("Upload a text file")}
TIE_LABELS = {
    "greatest": N_("the greatest pair (Stanford CS336)"),
    "first": N_("the first seen (minbpe, Sennrich et al.)"),
    "hf": N_("Hugging Face tokenizers (the smallest ids)"),
}
"""The Train page's names of the tie rules (``playground.session.TIE_RULES``)."""


@guarded
def _on_corpus_change() -> None:
    s = current()
    if kind_of(s.kind).uses("base") and s.base != BYTES:  # the size is the base's + new merges: kept
        return
    if s.corpus in SLUGS and s.vocab != (suggested := SLUGS[s.corpus].vocab_size):
        # Said out loud: a number that changes by itself under the person's eyes looks like a bug.
        before, s.vocab = s.vocab, suggested
        s.notice(
            "info",
            plain(
                t("Vocab size set to {new:,}, what this corpus suggests (it was {old:,}).", new=suggested, old=before)
            ),
        )


def corpus_inputs(s: Session) -> None:
    """The corpus: a built-in sample, pasted text or an uploaded file; and how much of it to hold out."""
    st.subheader(t("1 · Corpus"))
    st.selectbox(
        t("Corpus"),
        CORPUS_CHOICES,
        format_func=lambda c: t(OWN_TEXT[c]) if c in OWN_TEXT else sample_name(c),
        key=Session.corpus.key,
        on_change=_on_corpus_change,
        persist_state="session",
    )
    if s.corpus in SLUGS:
        st.caption(plain(t(SLUGS[s.corpus].description)))
    elif s.corpus == PASTE:
        corpus_paste_box(s, height=200)
    else:
        corpus_upload_box(s)
    st.number_input(
        t("Hold out the last % of the lines (not trained on)"),
        min_value=0,
        max_value=HOLDOUT_MAX,
        step=5,
        key=Session.holdout.key,
        persist_state="session",
        help=t(
            "Kept from training (in a parallel corpus, the last lines of each language): bytes per "
            "token below and Compare's views measure on it."
        ),
    )


def settings_inputs(s: Session) -> None:
    """The algorithm and its settings; the vocab sizes this corpus allows, once known."""
    st.subheader(t("2 · Settings"))
    st.radio(
        t("Algorithm"),
        KINDS,
        format_func=lambda k: t(kind_of(k).label),
        key=Session.kind.key,
        persist_state="session",
        on_change=kind_changed,
        args=(s,),
    )
    kind = kind_of(s.kind)
    extending = train_start.start_input(s, kind)
    # No bounds here: a browser keeps a typed value outside a number box's bounds to itself (the box turns red and
    # Train trained the size before, without a word); the hint below and the Train button say what a size needs.
    st.number_input(
        t("Vocab size"),
        step=100,
        key=Session.vocab.key,
        persist_state="session",
        help=t(
            "Byte-level: 256 bytes + merges + special tokens. Classic: characters seen + </w> + merges, "
            "and <unk> (for characters never seen) as one more id."
        ),
    )
    # A base decides these: its own values, greyed (the session's are not what trains).
    shown = extend_form.base_settings(s) if extending else None
    own_settings_inputs(s, kind, extending, shown)
    if extending:
        st.caption(
            t(
                "Continuing a tokenizer: its own pre-tokenization, special tokens and normalization are used; new "
                "merges go to the most frequent pair, ties to the greatest."
            )
        )
    elif kind.settings_note is not None:
        st.caption(t(kind.settings_note))
    if kind.uses("transition"):
        superword_inputs(s)
    if extending and (problem := extend_form.vocab_problem(s)) is not None:
        st.warning(problem)
    elif (vocab_range := train_form.vocab_range(s)) is not None:  # else the Train button says what is wrong
        st.caption(vocab_range)
    train_start.advanced_inputs(s, kind)


def own_settings_inputs(s: Session, kind: Kind, extending: bool, shown: tuple[str, str, str] | None) -> None:
    """The pre-tokenization, tie rule and special tokens the person chooses, greyed where the kind or a base decides;
    a continued base's own pre-tokenization and special tokens (``shown``: its label, pattern, specials) read-only,
    saying where they come from."""
    from_base = t("From {base}: a continued tokenizer keeps its base's.", base=shown[0]) if shown else ""
    if shown is not None:
        st.text_input(t("Pre-tokenization"), shown[1], disabled=True, help=from_base)
    else:
        st.selectbox(
            t("Pre-tokenization"),
            PATTERN_CHOICES,
            format_func=lambda p: t(PATTERN_LABELS[p]),
            key=Session.pattern.key,
            disabled=not kind.user_pattern or extending,
            persist_state="session",
            help=t("Text is split into pre-tokens first; merges never cross a pre-token boundary."),
        )
    if s.pattern == "custom" and kind.user_pattern and not extending:
        st.text_input(
            t("Custom regex (Python regex module syntax)"),
            key=Session.regex.key,
            max_chars=Session.regex.max_chars,
            persist_state="session",
        )
    st.selectbox(
        t("Ties between pairs of equal count go to"),
        TIE_RULES,
        format_func=lambda rule: t(TIE_LABELS[rule]),
        key=Session.ties.key,
        disabled=not kind.uses("ties") or extending,
        persist_state="session",
        help=t("Which pair a round merges when several have the highest count: the tutorial you follow."),
    )
    if shown is not None:
        st.text_input(t("Special tokens (separated by spaces)"), shown[2], disabled=True, help=from_base)
    else:
        st.text_input(
            t("Special tokens (separated by spaces)"),
            key=Session.specials.key,
            max_chars=Session.specials.max_chars,
            disabled=not kind.user_specials or extending,
            persist_state="session",
        )


def result(trained: Trained, trained_before: Trained | None) -> None:
    """What training made: its measurements, what they were measured on, the start of the text tokenized."""
    st.subheader(t("3 · Result"), anchor="result")
    stats = trained.stats
    # The bytes-per-token label is long, and a size ("957.1 KB") in a fifth of the row was cut: room for both.
    c1, c2, c3, c4 = st.columns([2, 2, 3.4, 2.6])
    c1.metric(t("New merges") if trained.request.base else t("Merges made"), f"{trained.num_merges:,}")
    c2.metric(t("Training time"), t("{n:.2f} s", n=trained.result.seconds))
    changed = f"{stats['bpt_after']:.2f}" != f"{stats['bpt_before']:.2f}"
    measured = t("Bytes per token (held-out part)") if stats.get("heldout") else t("Bytes per token (training text)")
    c3.metric(
        measured,
        f"{stats['bpt_after']:.2f}",
        # (no delta when nothing changed to two decimals: "2.90 ↑ from 2.90" reads as a gain)
        delta=t("from {bpt:.2f}", bpt=stats["bpt_before"]) if changed else None,
        delta_color="off",
        help=t("Before training: the base's tokens.")
        if trained.request.base
        else t("Before training every byte (classic: every character and </w>) is a token."),
    )
    c4.metric(
        t("Corpus"),
        human_bytes(trained.corpus_bytes),
        help=t("{n:,} bytes, {chars:,} characters", n=trained.corpus_bytes, chars=trained.corpus_chars),
    )
    notes = [t("Tokenizer: {label}.", label=plain(trained.label))]
    if trained.request.base and trained.num_merges:
        first = trained.trace.base
        notes.append(
            t(
                "Every token and id of {base} is kept; the new tokens have ids {first:,} to {last:,}.",
                base=plain(trained.request.base_label),
                first=first,
                last=first + trained.num_merges - 1,
            )
        )
    if not stats.get("heldout"):
        notes.append(
            t(
                "Bytes per token is measured on the training text itself, which flatters it: hold out part of "
                "the corpus, or see Compare's held-out text."
            )
        )
    if stats.get("truncated"):
        notes.append(t("Bytes per token measured on the first {n:,} bytes.", n=stats["sample_bytes"]))
    if trained.result.stopped_early:
        notes.append(t("Stopped early: {reason}.", reason=plain(stop_reason_text(trained.result.stop_reason))))
    st.caption(" ".join(notes))
    st.markdown(t("**The start of the training text, tokenized** (hover a token for its id):"))
    st.html(training_window_html(trained))
    if trained is not trained_before:
        frame.scroll_into_view("result")
    st.page_link("pages/1_Merges.py", label=t("Watch every merge round →"))
    st.page_link("pages/2_Encode.py", label=t("Encode your own text →"))
