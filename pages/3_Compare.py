"""Compare: one tokenizer at every vocab size (from one training run and boundary lifetimes), against
GPT-2, cl100k_base and o200k_base, and against other ways to train. The view is in the link."""

from __future__ import annotations

import streamlit as st

from ui import frame, training
from ui.compare import algorithms, common, curve, side, vocabulary
from ui.i18n import N_, t
from ui.session import TRAINED, VIEWS, Session

BYTE_LEVEL_VIEWS = {"curve": curve.render, "side": side.render, "vocab": vocabulary.render}

s = frame.page("compare")
st.title(t("Compare vocab sizes"))
st.html(common.CSS)

from_link = bool(s.link_request)
if from_link or s.trained is not None or not s.loaded:
    training.ensure(s, N_("compare its vocab sizes"))  # a link's tokenizer, or an offer to train one
choices = common.choices(s)
if not choices:
    st.page_link("pages/4_Export.py", label=t("Or load a tokenizer from files (Export / import page)"),
                 icon=":material/upload_file:")
    frame.stop()
if from_link and s.trained is not None:
    s.compared = TRAINED  # a link shows the tokenizer it describes
elif s.compared not in choices:
    s.compared = next(iter(choices))

top_left, top_right = st.columns([2, 3], vertical_alignment="bottom")
top_left.selectbox(t("Tokenizer"), list(choices), format_func=choices.get, key=Session.compared.key,
                   persist_state="session")
top_right.radio(t("View"), VIEWS, format_func=lambda v: t(common.VIEW_LABELS[v]), key=Session.view.key,
                horizontal=True, persist_state="session")
subject = common.subject(s)
if subject is None:
    st.warning(t("That tokenizer is no longer here (files loaded before a reload are not kept): load it again."))
    frame.stop()

if s.view == "algos":
    algorithms.render(s, subject)
elif common.byte_level_only(subject):
    BYTE_LEVEL_VIEWS[s.view](s, subject)
if s.trained is not None and s.compared != TRAINED:
    st.caption(t("The page's link names the trained tokenizer: a tokenizer loaded from files never travels in links."))
