"""bpe_core.analysis: the curve is exact, trees reassemble, export -> import keeps every id."""

from __future__ import annotations

import io
import zipfile
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core import analysis, formats
from bpe_core.analysis import merge_tree
from bpe_core.analysis import vocabulary as vocabulary_table

SMALL_TEXTS = {
    "sennrich": " ".join(["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3),
    "mixed": (
        "Byte-pair encoding merges the most frequent pair. 字节对编码从字节开始，反复合并。\n"
        "def f(x):\n    return x ** 2  # code\n" * 4
    ),
    "emoji": "🙂🚀 café naïve ünïcödé 🙂🙂 " * 10,
}


def _sizes(tokenizer, how_many: int = 7) -> list[int]:
    n = tokenizer.num_merges
    return sorted({0, 1, n // 7, n // 3, n // 2, (3 * n) // 4, n - 1, n} & set(range(n + 1)))[: how_many + 1]


def _check_curve_exact(tokenizer, text: str) -> None:
    curve = analysis.bytes_per_token_curve(tokenizer, text)
    counts = analysis.token_counts_by_size(tokenizer, text)
    assert len(curve) == tokenizer.num_merges + 1 == len(counts)
    assert counts == tokenizer.segment(text).token_counts()
    n_bytes = len(text.encode("utf-8"))
    for k in _sizes(tokenizer):
        actual = len(tokenizer.truncated(k).encode(text))
        assert counts[k] == actual, k
        size, bpt = curve[k]
        assert size == analysis.vocab_size_of(tokenizer, k)
        assert bpt == pytest.approx(n_bytes / actual)


@pytest.mark.parametrize("name", sorted(SMALL_TEXTS))
@pytest.mark.parametrize("pattern", ["gpt2", None])
def test_curve_equals_truncated_encoding_small(name, pattern):
    text = SMALL_TEXTS[name]
    result = bpe_core.train(text, 256 + 40 + 1, pattern=pattern, special_tokens=["<|eot|>"])
    tokenizer = result.tokenizer
    # held-out text with a special token and characters never seen in training
    held_out = text[::-1] + "<|eot|>" + text[: len(text) // 2] + " zebra ✓"
    for sample in (text, held_out):
        _check_curve_exact(tokenizer, sample)


def test_curve_real_corpora(shakespeare, chinese, docs):
    tokenizer = bpe_core.train(docs[:200_000], 1500).tokenizer
    for text in (shakespeare[:60_000], chinese[:20_000], docs[200_000:260_000]):
        _check_curve_exact(tokenizer, text)
    # the curve starts at 1 byte per token and ends at the full tokenizer's value
    curve = analysis.bytes_per_token_curve(tokenizer, shakespeare[:60_000])
    assert curve[0] == (256, 1.0)
    assert curve[-1][1] == pytest.approx(analysis.bytes_per_token(tokenizer, shakespeare[:60_000]))


def test_curve_with_chinese_training(chinese):
    tokenizer = bpe_core.train(chinese[:30_000], 800, pattern="cl100k").tokenizer
    _check_curve_exact(tokenizer, chinese[30_000:45_000])


def test_curve_edge_cases():
    tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    assert analysis.bytes_per_token_curve(tokenizer, "") == []
    assert analysis.token_counts_by_size(tokenizer, "") == [0, 0, 0, 0]
    assert analysis.sample_curve([(1, 1.0)]) == [(1, 1.0)]
    long_curve = [(256 + k, 1.0 + k) for k in range(50_000)]
    sampled = analysis.sample_curve(long_curve, 300)
    assert sampled[0] == long_curve[0] and sampled[-1] == long_curve[-1]
    assert len(sampled) <= 301
    assert [size for size, _ in sampled] == sorted({size for size, _ in sampled})


def test_sizes_and_tokens_at_size():
    result = bpe_core.train(SMALL_TEXTS["mixed"], 300, special_tokens=["<s>"])
    tokenizer = result.tokenizer
    assert analysis.vocab_size_of(tokenizer) == 300 == len(tokenizer.vocab)
    assert analysis.vocab_size_of(tokenizer, 0) == 257
    assert analysis.merges_for_vocab_size(tokenizer, 10) == 0
    assert analysis.merges_for_vocab_size(tokenizer, 280) == 23
    assert analysis.merges_for_vocab_size(tokenizer, 10**6) == tokenizer.num_merges
    text = SMALL_TEXTS["mixed"] + "<s>tail"
    for size in (257, 270, 290, 300):
        tokens, ids = analysis.tokens_at_size(tokenizer, text, size)
        expected = tokenizer.truncated(analysis.merges_for_vocab_size(tokenizer, size)).encode(text)
        assert ids == expected
        assert b"".join(tokens) == text.encode()


def test_changed_tokens():
    assert analysis.changed_tokens([b"abc"], [b"abc"]) == [False]
    assert analysis.changed_tokens([b"ab", b"c"], [b"a", b"bc"]) == [True, True]
    assert analysis.changed_tokens([b"a", b"b", b"c"], [b"ab", b"c"]) == [True, True, False]
    assert analysis.changed_tokens([b"ab", b"c"], [b"a", b"b", b"c"]) == [True, False]
    assert analysis.changed_tokens([b"abc"], [b"a", b"bc"]) == [True]


@settings(max_examples=100, deadline=None)
@given(pieces=st.lists(st.lists(st.text(min_size=1, max_size=3), max_size=8), min_size=2, max_size=2))
def test_changed_tokens_in_a_text_the_tokens_spell_are_the_plain_ones(pieces):
    """Two segmentations of one text that they spell exactly: placed in the text, the same tokens change."""
    first = [piece.encode() for piece in pieces[0]]
    text = b"".join(first)
    second = [text[: len(text) // 3], text[len(text) // 3 :]] if text else []
    assert analysis.changed_tokens(first, second, text) == analysis.changed_tokens(first, second)


def test_a_sentencepiece_view_is_compared_where_its_tokens_fall_in_the_text():
    """Mistral 7B v3 (SentencePiece) puts a space (▁) before the text: placed by its own bytes every edge was one byte
    off, and Compare's side by side outlined 65 of its 66 tokens beside Tekken's. Placed in the text, exactly the
    tokens whose span Tekken lacks are outlined: as the two views with the dummy space taken off the first token."""
    if "mistral-7b-v3" not in bpe_core.reference_names():
        pytest.skip("mistral-common is not installed")
    text = "Tokenizers split text into tokens. Hello, world! 你好，世界 naïve 12345"
    mistral, tekken = bpe_core.reference("mistral-7b-v3"), bpe_core.reference("mistral-tekken")
    ours = mistral.decode_tokens_bytes(mistral.encode(text))
    theirs = tekken.decode_tokens_bytes(tekken.encode_ordinary(text))
    assert ours[0].startswith(b" ") and b"".join(ours)[1:] == text.encode()
    plain = [ours[0][1:], *ours[1:]]  # the dummy space off: these spell the text
    data = text.encode()
    assert analysis.changed_tokens(ours, theirs, data) == analysis.changed_tokens(plain, theirs)
    assert analysis.changed_tokens(theirs, ours, data) == analysis.changed_tokens(theirs, plain)
    in_text, by_bytes = sum(analysis.changed_tokens(ours, theirs, data)), sum(analysis.changed_tokens(ours, theirs))
    assert in_text < len(ours) // 2 < by_bytes


def test_tokens_that_differ_from_a_long_text_are_placed_by_their_own_bytes():
    """Aligning tokens to a text that differs in many places (``difflib``) grows about as the cube of its length: a
    stranger's long text must not hold the server, so past ``ALIGNED_BYTES`` the edges are the tokens' own; a
    SentencePiece dummy space alone is placed in the text at any length."""
    from bpe_core.analysis.side_by_side import ALIGNED_BYTES, text_offsets

    text = bytes(b"abcdefgh "[(7 * i) % 9] for i in range(4 * ALIGNED_BYTES))
    changed = bytes(ord("z") if i % 5 == 0 else byte for i, byte in enumerate(text))  # a difference every 5 bytes
    tokens = [changed[i : i + 4] for i in range(0, len(changed), 4)]
    assert text_offsets(tokens, text) == analysis.boundary_offsets(tokens)
    spaced = [b" " + text[:4], *(text[i : i + 4] for i in range(4, len(text), 4))]
    assert text_offsets(spaced, text) == list(range(0, len(text), 4)) + [len(text)]


def test_reference_vocab_sizes():
    from bpe_core.reference import reference

    assert analysis.vocab_size_of(reference("gpt2")) == 50257
    assert analysis.vocab_size_of(reference("o200k_base")) == 200000
    assert analysis.vocab_size_of(reference("cl100k_base")) == len(reference("cl100k_base").vocab)


def test_merge_tree_reassembles_and_matches_merges():
    result = bpe_core.train(SMALL_TEXTS["mixed"] + SMALL_TEXTS["emoji"], 400)
    tokenizer = result.tokenizer
    merges = tokenizer.merges
    for rank, (left, right) in enumerate(merges):
        token_id = 256 + rank
        tree = merge_tree.merge_tree(tokenizer, token_id)
        assert tree.reassemble() == tokenizer.token_bytes(token_id) == left + right
        assert (tree.left.token, tree.right.token) == (left, right)
        assert tree.merge_rank == rank
        assert all(len(leaf) == 1 for leaf in tree.leaves())
    leaf = merge_tree.merge_tree(tokenizer, 97)
    assert leaf.is_leaf and leaf.depth() == 0 and leaf.reassemble() == b"a"


def test_merge_tree_reference_tokenizer():
    from bpe_core.reference import reference

    gpt2 = reference("gpt2")
    token_id = gpt2.encode(" tokenization")[0]
    tree = merge_tree.merge_tree(gpt2, token_id)
    assert tree.reassemble() == gpt2.token_bytes(token_id)
    assert tree.depth() >= 2


def test_usage_never_emitted_histogram_rows(shakespeare):
    text = shakespeare[:40_000]
    result = bpe_core.train(text, 700)
    tokenizer = result.tokenizer
    usage = vocabulary_table.token_usage(tokenizer, text)
    assert usage == Counter(tokenizer.encode(text))
    never = vocabulary_table.never_emitted(tokenizer, text, usage)
    assert never == vocabulary_table.never_emitted(tokenizer, text)
    assert never, "some intermediate tokens are always absorbed into longer ones"
    assert all(usage[i] == 0 and i >= 256 for i in never)
    learned_used = [i for i in range(256, 256 + tokenizer.num_merges) if usage[i]]
    assert len(never) + len(learned_used) == tokenizer.num_merges
    histogram = vocabulary_table.length_histogram(tokenizer)
    assert sum(histogram.values()) == tokenizer.num_merges
    assert min(histogram) >= 2
    rows = vocabulary_table.vocabulary_rows(tokenizer, usage, result.trace)
    assert [row.id for row in rows] == sorted(tokenizer.vocab)
    by_id = {row.id: row for row in rows}
    for record in result.trace[:50]:
        row = by_id[record.new_id]
        assert row.merge_rank == record.rank and row.count_when_merged == record.count
        assert row.used == usage[record.new_id]
    assert by_id[ord("e")].merge_rank is None and by_id[ord("e")].length == 1


def _export_bytes(tokenizer, fmt: str) -> dict[str, bytes]:
    """What the Export page offers for download, via ui.export (file name -> bytes)."""
    from ui.export import export_files

    return export_files(tokenizer, fmt)


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_export_import_roundtrip_every_format(fmt, tmp_path):
    text = SMALL_TEXTS["mixed"] + SMALL_TEXTS["emoji"]
    tokenizer = bpe_core.train(text, 360, special_tokens=["<|endoftext|>"]).tokenizer
    files = _export_bytes(tokenizer, fmt)
    if fmt == "gpt2":
        ((name, archive),) = files.items()
        assert name.endswith(".zip")
        with zipfile.ZipFile(io.BytesIO(archive)) as zipped:
            assert sorted(zipped.namelist()) == ["merges.txt", "vocab.json"]
            zipped.extractall(tmp_path)
        loaded = formats.load(tmp_path)
    else:
        ((name, data),) = files.items()
        (tmp_path / name).write_bytes(data)
        # A tiktoken file holds no pattern: its reader is told the one it was trained with (never guessed).
        loaded = formats.load(tmp_path / name, special_tokens=tokenizer.special_tokens, pattern="gpt2")
    sample = text + "<|endoftext|> unseen words: zebra, 汉字, ✓"
    assert loaded.encode(sample) == tokenizer.encode(sample)
    assert analysis.bytes_per_token_curve(loaded, sample) == analysis.bytes_per_token_curve(tokenizer, sample)


def test_curve_exact_for_a_reference_tokenizer(shakespeare):
    """A tokenizer built from ranks (GPT-2's files): the curve still matches truncated encodings."""
    from bpe_core.reference import reference

    gpt2 = reference("gpt2")
    text = shakespeare[:20_000] + "<|endoftext|>" + "字节对编码 🙂"
    counts = analysis.token_counts_by_size(gpt2, text)
    assert counts[-1] == len(gpt2.encode(text))
    for k in (0, 1, 300, 5_000, 30_000):
        assert counts[k] == len(gpt2.truncated(k).encode(text)), k
    assert analysis.bytes_per_token_curve(gpt2, text)[-1][0] == 50257
