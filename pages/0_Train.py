"""Train: pick a corpus and settings, train, see the result."""

from __future__ import annotations

import streamlit as st

from ui import frame, settings, training
from ui.corpora import CORPUS_CHOICES, PASTE, SLUGS, UPLOAD, CorpusError, decode_upload, sample_name
from ui.encoding import training_window_html
from ui.session import KINDS, PATTERN_CHOICES, Session
from ui.text import human_bytes, plain

s = frame.page("train")

BIG_PASTE = 50_000  # characters; a bigger paste is moved out of the box (widget values travel on every rerun)
OWN_TEXT = {PASTE: "Paste text", UPLOAD: "Upload a text file"}
KIND_LABELS = {"byte": "Byte-level (GPT-2 style)", "classic": "Classic (Sennrich: characters + </w>)"}
PATTERN_LABELS = {
    "gpt2": "gpt2 (GPT-2 regex)",
    "cl100k": "cl100k (GPT-4 regex)",
    "o200k": "o200k (GPT-4o regex)",
    "whitespace": "whitespace (runs of non-space / space)",
    "none": "none (merges may cross words)",
    "custom": "custom regex…",
}


def _store_paste() -> None:
    s.pasted_text = s.paste_box or ""
    if len(s.pasted_text) > BIG_PASTE:
        s.paste_box = ""
        s.notice("info", f"Pasted text stored ({len(s.pasted_text):,} characters). The box was cleared so the "
                 "text is not re-sent on every click; paste again to replace it.")


def _store_upload() -> None:
    if s.upload_box is None:
        return
    try:
        s.upload = decode_upload(s.upload_box.getvalue(), s.upload_box.name)
    except CorpusError as error:
        s.notice("error", plain(error, limit=500))


def _on_corpus_change() -> None:
    if s.corpus in SLUGS:
        s.vocab = SLUGS[s.corpus].vocab_size


st.title("BPE Playground")
st.markdown("Train a **byte-pair encoding** tokenizer on your own text, then watch every merge on the "
            "**Merges** page and try it on the **Encode** page.")

left, right = st.columns([3, 2], gap="large")
with left:
    st.subheader("1 · Corpus")
    st.selectbox("Corpus", CORPUS_CHOICES, format_func=lambda c: OWN_TEXT.get(c) or sample_name(c),
                 key=Session.corpus.key, on_change=_on_corpus_change, persist_state="session")
    if s.corpus in SLUGS:
        st.caption(plain(SLUGS[s.corpus].description))
    elif s.corpus == PASTE:
        st.text_area("Paste your text", key=Session.paste_box.key, height=200, on_change=_store_paste,
                     placeholder="Paste or type text here, then click outside the box (or press Ctrl+Enter).")
        if s.pasted_text and not s.paste_box:
            st.caption(f"Using the stored pasted text: {len(s.pasted_text):,} characters.")
    else:
        st.file_uploader("Upload a text file (UTF-8, or UTF-16/32 with a byte-order mark)",
                         type=["txt", "text", "md", "csv", "py", "json"], key=Session.upload_box.key,
                         on_change=_store_upload)
        if s.upload is not None:
            st.caption(f"Using {plain(s.upload.name)}: {len(s.upload.text):,} characters.")
            if s.upload.replaced_bytes:
                n = s.upload.replaced_bytes
                st.warning(f"{plain(s.upload.name)} is not valid text: {n:,} byte{'s were' if n != 1 else ' was'} "
                           "replaced by � (U+FFFD).", icon=":material/warning:")

with right:
    st.subheader("2 · Settings")
    st.radio("Algorithm", KINDS, format_func=KIND_LABELS.get, key=Session.kind.key, persist_state="session")
    classic = s.kind == "classic"
    st.number_input("Vocab size", min_value=1, max_value=200_000, step=100, key=Session.vocab.key,
                    persist_state="session",
                    help="Byte-level: 256 bytes + merges + special tokens. Classic: characters seen + </w> + merges.")
    st.selectbox("Pre-tokenization", PATTERN_CHOICES, format_func=PATTERN_LABELS.get, key=Session.pattern.key,
                 disabled=classic, persist_state="session",
                 help="Text is split into pre-tokens first; merges never cross a pre-token boundary.")
    if s.pattern == "custom" and not classic:
        st.text_input("Custom regex (Python regex module syntax)", key=Session.regex.key, persist_state="session")
    st.text_input("Special tokens (separated by spaces)", key=Session.specials.key, disabled=classic,
                  persist_state="session")
    if classic:
        st.caption("Classic BPE splits on whitespace and marks word ends with </w>.")
    try:
        text = settings.corpus_text(s)
        bounds = settings.limits_for(s, text, settings.corpus_digest(s, text))
    except settings.SettingsError:
        pass  # said when Train is clicked
    else:
        more = "" if bounds.exact else " (the upper end is only bounded by the corpus size)"
        st.caption(f"This corpus allows vocab sizes {bounds.allowed}: at most "
                   f"{bounds.maximum - bounds.minimum:,} merges{more}.")

trained_before = s.trained
if st.button("Train ▶", type="primary", key="train_button"):
    try:
        request, text = settings.request_for(s)
    except settings.SettingsError as error:
        st.error(str(error))
        if error.pattern is not None:
            st.code(error.pattern, language=None)
    else:
        training.run(s, request, text)
elif s.link_request:
    training.ensure(s, "see it here")

def _result(trained) -> None:
    st.subheader("3 · Result", anchor="result")
    stats = trained.stats
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Merges made", f"{trained.num_merges:,}")
    c2.metric("Training time", f"{trained.result.seconds:.2f} s")
    c3.metric("Bytes per token", f"{stats['bpt_after']:.2f}", delta=f"from {stats['bpt_before']:.2f}",
              delta_color="off", help="Before training every byte (classic: every character and </w>) is a token.")
    c4.metric("Corpus", human_bytes(trained.corpus_bytes), help=f"{trained.corpus_bytes:,} bytes, "
              f"{trained.corpus_chars:,} characters")
    notes = [f"Tokenizer: {plain(trained.label)}."]
    if stats.get("truncated"):
        notes.append(f"Bytes per token measured on the first {stats['sample_bytes']:,} bytes.")
    if trained.result.stopped_early:
        notes.append(f"Stopped early: {plain(trained.result.stop_reason or '')}.")
    st.caption(" ".join(notes))
    st.markdown("**The start of the training text, tokenized** (hover a token for its id):")
    st.html(training_window_html(trained))
    if trained is not trained_before:
        frame.scroll_into_view("result")
    st.page_link("pages/1_Merges.py", label="Watch every merge round →")
    st.page_link("pages/2_Encode.py", label="Encode your own text →")


if s.trained is None:
    st.info("Click **Train** to train on the selected corpus.")
else:
    _result(s.trained)
