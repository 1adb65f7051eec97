"""Compare: one tokenizer at every vocab size (from one training run and boundary lifetimes),
against GPT-2, cl100k_base and o200k_base, and against other BPE variants. Settings live in the URL."""

from __future__ import annotations

import streamlit as st

from ui import compare as cmp
from ui import share, state
from ui.corpora import SAMPLES

state.setup_page("Compare", "⚖️")
ss = st.session_state
st.html(cmp.COMPARE_CSS)

link = share.link_for("Compare")  # a share link opened just now (read and applied by setup_page)
ss.setdefault("cmp_view", "curve")
ss.setdefault("cmp_heldout", share.HELDOUT_REST)
ss.setdefault("cmp_refs", list(share.REFERENCE_NAMES))
ss.setdefault("cmp_side_text", cmp.SIDE_SAMPLE)
ss.setdefault("cmp_algo_text", cmp.ALGO_SAMPLE)
ss.setdefault("cmp_tokenizer", "__trained__")

st.title("Compare vocab sizes")

# -- a share link names a corpus and settings: train that tokenizer unless it is the current one --
retrained = False
if link and {"corpus", "vocab", "pattern"} & set(link):
    text, label, sha = state.corpus_text()
    try:
        pattern = state.resolve_pattern(ss["pattern_choice"], ss.get("custom_regex", ""))
        specials = state.parse_special_tokens(ss["special_tokens_text"])
        current = state.current()
        wanted = {
            "kind": state.KIND_BYTE,
            "vocab_size": int(ss["vocab_size"]),
            "pattern": pattern,
            "special_tokens": specials,
        }
        if current is None or current.settings != wanted or current.corpus_label != label:
            with st.spinner(f"Training the tokenizer this link describes ({label}, vocab {ss['vocab_size']:,})…"):
                trained, _ = state.train_corpus(
                    text,
                    kind=state.KIND_BYTE,
                    vocab_size=int(ss["vocab_size"]),
                    pattern=pattern,
                    special_tokens=specials,
                    corpus_label=label,
                    text_sha=sha,
                )
            ss["trained"] = trained
            ss["kind"] = state.KIND_BYTE
            retrained = True
        ss["cmp_tokenizer"] = "__trained__"
        ss["merge_round"] = max(0, min(int(link.get("round", state.current().num_merges)), state.current().num_merges))
    except (state.TrainingStopped, ValueError) as error:
        st.error(f"This link's settings cannot be used: {state.md_escape(str(error))}")
if retrained:
    st.rerun()  # redraw the sidebar (drawn before training) with the new tokenizer

trained = state.current()
options = (["__trained__"] if trained is not None else []) + [f"file:{name}" for name in ss["loaded_tokenizers"]]
if not options:
    state.no_tokenizer_yet("compare its vocab sizes")
    st.page_link("pages/4_Export.py", label="Or load a tokenizer from files (Export / import page)")
    st.stop()
if ss["cmp_tokenizer"] not in options:
    ss["cmp_tokenizer"] = options[0]


def _label(option: str) -> str:
    return f"Trained: {trained.label}" if option == "__trained__" else "File: " + option[5:]


top_left, top_right = st.columns([2, 3], vertical_alignment="bottom")
top_left.selectbox("Tokenizer", options, format_func=_label, key="cmp_tokenizer")
VIEW_LABELS = {"curve": "Curve", "side": "Side by side", "vocab": "Vocabulary", "algos": "Algorithms"}
top_right.radio(
    "View", list(VIEW_LABELS), format_func=VIEW_LABELS.get, key="cmp_view", horizontal=True, persist_state="session"
)

choice = ss["cmp_tokenizer"]
if choice == "__trained__":
    is_classic = trained.kind == state.KIND_CLASSIC
    context = cmp.Context(trained.tokenizer, trained.digest, trained.label, trained, cmp.training_text(trained))
else:
    is_classic = False
    context = cmp.Context(ss["loaded_tokenizers"][choice[5:]], choice, choice[5:], None, None)

view = ss["cmp_view"]
if is_classic and view != "algos":
    st.info(
        "This tokenizer is classic (character-level) BPE: the curve, side-by-side and vocabulary views need a "
        "byte-level tokenizer. Train one on the Train page, or open the Algorithms view."
    )
elif view == "curve":
    cmp.render_curve(context)
elif view == "side":
    if not ss.get("cmp_sizes_text"):
        ss["cmp_sizes_text"] = ", ".join(map(str, cmp.default_sizes(context.tokenizer)))
    cmp.render_side(context)
elif view == "vocab":
    cmp.render_vocabulary(context)
else:
    cmp.render_algorithms(context)

# -- the address bar always links to this view ----------------------------------------------------
link_settings: dict = {
    "view": view,
    "refs": ss.get("cmp_refs") or [],
    "sizes": share.parse_sizes(ss.get("cmp_sizes_text", "")),
}
if ss.get("cmp_heldout") in cmp.HELDOUT_CHOICES and ss["cmp_heldout"] not in ("paste", "upload"):
    link_settings["heldout"] = ss["cmp_heldout"]
if view == "vocab" and ss.get("cmp_tree_token") is not None:
    link_settings["token"] = ss["cmp_tree_token"]
if choice == "__trained__" and trained is not None and trained.kind == state.KIND_BYTE:
    pattern = trained.settings["pattern"]
    link_settings.update(vocab=trained.settings["vocab_size"], round=ss.get("merge_round"))
    if pattern is None:
        link_settings["pattern"] = "none"
    elif pattern in state.PATTERN_CHOICES:
        link_settings["pattern"] = pattern
    else:
        link_settings.update(pattern="custom", regex=pattern)
    if trained.corpus_label in SAMPLES:
        link_settings["corpus"] = trained.corpus_label
params = share.write_link(link_settings)
with st.expander("Share this view", icon=":material/link:"):
    st.code(share.link_url(params), language=None, wrap_lines=True)
    notes = ["The link carries the sample corpus, vocab size, pattern, merge round, compared sizes and view."]
    if "corpus" not in params:
        notes.append(
            "This tokenizer was trained on pasted or uploaded text, or loaded from a file: those are not "
            "put in links, so the link opens the view with whatever tokenizer the viewer has."
        )
    if ss.get("cmp_heldout") in ("paste", "upload"):
        notes.append("Pasted or uploaded held-out text is not in the link either.")
    if view in ("side", "algos"):
        notes.append("Text typed into the boxes is not in the link.")
    st.caption(" ".join(notes))
