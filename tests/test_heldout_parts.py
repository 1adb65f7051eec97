"""bpe_core.analysis.heldout by part: a held-out text cut at its ``### name`` lines, sampled keeping every part, and
counted whole in chunks; against the definitions (property tests), the tokenizer's own ``encode`` and tiktoken."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_reference import tiktoken_encodings  # noqa: F401 -- tiktoken's own Encodings, offline (a fixture)

import bpe_core
from bpe_core.analysis import heldout
from bpe_core.analysis.heldout import Part, PartCount, count_parts, premiums, sample_parts, split_sections
from playground.heldout_texts import CODE_PROSE_CHINESE, built_in_text

LINE = st.sampled_from(
    ["", "x = 1", "### code", "### 中文", "###", "#### not a heading", " ### not either", "纯文本一行", "a\tb  "]
)
TEXTS = st.lists(LINE, max_size=25).map("\n".join) | st.text(max_size=200)


@given(TEXTS)
@settings(max_examples=300, deadline=None)
def test_sections_join_back_to_the_text_and_each_opens_at_its_heading(text):
    parts = split_sections(text, "start")
    assert "".join(part.text for part in parts) == text
    headings = [name for line in text.split("\n") if (name := heading(line)) is not None]
    assert [part.name for part in parts[len(parts) - len(headings) :]] == headings
    assert all(part.text.startswith("### ") for part in parts[len(parts) - len(headings) :])
    assert len(parts) - len(headings) == (1 if not headings or not text.startswith("### ") else 0)  # the start


def heading(line: str) -> str | None:
    """The name a line ``### name`` gives its part (spaces after the hashes, trailing blanks dropped), else None."""
    if not line.startswith("### "):
        return None
    rest = line[4:].lstrip(" ")
    return rest.rstrip(" \t")[: heldout.MAX_PART_NAME] if rest and not rest[0].isspace() else None


def test_a_text_without_headings_is_one_part_and_the_built_in_mix_has_three():
    assert split_sections("plain\ntext\n", "whole") == [Part("whole", "plain\ntext\n")]
    parts = split_sections(built_in_text(CODE_PROSE_CHINESE))
    assert [part.name for part in parts] == [
        "code",
        "English prose",
        "中文",
    ]  # Chinese last: a cut at the start loses it
    assert all(len(part.text) > 500 for part in parts)


@given(st.lists(st.tuples(st.sampled_from("abc"), st.lists(st.text("xy中", max_size=9), min_size=1)), min_size=1),
       st.integers(1, 200))  # fmt: skip
@settings(max_examples=300, deadline=None)
def test_a_sample_keeps_every_part_and_each_its_start(spec, limit):
    parts = [Part(name, "\n".join(lines) + "\n") for name, lines in spec]
    sampled = sample_parts(parts, limit)
    assert [part.name for part in sampled] == [part.name for part in parts]
    total = sum(len(part.text) for part in parts)
    for whole, kept in zip(parts, sampled):
        assert whole.text.startswith(kept.text) and kept.text  # its start, never empty
        if total > limit:
            assert kept.text.endswith("\n")  # cut at a line end
    if total <= limit:
        assert sampled == parts


@pytest.fixture(scope="module")
def tokenizers():
    text = built_in_text(CODE_PROSE_CHINESE)
    return {
        "gpt2": bpe_core.reference("gpt2"),
        "trained": bpe_core.train(text[:50_000], 600, special_tokens=["<|endoftext|>"]).tokenizer,
        "classic": bpe_core.train_classic(text[:5_000], 300).tokenizer,  # no streaming encoder: encoded whole
    }


@given(st.lists(st.sampled_from(list("ab 中\n\t.") + ["<|endoftext|>", "  ", "\r\n", "'s"]), max_size=120).map("".join),
       st.integers(1, 40), st.sampled_from(["gpt2", "trained", "classic"]))  # fmt: skip
@settings(max_examples=200, deadline=None)
def test_counting_in_chunks_gives_the_tokens_of_encoding_whole(tokenizers, monkeypatch_chunk, text, chunk, name):
    monkeypatch_chunk(chunk)
    tokenizer = tokenizers[name]
    heard: list[int] = []
    assert heldout.count_tokens(tokenizer, text, heard.append) == len(tokenizer.encode(text))
    assert sum(heard) == len(text)  # every character reported once, whatever the chunking


@pytest.fixture(scope="module")
def monkeypatch_chunk():
    """Sets the chunk size for one example (hypothesis reruns a test body: a function-scoped monkeypatch would not)."""
    saved = heldout.CHUNK_CHARS

    def set_chunk(chars: int) -> None:
        heldout.CHUNK_CHARS = chars

    yield set_chunk
    heldout.CHUNK_CHARS = saved


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_each_part_counts_as_tiktoken_counts_it(name, tiktoken_encodings):  # noqa: F811
    parts = split_sections(built_in_text(CODE_PROSE_CHINESE))
    counts = count_parts(bpe_core.reference(name), parts)
    theirs = tiktoken_encodings[name]
    assert [count.tokens for count in counts] == [
        len(theirs.encode(part.text, allowed_special="all")) for part in parts
    ]
    assert [count.n_bytes for count in counts] == [len(part.text.encode()) for part in parts]


@given(st.lists(st.tuples(st.integers(1, 10_000), st.integers(1, 5_000)), min_size=1, max_size=6), st.data())
def test_premiums_are_tokens_per_byte_against_the_baseline(sizes, data):
    counts = [PartCount(str(i), n_bytes, tokens) for i, (n_bytes, tokens) in enumerate(sizes)]
    base = data.draw(st.integers(0, len(counts) - 1))
    found = premiums(counts, base)
    assert found[base] == pytest.approx(1.0)
    for (n_bytes, tokens), premium in zip(sizes, found):
        assert premium == pytest.approx((tokens / n_bytes) / (sizes[base][1] / sizes[base][0]))
