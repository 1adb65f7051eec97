"""The held-out text by part, with many tokenizers: under the curve, a table and a chart of each part's bytes per
token (code, prose, Chinese...) for the tokenizer compared, the one just trained, every file loaded and every
reference chosen, the whole text counted (``bpe_core.analysis.heldout.count_parts``), never its start only.

A part is a section opened by a line ``### name`` (``split_sections``); a text without such lines is one part.
Counting a long text shows a progress bar with Cancel (a chunk at a time: a click stops it between chunks); a
cancelled count waits for a click, as a cancelled talk step does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from bpe_core.analysis.heldout import CHUNK_CHARS, Part, PartCount, count_parts, premiums, split_sections
from playground.file_labels import shown_label
from playground.i18n import N_, language, t
from playground.session import REFERENCES, Session
from playground.text import plain
from runtime import jobs
from ui import progress_bar, tokenizer_output
from ui.compare.common import Subject, attempt, content_key, known, remembered
from ui.compare.texts import Text, name

PROGRESS_ABOVE = CHUNK_CHARS
"""Characters of text (all tokenizers together) above which counting shows a progress bar with Cancel."""
ALL_PARTS = N_("all parts")


@dataclass(frozen=True)
class Entry:
    """A tokenizer of the table: its label (plain text), cache key and tokenizer."""

    label: str
    key: str
    tokenizer: Any


def entries(s: Session, subject: Subject) -> list[Entry]:
    """The tokenizers measured, each once: the one compared, the one just trained, every file loaded this session,
    and the references chosen (``s.refs``)."""
    found = [Entry(subject.label, subject.key, subject.tokenizer)]
    if s.trained is not None:
        found.append(Entry(s.trained.label, s.trained.request.key, s.trained.tokenizer))
    for label, tokenizer in s.loaded.items():
        found.append(Entry(shown_label(label, tokenizer), content_key(tokenizer), tokenizer))
    for reference in s.refs:
        if reference in REFERENCES:
            tokenizer = tokenizer_output.reference_tokenizer(reference)
            found.append(Entry(tokenizer_output.REFERENCE_LABELS[reference], f"reference-{reference}", tokenizer))
    unique: dict[str, Entry] = {}
    for entry in found:
        unique.setdefault(entry.key, entry)
    return list(unique.values())


def parts_of(text: Text) -> list[Part]:
    """The held-out text's parts: its ``### name`` sections (what comes before the first is "start"), or the whole
    text as one part, "whole text" (short: a part's name labels the chart's axis, at talk size too)."""
    parts = split_sections(text.whole_text)
    if len(parts) == 1 and not parts[0].name:
        return [Part(t("whole text"), text.whole_text)]
    return [Part(part.name or t("start"), part.text) for part in parts]


def baseline(parts: list[Part]) -> int:
    """The part premiums are measured against: the first one named English (or ``en``), else the first."""
    english = [i for i, part in enumerate(parts) if "english" in part.name.lower() or part.name.lower() == "en"]
    return english[0] if english else 0


def stop_key(text: Text) -> str:
    return f"parts-{text.whole_digest}"


def cancel(s: Session, key: str, cancelled: str) -> None:
    """Cancel's callback: the count is stopped and waits for a click (it would start again by itself)."""
    progress_bar.cancel_clicked(s, key, cancelled)
    s.stopped_jobs = (*s.stopped_jobs, key)


def resume(s: Session, key: str) -> None:
    s.stopped_jobs = tuple(job for job in s.stopped_jobs if job != key)


