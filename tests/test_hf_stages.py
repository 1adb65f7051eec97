"""Each tokenizer.json stage alone, against ``tokenizers`` running the very same JSON: random
normalizer chains (``normalize_str``), random pre-tokenizer chains (``pre_tokenize_str``) and
random decoder chains (``decode``) on random text."""

from __future__ import annotations

import json

import pytest
import tokenizers
from hypothesis import given, reject, settings
from hypothesis import strategies as st
from make_hf_unicode import hf_tokenizer

from bpe_core.formats import FormatError
from bpe_core.formats.hf_stages import Reader, read_decoder, read_normalizer, read_pre_tokenizer
from bpe_core.formats.huggingface import parse_hf
from bpe_core.pretokenize import PatternTimeout

BEHAVIORS = ["Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous"]

NORMALIZERS = st.one_of(
    st.sampled_from([{"type": form} for form in ("NFC", "NFD", "NFKC", "NFKD", "Lowercase")]),
    st.builds(lambda p: {"type": "Prepend", "prepend": p}, st.sampled_from(["▁", "x", " ", "ab"])),
    st.builds(
        lambda pattern, content: {"type": "Replace", "pattern": pattern, "content": content},
        # No regex that matches empty text here: tokenizers' Replace panics on some (an index out of bounds).
        st.sampled_from(
            [{"String": " "}, {"String": "ab"}, {"Regex": r"\s+"}, {"Regex": r"\p{N}"}, {"Regex": "[ab]+"}]
        ),
        st.sampled_from(["▁", "", "  ", "Z"]),
    ),
    st.builds(
        lambda left, right: {"type": "Strip", "strip_left": left, "strip_right": right}, st.booleans(), st.booleans()
    ),
    st.just({"type": "StripAccents"}),
    st.builds(
        lambda clean, chinese, accents, lower: {
            "type": "BertNormalizer",
            "clean_text": clean,
            "handle_chinese_chars": chinese,
            "strip_accents": accents,
            "lowercase": lower,
        },
        st.booleans(),
        st.booleans(),
        st.sampled_from([None, True, False]),
        st.booleans(),
    ),
)

PRE_TOKENIZERS = st.one_of(
    st.builds(
        lambda pattern, behavior, invert: {"type": "Split", "pattern": pattern, "behavior": behavior, "invert": invert},
        st.sampled_from(
            [
                {"String": " "},
                {"String": "ab"},
                {"Regex": r"\p{L}+"},
                {"Regex": r"\s+"},
                {"Regex": r"\p{N}{1,3}"},
                {"Regex": r" ?[^\s\p{L}\p{N}]+[\r\n]*"},
                {"Regex": r"\p{L}*"},
            ]
        ),
        st.sampled_from(BEHAVIORS),
        st.booleans(),
    ),
    st.builds(
        lambda prefix, regex: {
            "type": "ByteLevel",
            "add_prefix_space": prefix,
            "trim_offsets": False,
            "use_regex": regex,
        },
        st.booleans(),
        st.booleans(),
    ),
    st.builds(lambda individual: {"type": "Digits", "individual_digits": individual}, st.booleans()),
    st.builds(
        lambda scheme, split, mark: {
            "type": "Metaspace",
            "replacement": mark,
            "prepend_scheme": scheme,
            "split": split,
        },
        st.sampled_from(["always", "first", "never"]),
        st.booleans(),
        st.sampled_from(["▁", "_"]),
    ),
    st.builds(lambda behavior: {"type": "Punctuation", "behavior": behavior}, st.sampled_from(BEHAVIORS)),
    st.sampled_from([{"type": "Whitespace"}, {"type": "WhitespaceSplit"}, {"type": "BertPreTokenizer"}]),
    st.builds(lambda char: {"type": "CharDelimiterSplit", "delimiter": char}, st.sampled_from([" ", "a", "学", "▁"])),
)

TEXT = st.one_of(
    st.text(max_size=30),
    st.lists(
        st.sampled_from(
            [
                *"aAbΣ İ1２3 .,!?-'_▁\n\r\t\x00\x0b\ufffd\u200b",
                "  ",
                "ab",
                "学",
                "😀",
                "e\u0301",
                "ﬁ",
                "\u00a0",
                "\u3000",
            ]
            + ["①", "Å", "\u0e31", "\u0903"]
        ),
        max_size=25,
    ).map("".join),
)


@settings(max_examples=300, deadline=None)
@given(steps=st.lists(NORMALIZERS, min_size=1, max_size=4), text=TEXT)
def test_normalizer_chains_match_tokenizers(steps, text):
    spec = {"type": "Sequence", "normalizers": steps}
    expected = hf_tokenizer(normalizer=spec).normalizer.normalize_str(text)
    assert read_normalizer(spec, Reader("t.json")).normalize(text, 1 if text else 0)[0] == expected


