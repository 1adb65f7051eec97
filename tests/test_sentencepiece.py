"""SentencePiece BPE ``.model`` files encode and decode exactly as the ``sentencepiece`` library does.

Compared with ``sentencepiece`` itself (ids of ``encode(text)``, text of ``decode(ids)``): every model file
mistral-common ships (v1-v7, Mistral 7B's family) on the torture texts and the 840 sentences of the
parallel sample; models trained here by ``sentencepiece.SentencePieceTrainer`` with the options that change
encoding (byte fallback, split digits, no dummy prefix, user-defined symbols, whitespace as suffix,
nmt_nfkc / nfkc / identity normalizers) on random texts (hypothesis); and small hand-made models with tied
scores and UNUSED pieces. Skips without sentencepiece or mistral-common.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sentencepiece_support import TORTURE, mistral_models, model_bytes, parallel_lines, train

import bpe_core
from bpe_core.encoding.sentencepiece import PieceType, SentencePieceTokenizer
from bpe_core.formats import detect_format
from bpe_core.formats.sentencepiece import parse_sentencepiece

spm = pytest.importorskip("sentencepiece", reason="sentencepiece is not installed (tests/requirements.txt)")


def assert_same(tokenizer: SentencePieceTokenizer, reference, text: str) -> None:
    expected = reference.encode(text)
    assert tokenizer.encode(text) == expected, (text, [reference.id_to_piece(i) for i in expected])
    assert tokenizer.decode(expected) == reference.decode(expected), text


# -- the model files mistral-common ships -----------------------------------------------------------


MISTRAL = mistral_models()
needs_mistral = pytest.mark.skipif(not MISTRAL, reason="mistral-common is not installed (tests/requirements.txt)")


@pytest.fixture(scope="module", params=[path.name for path in MISTRAL] or [None])
def mistral(request):
    if request.param is None:
        pytest.skip("mistral-common is not installed (tests/requirements.txt)")
    path = next(path for path in MISTRAL if path.name == request.param)
    return (*_loaded(path), path)


def test_mistral_models_are_detected_by_content_and_load(mistral):
    tokenizer, reference, path = mistral
    assert detect_format(path) == ("sentencepiece", path)  # named tokenizer.model.v3: found by its bytes
    assert isinstance(tokenizer, SentencePieceTokenizer)
    assert tokenizer.n_vocab == reference.get_piece_size()
    assert all(tokenizer.piece(i) == reference.id_to_piece(i) for i in range(tokenizer.n_vocab))
    assert "char-level BPE with byte fallback" in repr(tokenizer)


def test_mistral_models_encode_torture_texts_as_sentencepiece(mistral):
    tokenizer, reference, _ = mistral
    for text in TORTURE:
        assert_same(tokenizer, reference, text)


def test_mistral_models_encode_twenty_one_languages_as_sentencepiece(mistral):
    tokenizer, reference, _ = mistral
    lines = parallel_lines()
    assert len(lines) >= 800
    for line in lines:
        assert_same(tokenizer, reference, line)
    joined = "\n".join(lines)  # one long text: the parts and the cache across lines
    assert tokenizer.encode(joined) == reference.encode(joined)


def test_mistral_byte_fallback_and_round_trip(mistral):
    tokenizer, reference, _ = mistral
    text = "ꙮ𓀀 \U0010fffd 日本"
    pieces = [tokenizer.piece(i) for i in tokenizer.encode(text)]
    assert any(piece.startswith("<0x") for piece in pieces)  # characters no piece covers → their bytes
    for sample in TORTURE[1:]:
        assert tokenizer.decode(tokenizer.encode(sample)) == reference.decode(reference.encode(sample))


def test_mistral_control_and_user_defined_pieces(mistral):
    tokenizer, reference, _ = mistral
    specials = tokenizer.special_tokens
    assert specials["<s>"] == reference.bos_id() and specials["</s>"] == reference.eos_id()
    assert tokenizer.piece_type(reference.bos_id()) == PieceType.CONTROL
    assert tokenizer.decode([reference.bos_id(), *reference.encode("hi"), reference.eos_id()]) == "hi"
    assert "<s>" not in [tokenizer.piece(i) for i in tokenizer.encode("<s>")]  # control pieces never come from text


@needs_mistral
@given(text=st.text(max_size=60))
@settings(max_examples=150, deadline=None)
def test_mistral_v3_on_random_text(text):
    path = next(path for path in MISTRAL if path.name.endswith(".v3"))
    tokenizer, reference = _loaded(path)
    assert_same(tokenizer, reference, text)


_LOADED: dict = {}


def _loaded(path):
    if path not in _LOADED:
        _LOADED[path] = (bpe_core.load(path), spm.SentencePieceProcessor(model_file=str(path)))
    return _LOADED[path]


# -- models trained here -----------------------------------------------------------------------------

TRAINED = {
    "nmt_nfkc": {},
    "byte_fallback": {"byte_fallback": True},
    "split_digits": {"split_digits": True, "byte_fallback": True},
    "no_dummy_prefix": {"add_dummy_prefix": False},
    "user_defined": {"user_defined_symbols": ["<sep>", "foo", "\u2581bar", "a b"], "byte_fallback": True},
    "identity_spaces_kept": {"normalization_rule_name": "identity", "remove_extra_whitespaces": False},
    "nfkc": {"normalization_rule_name": "nfkc", "control_symbols": ["<ctl>"], "unk_surface": "??"},
    "whitespace_suffix": {"treat_whitespace_as_suffix": True, "allow_whitespace_only_pieces": True},
    "nmt_nfkc_cf": {"normalization_rule_name": "nmt_nfkc_cf", "split_by_whitespace": False},
}
_MODELS: dict[str, tuple[SentencePieceTokenizer, object]] = {}


def trained(name: str):
    if name not in _MODELS:
        data = train(**TRAINED[name])
        _MODELS[name] = (parse_sentencepiece(data, source=name), spm.SentencePieceProcessor(model_proto=data))
    return _MODELS[name]


TRICKY = "ab  é\u0301\n\t１２３①ｶﾞ가😀\u3000\u00a0Ａ<sep>foo▁bar a b\u200b\ufeffxX0"


@pytest.mark.parametrize("name", sorted(TRAINED))
def test_trained_models_encode_torture_and_sample_texts(name):
    tokenizer, reference = trained(name)
    for text in [*TORTURE, *parallel_lines()[::7]]:
        assert_same(tokenizer, reference, text)


@pytest.mark.parametrize("name", sorted(TRAINED))
@given(data=st.data())
@settings(max_examples=60, deadline=None)
def test_trained_models_on_random_text(name, data):
    tokenizer, reference = trained(name)
    text = data.draw(st.one_of(st.text(alphabet=TRICKY, max_size=40), st.text(max_size=30)))
    assert_same(tokenizer, reference, text)
    assert tokenizer.normalize(text) == reference.normalize(text)


def test_user_defined_symbols_stay_whole():
    tokenizer, reference = trained("user_defined")
    ids = tokenizer.encode("x<sep>foo")
    assert [tokenizer.piece(i) for i in ids][-2:] == ["<sep>", "foo"]
    assert tokenizer.special_tokens["<sep>"] == reference.piece_to_id("<sep>")


def test_pretokenize_gives_the_normalized_text_in_parts():
    tokenizer, _ = trained("user_defined")
    parts = tokenizer.pretokenize("Hello  wide<sep>world")
    assert "".join(parts) == tokenizer.normalize("Hello  wide<sep>world")
    assert parts == ["\u2581Hello", "\u2581wide", "<sep>", "world"]


def test_merges_follow_scores_as_hugging_faces_converter():
    tokenizer, reference = trained("nmt_nfkc")
    merges = tokenizer.merges
    assert merges and tokenizer.num_merges == len(merges)
    scores = [reference.get_score(reference.piece_to_id(left + right)) for left, right in merges]
    assert scores == sorted(scores, reverse=True)
    assert all(reference.piece_to_id(left) != reference.unk_id() for left, _ in merges)


# -- hand-made models: ties between scores, UNUSED pieces split back ----------------------------------

ALPHABET = "ab\u2581c"
piece_strings = st.text(alphabet=ALPHABET, min_size=2, max_size=4)


@given(
    merged=st.dictionaries(
        piece_strings, st.tuples(st.sampled_from([0.0, -1.0, -2.0, -2.5]), st.sampled_from([1, 1, 4, 5])), max_size=12
    ),
    texts=st.lists(st.text(alphabet="ab cd", max_size=12), min_size=1, max_size=5),
    dummy=st.booleans(),
    lone=st.sampled_from([None, PieceType.CONTROL, PieceType.UNUSED]),
    byte_fallback=st.booleans(),
)
@settings(max_examples=120, deadline=None)
def test_hand_made_models_break_ties_and_split_unused_pieces_as_sentencepiece(
    merged, texts, dummy, lone, byte_fallback
):
    """``lone``: the character d as a CONTROL or UNUSED piece, which SentencePiece encodes as unknown (<unk>, or its
    bytes): its own id was given."""
    pieces = [("<unk>", 0.0, PieceType.UNKNOWN), ("<s>", 0.0, PieceType.CONTROL)]
    pieces += [(character, -10.0, PieceType.NORMAL) for character in ALPHABET]
    pieces += [(piece, score, PieceType(kind)) for piece, (score, kind) in merged.items() if piece not in ALPHABET]
    pieces += [("d", -10.0, lone)] if lone is not None else []
    pieces += [(f"<0x{byte:02X}>", 0.0, PieceType.BYTE) for byte in range(256)] if byte_fallback else []
    normalizer = {"add_dummy_prefix": int(dummy), "remove_extra_whitespaces": 0}
    data = model_bytes(pieces, trainer={"byte_fallback": int(byte_fallback)}, normalizer=normalizer)
    reference = spm.SentencePieceProcessor(model_proto=data)
    tokenizer = parse_sentencepiece(data)
    for text in texts:
        assert_same(tokenizer, reference, text)


def test_unknown_characters_without_byte_fallback_are_one_unk_per_run():
    tokenizer, reference = trained("nmt_nfkc")
    text = "a ꙮꙮ𓀀 b ꙮ"
    assert tokenizer.encode(text) == reference.encode(text)
    assert tokenizer.encode(text).count(reference.unk_id()) == 2
    assert tokenizer.decode(tokenizer.encode(text)) == reference.decode(reference.encode(text))


def test_decoding_broken_bytes_as_sentencepiece():
    tokenizer, reference = trained("byte_fallback")
    byte = {value: reference.piece_to_id(f"<0x{value:02X}>") for value in range(256)}
    for raw in (b"\xe4\xbd", b"\xf0\x9f\x98", b"\xed\xa0\x80", b"\xc0\xaf", b"a\xffb", b"\xe4\xbd\xa0"):
        ids = [reference.piece_to_id("\u2581a"), *(byte[value] for value in raw), byte[0x41]]
        assert tokenizer.decode(ids) == reference.decode(ids), raw
    assert tokenizer.decode_bytes([byte[0xE4], byte[0xBD]]) == b"\xe4\xbd"


def test_bad_ids_and_texts_are_refused_clearly():
    tokenizer, _ = trained("nmt_nfkc")
    with pytest.raises(ValueError, match="is not in this tokenizer"):
        tokenizer.decode([tokenizer.n_vocab])
    with pytest.raises(ValueError, match="not an integer"):
        tokenizer.decode(["3"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="lone surrogate"):
        tokenizer.encode("a\ud800")  # sentencepiece cannot take it either


@pytest.mark.parametrize(
    ("pieces", "message"),
    [
        ([("a", -1.0, PieceType.CONTROL), ("a", -1.0, PieceType.NORMAL)], r"piece 4 \('a'\) is listed twice"),
        ([("a", -1.0, PieceType.NORMAL), ("ab", float("nan"), PieceType.NORMAL)], r"has no score \(NaN\)"),
    ],
)
def test_models_sentencepiece_refuses_or_cannot_order_are_refused_by_name(pieces, message):
    """A reserved and a normal piece of one name (SentencePiece: "a is already defined") loaded and encoded; a NaN
    score gave merges in an order of our own."""
    base = [("<unk>", 0.0, PieceType.UNKNOWN), ("\u2581", -1.0, PieceType.NORMAL), ("b", -1.0, PieceType.NORMAL)]
    with pytest.raises(ValueError, match=message):
        parse_sentencepiece(model_bytes(base + pieces))
