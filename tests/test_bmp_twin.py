"""The BMP twins (bpe_core.pretokenize.bmp_twin): ``re`` with explicit classes finds regex's pre-tokens on any text
of the Basic Multilingual Plane, for every named pattern; a stretch past U+FFFF stays with regex."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.pretokenize import PATTERNS, compile_pattern
from bpe_core.pretokenize.bmp_twin import BmpSplit, bmp_twin_findall

# Letters of many scripts, both cases, titlecase and modifier letters, marks, other scripts' digits, the spaces
# `re` and `regex` could read apart, the long s (an `s` to (?i:'s)), CJK and a lone surrogate.
CORNERS = list("aZ09 \t\n\r'sSſKkǅʰ\u0301\u0915\u094d\u093e٣੬\u00a0\u2028\u0085\u3000")
CORNERS += list("中文ぁアПриветΣσ\ufb01\ud800")
BMP_TEXT = st.text(alphabet=st.sampled_from(CORNERS) | st.characters(max_codepoint=0xFFFF), max_size=60)


@pytest.mark.parametrize("name", sorted(PATTERNS))
@settings(max_examples=40, deadline=None)
@given(text=BMP_TEXT)
def test_twin_equals_regex_on_bmp_text(name, text):
    twin = bmp_twin_findall(PATTERNS[name])
    assert twin is not None
    assert twin(text) == compile_pattern(name).findall(text)


@pytest.mark.parametrize("name", ["o200k", "llama3", "deepseek"])
def test_every_bmp_character_after_each_kind_of_neighbour(name):
    """Each BMP code point once, after a letter, a space, an apostrophe and a digit: every class's ranges."""
    twin, unicode = bmp_twin_findall(PATTERNS[name]), compile_pattern(name).findall
    characters = "".join(map(chr, range(0x10000)))
    for before in ("a", " ", "'", "7"):
        text = before + before.join(characters[i : i + 2] for i in range(0, len(characters), 2))
        assert twin(text) == unicode(text), repr(before)


def test_split_builds_the_twin_only_after_enough_bmp_text_and_leaves_the_rest_to_regex():
    calls = []

    def unicode(text):
        calls.append(text)
        return regex.findall(PATTERNS["llama3"], text)

    split = BmpSplit(PATTERNS["llama3"], unicode, after_chars=10)
    assert split("été 🙂") == ["été", " 🙂"] and split.twin is None  # past U+FFFF: not counted
    assert split("Ünï") == ["Ünï"] and split.twin is None  # 3 of 10 characters
    assert split("Привет мир") == ["Привет", " мир"] and split.twin is not None
    calls.clear()
    assert split("мир") == ["мир"] and calls == []  # the twin now
    assert split("мир 🙂") == ["мир", " 🙂"] and calls == ["мир 🙂"]  # past U+FFFF: regex still


# Past U+FFFF: emoji (a modifier too), a math letter, a Gothic letter, a CJK ideograph of Extension B; and
# printable ASCII around spaces, where a stretch may be cut.
ASTRAL = ["\U0001f642", "\U0001f44d\U0001f3fd", "\U0001d400", "\U00010330", "\U00020000"]
MIXED_TEXT = st.lists(st.sampled_from([*CORNERS, *ASTRAL, "a b", "! x", "x, y", "1 2"]) | BMP_TEXT, max_size=12)


@pytest.mark.parametrize("name", sorted(PATTERNS))
@settings(max_examples=25, deadline=None)
@given(text=MIXED_TEXT.map("".join))
def test_a_built_split_gives_regexs_pre_tokens_on_any_text(name, text):
    """Characters past U+FFFF go to regex between the safe cuts around them, the rest to the twin."""
    split = BmpSplit(PATTERNS[name], compile_pattern(name).findall)
    split.build()
    assert split(text) == compile_pattern(name).findall(text)


def test_case_folding_is_vouched_for_atom_by_atom():
    from bpe_core.pretokenize.bmp_twin import _same_case_folding

    assert _same_case_folding(r"(?i:'s|[dm])x", r"(?i:'s|[\u0064\u006d])x")
    assert not _same_case_folding(r"(?i:'s)", r"(?i:'t)")  # read apart: no twin
    assert not _same_case_folding(r"(?i:a+)", r"(?i:a+)")  # a repeat inside: not vouched for
