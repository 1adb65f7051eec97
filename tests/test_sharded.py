"""Counting files in byte ranges on several processes (bpe_core.training.sharded): the cuts that neighbours
agree on from the bytes alone, and counts exactly those of one process, in the same order, and of the naive
reference; a dead worker costs time, not counts; errors, cancelling and progress as in one process."""

from __future__ import annotations

import codecs
import io
import os
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from conftest import CORPORA
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_bpe import naive_pretokens, naive_train

from bpe_core import train_files
from bpe_core.pretokenize import count_pretokens, pattern_regex
from bpe_core.training import corpus, counting, sharded
from bpe_core.training.byte_cuts import next_cut
from bpe_core.training.corpus import count_blocks, text_blocks
from bpe_core.training.sharded import count_files

SPECIALS = ["<|endoftext|>", "<|e", "e|>x"]  # overlapping, one the start of another, one ending in a letter
PATTERNS = ["gpt2", "cl100k", "o200k", None, r"\w+|\s+|."]

# Letters (one, two, three and four bytes), newlines, and pieces of the special tokens: where cuts go wrong.
cut_heavy_text = st.lists(
    st.sampled_from(["a", "é", "字", "𝒜", " ", "\n", "\n\n", "1", "'", "<|endoftext|>", "<|e", "e|>x", "<", "|>"]),
    max_size=80,
).map("".join)


# Text files as the app and the command line read them: UTF-8, or UTF-16/32 (or UTF-8) with a byte order mark.
ENCODINGS = {
    "utf-8": lambda text: text.encode("utf-8"),
    "utf-8 with a mark": lambda text: codecs.BOM_UTF8 + text.encode("utf-8"),
    "utf-16-le": lambda text: codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
    "utf-16-be": lambda text: codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
    "utf-32-le": lambda text: codecs.BOM_UTF32_LE + text.encode("utf-32-le"),
}


def write(folder, texts: list[str], encodings: list[str] = ()) -> list:
    paths = []
    for number, text in enumerate(texts):
        path = folder / f"{number}.txt"
        path.write_bytes(ENCODINGS[encodings[number] if number < len(encodings) else "utf-8"](text))
        paths.append(path)
    return paths


def one_process(paths, pattern, specials) -> Counter[str]:
    return count_blocks(text_blocks(paths, pattern, specials), pattern, specials)


@settings(max_examples=300, deadline=None)
@given(text=cut_heavy_text, offsets=st.lists(st.integers(0, 400), max_size=6), pattern=st.sampled_from(PATTERNS))
def test_cut_ranges_count_like_the_whole_text(text, offsets, pattern):
    """No fork: the ranges between the cuts after any offsets count exactly like the whole."""
    data = text.encode("utf-8")
    specials = [token.encode() for token in SPECIALS]
    cuts = sorted({next_cut(io.BytesIO(data), offset, len(data), pattern, specials) for offset in offsets} | {0})
    cuts.append(len(data))
    counts: Counter[str] = Counter()
    for start, end in zip(cuts, cuts[1:]):
        count_pretokens(data[start:end].decode("utf-8"), pattern, SPECIALS, counts=counts)  # a char boundary
    assert counts == count_pretokens(text, pattern, SPECIALS)


@settings(max_examples=400, deadline=None)
@given(
    text=st.text(alphabet="ab<é\n ", max_size=60),
    specials=st.lists(st.text(alphabet="ab<é\n", min_size=1, max_size=3), unique=True, max_size=3),
    offsets=st.lists(st.integers(0, 70), max_size=5),
    pattern=st.sampled_from(["gpt2", None]),
)
def test_cuts_count_like_the_whole_whatever_the_special_tokens(text, specials, offsets, pattern):
    """Special tokens drawn from the text's own alphabet overlap, nest and hold newlines and letters."""
    data = text.encode("utf-8")
    tokens = [token.encode("utf-8") for token in specials]
    cuts = sorted({next_cut(io.BytesIO(data), offset, len(data), pattern, tokens) for offset in offsets} | {0})
    counts: Counter[str] = Counter()
    for start, end in zip(cuts, [*cuts[1:], len(data)]):
        count_pretokens(data[start:end].decode("utf-8"), pattern, specials, counts=counts)
    assert counts == count_pretokens(text, pattern, specials)


