"""Encode: any text with the tokenizer just trained, a built-in one (OpenAI's, Llama, Qwen, Mistral), or one loaded
from files; others side by side with their counts, ids to copy, and ids typed back into text (``ui.encode_side``)."""

from __future__ import annotations

from functools import partial

import streamlit as st

from playground.i18n import N_, t
from playground.session import MAX_LINK_TEXT, TRAINED, Session
from playground.text import plain
from ui import dropout, encode_side, frame, import_box, page_training, tokenizer_output

s = frame.page("encode")
st.title(t("Encode text"))

if s.tokenizer == TRAINED and (s.trained is not None or s.link_pending):
    page_training.ensure(s, N_("encode with it"))
choices = tokenizer_output.tokenizer_choices(s)
if s.tokenizer not in choices:  # e.g. nothing trained yet: the first model the session compares with (in Chinese Qwen)
    s.tokenizer = next((name for name in s.refs if name in choices), next(iter(choices)))

# The whole width: a tokenizer's name (a file's, with its settings) is long, and a narrow box cut it.
st.selectbox(
    t("Tokenizer"), list(choices), format_func=choices.__getitem__, key=Session.tokenizer.key, persist_state="session"
)
top_left, top_right = st.columns([3, 2], gap="large")
with top_left:
    st.text_area(t("Text to encode"), key=Session.text.key, height=150, persist_state="session")
    if len(s.text) > MAX_LINK_TEXT:
        st.caption(t("Texts over {n:,} characters are not put in the page's link.", n=MAX_LINK_TEXT))
with top_right:
    st.toggle(t("Show token ids instead of text"), key=Session.show_ids.key, persist_state="session")
    encode_side.choose(s, choices)
    if s.trained is None:
        st.caption(t("The built-in models are here now; a tokenizer you train on the Train page joins them."))
    # Keyed: a notice above the page moves the box, and an unkeyed box moved is a new one, folded (on every load).
    with st.expander(t("Load a tokenizer from files"), icon=":material/upload_file:", key="encode_import_box"):
        import_box.import_box(s, "encode_import", on_loaded=lambda label: import_box.select_loaded(s, label))

try:
    tokenizer = tokenizer_output.tokenizer_for(s, s.tokenizer)
except Exception as error:  # noqa: BLE001 -- reference data missing: say so, keep the page
    name = plain(tokenizer_output.REFERENCE_LABELS.get(s.tokenizer, s.tokenizer))
    st.error(t("The {name} vocabulary is not available: {error}", name=name, error=plain(error)))
    frame.stop()
if tokenizer is None:  # not reached: the choices are tokenizers the session has
    st.warning(t(tokenizer_output.NOT_IN_THIS_TAB))
    frame.stop()
try:
    result = tokenizer_output.encode(tokenizer, s.text)
except Exception as error:  # noqa: BLE001 -- a tokenizer that cannot encode this text: say so, keep the page
    st.error(t("Could not encode the text: {kind}: {error}", kind=plain(type(error).__name__), error=plain(error)))
    frame.stop()

c1, c2, c3, c4 = st.columns(4)
c1.metric(t("Characters"), f"{result.n_chars:,}")
c2.metric(t("Bytes (UTF-8)"), f"{result.n_bytes:,}")
c3.metric(t("Tokens"), f"{result.n_tokens:,}")
c4.metric(t("Bytes per token"), f"{result.n_bytes / result.n_tokens:.2f}" if result.n_tokens else "–")
tokenizer_output.licence_notes([s.tokenizer])
if s.tokenizer.startswith(tokenizer_output.LOADED):
    st.caption(import_box.pattern_note(tokenizer))
if result.words is not None:
    st.caption(t("Classic BPE drops whitespace: words are shown with their </w> end-of-word marks."))
if tokenizer.pre_tokenization.whole_text:  # the first · is not in the text: say whose it is
    st.caption(
        t("SentencePiece puts a space (▁, shown ·) before the text, so a first word is spelled as it is after a space.")
    )
st.caption(
    t(
        "Whitespace is shown as · (space), ↵ (newline), → (tab); ⟨E4 BD⟩ are bytes of a character split across "
        "tokens. Hover a token for its id."
    )
)
if result.n_tokens > tokenizer_output.MAX_RENDERED_TOKENS:
    st.caption(t("Showing the first {n:,} tokens.", n=tokenizer_output.MAX_RENDERED_TOKENS))
new_from = tokenizer_output.first_new_id(s.trained) if s.tokenizer == TRAINED else None  # marked new
st.html(tokenizer_output.encoded_html(result, s.show_ids, new_from=new_from))
if s.tokenizer == TRAINED and (note := encode_side.new_tokens_note(s.trained, result.ids)):
    st.caption(note)  # a continued tokenizer: how many of these tokens its new merges made
st.code(encode_side.ids_text(result.ids), language=None, wrap_lines=True)  # the ids, to copy (icon at its corner)
encode_side.render(s, choices, s.text, s.show_ids)
encode_side.decode_box(s, tokenizer)
dropout.render(s, tokenizer, result.n_tokens)

st.subheader(t("One word, merge by merge"))
words = tokenizer_output.pretokens(tokenizer, s.text)
if not words:
    st.caption(t("Type some text above to pick a word."))
else:
    if s.step_word not in words:  # the first word with something to merge (a text starting "<script>": not "<")
        s.step_word = next((word for word in words if len(word.strip()) >= 2), words[0])
    # (None only for a box without a choice: this one has its step_word)
    label = partial(tokenizer_output.piece_label, tokenizer)
    word = st.selectbox(t("Word (pre-token)"), words, format_func=label, key=Session.step_word.key) or words[0]
    try:
        steps = tokenizer_output.steps_of(tokenizer, word, s.trained if s.tokenizer == TRAINED else None)
    except Exception as error:  # noqa: BLE001 -- shown, never a traceback
        st.error(t("Could not trace the merges of that word: {error}", error=plain(error)))
    else:
        n = len(steps) - 1
        st.caption(t("{n} merges applied, earliest round first.", n=n) if n != 1 else t("1 merge applied."))
        st.html(tokenizer_output.steps_html(steps))
