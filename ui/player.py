"""The merge player: a Streamlit ``st.components.v2`` component (HTML/CSS/JS inline, no build step).

The JavaScript (player_model.js, player_window.js, player_panel.js, player.js) draws every round in the browser
from the payload of ``ui.merge_frames.player_payload``, sent once; playing sends nothing to the server. Pausing or
stepping reports ``{round, speed, word}`` back through ``setStateValue("view", ...)`` (one rerun), read
here as a ``ui.merge_frames.PlayerView``.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui import state
from ui.animation_html import PLAYER_CSS, PLAYER_JS, with_labels
from ui.merge_frames import PlayerView

_player = st.components.v2.component("bpe_playground.merge_player", css=PLAYER_CSS, js=PLAYER_JS)


def merge_player(
    payload: dict, *, key: str = "merge_player", on_change: Callable[[], None] | None = None, compact: bool = False
) -> PlayerView | None:
    """Mount the player (in the session's language, big in talk mode; ``compact``: a lower window, for a talk's
    slide with a line of text above it); return what it last reported (None before its first pause or step)."""
    result = _player(
        key=key,
        data={**with_labels(payload, talk=bool(state.current().talk)), "compact": compact},
        default={"view": None},
        on_view_change=on_change or (lambda: None),
    )
    return PlayerView.from_state(getattr(result, "view", None), payload["n"])
