"""bpe_core.analysis.overlap: two vocabularies compared by bytes, against the sets each tokenizer's own library
gives (tiktoken's mergeable ranks, Hugging Face ``tokenizers``' GPT-2 vocabulary decoded through the byte-level
map written out below), and its properties (a tokenizer against itself, symmetry) on trained tokenizers; the
``overlap`` command's tables against the library."""

from __future__ import annotations

import gzip
from unittest import mock

import pytest
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli import SMALL_TEXT, run
from tiktoken.load import load_tiktoken_bpe
from tiktoken_ext import openai_public

import bpe_core
from bpe_core.analysis.overlap import LENGTH_BINS, LISTS, SCRIPTS, Overlap, token_script, vocabulary_overlap
from bpe_core.reference import reference_files


def gpt2_byte_map() -> dict[str, int]:
    """GPT-2's printable alphabet -> byte, as its encoder.py builds it: printable Latin-1 bytes stand for
    themselves, the others are shifted to U+0100 and on, in byte order."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars = {byte: chr(byte) for byte in printable}
    shifted = (byte for byte in range(256) if byte not in chars)
    chars.update({byte: chr(256 + n) for n, byte in enumerate(shifted)})
    return {char: byte for byte, char in chars.items()}


def tiktoken_specials(name: str, ranks: dict[bytes, int]) -> set[str]:
    """The special tokens tiktoken's own constructor declares for ``name`` (its file loaders answer ``ranks``)."""
    with (
        mock.patch.object(openai_public, "load_tiktoken_bpe", lambda *args, **kwargs: ranks),
        mock.patch.object(openai_public, "data_gym_to_mergeable_bpe_ranks", lambda *args, **kwargs: ranks),
    ):
        return set(openai_public.ENCODING_CONSTRUCTORS[name]()["special_tokens"])


@pytest.fixture(scope="module")
def independent(tmp_path_factory) -> dict[str, tuple[set[bytes], set[str]]]:
    """Each reference's ordinary tokens (bytes) and special tokens, read by its own library."""
    directory = tmp_path_factory.mktemp("overlap-data")
    found = {}
    for name in ("cl100k_base", "o200k_base"):
        (packed,) = reference_files(name).values()
        plain = directory / f"{name}.tiktoken"
        plain.write_bytes(gzip.decompress(packed.read_bytes()))
        ranks = load_tiktoken_bpe(str(plain))
        found[name] = (set(ranks), tiktoken_specials(name, ranks))
    files = reference_files("gpt2")
    model = tokenizers.models.BPE.from_file(str(files["encoder.json"]), str(files["vocab.bpe"]))
    byte_of = gpt2_byte_map()
    specials = tiktoken_specials("gpt2", {})
    vocab = tokenizers.Tokenizer(model).get_vocab()
    found["gpt2"] = ({bytes(byte_of[char] for char in token) for token in vocab if token not in specials}, specials)
    return found


@pytest.mark.parametrize(("a", "b"), [("gpt2", "cl100k_base"), ("cl100k_base", "o200k_base")])
def test_the_sets_are_those_of_each_tokenizers_own_library(a, b, independent):
    (tokens_a, specials_a), (tokens_b, specials_b) = independent[a], independent[b]
    found = vocabulary_overlap(bpe_core.reference(a), bpe_core.reference(b))
    assert found.shared == tokens_a & tokens_b
    assert found.only_a == tokens_a - tokens_b and found.only_b == tokens_b - tokens_a
    assert (found.size_a, found.size_b) == (len(tokens_a), len(tokens_b))
    assert found.jaccard == pytest.approx(len(tokens_a & tokens_b) / len(tokens_a | tokens_b))
    assert set(found.specials_a) == specials_a and set(found.specials_b) == specials_b
    assert set(found.shared_specials) == specials_a & specials_b
    # The breakdowns count each token once, in its own script and length.
    for rows, key in ((found.by_script, token_script), (found.by_length, length_label)):
        for column, tokens in enumerate((tokens_a & tokens_b, tokens_a - tokens_b, tokens_b - tokens_a), start=1):
            expected = count_by(tokens, key)
            assert {row[0]: row[column] for row in rows if row[column]} == expected


