"""Side by side: one text at 2–4 vocab sizes of the tokenizer and with the reference tokenizers,
the tokens whose boundaries differ from the neighbouring view outlined.

Every size comes from one segmentation of the text (boundary lifetimes), not one encoding per size.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import streamlit as st

from bpe_core import Tokenizer, analysis
from bpe_core.encoding.lifetimes import Segmentation
from playground.fields import LinkValueError
from playground.i18n import listed, t, tn
from playground.session import MAX_SIZES, Session
from playground.text import plain
from runtime.store import text_digest
from ui import tokenizer_output
from ui.callbacks import guarded
from ui.compare.common import Subject, View, attempt, draw_views, neighbour_diffs, remembered, summary


def default_sizes(tokenizer: Tokenizer) -> list[int]:
    """Three sizes that show the change: a tenth, a third and all of the merges.

    >>> import bpe_core
    >>> default_sizes(bpe_core.train("aaabdaaabac", 259).tokenizer)
    [256, 257, 259]
    """
    n = tokenizer.num_merges
    return list(dict.fromkeys(analysis.vocab_size_of(tokenizer, k) for k in (n // 10, n // 3, n)))


def follow_the_tokenizer(s: Session, key: str) -> None:
    """Sizes the page chose for another tokenizer (never typed, nor a link's) give way to this one's own, silently:
    Tekken's 14,237, 44,528 and 131,072 stayed for Llama 3, and one was "outside what this tokenizer has". The
    caller sets them (and ``sizes_default_for``) when ``s.sizes`` is empty."""
    if s.sizes_default_for and s.sizes_default_for != key:
        s.sizes, s.sizes_default_for = [], ""


def replace_foreign_sizes(s: Session, low: int, high: int, own: Callable[[], list[int]]) -> None:
    """Sizes all on one side of this tokenizer's range (typed for another: 291, 371, 600 against DeepSeek's
    1,539–129,280) would all be drawn at that end, the same view or row over and over: ``own()`` instead, and said.
    Other sizes are kept (the view says which it moved to the nearest end)."""
    if not s.sizes or not (all(size < low for size in s.sizes) or all(size > high for size in s.sizes)):
        return
    before, s.sizes = s.sizes, own()
    st.info(
        t(
            "Vocab sizes {sizes} are all outside what this tokenizer has ({low:,}–{high:,}): its own {own} instead.",
            sizes=listed([f"{size:,}" for size in before]),
            low=low,
            high=high,
            own=listed([f"{size:,}" for size in s.sizes]),
        ),
        icon=":material/swap_horiz:",
    )


def sizes_text(sizes: list[int]) -> str:
    return ", ".join(map(str, sizes))


@guarded
def store_sizes(s: Session) -> None:
    """The sizes box was edited: keep the sizes if they parse, else say what is allowed."""
    try:
        s.sizes, s.sizes_default_for = Session.sizes.from_text(s.sizes_text or ""), ""
    except LinkValueError as error:
        s.notice(
            "warning",
            t(
                "Vocab sizes “{sizes}” were not used: give {allowed}.",
                sizes=plain(s.sizes_text, limit=80),
                allowed=t(error.allowed),
            ),
        )


def trained_view(tokenizer: Tokenizer, segmentation: Segmentation, size: int, n_bytes: int) -> View:
    """The text at one vocab size, from its lifetimes (no re-encoding)."""
    k = analysis.merges_for_vocab_size(tokenizer, size)
    if not isinstance(segmentation.data, bytes):  # a classic tokenizer's atoms are its symbols
        raise TypeError("a vocab size's view needs a byte-level tokenizer's segmentation")
    tokens = [token for token in segmentation.tokens_at(k) if isinstance(token, bytes)]  # (all: its atoms are bytes)
    ids_of = tokenizer.mergeable_ranks
    specials = {token.encode("utf-8"): identifier for token, identifier in tokenizer.special_tokens.items()}
    ids = [ids_of.get(token, specials.get(token)) for token in tokens]
    return View(t("vocab {n:,}", n=analysis.vocab_size_of(tokenizer, k)), summary(len(tokens), n_bytes), tokens, ids)


def reference_view(name: str, text: str, n_bytes: int) -> View:
    tokenizer = tokenizer_output.reference_tokenizer(name)
    ids = tokenizer.encode(text)
    title = f"{tokenizer_output.REFERENCE_LABELS[name]} · " + t("vocab {n:,}", n=analysis.vocab_size_of(tokenizer))
    return View(title, summary(len(ids), n_bytes), tokenizer.decode_tokens_bytes(ids), list(ids))


def render(s: Session, subject: Subject) -> None:
    tokenizer = subject.tokenizer
    low, high = analysis.vocab_size_of(tokenizer, 0), analysis.vocab_size_of(tokenizer)
    follow_the_tokenizer(s, subject.key)
    replace_foreign_sizes(s, low, high, partial(default_sizes, tokenizer))
    if not s.sizes:
        s.sizes, s.sizes_default_for = default_sizes(tokenizer), subject.key
    if not box_shows(s):
        s.sizes_text = sizes_text(s.sizes)  # a link or the defaults set the sizes: show them in the box
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.text_area(t("Text"), key=Session.side_text.key, height=110, persist_state="session")
    with right:
        label = t(
            "Vocab sizes to compare (up to {most}, between {low:,} and {high:,})", most=MAX_SIZES, low=low, high=high
        )
        st.text_input(label, key=Session.sizes_text.key, on_change=store_sizes, args=(s,), persist_state="session")
    # The whole width: in the narrow column the chips of long names were cut ("cl100k_ba…").
    tokenizer_output.choose_references(s, t("And the reference tokenizers"))
    sizes = sorted({min(max(size, low), high) for size in s.sizes})
    outside = [size for size in s.sizes if not low <= size <= high]
    if outside:
        st.warning(
            tn(
                "Vocab size {sizes} is outside what this tokenizer has ({low:,}–{high:,}): shown at the nearest end "
                "instead.",
                "Vocab sizes {sizes} are outside what this tokenizer has ({low:,}–{high:,}): shown at the nearest "
                "end instead.",
                len(outside),
                sizes=listed([f"{size:,}" for size in outside]),
                low=low,
                high=high,
            )
        )
    if len(sizes) + len(s.refs) < 2:
        st.info(t("Give at least two vocab sizes (or one size and a reference tokenizer)."))
    text = s.side_text or ""
    if not text:
        st.info(t("Type a text to compare."))
        return
    n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    digest = text_digest(text)
    segment = lambda: remembered(("segment", subject.key, digest), lambda: tokenizer.segment(text))  # noqa: E731
    segmentation = attempt(t("cut the text with this tokenizer"), segment)
    if segmentation is None:
        st.caption(t("Its pre-tokenization pattern:"))
        st.code(tokenizer.pattern_regex or t("(none)"), language=None)
        return
    views = [trained_view(tokenizer, segmentation, size, n_bytes) for size in sizes]
    for name in s.refs:
        views.append(remembered(("view", name, digest), partial(reference_view, name, text, n_bytes)))
    st.caption(
        t(
            "Outlined and underlined: tokens the view before does not have (the first view is compared with the "
            "second) — against a smaller vocabulary, the tokens new merges made; against a larger one, the pieces "
            "that get merged. Hover a token for its id."
        )
    )
    draw_views(views, neighbour_diffs(views, text), per_row=2)  # three a row gave one letter a line
    tokenizer_output.licence_notes(s.refs)


def box_shows(s: Session) -> bool:
    """Whether the sizes box holds ``s.sizes`` (a link or the defaults may have set them)."""
    try:
        return Session.sizes.from_text(s.sizes_text or "") == s.sizes
    except LinkValueError:
        return False
