"""The Merges page's "every pair at a round": the trace keeps each round's winner and five runner-ups; here a
learner sees every pair the trainer counted before a round, with its count, in the order the tie rule ranks them
(``bpe_core.analysis.round_pairs``, the trainer's engine replayed on the training text)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bpe_core.analysis.round_pairs import MAX_CHARS, pairs_at_round
from playground.i18n import t
from playground.kinds import kind_of
from playground.session import Session
from playground.trained import Trained
from ui import stage
from ui.compare.common import remembered
from ui.compare.texts import training_text
from ui.token_html import display_bytes

SHOWN_ROWS = 2_000
"""Rows drawn at most (the most frequent first): the grid stays quick, the count says how many there are."""


def render(s: Session, trained: Trained, player_round: int) -> None:
    """The pairs before round ``s.pairs_round`` (default: the round after the player's)."""
    if not kind_of(trained.request.kind).replayable or trained.request.base:  # (a continued one: not from bytes)
        return
    st.subheader(t("Every pair at a round"))
    n = trained.num_merges
    text = training_text(s, trained)
    if text is None or len(text.text) > MAX_CHARS:
        st.caption(
            t(
                "Every pair is listed for a training text of at most {n:,} characters that is at hand in this session.",
                n=MAX_CHARS,
            )
        )
        return
    if s.pairs_round is None or s.pairs_round > n + 1:
        s.pairs_round = min(player_round + 1, n + 1)
    round_ = st.number_input(
        t("Round (its pairs are those counted before it; round {last:,}: after the last merge)", last=n + 1),
        min_value=1,
        max_value=n + 1,
        key=Session.pairs_round.key,
    )
    request = trained.request
    pairs = remembered(  # the trace is decoded into merges only on a miss: not on every rerun of the page
        ("round_pairs", request.key, round_),
        lambda: pairs_at_round(
            text.text,
            [(record.left, record.right) for record in trained.trace[: round_ - 1]],
            round_ - 1,
            pattern=request.pattern,
            special_tokens=request.special_tokens,
            tie_break=request.tie_break,
            classic=not trained.tokenizer.byte_level,
        ),
    )
    winner = trained.trace[round_ - 1] if round_ <= n else None
    st.caption(
        t(
            "{n:,} pairs before round {k:,}; the first is the one it merges ({count:,} times){tie}.",
            n=len(pairs),
            k=round_,
            count=winner.count,
            tie=t(", a tie decided by the tie rule") if winner.tied else "",
        )
        if winner is not None
        else t("After the last merge {n:,} pairs are left.", n=len(pairs))
    )
    frame = pd.DataFrame(
        {
            t("place"): range(1, min(len(pairs), SHOWN_ROWS) + 1),
            t("left"): [display_bytes(left) for left, _, _ in pairs[:SHOWN_ROWS]],
            t("right"): [display_bytes(right) for _, right, _ in pairs[:SHOWN_ROWS]],
            t("count"): [count for _, _, count in pairs[:SHOWN_ROWS]],
        }
    )
    stage.table(frame, s.talk, height=360)
