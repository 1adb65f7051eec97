"""Talk mode's keys: a small browser component (keys.js) mounted by the frame on every page.

It sends back two values: ``action`` (``next``, ``prev`` on the Talk page, ``talk``), handled here
before the next run, and ``width``, the window's width, from which charts size their text (:func:`viewport_width`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from playground.i18n import t
from playground.session import TALK_STEPS, Session
from ui.callbacks import guarded

KEY = "bpe.talk_keys"
_keys = st.components.v2.component(
    "bpe_playground.talk_keys", js=(Path(__file__).parent / "keys.js").read_text("utf-8")
)


def keys_help() -> list[tuple[str, str]]:
    """(keys, what they do), as the ``?`` overlay lists them."""
    return [
        ("n  PageDown", t("next step of the talk (next page elsewhere)")),
        ("p  PageUp", t("previous step (previous page)")),
        ("→  ←  space", t("talk steps without a player: next / previous step")),
        ("v", t("the speaker notes in a second window (Talk page)")),
        ("t", t("talk mode on / off")),
        ("s", t("show / hide the sidebar")),
        ("?  Esc", t("show / hide these keys")),
        ("space", t("player: play / pause")),
        ("← →", t("player: one round back / forward")),
        ("Home  End", t("player: first / last round")),
        ("+  −", t("player: faster / slower")),
        ("c", t("player: show / hide the code beside it")),
        ("1–6  Enter  space", t("player, predicting: pick a pair / confirm")),
    ]


def viewport_width() -> int | None:
    """The browser window's width in pixels, as last reported (None before the first report)."""
    width = st.session_state.get(KEY, {}).get("width")
    return width if isinstance(width, int) and 200 <= width <= 20_000 else None


def mount(s: Session, pages: Sequence[tuple[str, str]]) -> None:
    """Listen for the keys on this page (call once per run, after the page). ``pages``: (id, URL path)
    in order; off the Talk page, n and p open the next and previous one (the browser follows the
    sidebar's own link, so the session and talk mode stay)."""
    here = [page_id for page_id, _ in pages].index(s.page) if s.page in dict(pages) else 0
    _keys(
        key=KEY,
        data={
            "talk": bool(s.talk),
            "width": viewport_width(),
            "labels": {"title": t("Keys"), "keys": keys_help()},
            "steps": s.page == "talk",
            "next": pages[(here + 1) % len(pages)][1],
            "prev": pages[(here - 1) % len(pages)][1],
        },
        default={},
        on_action_change=lambda: _act(s),
        on_width_change=lambda: _width_changed(s),
    )


def _width_changed(s: Session) -> None:
    """The browser reported its width (after the first run in talk mode): the rerun redraws what the page said."""
    s.width_rerun = True


@guarded
def _act(s: Session) -> None:
    """A key was pressed: runs as a callback, before the script, so the talk switch may still be set."""
    action = st.session_state.get(KEY, {}).get("action")
    act = action.get("act") if isinstance(action, dict) else None
    if act == "talk":
        s.talk = not s.talk
    elif act in ("next", "prev") and s.page == "talk":
        s.step = min(TALK_STEPS, max(1, s.step + (1 if act == "next" else -1)))
