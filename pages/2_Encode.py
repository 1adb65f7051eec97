"""Encode: any text with the tokenizer just trained, GPT-2, cl100k_base, o200k_base, or one loaded from files."""

from __future__ import annotations

import streamlit as st

from ui import encoding as enc
from ui import state
from ui.tokens import display_str

state.setup_page("Encode", "🔡")
ss = st.session_state
st.title("Encode text")

SAMPLE_TEXT = (
    "Tokenizers split text into tokens. Hello, world! 你好，世界。\n"
    "\tdef square(x): return x ** 2  # code, too\n"
    "Emoji: 🙂🚀 and accents: café, naïve."
)
ss.setdefault("encode_text", SAMPLE_TEXT)
ss.setdefault("encode_tokenizer", None)

trained = state.current()
LOAD = "__load__"
options: list[str] = []
if trained is not None:
    options.append("__trained__")
options.extend(enc.REFERENCE_NAMES)
options.extend(f"file:{label}" for label in ss["loaded_tokenizers"])
options.append(LOAD)
if ss["encode_tokenizer"] not in options:
    ss["encode_tokenizer"] = options[0]


def _label(option: str) -> str:
    if option == "__trained__":
        return f"Just trained: {trained.label}" if trained else "Just trained"
    if option == LOAD:
        return "Load from files…"
    if option.startswith("file:"):
        return "File: " + option[5:]
    return enc.REFERENCE_LABELS.get(option, option)


def _load_files() -> None:
    """Load the uploaded files. A callback: it runs before the tokenizer selectbox exists, so it may
    select the loaded tokenizer (a widget's key cannot be set once the widget is drawn)."""
    try:
        loaded, label = enc.load_uploaded(ss.get("tokenizer_files"))
    except ValueError as error:
        ss["encode_load_error"] = str(error)
    except Exception as error:  # never a traceback in the browser
        ss["encode_load_error"] = f"Could not load a tokenizer: {type(error).__name__}: {error}"
    else:
        ss["loaded_tokenizers"][label] = loaded
        ss["encode_tokenizer"] = f"file:{label}"


top_left, top_right = st.columns([3, 2], gap="large")
with top_left:
    st.text_area("Text to encode", key="encode_text", height=150, persist_state="session")
with top_right:
    st.selectbox("Tokenizer", options, format_func=_label, key="encode_tokenizer")
    show_ids = st.toggle("Show token ids instead of text", key="show_ids", persist_state="session")
    if trained is None:
        st.caption("Train a tokenizer on the Train page to compare it here.")

choice = ss["encode_tokenizer"]
tokenizer = None
classic = False

if choice == LOAD:
    files = st.file_uploader(
        "Tokenizer file(s): bpe-playground.json, tokenizer.json (Hugging Face), tokenizer.tiktoken, "
        "or vocab.json + merges.txt together",
        accept_multiple_files=True,
        key="tokenizer_files",
    )
    st.button("Load tokenizer", key="load_tokenizer", disabled=not files, on_click=_load_files)
    if ss.get("encode_load_error"):
        st.error(ss.pop("encode_load_error"))
    st.stop()
elif choice == "__trained__":
    tokenizer = trained.tokenizer
    classic = enc.is_classic(trained)
elif choice.startswith("file:"):
    tokenizer = ss["loaded_tokenizers"].get(choice[5:])
else:
    try:
        tokenizer = enc.reference_tokenizer(choice)
    except Exception as error:
        st.error(f"The {choice} vocabulary is not available: {error}")
        st.stop()

if tokenizer is None:
    st.error("That tokenizer is no longer loaded; pick another.")
    st.stop()

text = ss["encode_text"] or ""
try:
    result = enc.encode(tokenizer, text, classic)
except Exception as error:  # a tokenizer that cannot encode this text: say so, keep the page
    st.error(f"Could not encode the text: {type(error).__name__}: {error}")
    st.stop()

c1, c2, c3, c4 = st.columns(4)
c1.metric("Characters", f"{result.n_chars:,}")
c2.metric("Bytes (UTF-8)", f"{result.n_bytes:,}")
c3.metric("Tokens", f"{result.n_tokens:,}")
c4.metric("Bytes per token", f"{result.n_bytes / result.n_tokens:.2f}" if result.n_tokens else "–")
if classic:
    st.caption("Classic BPE drops whitespace: words are shown with their `</w>` end-of-word marks.")
st.caption(
    "Whitespace is shown as · (space), ↵ (newline), → (tab); ⟨E4 BD⟩ are bytes of a character split across "
    "tokens. Hover a token for its id."
)
if result.n_tokens > enc.MAX_RENDERED_TOKENS:
    st.caption(f"Showing the first {enc.MAX_RENDERED_TOKENS:,} tokens.")
st.html(enc.encoded_html(result, show_ids))

st.subheader("One word, merge by merge")
words = enc.pretokens(tokenizer, text, classic)
if not words:
    st.caption("Type some text above to pick a word.")
else:
    word = st.selectbox(
        "Word (pre-token)" if not classic else "Word",
        words,
        format_func=display_str,
        key="step_word",
    )
    try:
        steps = enc.word_steps(tokenizer, word, classic)
    except Exception as error:
        st.error(f"Could not trace the merges of that word: {type(error).__name__}: {error}")
    else:
        st.caption(f"{len(steps) - 1} merge{'s' if len(steps) != 2 else ''} applied, lowest rank first.")
        st.html(enc.steps_html(steps))
