"""Check your BPE: a learner's merges against bpe_core's training on the same text and settings: the first merge
that differs, why, both lists up to there and the pairs that led at that round."""

from __future__ import annotations

import streamlit as st

from playground.i18n import t
from ui import frame
from ui.check import inputs, report, run

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
    inputs.text_inputs(s)
    inputs.settings_inputs(s)
with right:
    st.subheader(t("2 · Your merges"))
    inputs.merges_inputs(s)

if st.button(t("Check ▶"), type="primary", key="check_button"):
    run.run_check(s)
    if s.checked is not None:
        frame.scroll_into_view("check-result")
st.caption(
    t(
        "The link to this page carries the text's name when it is a built-in corpus and the settings; your "
        "merges and pasted or uploaded text never go into a link."
    )
)
if s.checked is not None:
    report.report(s.checked, s.talk)