def counted(s: Session, measured: list[Entry], text: Text, parts: list[Part]) -> dict[str, list[PartCount]] | None:
    """Each tokenizer's counts of every part (from the cache, or counted now); None while a cancelled count waits."""
    pending = [entry for entry in measured if known(_parts_key(entry, text)) is None]
    key = stop_key(text)
    if pending and key in s.stopped_jobs:
        st.info(t("Counting the whole held-out text was cancelled."))
        st.button(t("Count the whole text"), key="parts_resume", on_click=resume, args=(s, key))
        return None
    total = len(text.whole_text) * len(pending)
    if pending and total > PROGRESS_ABOVE:
        n, k = len(text.whole_text), len(pending)
        label = t("Counting the whole held-out text ({n:,} characters) with {k} tokenizers", n=n, k=k)
        cancelled = t("Counting cancelled: the table shows no part counts.")
        with progress_bar.job_bar(s, label, key=key, cancelled=cancelled, on_cancel=cancel) as bar:
            done, started = [0], time.monotonic()

            def advance(chars: int) -> None:  # (characters are the steps)
                done[0] += chars
                bar.progress(jobs.JobStatus(jobs.RUNNING, done[0], total, None, time.monotonic() - started))

            found = _count_all(measured, text, parts, advance)
    else:
        found = _count_all(measured, text, parts, None)
    return found


def _count_all(
    measured: list[Entry], text: Text, parts: list[Part], on_chunk: Callable[[int], None] | None
) -> dict[str, list[PartCount]]:
    found = {}
    for entry in measured:
        counts = attempt(
            t("count {text} with {name}", text=name(text), name=plain(entry.label)),
            _counter(entry, text, parts, on_chunk),
        )
        if counts is not None:
            found[entry.key] = counts
    return found


def _counter(
    entry: Entry, text: Text, parts: list[Part], on_chunk: Callable[[int], None] | None
) -> Callable[[], list[PartCount]]:
    """What counts ``entry``'s tokens of every part once (kept under the tokenizer's key and the text's digest)."""
    return lambda: remembered(_parts_key(entry, text), lambda: count_parts(entry.tokenizer, parts, on_chunk))


def _parts_key(entry: Entry, text: Text) -> tuple[str, str, str, str]:
    """The counts' cache key. The counts carry their parts' names, which are in the session's language (the part
    before the first heading is "start", 开头): a room's cache is shared, and a Chinese page showed "start"."""
    return ("parts", entry.key, text.whole_digest, language())


def table_rows(measured: list[Entry], found: dict[str, list[PartCount]], base: int) -> list[dict]:
    """A row per tokenizer and part (and its sum over the parts when there are several); ``relative``: its tokens ÷
    the first tokenizer's (the one compared) on the same part, as nanochat's tokenizer evaluation sets them side by
    side."""
    first = _with_sum(found.get(measured[0].key) or []) if measured else []
    rows = []
    for entry in measured:
        if entry.key not in found:
            continue
        counts = _with_sum(found[entry.key])
        paid = premiums(found[entry.key], base)
        for i, count in enumerate(counts):
            relative = count.tokens / first[i].tokens if i < len(first) and first[i].tokens else None
            rows.append(_row(entry.label, count, paid[i] if i < len(paid) else None, relative))
    return rows


def _with_sum(counts: list[PartCount]) -> list[PartCount]:
    """The parts' counts, and their sum ("all parts") when there are several."""
    if len(counts) < 2:
        return counts
    return [*counts, PartCount(t(ALL_PARTS), sum(c.n_bytes for c in counts), sum(c.tokens for c in counts))]


def _row(label: str, count: PartCount, premium: float | None, relative: float | None) -> dict:
    return {
        "tokenizer": label,
        "part": count.name,
        "bytes": count.n_bytes,
        "tokens": count.tokens,
        "bytes per token": round(count.bytes_per_token, 4),
        "premium": premium,
        "relative": relative,
    }


