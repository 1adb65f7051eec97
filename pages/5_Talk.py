"""Talk: a guided ten-minute talk on BPE, one live step at a time (n / p or PageDown / PageUp).

Each step is its own link (``/Talk?step=4``, with ``talk=1`` for the projector); the steps are in
``ui/talk/steps.py``. The way on comes first, so it is on screen whatever the step draws; the speaker's note
is in a second window (``ui/talk/notes.py``: the button, or v), never on the projected page.
"""

from __future__ import annotations

import streamlit as st

from playground.i18n import t
from playground.session import TALK_STEPS, Session
from ui import frame
from ui.talk.notes import speaker_notes
from ui.talk.steps import STEPS

s = frame.page("talk")
s.step = min(max(s.step, 1), TALK_STEPS)
step = STEPS[s.step - 1]


def _move(s: Session, delta: int) -> None:
    s.step = min(max(s.step + delta, 1), TALK_STEPS)


with st.container(key="bpe-row-talk-controls"):  # kept side by side in talk mode (ui.stage)
    back, on, notes, keys = st.columns([2, 2, 3, 2], vertical_alignment="center")
    back.button(t("◀ Previous"), key="talk_prev", on_click=_move, args=(s, -1), disabled=s.step == 1, width="stretch")
    on.button(
        t("Next ▶"),
        key="talk_next",
        on_click=_move,
        args=(s, 1),
        disabled=s.step == TALK_STEPS,
        type="primary",
        width="stretch",
    )
    with notes:
        speaker_notes(s.step, [(t(each.title), t(each.note)) for each in STEPS], s.talk)
    keys.caption(t("n / p · ? keys"))
st.title(t("{title} (step {step} of {total})", title=t(step.title), step=s.step, total=TALK_STEPS))
step.draw()
