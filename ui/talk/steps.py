"""The guided talk: thirteen steps, each a live view computed by ``bpe_core`` and drawn by the app's own
renderers (``ui.token_html``, the merge player, the Compare views), with a short speaker note.

A step is a title, a note and a function drawing it; the page (``pages/5_Talk.py``) shows one at a
time. Strings go through ``t`` when drawn, so they follow the session's language.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

import altair as alt
import pandas as pd
import streamlit as st

from bpe_core import MergeRecord
from playground.corpora import load_sample
from playground.i18n import N_, t, tn
from playground.references import DEFAULT_REFERENCES
from playground.text import plain
from ui import chart_style, merge_frames, token_html, tokenizer_output
from ui.compare import curve as curve_view
from ui.compare import curve_chart
from ui.compare.algorithms import comparison
from ui.compare.texts import make_text
from ui.player import merge_player
from ui.talk import data
from ui.talk import languages_and_health as fairness
from ui.talk.predict_step import predict_next_merge
from ui.talk.tokenizers_compared import three_tokenizers

PLAYER_KEY = "bpe.talk_player"
PAIR_LINES_PER_BAR, PAIR_AXIS_LINES = 1.7, 3
"""Step 2's bar chart in talk mode: this many lines of text a bar, and for the count axis with its title (the chart's
height holds its axes: at 9 lines, 6 bars got 24 px each for 29 px labels, and Vega dropped every other label).
6 bars: 13 lines, 377 px at 1280x720, below the step's text and still on the screen."""


@dataclass(frozen=True)
class Step:
    title: str  # English: the catalog key (translated when drawn)
    note: str
    draw: Callable[[], None]


def _tokens(tokens: list[bytes]) -> None:
    st.html(token_html.tokens_html(tokens))


def bytes_of_a_sentence() -> None:
    text = data.BYTES_SENTENCE
    encoded = text.encode("utf-8")
    st.markdown(
        t("“{text}”: {chars} characters, {n} bytes in UTF-8.", text=plain(text), chars=len(text), n=len(encoded))
    )
    _tokens([ch.encode("utf-8") for ch in text])
    _tokens([bytes([b]) for b in encoded])
    world = "世".encode()
    st.markdown(
        t(
            "世 is three bytes: {hex}. A byte on its own is not a character, so it shows as ⟨hex⟩.",
            hex=" ".join(f"{b:02X}" for b in world),
        )
    )


def pair_rows(record: MergeRecord) -> list[dict]:
    """The adjacent pairs of the step's text and how often each occurs (``record``: the first round's, with its
    runner-ups)."""
    pairs = [(record.left, record.right, record.count), *((c.left, c.right, c.count) for c in record.candidates)]
    return [{"pair": f"{token_html.display_bytes(a)} {token_html.display_bytes(b)}", "count": n} for a, b, n in pairs]


