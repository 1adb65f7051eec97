"""Merges: every merge round, animated in the browser, and inspectable from Python."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from ui import frame, training
from ui import merges as mg
from ui.player import merge_player
from ui.text import plain

s = frame.page("merges")
ss = st.session_state
st.title("Merges, round by round")

trained = training.ensure(s, "watch its merges")
if trained is None:
    frame.stop()

n = trained.num_merges
ss.setdefault("merge_seek", 0)
ss["merge_round"] = max(0, min(n if s.round is None else s.round, n))


def _seek(k: int) -> None:
    """Python moved the round: the player jumps there too (seek counter changes)."""
    ss["merge_round"] = max(0, min(int(k), n))
    ss["round_slider"] = ss["merge_round"]
    ss["merge_seek"] += 1


def _from_slider() -> None:
    _seek(ss["round_slider"])


st.caption(
    f"{plain(trained.label)} — {n:,} merges. Round k shows the start of the training text "
    "after the first k merges; the occurrences merged in that round are outlined in red."
)
if n == 0:
    st.warning("This tokenizer has no merges (vocab size leaves no room for any): nothing to animate.")
    frame.stop()

# --- the player (browser-side animation) --------------------------------------------------
payload = mg.player_payload(trained, ss["merge_round"], ss["merge_seek"])
result = merge_player(payload, key="merge_player")
reported = getattr(result, "round", None)
if isinstance(reported, int) and reported != ss.get("_player_reported"):
    ss["_player_reported"] = reported
    if 0 <= reported <= n and reported != ss["merge_round"]:
        ss["merge_round"] = reported  # follow the player (paused or stepped there)
ss["round_slider"] = ss["merge_round"]

# --- the same round, rendered by Python ---------------------------------------------------
inspect = st.expander(
    "Inspect a round (the same view rendered by Python; follows the player when paused)", expanded=True
)
c1, c2, c3, c4 = inspect.columns([1, 1, 1, 5], vertical_alignment="bottom")
c1.button("|◀ 0", key="round_first", on_click=_seek, args=(0,), width="stretch")
c2.button("◀ back", key="round_prev", on_click=lambda: _seek(ss["merge_round"] - 1), width="stretch")
c3.button("step ▶", key="round_next", on_click=lambda: _seek(ss["merge_round"] + 1), width="stretch")
c4.slider("Round", 0, n, key="round_slider", on_change=_from_slider)

k = ss["merge_round"]
s.round = k
left, right = inspect.columns([2, 3], gap="large")
with left:
    st.html(mg.round_info_html(trained, k))
with right:
    frames = mg.frames_for(trained)
    st.markdown(f"**Training text at round {k:,}** — {frames.token_count_at(k):,} tokens "
                f"(round 0: {frames.token_count_at(0):,})")
    st.html(mg.window_html(trained, k))

# --- chart and table ----------------------------------------------------------------------
st.subheader("Winning pair's count per round")
table = mg.merges_table(trained)
base = alt.Chart(table).mark_line(interpolate="step-after").encode(
    x=alt.X("round:Q", title="round"),
    y=alt.Y("count:Q", title="count of the merged pair", scale=alt.Scale(type="log")),
    tooltip=["round", "new token", "count"],
)
rule = alt.Chart(pd.DataFrame({"round": [max(k, 1)]})).mark_rule(color="#d6336c", strokeWidth=2).encode(x="round:Q")
st.altair_chart((base + rule).properties(height=260), width="stretch")

st.subheader("All merges")
query = st.text_input("Search merges (token text; · is a space, ↵ a newline)", key="merge_search")
shown = table
if query:
    needle = query.replace(" ", "·")
    mask = (
        table["new token"].str.contains(needle, regex=False)
        | table["left"].str.contains(needle, regex=False)
        | table["right"].str.contains(needle, regex=False)
    )
    if query.strip().isdigit():
        mask |= (table["id"] == int(query.strip())) | (table["round"] == int(query.strip()))
    shown = table[mask]
st.caption(f"{len(shown):,} of {len(table):,} merges")
st.dataframe(shown, hide_index=True, width="stretch", height=360)
