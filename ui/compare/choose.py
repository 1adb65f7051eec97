"""Choose a vocab size: at every size of the tokenizer, what it saves on held-out text and what it costs a model,
the rows at the sizes the user types, and a size suggested by a rule the user sets and can read.

One pass over the held-out text gives every size (``bpe_core.analysis.choose.size_curve``: the first k merges
are exactly the tokenizer of size 256 + k + specials); the typed rows are ``size_table``'s, exact; both are
computed once per tokenizer, text and setting (``remembered``).
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from bpe_core import TokenizerShape, analysis
from bpe_core.analysis.choose import SizeCurve, SizeRow, Suggestion, size_curve, size_table, suggest_size
from bpe_core.analysis.ladder import ladder
from playground.i18n import listed, t, tn
from playground.session import MAX_SIZES, Session
from playground.text import plain
from ui.compare import choose_continued, side, texts
from ui.compare.choose_chart import chart, gain_step
from ui.compare.common import Subject, attempt, remembered
from ui.compare.curve import held_out_inputs
from ui.compare.texts import Text

BLUE, ORANGE, GREY = "#1c7ed6", "#e8590c", "#495057"


def default_sizes(tokenizer: TokenizerShape) -> list[int]:
    """A quarter, a half and all of the tokenizer's size, the first two rounded to two digits.

    >>> import bpe_core
    >>> default_sizes(bpe_core.reference("gpt2"))
    [13000, 25000, 50257]
    """
    low, high = analysis.vocab_size_of(tokenizer, 0), analysis.vocab_size_of(tokenizer)
    rounded = [max(low, int(float(f"{size:.2g}"))) for size in (high // 4, high // 2)]
    return sorted({*rounded, high})


def curve(subject: Subject, heldout: Text, min_uses: int) -> SizeCurve | None:
    what = t("measure {text}", text=plain(heldout.label))
    key = ("size-curve", subject.key, heldout.digest, min_uses)
    compute = lambda: size_curve(subject.tokenizer, heldout.text, min_uses=min_uses)  # noqa: E731
    return attempt(what, lambda: remembered(key, compute))


def rows(s: Session, subject: Subject, heldout: Text, sizes: Sequence[int], step: int) -> list[SizeRow]:
    """The exact rows at ``sizes`` (``size_table``), once per tokenizer, text and settings."""
    key = ("size-table", subject.key, heldout.digest, tuple(sizes), s.d_model, s.tied, s.min_uses, step)
    return remembered(
        key,
        lambda: size_table(
            subject.tokenizer,
            heldout.text,
            list(sizes),
            d_model=s.d_model,
            tied=s.tied,
            min_uses=s.min_uses,
            per_merges=step,
        ),
    )


def inputs(s: Session, subject: Subject, step: int, span: choose_continued.Span | None) -> None:
    low, high = analysis.vocab_size_of(subject.tokenizer, 0), analysis.vocab_size_of(subject.tokenizer)
    dropped: list[int] = []
    side.follow_the_tokenizer(s, subject.key)
    if span is not None:  # a continued tokenizer: from its base's size (no new merge) to all of it
        low, high = span.low, span.high
        s.sizes, dropped = choose_continued.kept_sizes(s.sizes, span)
        if not s.sizes:
            s.sizes, s.sizes_default_for = choose_continued.default_sizes(span), subject.key
    else:
        side.replace_foreign_sizes(s, low, high, lambda: default_sizes(subject.tokenizer))
    if not s.sizes:
        s.sizes, s.sizes_default_for = default_sizes(subject.tokenizer), subject.key
    if not side.box_shows(s):
        s.sizes_text = side.sizes_text(s.sizes)
    first, second = st.columns([3, 2], gap="large")
    with first:
        held_out_inputs(s, subject)
        st.text_input(
            t(
                "Vocab sizes to measure exactly (up to {most}, between {low:,} and {high:,})",
                most=MAX_SIZES,
                low=low,
                high=high,
            ),
            key=Session.sizes_text.key,
            on_change=side.store_sizes,
            args=(s,),
            persist_state="session",
        )
        if dropped and span is not None:
            st.info(choose_continued.dropped_note(dropped, span))
    with second:
        st.number_input(
            t("Suggest the largest size where {step:,} more merges still save at least (% of tokens)", step=step),
            min_value=0.0,
            max_value=100.0,
            step=0.1,
            format="%.2f",
            key=Session.min_gain.key,
            persist_state="session",
        )
        d_model, rare = st.columns(2)
        d_model.number_input(
            t("Model width (d_model)"),
            min_value=1,
            max_value=100_000,
            step=64,
            key=Session.d_model.key,
            persist_state="session",
        )
        rare.number_input(
            t("Rare: used fewer than k times, k ="),
            min_value=1,
            max_value=1_000_000,
            step=1,
            key=Session.min_uses.key,
            persist_state="session",
        )
        st.toggle(
            t("Tied embeddings"),
            key=Session.tied.key,
            persist_state="session",
            help=t("The output layer reuses the input embeddings: the vocabulary's parameters count once."),
        )


def render(s: Session, subject: Subject) -> None:
    span = choose_continued.span_of(subject)  # a continued tokenizer's sizes: its base's to all of it
    # "the gain of 1,000 more merges" scaled to small tokenizers (SentencePiece's steps: its score ranks; a continued
    # tokenizer's: its new merges)
    step = gain_step(span.new if span is not None else ladder(subject.tokenizer).num_merges)
    inputs(s, subject, step, span)
    heldout = texts.heldout(s, subject.trained)
    if heldout is None or not heldout.n_bytes:
        st.info(texts.heldout_missing_message(s))
        return
    texts.check_overlap(s, subject.trained, heldout)
    found = curve(subject, heldout, s.min_uses)
    if found is None:
        return
    if span is not None:
        found = choose_continued.cut(found, span)
    suggestion = suggest_size(found, min_gain=s.min_gain / 100, per_merges=step)
    said = suggestion_text(found, suggestion, step)
    if span is not None:
        said = choose_continued.keep_text(span, suggestion) + " " + said
    st.success(said, icon=":material/straighten:")
    if (small := too_small_note(found, suggestion, step)) is not None:
        st.warning(small)
    sizes = sorted({*s.sizes, suggestion.vocab_size})
    measured = rows(s, subject, heldout, sizes, step)
    if span is not None:
        measured = choose_continued.relative(measured, span)
    st.vega_lite_chart(chart(found, measured, suggestion, step), width="stretch")
    table(measured, suggestion, s.min_uses, step, int(found.vocab_sizes[-1]))
    st.caption(
        t(
            "Measured on {text}. Bytes per token and tokens per 1,000 characters: the held-out text with the "
            "tokenizer cut to each size (its first merges). Gain: the share of the tokens {step:,} more merges save. "
            "Embedding parameters: vocab size × d_model, twice that when the output layer is not tied. Rare: "
            "tokens of the vocabulary the held-out text uses fewer than k times, which a model learns poorly.",
            text=texts.describe(heldout),
            step=step,
        )
    )
    low, high = int(found.vocab_sizes[0]), int(found.vocab_sizes[-1])
    clamped = [row for row in measured if not low <= row.requested <= high]
    if clamped:
        st.warning(
            tn(
                "Vocab size {sizes} is outside what this tokenizer has ({low:,}–{high:,}): measured at the nearest "
                "end instead.",
                "Vocab sizes {sizes} are outside what this tokenizer has ({low:,}–{high:,}): measured at the "
                "nearest end instead.",
                len(clamped),
                sizes=listed([f"{row.requested:,}" for row in clamped]),
                low=low,
                high=high,
            )
        )


FEW_TOKENS = 30
"""A choice that rests on fewer tokens than this (or on less than 1% of the held-out tokens, over the whole
curve) is noise of the held-out text, not a difference to decide on."""


def too_small_note(found: SizeCurve, suggestion: Suggestion, step: int) -> str | None:
    """Said when the held-out text is too small for the choice: the rule compares the tokens ``step`` more merges
    save at the suggestion, and those are a handful (or every size of the curve is within 1% of another)."""
    counts, last = found.token_counts, len(found.token_counts) - 1
    k = suggestion.merges
    saved = int(counts[k]) - int(counts[min(k + step, last)])
    whole = int(counts[0]) - int(counts[last])
    if saved >= FEW_TOKENS and whole >= 0.01 * int(counts[0]):
        return None
    return t(
        "The held-out text is too small to decide on: the suggestion rests on {saved:,} tokens of {total:,} "
        "({whole:,} between the smallest and the largest size). Give a bigger held-out text (tens of KB): paste or "
        "upload one under “Held-out text”, or hold out a bigger share of a bigger corpus on the Train page.",
        saved=saved,
        total=int(counts[k]),
        whole=whole,
    )


def suggestion_text(found: SizeCurve, suggestion: Suggestion, step: int) -> str:
    """The rule and its numbers in words (the library's ``Suggestion.reason``, in the session's language)."""
    counts, sizes, last = found.token_counts, found.vocab_sizes, len(found.token_counts) - 1
    k, later = suggestion.merges, min(suggestion.merges + step, last)
    numbers = t(
        "going to {next:,} saves {gain:.2%} ({before:,} → {after:,} tokens)",
        next=int(sizes[later]),
        gain=suggestion.gain,
        before=int(counts[k]),
        after=int(counts[later]),
    )
    if suggestion.gain >= suggestion.min_gain:
        text = t(
            "Suggested vocab size: **{size:,}**, the largest size where {step:,} more merges still save at least "
            "{min:.2%} of the held-out tokens: {numbers}.",
            step=step,
            size=suggestion.vocab_size,
            min=suggestion.min_gain,
            numbers=numbers,
        )
        if suggestion.dips_at is not None:  # the library's rule (bpe_core.analysis.choose.suggest_size)
            text += " " + t(
                "The saving first falls below {min:.2%} at {first:,} and rises above it again later (a "
                "stretch of the text that new merges suddenly fit): read the gain chart before you choose.",
                min=suggestion.min_gain,
                first=suggestion.dips_at,
            )
    else:
        text = t(
            "Even at the smallest size, **{size:,}**, {step:,} more merges save less than {min:.2%}: {numbers}.",
            step=step,
            size=suggestion.vocab_size,
            min=suggestion.min_gain,
            numbers=numbers,
        )
    if suggestion.at_end:
        text += " " + t(
            "The tokenizer ends at {end:,}, so the gains near its end count only the merges it has: train "
            "a bigger one to see further.",
            end=int(sizes[-1]),
        )
    return text


def table(measured: Sequence[SizeRow], suggestion: Suggestion, min_uses: int, step: int, largest: int) -> None:
    """The typed sizes' rows; at the tokenizer's largest size no merge is left to gain from: "—", not 0.00%."""
    import pandas as pd  # here: pandas costs a fresh server ~1 s to import

    def mark(row: SizeRow) -> str:
        return f"{row.vocab_size:,}" + (" ★" if row.vocab_size == suggestion.vocab_size else "")

    def gain(row: SizeRow) -> str:
        return "—" if row.vocab_size >= largest else f"{row.gain:.2%}"

    st.table(
        pd.DataFrame(
            {
                t("vocab size"): [mark(row) for row in measured],
                t("tokens"): [f"{row.tokens:,}" for row in measured],
                t("bytes per token"): [f"{row.bytes_per_token:.3f}" for row in measured],
                t("tokens per 1,000 characters"): [f"{row.tokens_per_1000_chars:,.1f}" for row in measured],
                t("gain of {step:,} more merges", step=step): [gain(row) for row in measured],
                t("embedding parameters"): [f"{row.embedding_parameters:,}" for row in measured],
                t("rare tokens (< {k} uses)", k=min_uses): [f"{row.rare_tokens:,}" for row in measured],
            }
        ),
        hide_index=True,
    )
    st.caption(t("★ the suggested size."))
