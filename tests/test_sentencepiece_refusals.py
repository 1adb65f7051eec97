"""A SentencePiece ``.model`` this library cannot honour exactly is a FormatError naming what, never a wrong
encoding, a hang or a crash: other model types, denormalizers, broken charsmaps, what SentencePiece itself
refuses (no ``<unk>``, a piece twice, byte pieces without byte fallback), and files cut short or lying about
their lengths. Where ``sentencepiece`` is installed each hand-made model is also offered to it: it must refuse
what is refused here for being malformed, and agree on what both load."""

from __future__ import annotations

import importlib.util

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sentencepiece_support import length_field, model_bytes, train

import bpe_core
from bpe_core.cli import main as cli_main
from bpe_core.encoding.sentencepiece import PieceType
from bpe_core.formats import FormatError, detect_format
from bpe_core.formats.protobuf import ProtobufError, read_message
from bpe_core.formats.sentencepiece import looks_like_sentencepiece, parse_sentencepiece

HAS_SENTENCEPIECE = importlib.util.find_spec("sentencepiece") is not None
UNK = ("<unk>", 0.0, PieceType.UNKNOWN)
BASIC = [UNK, ("a", -1.0, PieceType.NORMAL), ("\u2581", -2.0, PieceType.NORMAL), ("\u2581a", -0.5, PieceType.NORMAL)]


def sentencepiece_refuses(data: bytes) -> bool:
    import sentencepiece as spm

    try:
        spm.SentencePieceProcessor(model_proto=data)
    except (RuntimeError, OSError, ValueError):
        return True
    return False


def refused(data: bytes, match: str) -> FormatError:
    with pytest.raises(FormatError, match=match) as caught:
        parse_sentencepiece(data, source="t.model")
    return caught.value


@pytest.mark.parametrize(
    ("pieces", "trainer", "match"),
    [
        (BASIC[1:], {}, "no <unk> piece"),
        ([*BASIC, UNK], {}, r"'<unk>'\) is listed twice"),
        ([*BASIC, ("a", -3.0, PieceType.NORMAL)], {}, r"'a'\) is listed twice"),
        ([*BASIC, ("", -3.0, PieceType.NORMAL)], {}, "is empty"),
        ([*BASIC, ("<0x41>", 0.0, PieceType.BYTE)], {}, "although byte_fallback is off"),
        ([*BASIC, ("<0x41>", 0.0, PieceType.BYTE)], {"byte_fallback": 1}, "only 1 of the 256 byte pieces"),
        ([*BASIC, ("<0x4g>", 0.0, PieceType.BYTE)], {"byte_fallback": 1}, "not written <0xXX>"),
    ],
)
def test_what_sentencepiece_refuses_is_refused(pieces, trainer, match):
    data = model_bytes(pieces, trainer)
    refused(data, match)
    if HAS_SENTENCEPIECE:
        assert sentencepiece_refuses(data)


@pytest.mark.parametrize(("model_type", "name"), [(1, "Unigram"), (3, "word"), (4, "char"), (7, "type 7")])
def test_other_model_types_are_refused_by_name(model_type, name):
    error = refused(model_bytes(BASIC, {"model_type": model_type}), f"SentencePiece {name} model")
    assert "only BPE models" in str(error) and str(error).startswith("t.model")


def test_a_model_with_no_trainer_spec_is_unigram_as_in_the_proto():
    pieces_only = model_bytes(BASIC).split(b"\x12", 1)[0]  # the pieces, before the trainer spec (field 2)
    refused(pieces_only, "Unigram")


def test_a_trained_unigram_model_is_refused(tmp_path):
    pytest.importorskip("sentencepiece")
    path = tmp_path / "tokenizer.model"
    path.write_bytes(train(model_type="unigram", vocab_size=1200))
    assert detect_format(path) == ("sentencepiece", path)
    with pytest.raises(FormatError, match="a SentencePiece Unigram model; only BPE"):
        bpe_core.load(path)
    assert detect_format(tmp_path) == ("sentencepiece", path)  # a directory holding tokenizer.model


def test_a_denormalizer_is_refused_naming_it():
    denormalizer = length_field(5, length_field(1, b"my_rules") + length_field(2, b"\x08\x00\x00\x00" + b"\x00" * 12))
    refused(model_bytes(BASIC, extra=denormalizer), "denormalizer .'my_rules'.")


@pytest.mark.parametrize("blob", [b"\x01\x02", b"\xff\xff\xff\xff" + b"\x00" * 8, b"\x06\x00\x00\x00" + b"\x00" * 8])
def test_a_broken_charsmap_is_refused(blob):
    spec = length_field(1, b"nmt_nfkc") + length_field(2, blob)
    data = model_bytes(BASIC) + length_field(3, spec)  # a second normalizer spec merges into the first
    refused(data, "precompiled_charsmap is broken")