def test_the_cuts_that_are_safe():
    data = b"ab\ncd.\nef\n"
    cuts = [next_cut(io.BytesIO(data), offset, len(data), "gpt2", []) for offset in (0, 1, 3, 4, 9, 10)]
    assert cuts == [0, 2, 9, 9, 9, 10]
    assert next_cut(io.BytesIO(data), 1, len(data), None, []) == len(data)  # no pattern: only after a special
    assert next_cut(io.BytesIO(data), 1, len(data), r"\w+|\s", []) == len(data)  # a custom regex: the same
    text = b"xx<|endoftext|>yy"
    assert next_cut(io.BytesIO(text), 1, len(text), None, [b"<|endoftext|>", b"<|e"]) == len(b"xx<|endoftext|>")
    # After a special token that a longer one starts with is no cut (the longer one is taken), nor after one
    # that another occurrence overlaps from the left, nor between a letter and a newline in a special token.
    assert next_cut(io.BytesIO(text), 1, len(text), None, [b"<|e", b"<|en"]) == len(b"xx<|en")
    assert next_cut(io.BytesIO(text), 1, len(text), None, [b"x<|", b"<|e"]) == len(b"xx<|")
    spanned = b"abc\ndef gh\n"
    assert next_cut(io.BytesIO(spanned), 1, len(spanned), "gpt2", [b"c\nd"]) == len(b"abc\nd")


@pytest.fixture
def count_here(monkeypatch):
    """Workers that find no CPU pressure in the way (the module's choice of processes is not under test)."""
    monkeypatch.setattr(counting, "COUNT_PROCESSES", 3)
    monkeypatch.setattr(counting, "PARALLEL_MIN_CHARS", 0)


@settings(max_examples=15, deadline=None)
@given(
    texts=st.lists(cut_heavy_text.map(lambda text: text * 20), min_size=1, max_size=3),
    processes=st.integers(1, 4),
    range_bytes=st.integers(1, 300),
    block_bytes=st.integers(1, 200),
    pattern=st.sampled_from(PATTERNS),
    encodings=st.lists(st.sampled_from(list(ENCODINGS)), max_size=3),
)
def test_workers_count_exactly_like_one_process(
    tmp_path_factory, texts, processes, range_bytes, block_bytes, pattern, encodings
):
    """UTF-16/32 files too (the command line refused them): each is one range, as byte_cuts cuts only UTF-8."""
    paths = write(tmp_path_factory.mktemp("files"), texts, encodings)
    counts, special_count = count_files(
        paths, pattern, SPECIALS, processes, block_bytes=block_bytes, range_bytes=range_bytes
    )
    expected = one_process(paths, pattern, SPECIALS)
    assert (counts, list(counts)) == (expected, list(expected))  # the same counts, in the same order
    regex_source = pattern_regex(pattern)
    naive = sum((naive_pretokens(text, regex_source, SPECIALS) for text in texts), Counter())
    assert counts == naive
    expected_specials = sum(sum(1 for _ in _special_matches(text)) for text in texts)
    assert special_count == expected_specials


def _special_matches(text: str):
    import regex

    alternation = "|".join(regex.escape(token) for token in sorted(SPECIALS, key=len, reverse=True))
    return regex.finditer(alternation, text)


def test_train_files_on_three_workers_merges_like_the_naive_reference(count_here, tmp_path, shakespeare, monkeypatch):
    calls = []
    monkeypatch.setattr(
        corpus, "count_files", lambda *args, **kwargs: calls.append(args[3]) or count_files(*args, **kwargs)
    )
    texts = [shakespeare[:30_000], "<|endoftext|>".join([shakespeare[30_000:40_000], shakespeare[40_000:52_000]])]
    paths = write(tmp_path, texts)
    result = train_files(paths, 256 + 61, special_tokens=["<|endoftext|>"], block_bytes=4096)
    assert result.merges == naive_train("<|endoftext|>".join(texts), 60, pattern_regex("gpt2"), ["<|endoftext|>"])
    assert result.special_token_count == 1
    assert calls == [3]  # three workers counted


def test_real_corpora_in_many_ranges_count_like_one_process(tmp_path, chinese):
    path = CORPORA / "docs10m.txt"
    if not path.exists():
        pytest.skip(f"{path} not available")
    part = tmp_path / "docs2m.txt"
    part.write_bytes(path.read_bytes()[: 2 << 20])
    (tmp_path / "zh.txt").write_text(chinese, encoding="utf-8")  # cuts between a Han letter and a newline
    paths = [part, tmp_path / "zh.txt"]
    for pattern in ("gpt2", "o200k"):
        counts, _ = count_files(paths, pattern, ["<|endoftext|>"], 2, block_bytes=1 << 18, range_bytes=30_000)
        expected = one_process(paths, pattern, ["<|endoftext|>"])
        assert (counts, list(counts)) == (expected, list(expected))


