"""Check your BPE: a learner's merges against bpe_core's training on the same text and settings: the first merge
that differs, why, both lists up to there and the pairs that led at that round."""

from __future__ import annotations

import streamlit as st

from playground.i18n import t
from ui import check, frame

s = frame.page("check")
st.title(t("Check your BPE"))
st.markdown(
    t(
        "Wrote your own BPE trainer? Give it the text it trained on, its settings and the merges it learned: "
        "this page trains bpe_core the same way and shows the **first merge that differs**, and why."
    )
)

left, right = st.columns([2, 3], gap="large")
with left:
    st.subheader(t("1 · Text and settings"))
    check.text_inputs(s)
    check.settings_inputs(s)
with right:
    st.subheader(t("2 · Your merges"))
    check.merges_inputs(s)

clicked = st.button(t("Check ▶"), type="primary", key="check_button")
if clicked:
    check.run_check(s)
    if s.checked is not None:
        frame.scroll_into_view("check-result")
st.caption(
    t(
        "The link to this page carries the text's name when it is a built-in corpus and the settings; your "
        "merges and pasted or uploaded text never go into a link."
    )
)
if s.checked is not None:
    check.report(s.checked)
