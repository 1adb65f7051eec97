"""Merges: every merge round, animated in the browser; the player is the only control."""

from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from playground.i18n import N_, language, t
from playground.session import Session
from playground.text import plain
from playground.trained import Trained, stop_reason_text
from ui import frame, merge_frames, merges_chart, merges_notes, merges_pairs, page_training, stage, tokenizer_output
from ui.animation_html import animation_html
from ui.player import merge_player
from ui.token_html import display_str

TABLE_PAGE_ROWS = 50

s = frame.page("merges")
st.title(t("Merges, round by round"))

trained = page_training.ensure(s, N_("watch its merges"))
if trained is None:
    frame.stop()

n = trained.num_merges
if trained.request.base:
    intro = N_(
        "{label} — {n:,} new merges. Round 0 shows the start of the training text in {base}'s tokens, round k after "
        "the first k new merges; the occurrences merged in that round are outlined in red."
    )
else:
    intro = N_(
        "{label} — {n:,} merges. Round k shows the start of the training text after the first k merges; the "
        "occurrences merged in that round are outlined in red."
    )
st.caption(t(intro, label=plain(trained.label), n=n, base=plain(trained.request.base_label)))
if n == 0:  # why: the training text ran out of pairs, or the vocab size left no room
    reason = stop_reason_text(trained.result.stop_reason) if trained.result.stopped_early else ""
    st.warning(
        t("This tokenizer has no merges ({reason}): nothing to animate.", reason=plain(reason))
        if reason
        else t("This tokenizer has no merges (vocab size leaves no room for any): nothing to animate.")
    )
    frame.stop()

# --- the player (browser-side animation; reports its round when paused or stepped) ----------
# The payload changes only when the player mounts (its state key exists only while this page is
# shown): a pause's rerun then sends an unchanged message, which Streamlit does not send again.
# (The player's start is kept apart from s.round, which follows every pause.)
start = s.player_start
if not merge_frames.player_mounted(s) or start is None or start[0] != trained.request.key:
    start = s.player_start = (trained.request.key, 0 if s.round is None else min(s.round, n), s.speed)
st.toggle(
    t("Predict the next merge"),
    key=Session.predict.key,
    persist_state="session",
    help=t(
        "The player stops before each round: pick the pair you think wins, then see the counts (and the tie rule, "
        "when it decided). Keys: 1–6 pick, Enter confirms."
    ),
)
payload = {**merge_frames.player_payload(trained, start[1], start[2]), "predict": s.predict}
view = merge_player(payload, key=merge_frames.PLAYER_KEY)
if view is not None:
    s.round, s.speed, s.word = view.round, view.speed, view.word or ""
k = 0 if s.round is None else min(s.round, n)
speed = s.speed
st.caption(
    t("Player at round {k:,} of {n:,} (as of its last pause or step; the red line in the chart below).", k=k, n=n)
)
if s.word:  # the word of the token clicked in the player (underlined there), merge by merge
    word = merge_frames.picked_text(trained, s.word)
    st.subheader(t("The word you picked: “{word}”", word=plain(display_str(word))), anchor="picked-word")
    st.html(tokenizer_output.steps_html(tokenizer_output.steps_of(trained.tokenizer, word, trained)))
    st.caption(t("Click another token in the player to pick another word."))


def _animation(trained: Trained, k: int, speed: int, lang: str) -> str:
    """The player as one HTML file. Built on click, on another thread: it must not touch the session (hence k,
    speed and lang)."""
    return animation_html(merge_frames.player_payload(trained, k, speed), trained.label, lang)


st.download_button(
    t("Download this animation (one HTML file, works offline)"),
    data=partial(_animation, trained, k, speed, language()),
    file_name="bpe-merges.html",
    mime="text/html",
    key="animation_download",
    on_click="ignore",
    icon=":material/download:",
)

# --- chart and table ----------------------------------------------------------------------
merges_chart.render(trained, k)  # the winning count per round, the current round marked
merges_notes.render(trained)  # where the counts fall to 1 (memorizing); Chinese clauses as "words"
merges_pairs.render(s, trained, k)  # every pair at a round, not only the five runner-ups

st.subheader(t("All merges"))
left, right = st.columns([4, 1], vertical_alignment="bottom")
query = left.text_input(
    t("Search merges (token text; · is a space, ↵ a newline; or an id / round)"),
    key=Session.merge_search.key,
    on_change=lambda: setattr(s, "merge_table_page", 1),
)
rounds = merge_frames.search_merges(trained, query)
pages = max(1, -(-len(rounds) // TABLE_PAGE_ROWS))
s.merge_table_page = min(s.merge_table_page, pages)
page = right.number_input(t("Page"), 1, pages, key=Session.merge_table_page.key) if pages > 1 else 1
shown = rounds[(page - 1) * TABLE_PAGE_ROWS : page * TABLE_PAGE_ROWS]
st.caption(t("{found:,} of {n:,} merges · page {page:,} of {pages:,}", found=len(rounds), n=n, page=page, pages=pages))
stage.table(pd.DataFrame(merge_frames.merges_rows(trained, shown)), s.talk, rows=TABLE_PAGE_ROWS)
