"""Train: pick a corpus and settings, train, see the result."""

from __future__ import annotations

import streamlit as st

from playground import train_form
from playground.i18n import N_, t
from ui import frame, page_training, train_page

s = frame.page("train")

st.title(t("BPE Playground"))
st.markdown(
    t(
        "Train a **byte-pair encoding** tokenizer on your own text, then watch every merge on the **Merges** "
        "page and try it on the **Encode** page."
    )
)

left, right = st.columns([3, 2], gap="large")
with left:
    train_page.corpus_inputs(s)
with right:
    train_page.settings_inputs(s)

trained_before = s.trained
if st.button(t("Train ▶"), type="primary", key="train_button"):
    try:
        request, text = train_form.request_for(s)
    except train_form.SettingsError as error:
        st.error(t(error.message))
        if error.pattern is not None:
            st.code(error.pattern, language=None)
    else:
        page_training.run(s, request, text)
elif s.link_pending:
    page_training.ensure(s, N_("see it here"))
page_training.cancel_notice(s)

if s.trained is None:
    st.info(t("Click **Train** to train on the selected corpus."))
else:
    train_page.result(s.trained, trained_before)
