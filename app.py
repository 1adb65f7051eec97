"""BPE Playground -- Train: pick a corpus and settings, train, see the result.

Run: streamlit run app.py
"""

from __future__ import annotations

import time

import streamlit as st

from ui import state
from ui.corpora import SAMPLES, CorpusError, decode_upload
from ui.state import KIND_BYTE, KIND_CLASSIC, KIND_LABELS, PASTE, PATTERN_CHOICES, PATTERN_LABELS, UPLOAD

state.setup_page("Train", "🔤")
ss = st.session_state

BIG_PASTE = 50_000  # characters; a bigger paste is moved out of the text box (see _store_paste)


def _store_paste() -> None:
    """Keep the pasted corpus in session state. A big paste is then cleared from the box, so the
    browser does not re-send megabytes with every click (widget values travel on each rerun)."""
    value = ss.get("paste_box", "") or ""
    ss["pasted_text"] = value
    if len(value) > BIG_PASTE:
        ss["paste_box"] = ""
        ss["last_message"] = (
            "info",
            f"Pasted text stored ({len(value):,} characters). The box was cleared so the text is not "
            "re-sent on every click; paste again to replace it.",
        )


def _store_upload() -> None:
    uploaded = ss.get("upload_box")
    if uploaded is None:
        return
    try:
        decoded = decode_upload(uploaded.getvalue(), state.md_escape(uploaded.name))  # named in st.error
    except CorpusError as error:
        ss["last_message"] = ("error", str(error))
        return
    ss["upload"] = {
        "name": uploaded.name,
        "text": decoded.text,
        "replaced": decoded.replaced_bytes,
        "digest": state.text_digest(decoded.text),
    }
    ss["last_message"] = None


def _on_source_change() -> None:
    source = ss["corpus_source"]
    if source in SAMPLES:
        ss["vocab_size"] = SAMPLES[source].vocab_size


def _cancel() -> None:
    # Clicking Cancel while training asks Streamlit for a rerun; the next progress update then
    # raises inside bpe_core.train, which stops it. This callback runs first in the new run.
    ss["last_message"] = ("warning", "Training cancelled. The previous tokenizer and settings are kept.")


st.title("BPE Playground")
st.markdown(
    "Train a **byte-pair encoding** tokenizer on your own text, then watch every merge on the "
    "**Merges** page and try it on the **Encode** page."
)

left, right = st.columns([3, 2], gap="large")

with left:
    st.subheader("1 · Corpus")
    options = [*SAMPLES, PASTE, UPLOAD]
    st.selectbox(
        "Corpus",
        options,
        key="corpus_source",
        on_change=_on_source_change,
        persist_state="session",
    )
    source = ss["corpus_source"]
    if source in SAMPLES:
        st.caption(SAMPLES[source].description)
    elif source == PASTE:
        st.text_area(
            "Paste your text",
            key="paste_box",
            height=200,
            on_change=_store_paste,
            placeholder="Paste or type text here, then click outside the box (or press Ctrl+Enter).",
            persist_state="session",
        )
        if ss["pasted_text"] and not ss.get("paste_box"):
            st.caption(f"Using the stored pasted text: {len(ss['pasted_text']):,} characters.")
    else:
        st.file_uploader(
            "Upload a UTF-8 .txt file",
            type=["txt", "text", "md", "csv", "py", "json"],
            key="upload_box",
            on_change=_store_upload,
        )
        upload = ss["upload"]
        if upload:
            st.caption(f"Using **{state.md_escape(upload['name'])}**: {len(upload['text']):,} characters.")
            if upload["replaced"]:
                st.warning(
                    f"{state.md_escape(upload['name'])} is not valid UTF-8: {upload['replaced']:,} byte"
                    f"{'s were' if upload['replaced'] != 1 else ' was'} replaced by � (U+FFFD).",
                    icon=":material/warning:",
                )