@settings(max_examples=400, deadline=None)
@given(steps=st.lists(PRE_TOKENIZERS, min_size=1, max_size=3), text=TEXT)
def test_pre_tokenizer_chains_match_tokenizers(steps, text):
    spec = {"type": "Sequence", "pretokenizers": steps}
    expected = [piece for piece, _ in hf_tokenizer(pre_tokenizer=spec).pre_tokenizer.pre_tokenize_str(text)]
    assert read_pre_tokenizer(spec, Reader("t.json")).split(text) == expected


DECODERS = st.one_of(
    st.sampled_from(
        [
            {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
            {"type": "ByteFallback"},
            {"type": "Fuse"},
        ]
    ),
    st.builds(
        lambda scheme: {"type": "Metaspace", "replacement": "▁", "prepend_scheme": scheme, "split": True},
        st.sampled_from(["always", "first", "never"]),
    ),
    st.builds(
        lambda start, stop: {"type": "Strip", "content": " ", "start": start, "stop": stop},
        st.integers(0, 2),
        st.integers(0, 2),
    ),
    st.builds(
        lambda pattern, content: {"type": "Replace", "pattern": pattern, "content": content},
        st.sampled_from([{"String": "▁"}, {"Regex": "Ġ+"}]),
        st.sampled_from([" ", ""]),
    ),
    st.builds(lambda suffix: {"type": "BPEDecoder", "suffix": suffix}, st.sampled_from(["</w>", "▁"])),
)
TOKENS = st.lists(
    st.sampled_from(["▁a", "b", "<0x41>", "<0xE4>", "<0xBD>", "<0xA0>", "Ġhi", "Ċ", "x</w>", " y ", "▁", "ab▁"]),
    min_size=1,
    max_size=8,
)


@settings(max_examples=300, deadline=None)
@given(steps=st.lists(DECODERS, min_size=1, max_size=3), tokens=TOKENS)
def test_decoder_chains_match_tokenizers(steps, tokens):
    spec = {"type": "Sequence", "decoders": steps}
    if any(step["type"] == "Strip" for step in steps) and any(len(t) < 3 for t in tokens):
        tokens = [t + "ab" for t in tokens]  # tokenizers' Strip panics on a token shorter than what it strips
    expected = hf_tokenizer(decoder=spec).decoder.decode(tokens)
    assert read_decoder(spec, Reader("t.json")).decode(tokens) == expected


ADDED_CONTENTS = ["<s>", "day", " ok", "ab", "a", "▁x", "<s>day", "Day"]
ADDED = st.lists(
    st.builds(
        lambda content, special, single_word, lstrip, rstrip, normalized: {
            "id": 0,
            "content": content,
            "special": special,
            "single_word": single_word,
            "lstrip": lstrip,
            "rstrip": rstrip,
            "normalized": normalized,
        },
        st.sampled_from(ADDED_CONTENTS),
        st.booleans(),
        st.booleans(),
        st.booleans(),
        st.booleans(),
        st.booleans(),
    ),
    min_size=1,
    max_size=4,
)
ADDED_TEXT = st.lists(st.sampled_from([*ADDED_CONTENTS, " ", "  ", "x", "Y", "\n", "é", "1"]), max_size=12).map("".join)
_CHARS = sorted(set("".join(ADDED_CONTENTS) + " xY\né1▁"))


@settings(max_examples=300, deadline=None)
@given(
    added=ADDED,
    normalizer=st.one_of(
        st.sampled_from(
            [
                None,
                {"type": "Lowercase"},
                {
                    "type": "Sequence",
                    "normalizers": [
                        {"type": "Prepend", "prepend": "▁"},
                        {"type": "Replace", "pattern": {"String": " "}, "content": "▁"},
                    ],
                },
            ]
        ),
        # Chains that move the text's start (Strip, Replace, Prepend), for Metaspace's "first" piece.
        st.lists(NORMALIZERS, min_size=1, max_size=3).map(lambda steps: {"type": "Sequence", "normalizers": steps}),
    ),
    text=ADDED_TEXT,
    ordinary=st.booleans(),
)
def test_added_tokens_match_as_in_tokenizers(added, normalizer, text, ordinary):
    vocab = {char: index for index, char in enumerate([*_CHARS, "ab", "▁x"])}
    document = {
        "version": "1.0",
        "added_tokens": added,
        "normalizer": normalizer,
        "post_processor": None,
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True},
        "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True},
        "model": {"type": "BPE", "vocab": vocab, "merges": [["a", "b"], ["▁", "x"]]},
    }
    for index, token in enumerate(added):
        token["id"] = len(vocab) + index
    hf = tokenizers.Tokenizer.from_str(json.dumps(document))
    hf.encode_special_tokens = ordinary
    try:
        ours = parse_hf(document)
    except FormatError as error:
        # Two tokens spelled alike once normalized: tokenizers picks one at random (a HashMap's order); or a
        # token the normalizer deletes whole that strips whitespace (see the test below).
        assert "both read" in str(error) or "normalized to nothing" in str(error)
        return
    try:
        expected = hf.encode(text, add_special_tokens=False).ids
    except BaseException as error:  # tokenizers' Rust panics derive from BaseException
        # A normalizer that deletes and prepends around added tokens can make tokenizers 0.23 itself panic ("end byte
        # index 9 is not a char boundary", "AddedVocabulary bad split"): no reference answer to hold ours to.
        if type(error).__name__ != "PanicException":
            raise
        reject()
    assert (ours.encode_ordinary(text) if ordinary else ours.encode(text)) == expected
    assert ours.decode(expected) == hf.decode(expected, skip_special_tokens=False)
    assert ours.decode(expected, skip_special_tokens=True) == hf.decode(expected)


