"""Encode's "one word, merge by merge" (ui.tokenizer_output.word_steps) reads the encoder's own merges: every step is
exactly what the tokenizer cut to that many merges gives, for byte-level and classic BPE alike, with a literal
``</w>`` in classic text kept as text (the ambiguity ``bpe_core.classic`` exists to avoid)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from ui.tokenizer_output import UnknownSymbol, encode, word_steps, words

CLASSIC_CORPUS = "low low lower newest newest widest a</w> a</w>b </w></w> w> <//w>> " * 3
CLASSIC = bpe_core.train_classic(CLASSIC_CORPUS, 60).tokenizer
BYTE = bpe_core.train("low lower lowest newest widest " * 20 + "日本語 日本", 320).tokenizer
WORDS = st.text(alphabet="lowerniuts</>w日本語z", min_size=1, max_size=12).filter(lambda w: not w.isspace())


def shown(labels: list) -> list:
    return [label.symbol if isinstance(label, UnknownSymbol) else label for label in labels]


@settings(max_examples=150, deadline=None)
@given(WORDS)
def test_classic_steps_are_the_classic_encoder_cut_to_each_rank(word):
    steps = word_steps(CLASSIC, word)
    assert shown(steps[0][1]) == [*word, "</w>"]
    for caption, labels, just in steps[1:]:
        rank = int(caption.split("round ")[1].split(":")[0].replace(",", "")) - 1  # round k made rank k - 1
        assert shown(labels) == CLASSIC.truncated(rank + 1).encode_word(word), caption
        assert any(just)
    assert shown(steps[-1][1]) == CLASSIC.encode_word(word)


def test_a_literal_end_mark_in_classic_text_stays_text():
    """ "a</w>" is the characters a, <, /, w, > and then the mark: its last symbol is never confused with them."""
    steps = word_steps(CLASSIC, "a</w>")
    assert "".join(shown(steps[-1][1])) == "a</w></w>"
    assert shown(steps[-1][1]) == CLASSIC.encode_word("a</w>")


def test_an_unseen_character_is_an_unknown_symbol_at_every_step():
    for _, labels, _ in word_steps(CLASSIC, "loz"):
        assert UnknownSymbol("z", CLASSIC.unknown_id) in labels


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([" lowest", "newest", " widest", "日本語", " lo", "low"]))
def test_byte_level_steps_are_the_tokenizer_cut_to_each_rank(word):
    steps = word_steps(BYTE, word)
    assert steps[0][1] == [bytes([b]) for b in word.encode()]
    for caption, labels, _ in steps[1:]:
        rank = int(caption.split("round ")[1].split(":")[0].replace(",", "")) - 1  # round k made rank k - 1
        truncated = BYTE.truncated(rank + 1)
        assert labels == truncated.decode_tokens_bytes(truncated.encode(word)), caption
    assert steps[-1][1] == BYTE.decode_tokens_bytes(BYTE.encode(word))


@settings(max_examples=100, deadline=None)
@given(st.lists(WORDS, max_size=6).map(" \n".join))
def test_encodes_words_are_the_classic_encoders_own(text):
    """Encode draws a classic text word by word from the tokenizer's shape (its pieces, each segmented with all
    merges): the same symbols ``encode_words`` gives, a literal ``</w>`` included."""
    assert words(CLASSIC, text) == CLASSIC.encode_words(text)
    encoded = encode(CLASSIC, text)
    assert encoded.ids == CLASSIC.encode(text) and encoded.unknown_id == CLASSIC.unknown_id
    symbols = [symbol for word in CLASSIC.encode_words(text) for symbol in word]
    expected = [b"<unk>" if i == CLASSIC.unknown_id else symbol.encode() for symbol, i in zip(symbols, encoded.ids)]
    assert encoded.tokens == expected


def test_a_sentencepiece_words_steps_end_as_its_own_pieces_from_its_characters():
    """Mistral 7B v3 (SentencePiece): each word of Encode's list ends as the pieces ``sentencepiece`` gives it in
    the text, and starts from its characters; the word steps normalized the normalized piece again (``▁Tokenizers``
    became ``· · T o k …`` and ended in 3 pieces where the text has 2) and said "one token per byte"."""
    from test_open_models import packaged

    if "mistral-7b-v3" not in bpe_core.reference_names():
        pytest.skip("mistral-common is not installed")
    spm = pytest.importorskip("sentencepiece")
    path = packaged("mistral_common", "data/mistral_instruct_tokenizer_240323.model.v3")
    theirs = spm.SentencePieceProcessor(model_file=str(path))
    mistral = bpe_core.reference("mistral-7b-v3")
    text = "Tokenizers split naïve text: 字节对编码 🙂 x"
    for piece in mistral.pretokenize(text):
        steps = word_steps(mistral, piece)
        assert steps[0][0] == "start: one token per character"
        assert b"".join(steps[-1][1]) == b"".join(steps[0][1]) == piece.replace("▁", " ").encode()
    ids = theirs.encode(text)
    ends = [token for piece in mistral.pretokenize(text) for token in word_steps(mistral, piece)[-1][1]]
    assert ends == [mistral.token_bytes(i) for i in ids]


def _pipeline_pair(name: str, tmp_path):
    """One of test_hf_pipeline's pipelines trained by ``tokenizers``, saved, and loaded by both libraries."""
    tokenizers = pytest.importorskip("tokenizers")
    import test_hf_pipeline as hf

    made = hf.PIPELINES[name]()
    hf.add_tokens(made)
    document = json.loads(made.to_str())
    if document["model"].get("byte_fallback"):
        document = hf.with_byte_fallback(document)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return bpe_core.load(path), tokenizers.Tokenizer.from_file(str(path))