def length_label(token: bytes) -> str:
    return next(label for low, high, label in LENGTH_BINS if low <= len(token) and (high is None or len(token) <= high))


def count_by(tokens: set[bytes], key) -> dict[str, int]:
    counts: dict[str, int] = {}
    for token in tokens:
        counts[key(token)] = counts.get(key(token), 0) + 1
    return counts


def test_gpt2s_alphabet_is_undone_and_lists_are_in_id_order():
    found = vocabulary_overlap(bpe_core.reference("gpt2"), bpe_core.reference("cl100k_base"))
    assert b" the" in found.shared and "Ġthe".encode() not in found.ids_a
    listed = found.tokens("only_b", "han")
    assert listed and all(token_script(token) == "han" for token in listed)
    assert [found.ids_b[token] for token in listed] == sorted(found.ids_b[token] for token in listed)
    assert all(b"ing" in token for token in found.tokens("shared", contains=b"ing"))
    assert found.tokens("shared") == sorted(found.shared, key=found.ids_a.__getitem__)
    assert found.tokens("only_a") == sorted(found.only_a, key=found.ids_a.__getitem__)
    assert found.tokens("only_b") == sorted(found.only_b, key=found.ids_b.__getitem__)
    with pytest.raises(ValueError, match="which must be one of shared, only_a, only_b"):
        found.tokens("both")
    with pytest.raises(ValueError, match="script must be None or one of latin"):
        found.tokens("shared", "klingon")


# -- properties, on tokenizers trained from generated text ---------------------------------------------

TEXTS = st.text(st.sampled_from("ab cé中文ж12 .\n"), min_size=1, max_size=60)
SIZES = st.integers(256, 290)


def trained(text: str, size: int, specials: list[str]) -> bpe_core.Tokenizer:
    return bpe_core.train(text, size + len(specials), special_tokens=specials).tokenizer


@settings(max_examples=25, deadline=None)
@given(text=TEXTS, size=SIZES, special=st.booleans())
def test_a_tokenizer_against_itself_is_all_shared(text, size, special):
    tokenizer = trained(text, size, ["<|endoftext|>"] if special else [])
    found = vocabulary_overlap(tokenizer, tokenizer)
    ordinary = {token for i, token in tokenizer.vocab.items() if i not in tokenizer.special_tokens.values()}
    assert found.shared == ordinary and not found.only_a and not found.only_b and found.jaccard == 1.0
    assert found.shared_specials == found.specials_a == tuple(tokenizer.special_tokens)
    assert all(row.only_a == row.only_b == 0 for row in (*found.by_script, *found.by_length))
    assert sum(row.shared for row in found.by_script) == sum(row.shared for row in found.by_length) == len(ordinary)


@settings(max_examples=25, deadline=None)
@given(text_a=TEXTS, text_b=TEXTS, size_a=SIZES, size_b=SIZES)
def test_overlap_is_symmetric(text_a, text_b, size_a, size_b):
    a, b = trained(text_a, size_a, ["<|endoftext|>"]), trained(text_b, size_b, ["<|a|>", "<|endoftext|>"])
    forward, backward = vocabulary_overlap(a, b), vocabulary_overlap(b, a)
    assert forward.shared == backward.shared and forward.jaccard == backward.jaccard
    assert (forward.only_a, forward.only_b) == (backward.only_b, backward.only_a)
    for rows, mirrored in ((forward.by_script, backward.by_script), (forward.by_length, backward.by_length)):
        assert [(row.name, row.shared, row.only_a, row.only_b) for row in rows] == [
            (row.name, row.shared, row.only_b, row.only_a) for row in mirrored
        ]
    assert forward.shared_specials == ("<|endoftext|>",)
    assert len(forward.shared) + len(forward.only_a) == forward.size_a == a.n_vocab - 1


