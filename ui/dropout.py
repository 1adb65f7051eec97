"""BPE-dropout on the Encode page (Provilkov et al., 2020; ``bpe_core.encoding.dropout``): one text, several
valid segmentations side by side, each drawn by the one token renderer and checked to decode to the text.

The probability and the seed are session fields (``dropout``, ``seed``: in the page's link when the probability
is above 0). Sample i uses the i-th seed ``bpe_core``'s ``sample_seeds`` draws from the seed, so a link shows the
same samples to everyone.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import streamlit as st

from bpe_core import TokenizerShape
from bpe_core.encoding.dropout import dropout_samples, sample_seeds, supports_dropout
from playground.i18n import t, tn
from playground.session import MAX_DROPOUT, MAX_SEED, Session
from ui import token_html

SAMPLES = 4
"""Segmentations drawn side by side."""
MAX_CHARS = 10_000
"""Samples are drawn for (at most) this start of the text: four samples of 10,000 characters take ~0.05 s."""
MAX_SHOWN_TOKENS = 400
"""Tokens drawn per sample; the rest are counted."""


@dataclass(frozen=True)
class Sample:
    """One segmentation with dropout: its seed, ids, the tokens drawn for them, and whether decoding the ids gives
    back what decoding the plain encoding gives (the text itself, for byte-level BPE)."""

    seed: int
    ids: list[int]
    tokens: list[bytes] | list[str]
    decodes: bool


def samples(tokenizer: TokenizerShape, text: str, p: float, seed: int, n: int = SAMPLES) -> list[Sample]:
    """``n`` segmentations of ``text`` with each merge skipped with probability ``p`` (``p = 0``: the plain
    encoding, n times)."""
    expected = tokenizer.decode(tokenizer.encode(text))
    drawn = dropout_samples(tokenizer, text, p, seed=seed, n=n)
    return [
        Sample(each, ids, _tokens(tokenizer, ids), tokenizer.decode(ids) == expected)
        for each, ids in zip(sample_seeds(seed, n), drawn)
    ]


def _tokens(tokenizer: TokenizerShape, ids: list[int]) -> list[bytes] | list[str]:
    """Byte tokens as bytes; symbols of characters (classic) as their text."""
    if tokenizer.byte_level:
        return [tokenizer.token_bytes(i) for i in ids]
    return [tokenizer.token_text(i) for i in ids]


def sample_html(index: int, sample: Sample) -> str:
    """A sample: a heading with its token count, then its tokens (escaped HTML)."""
    head = html.escape(tn("Sample {i}: 1 token", "Sample {i}: {n:,} tokens", len(sample.ids), i=index))
    shown = sample.tokens[:MAX_SHOWN_TOKENS]
    body = token_html.tokens_html(shown, sample.ids[: len(shown)])
    more = len(sample.tokens) - len(shown)
    rest = f"<div>{html.escape(t('… {n:,} more tokens', n=more))}</div>" if more else ""
    return f'<div class="bpe-sample"><div style="font-weight:600">{head}</div>{body}{rest}</div>'


def render(s: Session, tokenizer: TokenizerShape, plain_tokens: int) -> None:
    """The probability and seed, and with a probability above 0 the samples side by side."""
    st.subheader(t("BPE-dropout: one text, many segmentations"))
    if not supports_dropout(tokenizer):
        st.caption(
            t(
                "BPE-dropout is drawn here for byte-level BPE by ranks and for classic BPE; this tokenizer encodes by "
                "its own pipeline's or SentencePiece's rules, which are not sampled. Choose another tokenizer above "
                "to see it."
            )
        )
        return
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    left.slider(
        t("Probability of skipping each merge"),
        0.0,
        MAX_DROPOUT,
        step=0.01,
        key=Session.dropout.key,
        persist_state="session",
        help=t(
            "BPE-dropout (Provilkov et al., 2020): while encoding, each merge is skipped with this "
            "probability, so one text gets many valid segmentations (used as a regularizer in training)."
        ),
    )
    right.number_input(
        t("Seed"), min_value=0, max_value=MAX_SEED, step=1, key=Session.seed.key, persist_state="session"
    )
    if s.dropout <= 0:
        st.caption(
            t(
                "At probability 0 nothing is skipped: the tokens above are the plain encoding. Move the slider "
                "to draw {n} segmentations of the same text.",
                n=SAMPLES,
            )
        )
        return
    text = s.text[:MAX_CHARS]
    drawn = samples(tokenizer, text, s.dropout, s.seed)
    st.caption(
        t(
            "{n} samples drawn from seed {seed}; the plain encoding has {plain:,} tokens.",
            n=SAMPLES,
            seed=s.seed,
            plain=plain_tokens if text == s.text else len(tokenizer.encode(text)),
        )
    )
    if len(text) < len(s.text):
        st.caption(t("Samples are drawn for the first {n:,} characters.", n=MAX_CHARS))
    columns = st.columns(2, gap="medium")
    for index, sample in enumerate(drawn):
        columns[index % 2].html(sample_html(index + 1, sample))
    if all(sample.decodes for sample in drawn):
        st.success(
            t("Each sample decodes back to the same text: dropout changes the tokens, never the text."),
            icon=":material/check:",
        )
    else:  # never expected: the library is tested for it; said, not hidden
        broken = [str(index + 1) for index, sample in enumerate(drawn) if not sample.decodes]
        st.error(t("Samples {samples} do not decode back to the text.", samples=", ".join(broken)))
