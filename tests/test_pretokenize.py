"""Pre-tokenization: the ASCII fast path gives exactly the pre-tokens of the Unicode patterns."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import PatternTimeout, Tokenizer
from bpe_core.pretokenize import PATTERNS, compile_pattern, count_pretokens, pretokenize

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


# -- bounded work: a time budget for custom patterns -------------------------------------------

pretokenize_module = importlib.import_module("bpe_core.pretokenize.patterns")
CATASTROPHIC = r"([\w ]|[\w ])+!|[\s\S]"


@pytest.mark.parametrize("size", [1_000, 10_000])
def test_a_catastrophic_pattern_stops_with_a_clear_error(monkeypatch, size):
    compile_pattern(CATASTROPHIC)  # its 10-character probe under the usual budget: 0.05 s is for the long text alone
    monkeypatch.setattr(pretokenize_module, "REGEX_TIMEOUT_SECONDS", 0.05)
    with pytest.raises(PatternTimeout, match=r"pattern '\(\[\\w .* took more than 0.05 s on .* BPE_REGEX_TIMEOUT"):
        pretokenize("word " * (size // 5), CATASTROPHIC)


def test_the_budget_reaches_encode_segment_and_counting(monkeypatch):
    compile_pattern(CATASTROPHIC)  # as above: only the runs below meet the small budget
    monkeypatch.setattr(pretokenize_module, "REGEX_TIMEOUT_SECONDS", 0.05)
    tokenizer = Tokenizer({i: bytes([i]) for i in range(256)}, [], pattern=CATASTROPHIC)
    text = "word " * 400
    for run in (tokenizer.encode, tokenizer.segment, lambda t: list(tokenizer.encode_iterable([t]))):
        with pytest.raises(PatternTimeout):
            run(text)
    with pytest.raises(PatternTimeout):
        count_pretokens(text, CATASTROPHIC)


def test_a_budget_spent_by_other_threads_is_not_the_patterns(monkeypatch):
    # regex's timeout counts the whole process's CPU time; here this thread seems to have used none of it (all went to
    # other threads), so each timeout is followed by a longer try until the pattern ends: no PatternTimeout.
    pattern, text = r"\w+|\s+", "word  " * 20_000
    compile_pattern(pattern)
    monkeypatch.setattr(pretokenize_module, "REGEX_TIMEOUT_SECONDS", 1e-5)  # far below the tens of ms it needs
    monkeypatch.setattr(pretokenize_module, "time", SimpleNamespace(thread_time=lambda: 0.0))
    assert pretokenize(text, pattern) == regex.findall(pattern, text)


def test_a_budget_this_thread_used_stops_the_pattern(monkeypatch):
    # The same tiny budget, but this thread has used it (each reading of its clock is a second later): stopped.
    pattern, text = r"\w+|\s+", "word  " * 20_000
    compile_pattern(pattern)
    clock = iter(range(0, 1_000_000))
    monkeypatch.setattr(pretokenize_module, "REGEX_TIMEOUT_SECONDS", 1e-5)
    monkeypatch.setattr(pretokenize_module, "time", SimpleNamespace(thread_time=lambda: float(next(clock))))
    with pytest.raises(PatternTimeout, match=r"took more than .* on 120,000 characters"):
        pretokenize(text, pattern)


def test_a_huge_pattern_is_cut_short_in_messages():
    huge = "(" + "a|" * 5000 + "["
    with pytest.raises(ValueError, match=r"\.\.\.' \(10,002 characters\)") as caught:
        compile_pattern(huge)
    assert len(str(caught.value)) < 400


def test_the_budget_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("BPE_REGEX_TIMEOUT", "2.5")
    assert pretokenize_module.regex_timeout_seconds() == 2.5
    for bad in ("soon", "0", "-1", "inf", "nan"):
        monkeypatch.setenv("BPE_REGEX_TIMEOUT", bad)
        with pytest.raises(ValueError, match="BPE_REGEX_TIMEOUT must be a positive number"):
            pretokenize("text", r"\w+|\W")


def test_named_patterns_run_without_a_budget(monkeypatch):
    # They are linear; a budget would only cost time. A zero budget shows it is not consulted.
    monkeypatch.setattr(pretokenize_module, "REGEX_TIMEOUT_SECONDS", 0.0)
    for name in PATTERNS:
        assert "".join(pretokenize("a b  c\n" * 1000, name)) == "a b  c\n" * 1000


def test_named_patterns_never_meet_a_budget_even_when_compiled_again(monkeypatch):
    # Regression: compile_pattern kept every pattern in one LRU cache of 32 and probed each new entry under the
    # budget. Once enough custom patterns had pushed "gpt2" out (other tests in the same worker), compiling it again
    # under a test's zero budget raised "PatternTimeout ... took more than 0 s on 10 characters".
    for width in range(100):
        compile_pattern(rf"\w{{1,{width + 1}}}|\W")
    monkeypatch.setattr(pretokenize_module, "REGEX_TIMEOUT_SECONDS", 0.0)
    text = "it's 42 words,\n  née 中文 🙂 " * 50
    for name, source in PATTERNS.items():
        for pattern in (name, source):  # a regex equal to a named one is that named pattern
            assert compile_pattern(pattern) is compile_pattern(name)
            assert pretokenize(text, pattern) == unicode_pretokens(text, name)


def test_empty_matching_patterns_are_still_refused_when_compiled():
    for pattern in ("(?:)", r"\b", "(?=x)", "^", "$|(?<=q)"):
        with pytest.raises(ValueError, match="matches only empty strings"):
            compile_pattern(pattern)


def test_a_pattern_that_can_match_empty_but_matches_some_character_is_a_pattern():
    """``a*`` matches empty strings between other characters and each run of a: a pattern, however odd (it was
    refused as "matches only empty strings", a guess from a probe text without an a). What it leaves out is named."""
    for pattern, text, pieces in (("a*|[^a]", "banana", list("banana")), ("[~]*|.", "x~~y", ["x", "~~", "y"])):
        assert compile_pattern(pattern) is not None
        assert [piece for piece in pretokenize(text, pattern) if piece] == pieces
    with pytest.raises(ValueError, match="does not cover the whole text"):
        pretokenize("banana", "a*")


def test_a_pattern_is_quoted_as_typed_in_messages():
    """One backslash typed is one backslash shown (a repr would double it and confuse the reader)."""
    with pytest.raises(ValueError) as caught:
        compile_pattern(r"\p{Foo}")
    assert r"'\p{Foo}'" in str(caught.value) and "\\\\" not in str(caught.value)


@pytest.mark.parametrize("call", ["(?R)", "(?0)", "(?1)", "(?&word)", "(?P>word)"])
def test_recursion_and_subroutine_calls_are_refused_before_they_run(tmp_path, call):
    """``(?R)`` ran a line of text into a 570 MB MemoryError, which no time budget stops (a fuzzed file's pattern):
    every call is refused by name, in a pattern given to the library and in a tokenizer file's."""
    import json

    from bpe_core import formats, train

    pattern = rf"(?P<word>\w+{call}?)|\s+|."
    with pytest.raises(ValueError, match=rf"calls a group \({regex.escape(call)}\)"):
        pretokenize("a b", pattern)
    tokenizer = train("low lower " * 5, 260).tokenizer
    formats.save(tokenizer, tmp_path, "bpe-playground")
    path = tmp_path / "bpe-playground.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["pattern"] = pattern
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(formats.FormatError, match="recursion and subroutine calls are not allowed"):
        formats.load(path)
