"""Pre-tokenization: the ASCII fast path gives exactly the pre-tokens of the Unicode patterns."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.pretokenize import PATTERNS, compile_pattern, pretokenize

# ASCII with its awkward corners (U+001C..U+001F are spaces to `re` but not to `regex`), and
# non-ASCII characters that are letters, digits, spaces, marks and symbols to the patterns.
ALPHABET = [chr(code) for code in range(128)] + list("é中٣\u00a0\u2028\u0085\u0301🙂ß")
ENGLISH_LIKE = st.lists(
    st.sampled_from(
        ["the", "The", " ", "  ", "\n", "\t", "'s", "'LL", "don't", "42", "1234", "x\x1c", ",", "é", "中文"]
        + ["lorem ipsum " * 30]  # long ASCII stretches between non-ASCII characters
    ),
    max_size=60,
).map("".join)


def unicode_pretokens(text: str, name: str) -> list[str]:
    return compile_pattern(name).findall(text)


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_every_ascii_character_and_pair(name):
    for first in range(128):
        text = chr(first) + "".join(chr(second) for second in range(128)) + chr(first) + " a" + chr(first)
        assert pretokenize(text, name) == unicode_pretokens(text, name), repr(chr(first))


@pytest.mark.parametrize("name", sorted(PATTERNS))
@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=ALPHABET, max_size=80) | ENGLISH_LIKE)
def test_fast_path_equals_regex_on_generated_text(name, text):
    assert pretokenize(text, name) == unicode_pretokens(text, name)


@pytest.mark.parametrize("fixture", ["shakespeare", "chinese", "docs"])
def test_fast_path_equals_regex_on_real_text(request, fixture):
    text = request.getfixturevalue(fixture)[:2_000_000]
    for name in PATTERNS:
        assert pretokenize(text, name) == unicode_pretokens(text, name), name


def test_custom_pattern_is_not_rewritten():
    assert pretokenize("ab12 cd", r"[a-z]+|\d|\s") == ["ab", "1", "2", " ", "cd"]