with right:
    st.subheader("2 · Settings")
    st.radio(
        "Algorithm",
        [KIND_BYTE, KIND_CLASSIC],
        format_func=KIND_LABELS.get,
        key="kind",
        persist_state="session",
    )
    classic = ss["kind"] == KIND_CLASSIC
    st.number_input(
        "Vocab size",
        min_value=1,
        max_value=200_000,
        step=100,
        key="vocab_size",
        persist_state="session",
        help="Byte-level: 256 bytes + merges + special tokens. Classic: characters seen + </w> + merges.",
    )
    st.selectbox(
        "Pre-tokenization",
        PATTERN_CHOICES,
        format_func=PATTERN_LABELS.get,
        key="pattern_choice",
        disabled=classic,
        persist_state="session",
        help="Text is split into pre-tokens first; merges never cross a pre-token boundary.",
    )
    if ss["pattern_choice"] == "custom" and not classic:
        st.text_input("Custom regex (Python `regex` module syntax)", key="custom_regex", persist_state="session")
    st.text_input(
        "Special tokens (separated by spaces)",
        key="special_tokens_text",
        disabled=classic,
        persist_state="session",
    )
    if classic:
        st.caption("Classic BPE splits on whitespace and marks word ends with `</w>`.")

message = ss.get("last_message")
if message:
    level, text = message
    getattr(st, level)(text)
    ss["last_message"] = None

train_clicked = st.button("Train ▶", type="primary", key="train_button")
status = st.container()

if train_clicked:
    text, label, sha = state.corpus_text()
    error = None
    pattern = None
    if not text:
        error = (
            "No file uploaded yet (or the upload was refused): upload a .txt file first."
            if source == UPLOAD and ss.get("upload") is None
            else "The corpus is empty: paste some text, upload a .txt file or pick a sample."
        )
    if error is None and not classic:
        try:
            pattern = state.resolve_pattern(ss["pattern_choice"], ss.get("custom_regex", ""))
        except ValueError as exc:
            error = f"Bad pre-tokenization pattern: {exc}"
    if error:
        status.error(error)
    else:
        with status:
            bar = st.progress(0.0, text="Starting…")
            st.button("Cancel", key="cancel_button", on_click=_cancel)
            started = time.perf_counter()

            def on_progress(done: int, total: int) -> None:
                fraction = min(1.0, done / total) if total else 1.0
                elapsed = time.perf_counter() - started
                bar.progress(fraction, text=f"Training… {done:,} / {total:,} steps ({elapsed:.1f} s)")

            try:
                trained, cached = state.train_corpus(
                    text,
                    kind=ss["kind"],
                    vocab_size=int(ss["vocab_size"]),
                    pattern=pattern,
                    special_tokens=[] if classic else state.parse_special_tokens(ss["special_tokens_text"]),
                    corpus_label=label,
                    text_sha=sha,
                    progress=on_progress,
                )
            except state.TrainingStopped as stopped:
                bar.empty()
                st.error(str(stopped))
            except Exception as exc:  # never a traceback in the browser
                bar.empty()
                st.error(f"Training failed: {type(exc).__name__}: {exc}")
            else:
                bar.empty()
                ss["trained"] = trained
                ss["merge_round"] = trained.num_merges
                ss["last_train"] = {"cached": cached, "seconds": time.perf_counter() - started}
                st.rerun()  # redraw the page (and the sidebar) with the new tokenizer

trained = state.current()
if trained is not None:
    st.subheader("3 · Result")
    info = ss.get("last_train") or {}
    result = trained.result
    stats = trained.stats
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Merges made", f"{trained.num_merges:,}")
    c2.metric("Training time", f"{result.seconds:.2f} s")
    c3.metric(
        "Bytes per token",
        f"{stats['bpt_before']:.2f} → {stats['bpt_after']:.2f}",
        help="Before training every byte (classic: every character and </w>) is a token.",
    )
    c4.metric(
        "Corpus",
        state.human_bytes(trained.corpus_bytes),
        help=f"{trained.corpus_bytes:,} bytes, {trained.corpus_chars:,} characters",
    )
    notes = [f"Tokenizer: {state.md_escape(trained.label)}."]
    if info.get("cached"):
        notes.append("Same text and settings as before: result taken from the cache, not retrained.")
    if stats.get("truncated"):
        notes.append(f"Bytes per token measured on the first {stats['sample_bytes']:,} bytes.")
    if result.stopped_early:
        notes.append(f"Stopped early: {state.md_escape(result.stop_reason or '')}.")
    st.caption(" ".join(notes))
    st.markdown("**The start of the training text, tokenized** (hover a token for its id):")
    st.html(state.window_tokens_html(trained))
    st.page_link("pages/1_Merges.py", label="Watch every merge round →")
    st.page_link("pages/2_Encode.py", label="Encode your own text →")
else:
    st.info("Click **Train** to train on the selected sample.")
