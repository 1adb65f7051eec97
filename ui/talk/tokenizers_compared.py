"""Talk step 8: one text, a few real tokenizers side by side. In English OpenAI's three on code and Chinese; in
Chinese Qwen, DeepSeek and GPT-4o on a Chinese sentence; the speaker may choose any built-in model instead."""

from __future__ import annotations

import streamlit as st

from playground.i18n import language, t
from playground.page_state import TALK_MODELS
from playground.references import language_defaults
from playground.session import Session
from ui import state, tokenizer_output
from ui.compare.common import CSS as COMPARE_CSS
from ui.compare.common import draw_views, neighbour_diffs
from ui.compare.side import reference_view
from ui.talk import data


def three_tokenizers() -> None:
    # In Chinese the comparison is about Chinese: a Chinese sentence, Qwen and DeepSeek (trained on much Chinese)
    # beside GPT-4o; any built-in model can be chosen in their place (GPT-2 shows the English-first extreme).
    text = data.ZH_THREE_TEXT if language() == "zh" else data.THREE_TEXT
    s = state.current()
    if not s.talk_refs:
        s.talk_refs = language_defaults(language())
    if len(s.talk_refs) > TALK_MODELS:  # kept from before the limit: the widget refuses more than it allows
        s.talk_refs = s.talk_refs[:TALK_MODELS]
    n_bytes = len(text.encode("utf-8"))
    n = len(s.talk_refs)
    st.markdown(t("The same text, {n} tokenizers. Outlined in orange: tokens the neighbour does not have.", n=n))
    if not s.talk:  # on the projector the slide is the comparison: the speaker chose before (or by the link: models=)
        with st.expander(t("Choose the tokenizers")):
            options = tokenizer_output.reference_options(s.talk_refs)
            st.multiselect(
                t("Tokenizers to show"),
                options,
                format_func=tokenizer_output.reference_label,
                key=Session.talk_refs.key,
                persist_state="session",
                max_selections=TALK_MODELS,
                placeholder=t("Choose tokenizers"),
            )
    views = [reference_view(name, text, n_bytes) for name in s.talk_refs]
    st.html(COMPARE_CSS)  # the outline of differing tokens, as on the Compare page
    with st.container(key="bpe-row-three-tokenizers"):  # side by side in talk mode too (ui.stage)
        draw_views(views, neighbour_diffs(views, text))
    tokenizer_output.licence_notes(s.talk_refs)
