"""The curve: bytes per token at every vocab size of one tokenizer, on its training text and a held-out
text, with GPT-2, cl100k_base and o200k_base as points.

One pass over a text gives every vocab size (``bpe_core.analysis``); the chart gets at most
:data:`POINTS` points a line. The chart is drawn as soon as the lines are known and drawn again
when the reference tokenizers have counted, so a new text shows at once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

import streamlit as st

from bpe_core import analysis
from playground.corpora import PASTE, UPLOAD
from playground.i18n import listed, t
from playground.session import Session
from playground.text import plain
from ui import own_text, tokenizer_output
from ui.compare import curve_parts, texts, twin
from ui.compare.common import Subject, attempt, known, remembered
from ui.compare.curve_chart import LINE, Line, chart, row
from ui.compare.texts import Text
from ui.uploads import store_heldout_files, upload_status

POINTS = 400
"""Points per line sent to the browser (the chart needs no more; 100,000 sizes would cost seconds)."""
FLUSH_SECONDS = 0.1
"""A pause after the first chart: counting with the references holds the GIL for seconds, and the server
thread needs it to send the chart (in Chromium: curve on screen 0.5–1 s sooner after a 1 MB upload)."""


def line(subject: Subject, text: Text) -> Line | None:
    """The tokenizer's curve on ``text`` (computed once per tokenizer and text digest, whatever its label)."""

    def compute() -> tuple[list[tuple[int, float]], int, float]:
        started = time.perf_counter()
        curve = analysis.bytes_per_token_curve(subject.tokenizer, text.text)
        seconds = time.perf_counter() - started
        return analysis.sample_curve(curve, POINTS), round(text.n_bytes / curve[-1][1]), seconds

    what = t("measure {text}", text=plain(text.label))
    found = attempt(what, lambda: remembered(("curve", subject.key, text.digest), compute))
    return None if found is None else Line(text, *found)


def reference_rows(names: Sequence[str], measured: Sequence[Text], *, known_only: bool) -> list[dict]:
    """A point per reference tokenizer and text; with ``known_only``, only counts already at hand."""
    rows = []
    for name in names:
        for text in measured:
            count = known(("reference", name, text.digest)) if known_only else reference_count(name, text)
            if count:
                size = analysis.vocab_size_of(tokenizer_output.reference_tokenizer(name))
                rows.append(row(tokenizer_output.REFERENCE_LABELS[name], text, size, count))
    return rows


def reference_count(name: str, text: Text) -> int:
    return remembered(("reference", name, text.digest), lambda: texts.reference_count(name, text))


# -- the view ------------------------------------------------------------------------------------------


def held_out_inputs(s: Session, subject: Subject) -> None:
    """Choose the held-out text; paste or upload it when that is the choice."""
    default = texts.default_choice(s, subject.trained)
    st.selectbox(
        t("Held-out text"),
        list(texts.HELDOUT_LABELS),
        format_func=lambda c: texts.heldout_label(c, default),
        key=Session.heldout.key,
        on_change=own_text.forget_heldout_text,
        args=(s,),
        persist_state="session",
    )
    if s.heldout == PASTE:
        st.text_area(
            t("Held-out text to paste"),
            key=Session.heldout_box.key,
            height=120,
            on_change=own_text.store_heldout_paste,
            args=(s,),
            placeholder=t("Paste text the tokenizer was not trained on, then click outside the box."),
        )
    elif s.heldout == UPLOAD:
        st.file_uploader(
            t("Held-out text file (UTF-8, or UTF-16/32 with a byte-order mark)"),
            key=Session.heldout_file.key,
            type=["txt", "text", "md", "py", "json", "csv"],
            accept_multiple_files=True,
            on_change=store_heldout_files,
            args=(s,),
            help=t("Several files: each is a part of the held-out text, measured on its own under the curve."),
        )
        upload_status(s.heldout_text, s.heldout_problem)


