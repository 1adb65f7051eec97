"""Superword tokens (SuperBPE, ``bpe_core.train_superword``) in the app: the Train page's two settings, and the
plain BPE tokenizer of the same size that Compare measures a superword tokenizer against.

Stage 1 merges within GPT-2 pre-tokens as plain byte-level BPE does, up to ``transition`` merges; stage 2
merges across whitespace, inside chunks (``bpe_core.pretokenize.superword``), so a token may hold words
(`` by the way``), at most ``maxwords`` of them.
"""

from __future__ import annotations

import streamlit as st

from playground.i18n import t
from playground.kinds import BYTE, kind_of
from playground.session import MAX_VOCAB, MAX_WORDS, Session
from playground.trained import Request
from ui.callbacks import guarded

STAGE1_SHARE = 0.75
"""Where the Train page puts the transition when superword tokens are chosen: after 3/4 of the merges (SuperBPE's
best settings lift the boundaries late; on docs10m at 8,000 tokens, t = 6,000 gave +9% bytes per token)."""


def suggested_transition(vocab: int, n_specials: int) -> int:
    """The transition :data:`STAGE1_SHARE` of the way through the merges of ``vocab``, in tens.

    >>> suggested_transition(8000, 1)
    5800
    """
    merges = max(0, vocab - 256 - n_specials)
    return int(merges * STAGE1_SHARE) // 10 * 10


@guarded
def kind_changed(s: Session) -> None:
    """The Train page's algorithm changed: choosing superword tokens puts the transition inside this vocab's
    merges (at the field's default stage 2 may never start), so one click shows both stages."""
    if kind_of(s.kind).uses("transition"):
        s.transition = suggested_transition(s.vocab, len(s.specials.split()))


def superword_inputs(s: Session) -> None:
    """The transition and the cap on words per token, with what they mean for the vocab size chosen."""
    left, right = st.columns(2)
    left.number_input(
        t("Merges within words (transition)"),
        min_value=0,
        max_value=MAX_VOCAB,
        step=100,
        key=Session.transition.key,
        persist_state="session",
        help=t("Stage 1 learns this many merges inside pre-tokens, as plain BPE; stage 2 merges across spaces."),
    )
    right.number_input(
        t("Words per token, at most"),
        min_value=1,
        max_value=MAX_WORDS,
        step=1,
        key=Session.maxwords.key,
        persist_state="session",
    )
    merges = max(0, s.vocab - 256 - len(s.specials.split()))
    if s.transition >= merges:
        st.caption(
            t(
                "With {n:,} merges in all, stage 2 never starts: this is plain byte-level BPE. Choose a "
                "transition below {n:,}.",
                n=merges,
            )
        )
    else:
        st.caption(
            t(
                "Merges 1–{t:,} within words (pattern gpt2), merges {next:,}–{n:,} across words: a token may "
                "hold up to {words} words (“ by the way”).",
                t=s.transition,
                next=s.transition + 1,
                n=merges,
                words=s.maxwords,
            )
        )


def plain_twin(request: Request) -> Request:
    """Plain byte-level BPE (pattern gpt2) on the same corpus at the same vocab size: what Compare sets a
    superword tokenizer against."""
    return request.as_kind(BYTE, "gpt2", "gpt2")