def counting_pairs() -> None:
    st.markdown(t("The text “{text}” as bytes, and every pair of neighbours counted:", text=plain(data.PAIRS_TEXT)))
    _tokens([bytes([b]) for b in data.PAIRS_TEXT.encode()])
    tokenizer = data.pairs()
    if tokenizer is None:
        return
    frame = pd.DataFrame(pair_rows(tokenizer.trace[0]))
    bars = (
        alt.Chart(frame)
        .mark_bar(color="#0072b2", stroke="#111", strokeWidth=1.5)
        .encode(
            x=alt.X("count:Q", title=t("times seen"), axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("pair:N", sort="-x", title=t("pair")),
        )
        .properties(height=250)
    )
    lines = round(len(frame) * PAIR_LINES_PER_BAR + PAIR_AXIS_LINES)
    st.altair_chart(chart_style.style(bars, lines=lines), width="stretch")


def first_merge() -> None:
    tokenizer = data.pairs()
    if tokenizer is None:
        return
    record = tokenizer.trace[0]
    # A pair of one token twice counts overlapping and merges left to right: 4 times, 2 new tokens; the room asked.
    overlaps = N_(" Counted with overlaps (“aaa” holds two “aa”), merged left to right (it makes one).")
    st.markdown(
        t(
            "Round 1: the most frequent pair {left} + {right} ({count} times) becomes token {id}.",
            left=plain(token_html.display_bytes(record.left)),
            right=plain(token_html.display_bytes(record.right)),
            count=record.count,
            id=record.new_id,
        )
        + (t(overlaps) if record.left == record.right else "")
    )
    segmentation = tokenizer.tokenizer.segment(data.PAIRS_TEXT)
    rows = "".join(
        f'<tr><td style="padding:0 1em .25em 0;white-space:nowrap">'
        f"{html.escape(tn('After 1 merge:', 'After {n:,} merges:', k))}</td>"
        f'<td style="padding-bottom:.25em">{token_html.tokens_html(segmentation.tokens_at(k))}</td></tr>'
        for k in range(tokenizer.num_merges + 1)
    )  # one table: a line per round, the rounds' tokens aligned
    st.html(f'<table style="border-collapse:collapse">{rows}</table>')


def animation() -> None:
    trained = data.real()
    if trained is None:
        return
    st.markdown(
        t(
            "{n:,} merges learned from {corpus}. Press space to play, → to step.",
            n=trained.num_merges,
            corpus=t(data.real_corpus_name()),
        )
    )
    merge_player(merge_frames.player_payload(trained, 0, 30), key=PLAYER_KEY, compact=True)


def token_boundaries() -> None:
    encoded = tokenizer_output.encode(tokenizer_output.reference_tokenizer("cl100k_base"), data.boundary_text())
    st.markdown(
        t(
            "GPT-4's tokenizer (cl100k_base): {tokens} tokens for {chars} characters. Each colour is one token.",
            tokens=encoded.n_tokens,
            chars=encoded.n_chars,
        )
    )
    st.html(tokenizer_output.encoded_html(encoded))


def partial_characters() -> None:
    encoded = tokenizer_output.encode(tokenizer_output.reference_tokenizer("gpt2"), data.PARTIAL_TEXT)
    st.markdown(
        t(
            "GPT-2 on “{text}”: {tokens} tokens for {chars} characters.",
            text=plain(data.PARTIAL_TEXT),
            tokens=encoded.n_tokens,
            chars=encoded.n_chars,
        )
    )
    st.html(tokenizer_output.encoded_html(encoded))
    st.markdown(t("⟨E5 AD⟩ is a token that holds part of a character: byte-level BPE never needs an unknown token."))


def vocab_against_compression() -> None:
    text = load_sample(data.real_corpus())
    corpus = make_text(t("training text"), text)
    points = data.real_curve()
    if points is None:
        return
    line = curve_chart.Line(corpus, points, round(corpus.n_bytes / points[-1][1]), 0.0)
    st.markdown(
        t(
            "Bytes per token at every vocab size from 256 to {n:,} (one pass over the text), and three real "
            "tokenizers on the same text:",
            n=points[-1][0],
        )
    )
    references = curve_view.reference_rows(DEFAULT_REFERENCES, [corpus], known_only=False)
    st.vega_lite_chart(curve_chart.chart([line], references, marks=[points[-1][0]], compact=True), width="stretch")


def classic_and_byte_level() -> None:
    st.markdown(
        t(
            "Both trained on the English / Chinese sample, vocab {n}: classic BPE (characters + </w>) and "
            "byte-level BPE.",
            n=data.MIXED_VOCAB,
        )
    )
    byte_level, classic = data.mixed("byte"), data.mixed("classic")
    if byte_level is None or classic is None:
        return
    comparison(
        data.CLASSIC_TEXT, [(t("byte-level"), byte_level), (t("classic </w>"), classic)], table=False
    )  # the two views say tokens and bytes per token; the table would not fit the screen


def summary() -> None:
    for line in (
        t("Text is bytes: UTF-8 gives a Chinese character 3 bytes, an emoji 4."),
        t("BPE counts neighbouring pairs and merges the most frequent, again and again."),
        t("The merges, in order, are the tokenizer: encoding replays them."),
        t("A bigger vocabulary means fewer tokens per text, with diminishing returns."),
        t("Byte-level BPE never meets an unknown character; classic BPE needs <unk>."),
        t("The same sentence costs other languages more tokens than English; bigger vocabularies shrink the gap."),
        t("Some tokens no text gives on its own: a model barely learns them (glitch tokens)."),
    ):
        st.markdown(f"- {line}")
    st.page_link("pages/0_Train.py", label=t("Train your own tokenizer"), icon=":material/model_training:")


STEPS: tuple[Step, ...] = (  # N_ marks the titles and notes for the catalog (shown through t)
    Step(
        N_("The bytes of a sentence"),
        N_(
            "Computers store text as bytes. ASCII letters are one byte each; a "
            "Chinese character is three, an emoji four. BPE starts from these 256 byte values."
        ),
        bytes_of_a_sentence,
    ),
    Step(
        N_("Counting pairs"),
        N_("Look at every pair of neighbouring bytes and count them. ‘a a’ is the most frequent here."),
        counting_pairs,
    ),
    Step(
        N_("The first merge"),
        N_(
            "The most frequent pair becomes a new token; then count again and repeat. "
            "Three merges shorten 11 bytes to 5 tokens."
        ),
        first_merge,
    ),
    Step(
        N_("The animation on a real corpus"),
        N_(
            "Press space: each round merges the most frequent pair of the "
            "whole corpus. Outlined in red: what the round just merged. + and − change the speed."
        ),
        animation,
    ),
    Step(
        N_("Token boundaries"),
        N_("A real tokenizer (GPT-4's) on a sentence. Common words are one token; rare ones are split into pieces."),
        token_boundaries,
    ),
    Step(
        N_("Tokens that are not whole characters"),
        N_("GPT-2 learned on English: Chinese characters fall apart into byte pieces (⟨hex⟩); 🙂 is one token."),
        partial_characters,
    ),
    Step(
        N_("Vocab size against compression"),
        N_("More merges, fewer tokens: each new token saves less than the one before."),
        vocab_against_compression,
    ),
    Step(
        N_("One text, several tokenizers"),
        N_(
            "Bigger, newer vocabularies cut code and Chinese into fewer tokens: "
            "spaces of indentation become one token; Chinese words become whole tokens."
        ),
        three_tokenizers,
    ),
    Step(
        N_("Where classic and byte-level differ"),
        N_(
            "Classic BPE works on characters and marks word ends with "
            "</w>: a character never seen in training gets the id of <unk>. Byte-level BPE falls back to bytes."
        ),
        classic_and_byte_level,
    ),
    Step(
        N_("How languages pay differently"),
        N_(
            "The same sentences cost English speakers the fewest tokens: a "
            "tokenizer trained mostly on English charges other languages a premium, in money and in context. Newer, "
            "bigger vocabularies shrink it. Compare → Languages has all 21 languages."
        ),
        fairness.languages_pay_differently,
    ),
    Step(
        N_("Tokens that are never reached"),
        N_(
            "These tokens hold pieces of characters, so encoding only produces "
            "them inside longer text, and a model barely trains on them: the root of glitch tokens. Compare → Health "
            "lists them for any tokenizer."
        ),
        fairness.tokens_never_reached,
    ),
    Step(
        N_("Your turn: which pair merges next?"),
        N_(
            "Learning sticks when you guess first. The player stops before each round: let the room call out a pair, "
            "press its number and Enter, and show the counts; Enter again for the next round. The score counts the "
            "room's right guesses."
        ),
        predict_next_merge,
    ),
    Step(N_("Summary"), N_("Recap, then invite the audience to train their own tokenizer."), summary),
)
