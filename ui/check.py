"""The "Check your BPE" page's parts: the text and settings a learner's trainer used, their merges (pasted or
uploaded), the check as a killable job, and its report (``playground.check`` holds what is not drawing).

Everything a learner gives is shown as plain text (``playground.text.plain``) or in a dataframe, never as Markdown
or HTML; a refused file keeps the last good merges and the last result.
"""

from __future__ import annotations

import streamlit as st

from bpe_core.analysis.check import LearnerMerges
from bpe_core.analysis.check.explain import shown_pair
from playground import check as model
from playground.corpora import CORPUS_CHOICES, PASTE, SLUGS, UPLOAD, load_sample, sample_name
from playground.i18n import N_, later, t, tn
from playground.session import Session
from playground.text import plain
from ui import training
from ui.callbacks import guarded
from ui.own_text import refill_paste_box, store_corpus_paste, store_corpus_upload
from ui.uploads import upload_status

OWN_TEXT = {PASTE: N_("Paste the text"), UPLOAD: N_("Upload the text")}
PATTERN_LABELS = {
    "gpt2": N_("gpt2 (GPT-2 regex)"),
    "cl100k": N_("cl100k (GPT-4 regex)"),
    "o200k": N_("o200k (GPT-4o regex)"),
    "whitespace": N_("whitespace (runs of non-space / space)"),
    "none": N_("none (the whole text as one sequence)"),
}
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
        refill_paste_box(s)
        st.text_area(
            t("Paste your text"),
            key=Session.paste_box.key,
            height=150,
            on_change=store_corpus_paste,
            args=(s,),
            placeholder=t("Paste or type text here, then click outside the box (or press Ctrl+Enter)."),
        )
        if s.pasted is not None and not s.paste_box:
            st.caption(t("Using the stored pasted text: {n:,} characters.", n=len(s.pasted.text)))
    elif s.check_corpus == UPLOAD:
        st.file_uploader(
            t("Upload a text file (UTF-8, or UTF-16/32 with a byte-order mark)"),
            type=["txt", "text", "md", "csv", "py", "json"],
            key=Session.upload_box.key,
            on_change=store_corpus_upload,
            args=(s,),
        )
        upload_status(s.upload, s.upload_problem)


def settings_inputs(s: Session) -> None:
    """The learner's trainer's settings: special tokens, pre-tokenization, classic ``</w>`` words."""
    st.toggle(
        t("Classic BPE (words split on whitespace, ending in </w>)"),
        key=Session.check_classic.key,
        persist_state="session",
    )
    st.selectbox(
        t("Pre-tokenization"),
        model.CHECK_PATTERNS,
        format_func=lambda p: t(PATTERN_LABELS[p]),
        key=Session.check_pattern.key,
        disabled=s.check_classic,
        persist_state="session",
    )
    st.text_input(
        t("Special tokens (separated by spaces)"),
        key=Session.check_specials.key,
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
        s.notice("info", t("Settings taken from {name}: {what}.", name=plain(merges.name), what=", ".join(found)))


def run_check(s: Session) -> None:
    """Check the learner's merges as a killable job (progress, Cancel); a refusal or failure keeps the last result."""
    try:
        text, label = _text(s)
        learner = model.merges_from_paste(s.check_paste) if s.check_input == "paste" else _uploaded(s)
    except model.CheckInputError as error:
        st.error(plain(t(error.message), limit=800), icon=":material/error:")
        return
    options = model.settings(s.check_specials, s.check_pattern, s.check_classic)
    cancelled = t("Check cancelled. The result below, if any, is the previous one.")
    try:
        report = training.with_progress(
            s,
            model.check_job,
            (text, learner.merges, options),
            t("Checking {n:,} merges", n=len(learner.merges)),
            key="check",
            cancelled=cancelled,
        )
    except training.STOPPED as failure:
        st.error(t("The check stopped: {reason}. The previous result is kept.", reason=plain(failure, limit=600)))
        return
    merges_label = t("pasted merges") if s.check_input == "paste" else s.check_file.name if s.check_file else ""
    s.checked = model.Checked(report, label, merges_label, len(learner.merges))


def _text(s: Session) -> tuple[str, str]:
    if s.check_corpus == PASTE:
        if s.pasted is None:
            raise model.CheckInputError(later("No text pasted yet: paste the text your trainer trained on."))
        return s.pasted.text, sample_name(PASTE)
    if s.check_corpus == UPLOAD:
        if s.upload is None:
            raise model.CheckInputError(later("No text file uploaded yet: upload the text your trainer trained on."))
        return s.upload.text, s.upload.name
    slug = s.check_corpus if s.check_corpus in SLUGS else s.corpus
    return load_sample(slug), sample_name(slug)


def _uploaded(s: Session) -> LearnerMerges:
    if s.check_uploaded is None:
        raise model.CheckInputError(later("No merges file uploaded yet (or it was refused): upload one first."))
    return s.check_uploaded


def report(checked: model.Checked) -> None:
    """The answer: where the merges part, why (in the session's language), both lists, the candidates there."""
    check = checked.check
    st.subheader(t("Result"), anchor="check-result")
    st.caption(
        t(
            "{n:,} merges ({merges}) checked against bpe_core's training on {text}.",
            n=checked.given,
            merges=plain(checked.merges_label),
            text=plain(checked.text_label),
        )
    )
    k = check.first_difference
    c1, c2, c3 = st.columns(3)
    c1.metric(t("First difference"), t("none") if k is None else t("merge {n:,}", n=k + 1))
    c2.metric(t("Cause"), model.cause_name(check))
    after = max(0, checked.given - k - 1) if k is not None else 0
    c3.metric(t("Later merges that agree"), f"{check.later_agreeing:,} / {after:,}" if k is not None else "—")
    sentence = plain(model.explanation(check), limit=2_000)
    if k is None:
        st.success(sentence, icon=":material/check_circle:")
    else:
        st.warning(sentence, icon=":material/difference:")
    if k is None:
        return
    if check.tie_set:
        pairs = ", ".join(shown_pair(c.left, c.right) for c in check.tie_set)
        st.markdown(
            tn(
                "**Tied at merge {number:,}:** 1 pair occurs {count:,} times: {pairs}",
                "**Tied at merge {number:,}:** {n:,} pairs occur {count:,} times each: {pairs}",
                len(check.tie_set),
                number=k + 1,
                count=check.tie_set[0].count,
                pairs=plain(pairs, 600),
            )
        )
    if check.picking_rules:
        st.markdown(t("**Tie rules that pick yours:** {rules}", rules=plain(model.rule_names(check.picking_rules))))
    elif check.cause == "tie-break":
        st.markdown(t("**Tie rules that pick yours:** none of the known ones."))
    st.caption(
        t(
            "Of your merges after merge {number:,}, {same:,} equal bpe_core's at the same rank and {shared:,} "
            "are learned by bpe_core at some rank.",
            number=k + 1,
            same=check.later_agreeing,
            shared=check.later_shared,
        )
    )
    left, right = st.columns([3, 2])
    with left:
        st.markdown(t("**Both lists up to the difference**"))
        st.dataframe(model.side_by_side(check), hide_index=True)
        if k + 1 > model.SHOWN_ROWS:
            st.caption(t("The last {n:,} merges up to the difference.", n=model.SHOWN_ROWS))
    candidates = model.candidate_rows(check)
    if candidates:  # none when the text has no pair left at that round
        with right:
            st.markdown(t("**The leading pairs at merge {number:,}** (counted as bpe_core counts)", number=k + 1))
            st.dataframe(candidates, hide_index=True)