def render(s: Session, subject: Subject) -> None:
    left, right = st.columns([3, 2], gap="large")
    with left:
        held_out_inputs(s, subject)
    with right:
        tokenizer_output.choose_references(s, t("Reference tokenizers (points)"))
    training = texts.training_text(s, subject.trained) if subject.trained is not None else None
    other = texts.heldout(s, subject.trained)
    if other is None:
        st.info(texts.heldout_missing_message(s))
    else:
        texts.check_overlap(s, subject.trained, other)
    measured = [text for text in (training, other) if text is not None and text.n_bytes]
    if not measured:
        st.info(t("No text to measure yet: choose a held-out text."))
        return
    lines = [found for text in measured if (found := line(subject, text)) is not None]
    if not lines:
        return
    lines += twin_lines(s, subject, measured)
    slot = st.empty()  # drawn now with what is known, again after each reference tokenizer has counted
    marks = [size for size in s.sizes if 200 <= size <= 250_000]
    points = reference_rows(s.refs, measured, known_only=True)
    slot.vega_lite_chart(chart(lines, points, marks), width="stretch")
    caption(subject, lines, training is None, bool(marks))
    pending = [name for name in s.refs if any(known(("reference", name, t.digest)) is None for t in measured)]
    if pending:
        time.sleep(FLUSH_SECONDS)
    status = st.empty()
    for name in pending:
        status.caption(t("Counting the tokens of {name}…", name=tokenizer_output.REFERENCE_LABELS[name]))
        count = lambda name=name: reference_rows([name], measured, known_only=False)  # noqa: E731
        if attempt(t("count with {name}", name=name), count) is None:
            break
        points = reference_rows(s.refs, measured, known_only=True)
        slot.vega_lite_chart(chart(lines, points, marks), width="stretch")
    status.empty()
    summary_table(subject, lines, points)
    twins = {item.text.digest: item for item in lines if item.tokenizer}
    for own in lines:
        plain_line = twins.get(own.text.digest) if not own.tokenizer else None
        if plain_line is not None:
            twin.gain_caption(own.tokens, plain_line.tokens, own.text, own.points[-1][0])
    if other is not None and other.n_bytes:
        curve_parts.render(s, subject, other)  # the whole held-out text, by part, with every tokenizer


def twin_lines(s: Session, subject: Subject, measured: list[Text]) -> list[Line]:
    """The plain BPE twin's lines on the same texts, when the subject is a superword tokenizer (``ui.compare.twin``)."""
    request = twin.wanted(subject)
    trained = twin.twin(s, request, texts.training_corpus(s, subject.trained)) if request and subject.trained else None
    if trained is None or request is None:
        return []
    other = Subject("twin", trained.tokenizer, trained.label, request.key, trained)
    found = [line(other, text) for text in measured]
    return [replace(item, tokenizer=t(twin.TWIN_LINE)) for item in found if item is not None]


def caption(subject: Subject, lines: Sequence[Line], no_training_text: bool, dashed: bool) -> None:
    tokenizer = subject.tokenizer
    timing = listed([t("{text} in {n:.2f} s", text=texts.describe(item.text), n=item.seconds) for item in lines])
    dashed_lines = t(" Dashed lines: the sizes compared side by side.") if dashed else ""
    st.caption(
        t(
            "Lines: the tokenizer at every one of its {n:,} vocab sizes ({low:,}–{high:,}) from one pass over each "
            "text: {timing}. Points: the reference tokenizers on the same texts.{dashed} Vocab size counts every "
            "token, special tokens included.",
            n=tokenizer.num_merges + 1,
            low=analysis.vocab_size_of(tokenizer, 0),
            high=analysis.vocab_size_of(tokenizer),
            timing=timing,
            dashed=dashed_lines,
        )
    )
    if any(item.text.truncated for item in lines):
        st.caption(
            t(
                "A text over {n:,} characters is drawn from a sample of that size that keeps the start of every part; "
                "the table by part below counts the whole text.",
                n=texts.MEASURE_LIMIT,
            )
        )
    if no_training_text:
        st.caption(
            t(
                "The training text is not at hand (a tokenizer loaded from files, or the corpus changed since "
                "training): only the held-out text is measured."
            )
        )


def summary_table(subject: Subject, lines: Sequence[Line], points: Sequence[dict]) -> None:
    """The full-vocabulary numbers (a static table: cell text is Markdown, so labels are escaped)."""
    rows = [row(item.tokenizer or t(LINE), item.text, item.points[-1][0], item.tokens) for item in lines] + list(points)
    import pandas as pd  # here, after the curve is on screen: pandas costs a fresh server ~1 s to import

    st.table(
        pd.DataFrame(
            {
                t("tokenizer"): [plain(item["tokenizer"]) for item in rows],
                t("text"): [plain(item["text"]) for item in rows],
                t("vocab size"): [f"{item['vocab size']:,}" for item in rows],
                t("tokens"): [f"{item['tokens']:,}" for item in rows],
                t("bytes per token"): [f"{item['bytes per token']:.3f}" for item in rows],
            }
        ),
        hide_index=True,
    )