def render(s: Session, subject: Subject, text: Text) -> None:
    """The held-out text's parts, for every tokenizer measured: a chart and a table."""
    parts = parts_of(text)
    st.subheader(t("The held-out text by part, with every tokenizer"))
    measured = entries(s, subject)
    found = counted(s, measured, text, parts)
    if not found:
        return
    base = baseline(parts)
    rows = table_rows(measured, found, base)
    several = len(parts) > 1  # one part has no premium (its own tokens per byte ÷ its own: 1.00× everywhere)
    if several:
        st.vega_lite_chart(chart([row for row in rows if row["premium"] is not None]), width="stretch")
    import pandas as pd  # (imported once the curve is on screen: see ui.compare.curve.summary_table)

    columns = {
        t("tokenizer"): [plain(row["tokenizer"]) for row in rows],
        t("part"): [plain(row["part"]) for row in rows],
        t("bytes"): [f"{row['bytes']:,}" for row in rows],
        t("tokens"): [f"{row['tokens']:,}" for row in rows],
        t("bytes per token"): [f"{row['bytes per token']:.3f}" for row in rows],
        t("premium"): ["" if row["premium"] is None else f"{row['premium']:.2f}×" for row in rows],
        t("tokens vs the first"): ["" if row["relative"] is None else f"{row['relative']:.1%}" for row in rows],
    }
    if not several:
        del columns[t("premium")]
    st.table(pd.DataFrame(columns), hide_index=True)
    st.caption(parts_caption(text, parts, base, measured[0].label))


def parts_caption(text: Text, parts: list[Part], base: int, first: str) -> str:
    """What the table measures; one part (no "### name" lines) has no premium to explain, and is not "1 parts"."""
    if len(parts) == 1:
        return t(
            "The whole text is counted as one part ({n:,} characters; lines “### name” would cut it into parts, "
            "each measured on its own). Tokens vs the first: its tokens ÷ those of {first}.",
            n=len(text.whole_text),
            first=plain(first),
        )
    return t(
        "The whole text is counted, every part to its end ({n:,} characters, {k} parts: lines “### name” open "
        "a part). Premium: a part's tokens per byte ÷ those of {base} with the same tokenizer (1.50×: a byte "
        "of it costs half as many tokens again). Tokens vs the first: its tokens ÷ those of {first} on the same "
        "part.",
        n=len(text.whole_text),
        k=len(parts),
        base=plain(parts[base].name),
        first=plain(first),
    )


LEGEND_LINE_PX = 20
"""A legend line's pixels (a 12 px label, its symbol and row padding): what a chart adds per line below its plot."""


def chart(rows: list[dict]) -> dict:
    """Bars of bytes per token: a group per part, a bar per tokenizer (Vega-Lite, rows inline)."""
    from ui import chart_style

    parts = list(dict.fromkeys(row["part"] for row in rows))
    bars = {
        "name": "parts",
        "data": {"values": rows},  # in a layer: top-level data would cost Streamlit an Arrow conversion
        "mark": {"type": "bar"},
        "encoding": {
            "x": {"field": "part", "type": "nominal", "title": t("part"), "sort": parts, "axis": {"labelAngle": 0}},
            "xOffset": {"field": "tokenizer", "type": "nominal"},
            "y": {"field": "bytes per token", "type": "quantitative", "title": t("bytes per token")},
            "color": {
                "field": "tokenizer",
                "type": "nominal",
                "title": t("tokenizer"),
                "legend": {"orient": "bottom", "direction": "vertical"},
            },
            "tooltip": [
                {"field": "tokenizer", "type": "nominal", "title": t("tokenizer")},
                {"field": "part", "type": "nominal", "title": t("part")},
                {"field": "tokens", "type": "quantitative", "format": ",", "title": t("tokens")},
                {"field": "bytes per token", "type": "quantitative", "title": t("bytes per token")},
            ],
        },
    }
    tokenizers = len({row["tokenizer"] for row in rows})
    # The height holds the legend below the plot (autosize "fit" counts it): the plot keeps its 300 px.
    spec = {"layer": [bars], "height": 300 + (tokenizers + 2) * LEGEND_LINE_PX}
    return chart_style.style_spec(spec, lines=chart_style.TALK_HEIGHT_IN_LINES + tokenizers + 2)