def test_a_runaway_split_regex_stops_at_its_budget(monkeypatch):
    # Catastrophic backtracking on a few hundred characters: the project's time budget stops it.
    monkeypatch.setenv("BPE_REGEX_TIMEOUT", "0.05")
    spec = {"type": "Split", "pattern": {"Regex": r"(?:a|a)+b|\s+|[^a]"}, "behavior": "Isolated", "invert": False}
    split = read_pre_tokenizer(spec, Reader("t.json"))
    with pytest.raises(PatternTimeout, match="backtracks catastrophically"):
        split.split("a" * 300)


def test_two_added_tokens_spelled_alike_once_normalized_are_refused():
    added = [
        {"id": 4, "content": "Day", "single_word": True, "normalized": True},
        {"id": 5, "content": "day", "normalized": True},
    ]
    document = {
        "added_tokens": added,
        "normalizer": {"type": "Lowercase"},
        "model": {"type": "BPE", "vocab": {"d": 0, "a": 1, "y": 2}, "merges": []},
    }
    with pytest.raises(FormatError, match="field added_tokens: the added tokens 'Day' and 'day' both read 'day'"):
        parse_hf(document)


def test_an_added_token_its_normalizer_removes_whole_is_refused():
    """A normalized added token "ab" under a normalizer that deletes "ab" is spelled "" once normalized. It was taken to
    match nowhere (the texts tried agreed); a differential fuzz found that tokenizers then cuts the text between every
    two characters ("x x": ▁x ▁ x, where without the token: ▁x ▁x). Not reproduced, so refused, naming the token."""
    vocab = {char: index for index, char in enumerate([*_CHARS, "ab", "▁x"])}
    plain = {"special": False, "single_word": False, "lstrip": False, "rstrip": False}
    added = [{"content": "<s>", "normalized": False, **plain}, {"content": "ab", "normalized": True, **plain}]
    for index, token in enumerate(added):
        token["id"] = len(vocab) + index
    document = {
        "version": "1.0",
        "added_tokens": added,
        "normalizer": {"type": "Replace", "pattern": {"String": "ab"}, "content": ""},
        "post_processor": None,
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True},
        "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True},
        "model": {"type": "BPE", "vocab": vocab, "merges": [["a", "b"], ["▁", "x"]]},
    }
    with_token = tokenizers.Tokenizer.from_str(json.dumps(document)).encode("x x", add_special_tokens=False).tokens
    without = tokenizers.Tokenizer.from_str(json.dumps({**document, "added_tokens": added[:1]}))
    assert with_token != without.encode("x x", add_special_tokens=False).tokens  # what is not reproduced
    with pytest.raises(FormatError, match="the added token 'ab' is normalized to nothing: tokenizers then cuts"):
        parse_hf(document)


@pytest.mark.parametrize("strip", ["lstrip", "rstrip"])
def test_a_normalized_token_the_normalizer_deletes_that_strips_whitespace_is_refused(strip):
    """tokenizers encodes the whitespace beside such a token raw (" ok" gives " " where Metaspace gives "▁"; found
    by the property above): refused with a message rather than encoded otherwise."""
    token = {"id": 3, "content": "ab", "special": False, "single_word": False, "lstrip": False, "rstrip": False}
    document = {
        "version": "1.0",
        "added_tokens": [token | {strip: True, "normalized": True}],
        "normalizer": {"type": "Replace", "pattern": {"String": "ab"}, "content": ""},
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True},
        "model": {"type": "BPE", "vocab": {"▁": 0, "o": 1, "k": 2}, "merges": []},
    }
    hf = tokenizers.Tokenizer.from_str(json.dumps(document))
    assert hf.encode(" ok", add_special_tokens=False).tokens[0] == " "  # raw, not "▁"
    with pytest.raises(FormatError, match="normalized to nothing"):
        parse_hf(document)
