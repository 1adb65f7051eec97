"""The Merges page's notes on a training (``playground.merge_notes``): where it starts memorizing, and when a
Chinese "word" is a whole clause. Plain text: the example is the user's own text."""

from __future__ import annotations

import streamlit as st

from playground import merge_notes
from playground.i18n import t
from playground.text import plain
from playground.trained import Trained
from ui.token_html import display_str


def render(trained: Trained) -> None:
    if (found := merge_notes.clause(trained)) is not None:
        st.info(
            t(
                "Here a “word” can be a whole clause, such as “{example}” ({n} characters): the pattern keeps runs of "
                "letters together, and Chinese writes no spaces, so merges never stop at a word's end and can grow "
                "into whole clauses ({share:.0%} of the Chinese pre-tokens at the start of the text are 6 characters "
                "or longer). Try Pre-tokenization: none, or a pattern that splits Chinese, to compare.",
                example=plain(display_str(found.example), limit=40),
                n=found.characters,
                share=found.share,
            )
        )
    if (memorized := merge_notes.memorizing(trained)) is not None:
        st.info(
            t(
                "From round {k:,} on, each merged pair occurs only once in the training text: the last {n:,} rounds "
                "memorize particular passages (the longest token they make is {longest:,} bytes) rather than "
                "anything the text repeats. A smaller vocab, or more text, avoids it.",
                k=memorized.round,
                n=memorized.rounds,
                longest=memorized.longest,
            )
        )
