"""Unicode normalization on a tokenizer: applied before everything, exact on a stream cut anywhere, kept by the
formats that can hold it (bpe-playground, hf: checked by Hugging Face's own NFC), refused by those that cannot."""

from __future__ import annotations

import unicodedata

import pytest
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core import formats
from bpe_core.pretokenize import NORMALIZATIONS, normalize, normalize_stream
from bpe_core.pretokenize import normalization as normalization_module

PIECES = ["a", "e", "E", " ", "\n", "1", "中", "한", "\u1100", "\u1161", "\u11a8", "\u0301", "\u0323", "\u0307"]
PIECES += ["\u0308", "ﬁ", "\u212b", "Å", "é", "ǅ", "²", "\u3099", "か", "ｶ", "\u0f73", "\U0001d15e", "😀"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def canonical_second_elements() -> set[str]:
    """Every character that composes with what precedes it in some canonical composition (Unicode's data)."""
    second = {chr(code) for code in range(0x1161, 0x1176)} | {chr(code) for code in range(0x11A8, 0x11C3)}  # jamo
    for code in range(0x110000):
        decomposition = unicodedata.decomposition(chr(code))
        if decomposition and not decomposition.startswith("<") and " " in decomposition:
            second.add(chr(int(decomposition.split()[1], 16)))
    return second


def test_the_cut_characters_are_stable_in_every_form():
    """The stream is cut only before characters that are starters, never compose with what precedes them and
    decompose (NFKD) to such a starter first: then nothing before a cut can change with what follows."""
    second = canonical_second_elements()
    stable = [chr(code) for code in range(0x110000) if normalization_module._STABLE.fullmatch(chr(code))]
    assert len(stable) == 128 + (0x9FFF - 0x4E00 + 1) + (0xD7A3 - 0xAC00 + 1)
    for character in stable:
        first = unicodedata.normalize("NFKD", character)[0]
        assert unicodedata.combining(character) == 0 and character not in second, hex(ord(character))
        assert unicodedata.combining(first) == 0 and first not in second, hex(ord(character))


@pytest.mark.parametrize("form", NORMALIZATIONS)
@settings(max_examples=200, deadline=None)
@given(parts=st.lists(TEXTS, max_size=8))
def test_a_stream_cut_anywhere_normalizes_as_the_whole_text(form, parts):
    assert "".join(normalize_stream(parts, form)) == unicodedata.normalize(form, "".join(parts))


def test_a_stream_without_a_stable_character_is_cut_at_the_limit(monkeypatch):
    monkeypatch.setattr(normalization_module, "MAX_HELD_CHARS", 100)
    pieces = list(normalize_stream(["é" * 60] * 5, "NFC"))
    assert len(pieces) > 1 and "".join(pieces) == "é" * 300


@pytest.fixture(scope="module")
def nfc() -> bpe_core.Tokenizer:
    trained = bpe_core.train("café résumé naïve Ångström 中文 한국어 " * 30, 300).tokenizer
    return bpe_core.Tokenizer(trained.vocab, trained.merges, trained.special_tokens, "gpt2", normalization="NFC")


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(TEXTS, max_size=6))
def test_encoding_sees_the_normalized_text_everywhere(nfc, parts):
    text = "".join(parts)
    expected = nfc.encode(unicodedata.normalize("NFC", text))
    plain = bpe_core.Tokenizer.from_ranks(nfc.mergeable_ranks, {}, "gpt2")
    assert nfc.encode(text) == expected == plain.encode(unicodedata.normalize("NFC", text))
    assert nfc.encode_ordinary(text) == expected
    assert list(nfc.encode_iterable(parts)) == expected
    assert nfc.segment(text).tokens_at(nfc.num_merges) == [nfc.token_bytes(i) for i in expected]
    assert bpe_core.encode_with_dropout(nfc, text, 0.0, seed=1) == expected


def test_normalization_is_checked_and_shown(nfc):
    assert "normalization='NFC'" in repr(nfc)
    assert nfc.truncated(10).normalization == "NFC"
    with pytest.raises(ValueError, match="normalization must be one of NFC, NFKC, NFD, NFKD or None, not 'nfc'"):
        bpe_core.Tokenizer(nfc.vocab, nfc.merges, normalization="nfc")  # type: ignore[arg-type]
    assert normalize("cafe\u0301", None) == "cafe\u0301"


def test_the_formats_that_can_hold_it_keep_it(nfc, tmp_path):
    text = "cafe\u0301 re\u0301sume\u0301 \u1100\u1161\u11a8 A\u030angstro\u0308m"
    for fmt in ("bpe-playground", "hf"):  # hf: a normalizer, so it loads as a PipelineTokenizer running it
        (path,) = formats.save(nfc, tmp_path / fmt, fmt)
        loaded = formats.load(path)
        assert loaded.encode(text) == nfc.encode(text), fmt
    assert formats.load(tmp_path / "bpe-playground").normalization == "NFC"
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "hf" / "tokenizer.json"))  # Hugging Face's own NFC
    assert hf.encode(text, add_special_tokens=False).ids == nfc.encode(text) != nfc.encode(text.replace("\u0301", ""))
    without = bpe_core.train("plain text", 260).tokenizer
    (path,) = formats.save(without, tmp_path / "plain", "bpe-playground")
    assert "normalization" not in path.read_text(encoding="utf-8")  # files without it are as before


@pytest.mark.parametrize("fmt", ["gpt2", "tiktoken"])
def test_the_formats_that_cannot_hold_it_refuse(nfc, tmp_path, fmt):
    with pytest.raises(ValueError, match=f"puts text in NFC first, which {fmt} files cannot store"):
        formats.save(nfc, tmp_path, fmt)


def test_a_bad_normalization_in_a_file_is_a_format_error(nfc, tmp_path):
    (path,) = formats.save(nfc, tmp_path, "bpe-playground")
    path.write_text(path.read_text(encoding="utf-8").replace('"NFC"', '"NFX"'), encoding="utf-8")
    with pytest.raises(formats.FormatError, match="field normalization: normalization must be one of"):
        formats.load(path)
