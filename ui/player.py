"""The merge player: a Streamlit ``st.components.v2`` component (HTML/CSS/JS inline, no build step).

The JavaScript (player.js) draws every round in the browser from boundary lifetimes sent once as
data; playing sends nothing to the server. Pausing or stepping reports the round back through
``setStateValue("round", k)`` so the Python view on the page follows.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

_HERE = Path(__file__).parent
_JS = (_HERE / "player.js").read_text(encoding="utf-8")
_CSS = (_HERE / "player.css").read_text(encoding="utf-8")

_player = st.components.v2.component("bpe_playground.merge_player", css=_CSS, js=_JS)


def merge_player(payload: dict, *, key: str = "merge_player", on_round_change=None):
    """Mount the player. ``payload`` comes from ui.merges.player_payload."""
    return _player(
        key=key,
        data=payload,
        default={"round": payload.get("round", 0)},
        on_round_change=on_round_change or (lambda: None),
    )