@settings(max_examples=100, deadline=None)
@given(st.text(min_size=1, max_size=12))
def test_every_token_has_one_script(text):
    data = text.encode("utf-8", errors="replace")
    assert token_script(data) in SCRIPTS
    if len(data) > 1:
        assert token_script(data[:-1]) in SCRIPTS
    if any(byte >= 0x80 for byte in data):
        assert token_script(bytes(byte for byte in data if byte >= 0x80)[:1]) == "bytes"  # a lone lead/continuation


@given(st.text(st.sampled_from("abcXYZéß"), min_size=1), st.text(st.sampled_from(" .,!?()0123456789"), max_size=5))
def test_a_script_is_its_letters(letters, rest):
    assert token_script((rest + letters + rest).encode()) == "latin"
    assert token_script((letters + "中").encode()) == "mixed"


def test_classic_and_sentencepiece_vocabularies():
    classic = bpe_core.train_classic("low low lower newest widest", vocab_size=30).tokenizer
    found = vocabulary_overlap(classic, classic)
    assert found.specials_a == ("<unk>",) and found.jaccard == 1.0 and b"low" in found.shared
    with pytest.raises(TypeError, match="a must be a tokenizer .* str has no vocab"):
        vocabulary_overlap("gpt2", classic)


def test_overlap_type_is_exported():
    assert bpe_core.vocabulary_overlap is vocabulary_overlap and bpe_core.Overlap is Overlap
    assert LISTS == ("shared", "only_a", "only_b")


# -- the command line ------------------------------------------------------------------------------------------


def test_the_command_prints_the_librarys_numbers(tmp_path):
    tokenizer = bpe_core.train(SMALL_TEXT, 400, special_tokens=["<|endoftext|>"]).tokenizer
    bpe_core.save(tokenizer, tmp_path / "tok", "hf")
    result = run("overlap", "tok/tokenizer.json", "gpt2", "--list", "3", cwd=tmp_path)
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    lines = result.stdout.decode("utf-8").splitlines()
    found = vocabulary_overlap(bpe_core.load(tmp_path / "tok" / "tokenizer.json"), bpe_core.reference("gpt2"))
    numbers = {line.rsplit(None, 1)[0].strip(): line.rsplit(None, 1)[1] for line in lines[1:7]}
    assert numbers == {
        "A (tok/tokenizer.json)": f"{found.size_a:,}",
        "B (gpt2)": f"{found.size_b:,}",
        "shared": f"{len(found.shared):,}",
        "only in A": f"{len(found.only_a):,}",
        "only in B": f"{len(found.only_b):,}",
        "Jaccard": f"{found.jaccard:.3f}",
    }
    start = next(
        i for i, line in enumerate(lines) if line.split() == ["script", "shared", "only", "in", "A", "only", "in", "B"]
    )
    end = lines.index("", start)
    rows = {
        line.split()[0]: [int(cell.replace(",", "")) for cell in line.split()[1:]] for line in lines[start + 1 : end]
    }
    assert rows == {row.name: [row.shared, row.only_a, row.only_b] for row in found.by_script}
    assert "  both: <|endoftext|>" in lines
    only_a = next(line for line in lines if line.startswith("only in A ("))
    literals = [
        repr(token.decode()) if token_script(token) != "bytes" else repr(token) for token in found.tokens("only_a")
    ]
    assert only_a.endswith(" ".join(literals[:3]))


def test_the_command_refuses_what_it_cannot_read(tmp_path):
    result = run("overlap", "gpt2", "no-such-file.json", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().count("\n") == 1 and "no-such-file.json" in result.stderr.decode()
    result = run("overlap", "gpt2", "gpt2", "--script", "klingon")
    assert result.returncode == 2 and b"invalid choice: 'klingon'" in result.stderr