def test_a_dead_worker_costs_time_not_counts(tmp_path, monkeypatch):
    texts = ["word Wort été\n日本 12345!?\n" * 400, "x\n<|endoftext|>y z\n" * 300]
    paths = write(tmp_path, texts)
    parent = os.getpid()
    real = sharded.count_pretokens

    def die_in_a_child(*args, **kwargs):
        if os.getpid() != parent:
            os._exit(9)  # killed: no result, no error, part of its shards perhaps written
        return real(*args, **kwargs)

    monkeypatch.setattr(sharded, "count_pretokens", die_in_a_child)
    counts, special_count = count_files(paths, "gpt2", SPECIALS, 3, block_bytes=1000, range_bytes=2000)
    expected = one_process(paths, "gpt2", SPECIALS)
    assert (counts, list(counts), special_count) == (expected, list(expected), 300)


def test_a_worker_that_dies_after_writing_shards_is_not_counted_twice(tmp_path, monkeypatch):
    paths = write(tmp_path, ["alpha beta\ngamma delta\n" * 500])
    parent = os.getpid()
    real = sharded._Job._dump

    def die_before_done(self, name, value):
        real(self, name, value)
        if name.startswith("done-") and os.getpid() != parent:
            os.unlink(self.folder / name)  # as if it died between its shards and its report
            os._exit(9)

    monkeypatch.setattr(sharded._Job, "_dump", die_before_done)
    counts, _ = count_files(paths, "gpt2", [], 2, block_bytes=1000, range_bytes=1000)
    assert counts == one_process(paths, "gpt2", [])


def test_a_file_that_is_not_utf8_is_named_with_its_offset(count_here, tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"ok\n" * 1000 + b"caf\xe9 au lait")
    with pytest.raises(ValueError, match=r"latin1.txt: not UTF-8 text \(invalid continuation byte at byte 3003\)"):
        train_files(path, 300, block_bytes=500)


def test_of_two_bad_files_the_first_is_named(tmp_path):
    paths = write(tmp_path, ["fine\n" * 3000, "fine\n" * 3000])
    for path in paths:
        path.write_bytes(path.read_bytes() + b"\xff")
    for processes in (1, 2, 3):
        with pytest.raises(ValueError, match=r"0.txt: not UTF-8"):
            count_files(paths, "gpt2", [], processes, block_bytes=1000, range_bytes=1000)


def test_progress_grows_to_the_total_and_cancelling_leaves_nothing_behind(count_here, tmp_path, monkeypatch):
    paths = write(tmp_path, ["one two\nthree\n" * 20_000, "four\n" * 10_000])
    total = sum(path.stat().st_size for path in paths)
    seen = []
    train_files(paths, 260, progress=lambda *call: seen.append(call), block_bytes=10_000)
    reads = [done for stage, done, _ in seen if stage == "read"]
    assert reads == sorted(reads) and reads[-1] == total and all(t == total for s, _, t in seen if s == "read")

    class Cancelled(Exception):
        pass

    def cancel(stage, done, total):
        raise Cancelled

    # The workers' folder goes in a temporary directory of this test's own: the machine's /tmp is shared with other
    # tests and processes counting at the same time (their folders came and went while this one was watched).
    private = tmp_path / "tmp"
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    made = []
    real_mkdtemp = tempfile.mkdtemp
    monkeypatch.setattr(tempfile, "mkdtemp", lambda *a, **k: made.append(real_mkdtemp(*a, **k)) or made[-1])
    before = _children()  # a test process may have children of its own (another test's job runner, say)
    with pytest.raises(Cancelled):
        train_files(paths, 260, progress=cancel, block_bytes=100)
    assert _children() <= before  # every worker reaped: none alive, none a zombie
    assert made and all(Path(folder).parent == private for folder in made)  # the workers had a folder there
    assert os.listdir(private) == []  # and it went with them


def _children() -> set[int]:
    """This process's children, live or not yet reaped (Linux: /proc/self/task/*/children)."""
    found: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        found |= {int(pid) for pid in (task / "children").read_text().split()}
    return found
