"""The Train page's "Start from" (bytes, or a byte-level tokenizer to continue: ``playground.bases``) and its
"Advanced" trainer options; which of them a kind takes, its row in ``playground.kinds`` says."""

from __future__ import annotations

import streamlit as st

from playground import references, trainer_options
from playground.bases import BYTES, EXTENDABLE, FILE, BaseMissing, extendable_files, is_file, request_base
from playground.corpora import SLUGS
from playground.i18n import t
from playground.kinds import Kind
from playground.session import MAX_KEEP_CHARS, Session
from playground.text import plain
from ui.callbacks import guarded
from ui.state import current

NEW_MERGES = 1_000
"""The new merges a base starts with when it is chosen (the vocab size is set to its size plus these)."""


def base_choices(s: Session) -> list[str]:
    """Bytes, the built-in byte-level models installed, the byte-level files loaded (and the session's own choice,
    even when its file is gone: the Train button then says so)."""
    installed = set(references.offered())
    choices = [BYTES, *(name for name in EXTENDABLE if name in installed), *extendable_files(s.loaded)]
    return choices if s.base in choices else [*choices, s.base]


def base_label(choice: str) -> str:
    if choice == BYTES:
        return t("Bytes (train from scratch)")
    if is_file(choice):
        return t("File: {label}", label=choice.removeprefix(FILE))
    return t("{model}: continue it", model=references.label(choice))


@guarded
def _on_base_change() -> None:
    """A size means nothing for another base: a new base sets the size to its size + :data:`NEW_MERGES`, back to
    bytes to what the corpus suggests; said out loud, as a corpus's suggested size is (a number that changes by
    itself looks like a bug)."""
    s = current()
    before = s.vocab
    if s.base == BYTES:
        if s.corpus not in SLUGS or before == SLUGS[s.corpus].vocab_size:
            return
        s.vocab = SLUGS[s.corpus].vocab_size
        said = t("Vocab size set to {new:,}, what this corpus suggests (it was {old:,}).", new=s.vocab, old=before)
    else:
        try:
            _, label, size = request_base(s.base, s.loaded)
        except BaseMissing:
            return  # the Train button says why
        s.vocab = size + NEW_MERGES
        said = t(
            "Vocab size set to {new:,}: {base}'s {size:,} tokens + {n:,} new merges (it was {old:,}).",
            new=s.vocab,
            base=label,
            size=size,
            n=NEW_MERGES,
            old=before,
        )
    s.notice("info", plain(said))


def start_input(s: Session, kind: Kind) -> bool:
    """The "Start from" choice, for a kind that can continue a tokenizer; whether a base is chosen."""
    if not kind.uses("base"):
        return False
    st.selectbox(
        t("Start from"),
        base_choices(s),
        format_func=base_label,
        key=Session.base.key,
        on_change=_on_base_change,
        persist_state="session",
        help=t(
            "Bytes: train a new tokenizer. A byte-level tokenizer (a built-in model, or one you loaded on the Export "
            "page): continue it on this corpus. Every token, id and merge of it is kept, the new merges get the ids "
            "after its highest, and its pattern and special tokens are used."
        ),
    )
    return s.base != BYTES


def advanced_inputs(s: Session, kind: Kind) -> None:
    """The trainer options the kind takes (0 or empty: off), in an expander that opens when one is on. The number
    boxes have no widget bounds (a bounded box keeps its last good value without a word, while it shows the one
    typed): a value out of range is said under them at once, and the Train button refuses it."""
    if not kind.options:
        return
    on = any(getattr(s, name) for name in kind.options)
    with st.expander(t("Advanced: trainer options"), expanded=on):
        st.number_input(
            t("Minimum pair count (0: none)"),
            step=1,
            key=Session.min_freq.key,
            persist_state="session",
            help=t("Training stops when the most frequent pair occurs fewer times than this (min_frequency)."),
        )
        unit = (
            t("Longest token in bytes (0: no limit)")
            if kind.byte_level
            else t("Longest token in characters (0: no limit)")
        )
        st.number_input(
            unit,
            step=1,
            key=Session.max_len.key,
            persist_state="session",
            help=t("A pair that would make a longer token is skipped, and training goes on (max_token_length)."),
        )
        if kind.uses("alphabet"):
            st.number_input(
                t("Limit the alphabet to the most frequent characters (0: all)"),
                step=10,
                key=Session.alphabet.key,
                persist_state="session",
                help=t(
                    "Keep only this many characters, the most frequent first (limit_alphabet); any other is "
                    "unknown (<unk>) and splits its word in training."
                ),
            )
            st.text_input(
                t("Characters always in the alphabet"),
                key=Session.keep_chars.key,
                max_chars=MAX_KEEP_CHARS,
                persist_state="session",
                help=t(
                    "Always in the alphabet, seen in the text or not, as if they were the most frequent "
                    "(initial_alphabet)."
                ),
            )
        if (problem := trainer_options.problem(s)) is not None:
            st.warning(t(problem))
        elif (warning := trainer_options.nothing_merges(s)) is not None:
            st.warning(warning)
