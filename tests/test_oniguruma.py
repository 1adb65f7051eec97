"""Custom patterns exported to Hugging Face: Oniguruma splits exactly like Python's regex, or we refuse."""

from __future__ import annotations

import pytest
import regex
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core import formats
from bpe_core.formats import FormatError, from_oniguruma, to_oniguruma
from bpe_core.pretokenize import pretokenize

# Characters on which Python's and Oniguruma's classes differ (ZWNJ, ZWJ, superscripts, fractions,
# hex digits, horizontal spaces), scripts with joiners and marks, case-folding oddities, CRLF.
TRICKY_CHARS = [
    "\u200c",
    "\u200d",
    "²",
    "³",
    "¹",
    "½",
    "¾",
    "٣",
    "_",
    "-",
    "'",
    "’",
    "مرحبا",
    "नमस्ते",
    "क्\u200dष",
    "👩\u200d💻",
    "👍🏽",
    "🇫🇷",
    "ß",
    "ẞ",
    "ſ",
    "\u212a",
    "k",
    "SS",
    "İ",
    "ı",
    "i\u0307",
    "I",
    "i",
    "Å",
    "\u212b",
    "a",
    "Z",
    "word",
    "Abc",
    "0",
    "9",
    "f",
    "F",
    "10",
    " ",
    "  ",
    "\t",
    "\u00a0",
    "\u3000",
    "\u2003",
    "\n",
    "\r\n",
    "\r",
    "\x0b",
    "\x0c",
    "\x85",
    "\u2028",
    ".",
    ",",
    "!",
    "$",
    "^",
    "[",
    "]",
    "&",
    "\\",
]
TEXTS = st.lists(st.sampled_from(TRICKY_CHARS), max_size=30).map("".join)
FIXED_TEXT = "".join(TRICKY_CHARS) + " " + " ".join(TRICKY_CHARS) + "\r\n" + "\n".join(TRICKY_CHARS)

TRANSLATED = [
    r"\w+|\W",
    r"xa{2}?|a{1,2}?b|\s+|.",  # Oniguruma reads a{2}? as (a{2})?
    r"\b\w+\b|\s+|.",
    r"\B\w|\b\w|\W",
    r"\h+|[^\h]+",
    r"[\d\h]+|\D",
    r"(?m:^\s+)|\S+|\s+",
    r"(?m)^\w+|\w+$|\w+|\s+|.",
    r"\w+$|\w+|\W+",
    r"[\w']+|[^\w\s]+|\s+",
    r"[\w-]+|[^\w\s-]+|\s+",
    r"[\W\d]+|\w+",
    r"[^\w\s]{1,2}+|\w{1,3}+|\s+",
    r"(?i:abc|x)+|\d+|\s+|.",
    r"(?i)ss|ß|k|in|[ik]+|\s+|.",
    r"(?s).{1,4}+",
    r"\p{L}+|\p{N}{1,2}+|[^\s\p{L}\p{N}]+$|[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
    r"(?P<word>\w+)|\s+|.",
    r"[\x41-\x5a\u00df]+|\s+|.",
]

REFUSED = {
    r"[\w--\d]+|.": "set operation",
    r"\X|.": "escape \\X",
    r"\R|.": "escape \\R",
    r"(?x) a | b |.": "inline flag 'x'",
    r"a(?i)b|.": "in the middle",
    r"\N{BULLET}|.": "named character",
    r"(a)\1|.": "escape \\1",
    r"(?#note)a|.": "comment",
    r"(?V1)a|.": "(?V1",
    r"(?i:[a-z]+)|.": "under the i flag",
    r"(?i)\p{Lu}|.": "under the i flag",
}


def oniguruma_pieces(pattern: str, text: str) -> list[str]:
    split = tokenizers.pre_tokenizers.Split(tokenizers.Regex(to_oniguruma(pattern)), behavior="isolated")
    return [piece for piece, _ in split.pre_tokenize_str(text)]


@pytest.mark.parametrize("pattern", TRANSLATED)
def test_translated_pattern_splits_the_tricky_text_alike(pattern):
    assert oniguruma_pieces(pattern, FIXED_TEXT) == pretokenize(FIXED_TEXT, pattern)


