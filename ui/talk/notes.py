"""The speaker's notes, off the projected screen: a button (or the ``v`` key) on the Talk page opens a second
window that shows the current step's note and the next step's title. It follows the step in the page's address
(which the session writes after every run), from every step's note sent at once: no run's timing can leave it a step
behind. notes.js draws with textContent; the note is never drawn on the page itself.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from playground.i18n import language, t
from ui.stage import MIN_PX, VW

KEY = "bpe.speaker_notes"
_notes = st.components.v2.component(
    "bpe_playground.speaker_notes",
    js=(Path(__file__).parent / "notes.js").read_text("utf-8"),
    css=(
        "button{font:inherit;font-size:1rem;padding:.3em .8em;border:1px solid #adb5bd;border-radius:.5rem;"
        "background:#fff;color:#111;cursor:pointer;white-space:nowrap}button:hover{background:#f1f3f5}"
        f"button.talk{{font-size:max({MIN_PX}px,{VW}vw);line-height:1.3;padding:.1em .5em}}"
    ),
)


def speaker_notes(step: int, steps: list[tuple[str, str]], talk: bool) -> None:
    """Mount the button and keep the notes window (if open) on the talk's step; ``steps``: every step's (title,
    note), already translated."""
    total = len(steps)
    pages = [
        {
            "title": title,
            "note": note,
            "where": t("Step {step} of {total}", step=number, total=total),
            "next": t("Next: {title}", title=steps[number][0]) if number < total else t("This is the last step."),
        }
        for number, (title, note) in enumerate(steps, start=1)
    ]
    _notes(
        key=KEY,
        data={
            "step": step,
            "steps": pages,
            "lang": language(),
            "talk": talk,
            "labels": {
                "button": t("Speaker notes (v)"),
                "window": t("Speaker notes"),
                "keys": t("n / p in this window move the talk too."),
                "blocked": t("The browser blocked the notes window: allow pop-ups for this page."),
            },
        },
        default={},
    )