PIPELINE_TEXT = "The lower day, naïve 12345 [MASK] ok<s>z"
PREFIXED = "nfd_strip_prefix_unk"  # a continuing-subword prefix (##): its own test below


def _pipeline_names() -> list[str]:
    import test_hf_pipeline as hf

    return [name for name in hf.PIPELINES if name != PREFIXED]


def _ends_as_ids(tokenizer, text: str) -> list[int]:
    """The last step of each piece's steps, as ids (an unknown symbol as its id)."""
    labels = [label for piece in tokenizer.pretokenize(text) for label in word_steps(tokenizer, piece)[-1][1]]
    return [label.unknown_id if isinstance(label, UnknownSymbol) else tokenizer.token_id(label) for label in labels]


@pytest.mark.parametrize("name", _pipeline_names())
def test_a_pipelines_word_steps_end_as_its_own_libraries_tokens(name, tmp_path):
    """Each Hugging Face pipeline's pieces (pretokenize: normalized already), stepped merge by merge, end as the tokens
    ``tokenizers`` gives the text, and start from the piece's own symbols: the steps segmented a normalized piece again,
    so a Llama 2 style file (Prepend ▁) started with ``▁ ▁ T h e`` and said "then </w>" (classic BPE's start)."""
    ours, theirs = _pipeline_pair(name, tmp_path)
    assert _ends_as_ids(ours, PIPELINE_TEXT) == theirs.encode(PIPELINE_TEXT, add_special_tokens=False).ids
    for piece in ours.pretokenize(PIPELINE_TEXT):
        caption, first, _ = word_steps(ours, piece)[0]
        if piece in ours.special_tokens:
            continue
        if ours.byte_level:
            assert caption == "start: one token per byte"
            if all(ours.token_id(bytes([byte])) is not None for byte in piece.encode()):  # (tokenizers drops others)
                assert first == [bytes([byte]) for byte in piece.encode()]
        elif ours.end_of_word:
            assert caption == "start: one symbol per character, then </w>"
        else:
            assert caption == "start: one token per character"
            if all(ours.token_id(char) is not None for char in piece):
                assert first == list(piece)


def test_a_prefixed_pipelines_word_steps_end_as_its_own_libraries_tokens(tmp_path):
    """A continuing-subword prefix (``##``): a merge drops it from its right part (``a`` + ``##b`` is ``ab``); the
    steps joined the symbols' text whole (``a##b``), found no such token and never merged."""
    ours, theirs = _pipeline_pair(PREFIXED, tmp_path)
    assert _ends_as_ids(ours, PIPELINE_TEXT) == theirs.encode(PIPELINE_TEXT, add_special_tokens=False).ids


@pytest.mark.parametrize("name", [*_pipeline_names(), PREFIXED])
def test_a_pipelines_segmentation_with_every_merge_is_its_own_libraries_tokens(name, tmp_path):
    """What Encode draws at full size, from the boundaries' lifetimes: the ids tokenizers gives (a prefixed model's
    lifetimes looked its parts up as ``a##b`` and kept every character apart)."""
    ours, theirs = _pipeline_pair(name, tmp_path)
    segmentation = ours.segment(PIPELINE_TEXT)
    tokens = segmentation.tokens_at(segmentation.num_merges)
    assert [ours.token_id(token) for token in tokens] == theirs.encode(PIPELINE_TEXT, add_special_tokens=False).ids
