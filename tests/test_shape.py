"""Every tokenizer type fills ``bpe_core.TokenizerShape`` (mypy checks the types: bpe_core/encoding/shape.py),
and what the shape says agrees with each tokenizer's own encoding: the pieces encode alone to the text's ids,
the token of an id is the token encoding made, a token's id is its id."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core import TokenizerShape

CORPUS = "low lower lowest newer newest wider widest 低低 the the <|endoftext|> café\n\tend"
PARTS = st.sampled_from(["low", "er", "est", "new", " ", "  ", "\n", "\t", "<|endoftext|>", "低", "é", "z", "</w>"])
TEXTS = st.lists(PARTS | st.characters(blacklist_categories=("Cs",)), max_size=16).map("".join)
"""Texts of the corpus's words, whitespace, the special token, a literal </w> and any other character."""


@pytest.fixture(scope="module")
def byte_level():
    return bpe_core.train(CORPUS, 290, special_tokens=["<|endoftext|>"]).tokenizer


@pytest.fixture(scope="module")
def classic():
    return bpe_core.train_classic(CORPUS, 40).tokenizer


@pytest.fixture(scope="module")
def shapes(byte_level, classic):
    return [byte_level, classic]


def test_every_tokenizer_type_is_the_shape_at_run_time(shapes):
    assert all(isinstance(shape, TokenizerShape) for shape in shapes)
    assert not isinstance(object(), TokenizerShape)
    assert [shape.byte_level for shape in shapes] == [True, False]
    assert [shape.unknown_id for shape in shapes] == [None, shapes[1].n_vocab - 1]


def test_the_reference_tokenizers_are_the_shape():
    gpt2 = bpe_core.reference("gpt2")
    assert isinstance(gpt2, TokenizerShape) and gpt2.byte_level and gpt2.n_vocab == 50257


def test_n_vocab_and_special_tokens_count_every_id(shapes):
    byte_level, classic = shapes
    assert classic.n_vocab == len(classic.vocab) and classic.special_tokens == {}
    assert byte_level.n_vocab == max(byte_level.vocab) + 1 and byte_level.special_tokens == {"<|endoftext|>": 289}


@settings(max_examples=150, deadline=None)
@given(text=TEXTS)
def test_pieces_encode_alone_to_the_texts_ids(shapes, text):
    for shape in shapes:
        pieces = shape.pretokenize(text)
        if shape.byte_level:  # special tokens are left out; every other character is in some piece
            between = text.split("<|endoftext|>")  # the texts between special tokens, each pre-tokenized alone
            assert "".join(pieces) == "".join(between)
            assert [i for piece in pieces for i in shape.encode(piece)] == [
                i for part in between for i in shape.encode_ordinary(part)
            ]
        else:
            assert pieces == text.split()
            assert [i for piece in pieces for i in shape.encode(piece)] == shape.encode(text)


@settings(max_examples=100, deadline=None)
@given(text=TEXTS)
def test_what_the_shape_says_of_pre_tokenization_is_what_pretokenize_does(shapes, text):
    # Views word how a tokenizer cuts text from its pre_tokenization alone (ui/import_box.pattern_note).
    from bpe_core.pretokenize import pretokenize

    byte_level, classic = shapes
    how = byte_level.pre_tokenization
    assert (how.pattern, how.stages, how.whole_text, how.whitespace) == ("gpt2", None, False, False)
    between = text.split("<|endoftext|>")
    assert byte_level.pretokenize(text) == [piece for part in between for piece in pretokenize(part, how.pattern)]
    assert classic.pre_tokenization.whitespace and classic.pre_tokenization.pattern is None
    assert classic.pretokenize(text) == text.split()


@settings(max_examples=150, deadline=None)
@given(text=TEXTS)
def test_the_token_of_an_id_is_the_token_encoding_made(shapes, text):
    byte_level, classic = shapes
    ids = byte_level.encode(text)
    assert [byte_level.token_bytes(i) for i in ids] == byte_level.decode_tokens_bytes(ids)
    assert b"".join(map(byte_level.token_bytes, ids)).decode("utf-8", "replace") == byte_level.decode(ids)
    assert all(byte_level.token_text(i) == byte_level.token_bytes(i).decode("utf-8", "backslashreplace") for i in ids)
    symbols = [symbol for word in classic.encode_words(text) for symbol in word]
    shown = [classic.token_text(i) for i in classic.encode(text)]
    assert shown == ["<unk>" if i == classic.unknown_id else symbol for symbol, i in zip(symbols, classic.encode(text))]
    assert [classic.token_bytes(i) for i in classic.encode(text)] == [symbol.encode() for symbol in shown]


@settings(max_examples=100, deadline=None)
@given(text=TEXTS)
def test_segment_then_token_id_gives_the_ids_of_encode(shapes, text):
    for shape in shapes:
        for piece in shape.pretokenize(text):
            tokens = shape.segment(piece).tokens_at(shape.num_merges)
            ids = [shape.token_id(token) for token in tokens]
            unknown = shape.unknown_id
            assert [unknown if i is None else i for i in ids] == shape.encode(piece)


def test_token_id_of_every_regular_token_and_of_no_token(shapes):
    byte_level, classic = shapes
    assert all(byte_level.token_id(token) == i for token, i in byte_level.mergeable_ranks.items())
    assert all(classic.token_id(symbol) == i for i, symbol in enumerate(classic.symbols))
    assert byte_level.token_id(b"\xff\xfe\xfd never a token") is None and classic.token_id("zzz") is None


@pytest.mark.parametrize("bad", [-1, 10**6, "3", 2.5])
def test_a_bad_id_is_a_value_error_naming_the_ids(shapes, bad):
    for shape in shapes:
        with pytest.raises(ValueError, match="is not"):
            shape.token_text(bad)
        with pytest.raises(ValueError, match="is not"):
            shape.token_bytes(bad)


@settings(max_examples=100, deadline=None)
@given(text=TEXTS)
def test_each_piece_segmented_alone_is_the_text_segmented_at_every_size(shapes, text):
    """``segment_piece`` over the pieces ``pretokenize`` gives is ``segment`` of the text between special tokens, at
    every number of merges up to ``merge_steps`` (which is the number of merges here)."""
    for shape in shapes:
        assert shape.merge_steps == shape.num_merges
        pieces = [shape.segment_piece(piece) for piece in shape.pretokenize(text)]
        whole = [shape.segment(part) for part in (text.split("<|endoftext|>") if shape.byte_level else [text])]
        for k in {0, 1, shape.merge_steps // 2, shape.merge_steps}:
            assert [t for piece in pieces for t in piece.tokens_at(k)] == [
                t for part in whole for t in part.tokens_at(k)
            ]


def test_the_start_of_bpe_is_data_on_the_shape(shapes):
    byte_level, classic = shapes
    assert (byte_level.end_of_word, classic.end_of_word) == ("", "</w>")
    assert classic.segment_piece("low").tokens_at(0) == ["l", "o", "w", "</w>"]