def test_a_piece_type_outside_the_enum_is_refused():
    data = model_bytes(BASIC).replace(b"\x18\x01", b"\x18\x09", 1)
    refused(data, r"pieces\[1\].type.*type 9 is none of NORMAL 1")


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (b"\x0a\xff\xff\xff\xff\x0f\x0a\x05<unk>", "says 4294967295 bytes, only 7 are left"),
        (b"\x0a" + b"\xff" * 11, "a varint longer than 10 bytes"),
        (b"\x0b\x00", "wire type 3"),
        (b"\x00\x01", "field number 0"),
        (b"\x0d\x00\x00", "field 1 needs 4 bytes, 2 are left"),
        (b"\x08\x05", r"ModelProto.1: holds a varint where a message or string belongs"),
        (
            length_field(1, length_field(1, b"<unk>") + b"\x10\x00") + model_bytes(BASIC[1:]),
            r"\[0\].score: holds a varint",
        ),
    ],
)
def test_malformed_protobuf_is_refused_saying_where(data, match):
    refused(data, match)


def test_a_length_past_the_end_is_an_error_at_once():
    with pytest.raises(ProtobufError, match="says 1000000000000 bytes"):
        read_message(b"\x0a\x80\xa0\x94\xa5\x8d\x1d")


def test_a_model_cut_short_anywhere_is_refused_or_read_as_sentencepiece_reads_it():
    pytest.importorskip("sentencepiece")
    import sentencepiece as spm

    data = train(vocab_size=1200, byte_fallback=True)
    for cut in sorted({*range(0, len(data), max(1, len(data) // 40)), len(data) - 1, len(data) - 7}):
        part = data[:cut]
        try:
            tokenizer = parse_sentencepiece(part, source="cut.model")
        except FormatError as error:
            # Refused for being malformed where sentencepiece refuses it too, or for a type it does not read.
            assert sentencepiece_refuses(part) or "Unigram" in str(error), (cut, str(error))
            continue
        reference = spm.SentencePieceProcessor(model_proto=part)
        for text in ("Hello world", "日本語 ꙮ 123"):
            assert tokenizer.encode(text) == reference.encode(text), cut


@given(st.binary(max_size=200))
@settings(max_examples=300, deadline=None)
def test_random_bytes_are_a_format_error_or_a_model(data):
    try:
        tokenizer = parse_sentencepiece(data)
    except FormatError as error:
        assert error.source == "<bytes>" and error.reason  # says what is wrong; nothing else escapes
    else:  # rare: the bytes happen to be a well-formed BPE model
        assert all(0 <= token < tokenizer.n_vocab for token in tokenizer.encode("ab a"))


def test_detection_by_content_does_not_claim_other_files():
    assert looks_like_sentencepiece(model_bytes(BASIC))
    for head in (b'{"model": {}}', b'\n{\n  "version": "1.0"}', b"IQ== 0\nIg== 1\n", b"\n#version: 0.2\n", b""):
        assert not looks_like_sentencepiece(head), head


def test_the_command_line_encodes_and_decodes_a_sentencepiece_model(tmp_path, capsys):
    """It said "the command line does not stream it yet", for a model the library reads."""
    path = tmp_path / "tokenizer.model"
    path.write_bytes(model_bytes(BASIC))
    text = tmp_path / "in.txt"
    text.write_text("a aa\nab a", encoding="utf-8")
    assert cli_main(["encode", str(text), "--tokenizer", str(path)]) == 0
    printed = capsys.readouterr().out
    expected = parse_sentencepiece(model_bytes(BASIC)).encode("a aa\nab a")
    assert [int(word) for word in printed.split()] == expected
    ids = tmp_path / "ids.txt"
    ids.write_text(printed)
    assert cli_main(["decode", str(ids), "--tokenizer", str(path)]) == 0
    assert capsys.readouterr().out == parse_sentencepiece(model_bytes(BASIC)).decode(expected)


def test_the_app_loads_a_sentencepiece_model():
    """It fills bpe_core.TokenizerShape now: the import box takes it, and it encodes as the library reads it."""
    from playground.tokenizer_files import File, load_files

    tokenizer, _ = load_files([File("tokenizer.model", model_bytes(BASIC))])
    assert isinstance(tokenizer, bpe_core.TokenizerShape)
    assert tokenizer.encode("a aa") == parse_sentencepiece(model_bytes(BASIC)).encode("a aa")