@pytest.mark.parametrize("pattern", TRANSLATED)
@settings(max_examples=100, deadline=None)
@given(text=TEXTS)
def test_translated_pattern_splits_random_text_alike(pattern, text):
    assert oniguruma_pieces(pattern, text) == pretokenize(text, pattern)


@pytest.mark.parametrize("escape", ["\\w", "\\h"])
def test_word_and_horizontal_space_classes_match_on_every_code_point(escape):
    # Oniguruma's own \w and \h differ from Python's; the translation spells out Python's sets.
    # Every assigned plane (0-3 and 14; 4-13 are empty, 15-16 private use).
    codes = [*range(1, 0xD800), *range(0xE000, 0x40000), *range(0xE0000, 0xE1000)]
    everything = "".join(map(chr, codes))
    removed = tokenizers.pre_tokenizers.Split(tokenizers.Regex(to_oniguruma(escape)), behavior="removed")
    kept = set("".join(piece for piece, _ in removed.pre_tokenize_str(everything)))
    python = set(regex.findall(escape, everything))
    assert set(everything) - kept == python


_TRAINED: dict[str, bpe_core.Tokenizer] = {}


@pytest.mark.parametrize("pattern", [r"\w+|\W", r"\b\w+\b|\s+|.", r"(?m:^\s+)|\S+|\s+", r"\h+|[^\h]+"])
def test_saved_tokenizer_gives_the_same_ids_in_hugging_face(pattern, tmp_path):
    corpus = FIXED_TEXT * 3 + "the word and the other words, ½ of ² words\r\n" * 20
    tokenizer = bpe_core.train(corpus, 330, pattern=pattern, special_tokens=["<|end|>"]).tokenizer
    (path,) = formats.save_hf(tokenizer, tmp_path)
    loaded = tokenizers.Tokenizer.from_file(str(path))
    for text in [FIXED_TEXT, corpus, "x<|end|>\u200c²½ word\r\n"]:
        assert loaded.encode(text, add_special_tokens=False).ids == tokenizer.encode(text)
    assert formats.load(path).encode(FIXED_TEXT) == tokenizer.encode(FIXED_TEXT)


@pytest.mark.parametrize("pattern, reason", list(REFUSED.items()))
def test_untranslatable_patterns_are_refused_on_save(pattern, reason, tmp_path):
    try:
        pretokenize("ab", pattern)
    except ValueError:
        pytest.skip("Python's regex does not accept it either")
    tokenizer = bpe_core.Tokenizer({i: bytes([i]) for i in range(256)}, [], pattern=pattern)
    with pytest.raises(FormatError, match="cannot be written for Hugging Face") as caught:
        formats.save_hf(tokenizer, tmp_path)
    assert reason in str(caught.value)
    assert not list(tmp_path.iterdir())


def test_caseless_ascii_matches_the_same_characters_in_both_engines():
    # Every character with a case mapping (plus the odd ones out) against (?i)c for each ASCII c.
    cased = [chr(code) for code in range(0x110000) if not 0xD800 <= code < 0xE000 and _has_case(chr(code))]
    text = "".join(cased)
    for letter in [chr(code) for code in range(0x21, 0x7F)]:
        for pattern in (f"(?i){regex.escape(letter)}", f"(?i:[{letter}])" if letter.isalnum() else None):
            if pattern is not None:
                removed = tokenizers.pre_tokenizers.Split(tokenizers.Regex(to_oniguruma(pattern)), behavior="removed")
                kept = "".join(piece for piece, _ in removed.pre_tokenize_str(text))
                assert set(text) - set(kept) == set(regex.findall(pattern, text)), pattern


def _has_case(char: str) -> bool:
    return char.lower() != char or char.upper() != char or char.casefold() != char or char in "\u0130\u0131"


def test_reading_oniguruma_escapes_that_mean_something_else_is_refused():
    for escape in ["\\w", "\\W", "\\b", "\\B", "\\h", "\\H"]:
        with pytest.raises(ValueError, match="means something else in Oniguruma"):
            from_oniguruma(f"{escape}+|.")


