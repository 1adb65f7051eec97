"""bpe_core.analysis.heldout: the cut of a corpus into training and held-out text, and the overlap of two texts,
against their definitions (property tests) and a naive count."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.analysis.heldout import MIN_LINE_BYTES, hold_out, line_overlap, without_lines_of
from playground.heldout_texts import parallel_texts, split_corpus

LINES = st.lists(st.sampled_from(["", "x", "a line long enough to be compared", "另一行足够长的中文句子。", "  else:"]),
                 min_size=2, max_size=30)  # fmt: skip


@given(LINES, st.floats(0.01, 0.99), st.booleans())
@settings(max_examples=200, deadline=None)
def test_hold_out_cuts_at_a_line_and_keeps_every_character(lines, share, final_newline):
    text = "\n".join(lines) + ("\n" if final_newline else "")
    if len(text.splitlines()) < 2:
        with pytest.raises(ValueError, match="fewer than two lines"):
            hold_out(text, share)
        return
    train, held = hold_out(text, share)
    assert train + held == text
    n = len(text.splitlines(keepends=True))
    held_lines = len(held.splitlines(keepends=True))
    assert held_lines == min(n - 1, max(1, round(n * share)))
    assert train.endswith("\n") and train.splitlines(keepends=True) + held.splitlines(keepends=True) == \
        text.splitlines(keepends=True)  # fmt: skip


@pytest.mark.parametrize("text, share", [("one line", 0.1), ("a\nb", 0.0), ("a\nb", 1.0)])
def test_hold_out_refuses_what_it_cannot_cut(text, share):
    with pytest.raises(ValueError):
        hold_out(text, share)


def naive_overlap(text: str, training: str) -> tuple[int, int]:
    seen = {line.strip() for line in training.split("\n")}
    compared = [line.strip() for line in text.split("\n") if len(line.strip().encode()) >= MIN_LINE_BYTES]
    return sum(line in seen for line in compared), len(compared)


@given(LINES, LINES)
@settings(max_examples=200, deadline=None)
def test_overlap_counts_like_a_naive_count_and_removing_it_leaves_none(a, b):
    text, training = "\n".join(a), "\n".join(b)
    found = line_overlap(text, training)
    assert (found.shared, found.lines) == naive_overlap(text, training)
    cleaned = without_lines_of(text, training)
    assert line_overlap(cleaned, training).shared == 0
    assert line_overlap(cleaned, text).lines == found.lines - found.shared  # only the shared lines went


@given(st.lists(st.lists(st.text("ab \n", max_size=5).map(lambda s: s.replace("\n", "")), min_size=4, max_size=4),
                min_size=1, max_size=4), st.sampled_from([10, 25, 50]))  # fmt: skip
@settings(max_examples=100, deadline=None)
def test_a_parallel_corpus_holds_out_the_last_lines_of_each_language(languages, percent):
    codes = tuple(f"l{i}" for i in range(len(languages)))
    text = "".join("\n".join(lines) + "\n" for lines in languages)
    assert list(parallel_texts(text, codes).values()) == ["\n".join(lines) + "\n" for lines in languages]
    train, held = split_corpus(text, percent, codes)
    parts = [hold_out("\n".join(lines) + "\n", percent / 100) for lines in languages]
    assert train == "".join(part[0] for part in parts) and held == "".join(part[1] for part in parts)
