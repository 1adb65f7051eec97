"""The blocks that mostly-ASCII splitting hands to ``regex``: one match of ``_NON_ASCII_BLOCK`` gives the stretch
that joins non-ASCII runs across ASCII gaps shorter than ``_MIN_ASCII_STRETCH``, as a loop over the runs would;
and the pre-tokens stay those of ``regex`` whatever the gaps' lengths around that threshold."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.pretokenize import PATTERNS, compile_pattern, pretokenize
from bpe_core.pretokenize.ascii_split import _MIN_ASCII_STRETCH, _NON_ASCII_BLOCK

_RUN = re.compile(r"[^\x00-\x7f]+")
LIMIT = _MIN_ASCII_STRETCH
# Gaps of ASCII (words, spaces, a newline) of lengths around the threshold, between runs of other scripts.
GAP = st.integers(0, LIMIT + 2).flatmap(
    lambda size: st.sampled_from(["a b", " ", "x\n", "42 "]).map(lambda unit: (unit * size)[:size])
)
RUN = st.sampled_from(["é", "中文", "Привет", "नमस्ते", "🙂", "\u00a0", "e\u0301"])
TEXT = st.lists(st.tuples(GAP, RUN), min_size=1, max_size=4).map(lambda parts: "".join(a + b for a, b in parts))


def block_end_by_runs(text: str, start: int) -> int:
    """The reference: from the run at ``start``, take the next run while the ASCII before it is short enough."""
    run = _RUN.match(text, start)
    assert run is not None
    end = run.end()
    following = _RUN.search(text, end)
    while following is not None and following.start() - end < LIMIT:
        end = following.end()
        following = _RUN.search(text, end)
    return end


@settings(max_examples=60, deadline=None)
@given(text=TEXT)
def test_block_is_the_runs_joined_across_short_gaps(text):
    for run in _RUN.finditer(text):
        block = _NON_ASCII_BLOCK.match(text, run.start())
        assert block is not None and block.end() == block_end_by_runs(text, run.start())


@pytest.mark.parametrize("name", ["o200k", "llama3", "cl100k"])
@settings(max_examples=25, deadline=None)
@given(text=TEXT)
def test_pretokens_equal_regex_across_gap_lengths(name, text):
    assert pretokenize(text, name) == compile_pattern(PATTERNS[name]).findall(text)


def test_gaps_at_the_threshold():
    for size in (LIMIT - 1, LIMIT, LIMIT + 1):
        text = "é" + "ab " * LIMIT
        text = text[: size + 1] + "中 x"
        assert _NON_ASCII_BLOCK.match(text).end() == block_end_by_runs(text, 0)
        assert (_NON_ASCII_BLOCK.match(text).end() > 1) == (size < LIMIT)