@pytest.mark.parametrize("pattern", TRANSLATED)
def test_translated_patterns_read_back_to_the_same_splits(pattern):
    assert pretokenize(FIXED_TEXT, from_oniguruma(to_oniguruma(pattern))) == pretokenize(FIXED_TEXT, pattern)


@settings(max_examples=300, deadline=None)
@given(source=st.text(alphabet=list("\\()[]{}?*+|^$.-:=!<>&,0123456789abswdhPpLNxuU^"), max_size=20))
def test_translation_of_any_string_gives_a_string_or_a_value_error(source):
    for translate in (to_oniguruma, from_oniguruma):
        try:
            assert isinstance(translate(source), str)
        except ValueError as error:
            assert str(error)


def test_a_lazy_exact_repeat_is_written_as_a_plain_one():
    """Oniguruma (Ruby syntax) reads ``a{2}?`` as ``(?:a{2})?``, not as a lazy ``a{2}`` (which is ``a{2}``): written
    as it was, the saved file split otherwise in tokenizers than the pattern does here."""
    assert to_oniguruma(r"xa{2}?|\s+|.") == r"xa{2}|\s+|."
    assert oniguruma_pieces(r"xa{2}?|[^x]", "xaa xaay") == pretokenize("xaa xaay", r"xa{2}?|[^x]")


# Read from a tokenizer.json under the i flag: each Oniguruma pattern against its translation on every cased character.
CASELESS_READ = [
    r"(?i)i",
    r"(?i)I",
    r"(?i)\x{49}",
    r"(?i:[a-z])",
    r"(?i)[A-Z0-9_]",
    r"(?i)[^a]",
    r"(?i)[^I]",
    r"(?i)[\d_x']",
    r"(?i:[sdmt]|ll|ve|re)",
    r"(?i)\p{L}",
    r"(?i)\S",
    r"(?i)[\p{L}\p{N}]",
    r"(?i)ß",
    r"(?i)k",
    r"(?i)ſ",
    r"(?i)Σ",
    r"(?i:x)i|(?-i)I",
    r"(?i)[ik\x{130}]",
    r"(?i)[I\x{131}]",
]


@pytest.mark.parametrize("pattern", CASELESS_READ)
def test_a_caseless_split_regex_is_read_to_match_the_same_characters(pattern):
    """regex pairs i with İ and I with ı under the i flag, which Oniguruma's full folding does not: the Turkish i once
    split a file's text otherwise here than in tokenizers."""
    text = "".join(chr(code) for code in range(0x110000) if not 0xD800 <= code < 0xE000 and _has_case(chr(code)))
    removed = tokenizers.pre_tokenizers.Split(tokenizers.Regex(pattern), behavior="removed")
    kept = "".join(piece for piece, _ in removed.pre_tokenize_str(text))
    assert set(text) - set(kept) == set(regex.findall(from_oniguruma(pattern), text))


CASELESS_REFUSED = [
    r"(?i)\p{Lu}",
    r"(?i:[\p{Ll}a])",
    r"(?i)İ",
    r"(?i)ı",
    r"(?i)[\x{100}-\x{200}]",
    r"(?i)[\x{130}]",
    r"(?i)[a\x{131}]",
]


@pytest.mark.parametrize("pattern", CASELESS_REFUSED)
def test_a_caseless_split_regex_the_engines_fold_otherwise_is_refused(pattern):
    with pytest.raises(ValueError, match="under the i flag"):
        from_oniguruma(pattern)


@pytest.mark.parametrize("pattern", [r"(?<n>a)\k<n>|\s+|.", r"(a)\k<1>|\s+|.", r"(?<word>\p{L})\k<word>+|."])
def test_back_references_by_name_or_number_are_read(pattern):
    """Oniguruma's \\k<name> is Python's \\g<name> (it was refused with Python's "bad escape \\k")."""
    text = "aab aa  xyzzz ß ßß"
    split = tokenizers.pre_tokenizers.Split(tokenizers.Regex(pattern), behavior="isolated")
    assert [piece for piece, _ in split.pre_tokenize_str(text)] == pretokenize(text, from_oniguruma(pattern))


def test_a_relative_back_reference_is_refused_by_name():
    with pytest.raises(ValueError, match="only a back-reference to a group's name or number"):
        from_oniguruma(r"(a)\k<-1>|.")
