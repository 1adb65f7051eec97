"""Compare: one tokenizer at every vocab size (from one training run and boundary lifetimes), against
GPT-2, cl100k_base and o200k_base, and against other ways to train. The view is in the link."""

from __future__ import annotations

import streamlit as st

from playground.i18n import N_, t
from playground.session import ANY_TOKENIZER_VIEWS, REFERENCES, TRAINED, VIEWS, Session
from ui import frame, page_training, tokenizer_output
from ui.compare import common, renderer

s = frame.page("compare")
st.title(t("Compare vocab sizes"))
st.html(common.CSS)

from_link = bool(s.link_pending)
warm_up = st.empty()
if from_link and s.view == "curve":
    # An empty chart while the link's tokenizer trains: Chromium fetches and parses the chart library
    # meanwhile (~1 s on a fresh page here) instead of after the curve arrives. No "data" key: Streamlit
    # turns top-level data into Arrow, importing pandas and pyarrow (~0.3 s) before the training starts.
    warm_up.vega_lite_chart({"mark": "point"}, height=10)
# Needs no training: a built-in model is chosen, or will be, having nothing else to choose from.
on_reference = s.view in ANY_TOKENIZER_VIEWS and (s.compared in REFERENCES or (s.trained is None and not s.loaded))
if from_link or (not on_reference and (s.trained is not None or not s.loaded)):
    page_training.ensure(s, N_("compare its vocab sizes"))  # a link's tokenizer, or an offer to train one
warm_up.empty()
choices = common.choices(s, references=s.view in ANY_TOKENIZER_VIEWS)


def view_choice() -> None:
    st.radio(
        t("View"),
        VIEWS,
        format_func=lambda v: t(common.VIEW_LABELS[v]),
        key=Session.view.key,
        horizontal=True,
        persist_state="session",
    )


if not choices:
    st.page_link(
        "pages/4_Export.py",
        label=t("Or load a tokenizer from files (Export / import page)"),
        icon=":material/upload_file:",
    )
    view_choice()  # the views that study the built-in models need no training: one click away, not a link away
    frame.stop()
if from_link and s.trained is not None and not on_reference:
    s.compared = TRAINED  # a link shows the tokenizer it describes
elif s.compared not in choices:
    s.compared = next(iter(choices))

# Each on its own line: a tokenizer's name (a file's, with its settings) is long, and a narrow box cut it.
st.selectbox(
    t("Tokenizer"), list(choices), format_func=choices.__getitem__, key=Session.compared.key, persist_state="session"
)
view_choice()
subject = common.subject(s)
if subject is None:
    st.warning(t(tokenizer_output.NOT_IN_THIS_TAB))
    frame.stop()

if common.view_applies(subject, s.view):
    renderer(s.view)(s, subject)
    tokenizer_output.licence_notes([s.compared])  # a built-in model's: whose files, under which licence
if s.trained is not None and s.compared not in (TRAINED, *REFERENCES):
    st.caption(t("The page's link names the trained tokenizer: a tokenizer loaded from files never travels in links."))
