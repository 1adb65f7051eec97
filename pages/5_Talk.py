"""Talk: a guided ten-minute talk on BPE, one live step at a time (n / p or PageDown / PageUp).

Each step is its own link (``/Talk?step=4``, with ``talk=1`` for the projector); the steps are in
``ui/talk/steps.py``.
"""

from __future__ import annotations

import streamlit as st

from ui import frame
from ui.i18n import t
from ui.session import TALK_STEPS, Session
from ui.talk.steps import STEPS

s = frame.page("talk")
s.step = min(max(s.step, 1), TALK_STEPS)
step = STEPS[s.step - 1]


def _move(s: Session, delta: int) -> None:
    s.step = min(max(s.step + delta, 1), TALK_STEPS)


st.title(t("{title} (step {step} of {total})", title=t(step.title), step=s.step, total=TALK_STEPS))
try:
    step.draw()
finally:  # the way on is kept even when a step cannot draw (the frame shows its error)
    back, on, keys = st.columns([1, 1, 3], vertical_alignment="center")
    back.button(t("◀ Previous"), key="talk_prev", on_click=_move, args=(s, -1), disabled=s.step == 1,
                width="stretch")  # fmt: skip
    on.button(t("Next ▶"), key="talk_next", on_click=_move, args=(s, 1), disabled=s.step == TALK_STEPS,
              type="primary", width="stretch")  # fmt: skip
    keys.caption(t("Keys: n / p next / previous step · ? all keys"))
    with st.expander(t("Speaker note"), expanded=not s.talk):
        st.markdown(t(step.note))
