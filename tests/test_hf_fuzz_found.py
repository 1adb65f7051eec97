"""What a differential fuzz of tokenizer.json files against ``tokenizers`` found (November 2026): each case either
gives ``tokenizers``' ids and text now, or is refused naming what is not reproduced."""

from __future__ import annotations

import json

import pytest
import tokenizers
from tokenizers import pre_tokenizers

from bpe_core.formats import FormatError
from bpe_core.formats.huggingface import parse_hf

BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}


def document(*, chars: str = "", added=(), normalizer=None, pre_tokenizer=None, decoder=None, vocab=None) -> dict:
    """A BPE file with no merges: each character a token, and c</w> at a word's end (ids show where pieces end)."""
    if vocab is None:
        vocab = {"<unk>": 0}
        for token in (t for char in sorted(set(chars)) for t in (char, char + "</w>")):
            vocab.setdefault(token, len(vocab))
    suffix = None if pre_tokenizer == BYTE_LEVEL else "</w>"
    model = {
        "type": "BPE",
        "unk_token": None if suffix is None else "<unk>",
        "end_of_word_suffix": suffix,
        "fuse_unk": suffix is not None,
        "vocab": vocab,
        "merges": [],
    }
    return {
        "version": "1.0",
        "added_tokens": list(added),
        "normalizer": normalizer,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": None,
        "decoder": decoder,
        "model": model,
    }


def added(content: str, identifier: int, **flags) -> dict:
    return {
        "id": identifier,
        "content": content,
        "special": False,
        "single_word": False,
        "lstrip": False,
        "rstrip": False,
        "normalized": False,
        **flags,
    }


def assert_same_ids(spec: dict, texts: list[str]) -> None:
    theirs, ours = tokenizers.Tokenizer.from_str(json.dumps(spec)), parse_hf(spec)
    for text in texts:
        assert ours.encode(text) == theirs.encode(text, add_special_tokens=False).ids, text


@pytest.mark.parametrize(
    ("tokens", "texts"),
    [
        ([added("\n", 100, lstrip=True, rstrip=True)], ["\n\n", "x\n\nx", "x\n \n x"]),
        ([added("\n", 100, rstrip=True), added("  ", 101, lstrip=True)], ["\n  ", "x\n  x"]),
    ],
)
def test_a_token_whose_whitespace_the_token_before_took_is_no_token(tokens, texts):
    """It gave an extra id ("\\n\\n": two where tokenizers gives one): an empty cut is dropped."""
    assert_same_ids(document(chars="x ", added=tokens), texts)


@pytest.mark.parametrize(
    "decoder",
    [
        None,
        {"type": "Sequence", "decoders": [BYTE_LEVEL, {"type": "Replace", "pattern": {"String": "a"}, "content": "b"}]},
    ],
    ids=["no decoder", "byte-level then replace"],
)
def test_a_byte_level_file_decodes_with_its_own_decoder(decoder):
    """A byte-level file came back as the plain Tokenizer, which decodes as ByteLevel does, whatever the file said."""
    vocab = {char: index for index, char in enumerate(pre_tokenizers.ByteLevel.alphabet())}
    spec = document(pre_tokenizer=BYTE_LEVEL, decoder=decoder, vocab=vocab)
    theirs, ours = tokenizers.Tokenizer.from_str(json.dumps(spec)), parse_hf(spec)
    ids = theirs.encode(" a b", add_special_tokens=False).ids
    assert ours.encode(" a b") == ids
    assert ours.decode(ids) == theirs.decode(ids)


def test_a_replace_that_matches_empty_text_before_byte_level_is_refused():
    """tokenizers leaves the text such a Replace inserts out of ByteLevel's mapping ("a" gave [0, 2] against [2])."""
    vocab = {"▁": 0, "âĸģ": 1, "a": 2}
    replace = {"type": "Replace", "pattern": {"Regex": "x*"}, "content": "▁"}
    with pytest.raises(FormatError, match="field normalizer: a Replace whose regex can match empty text"):
        parse_hf(document(normalizer=replace, pre_tokenizer=BYTE_LEVEL, vocab=vocab))


def split(pattern: str, behavior: str = "Isolated") -> dict:
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": behavior, "invert": False}


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"(?i)ss", "aßb ss"),
        (r"(?i)ß", "assb"),
        (r"(?i)st", "ﬆst"),
        (r"a\Z", "xa\n"),
        (r"\p{XDigit}", "g９fA"),
        (r"\N", "a\nb"),
    ],
)
def test_oniguruma_constructs_python_reads_otherwise_are_translated(pattern, text):
    """Full case folding (ß is ss), \\Z before a last newline, ASCII hex digits, \\N: each split as tokenizers does."""
    assert_same_ids(document(chars=text, pre_tokenizer=split(pattern)), [text])


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        (r"[a[bc]]", "nests a class"),
        (r"[a-c&&b-d]", "&& .intersection."),
        (r"[[:digit:]]", "a POSIX bracket"),
        (r"a{2}+", r"\{2\}\+ repeats the repeat"),
        (r"xa{2}?", r"\{2\}\? repeats the repeat"),
    ],
)
def test_oniguruma_constructs_not_translated_are_refused_by_name(pattern, message):
    with pytest.raises(FormatError, match=f"field pre_tokenizer.pattern: .*{message}"):
        parse_hf(document(chars="abcx", pre_tokenizer=split(pattern)))


@pytest.mark.parametrize("pattern", ["^", "$", "(?=a)", "^\\s*"])
@pytest.mark.parametrize("decoder", [None, {"type": "Replace", "pattern": {"String": "_"}, "content": " "}])
def test_a_replace_whose_regex_matches_empty_text_inserts_as_tokenizers_does(pattern, decoder):
    """A Replace of an anchor or a lookahead inserts its content there (tokenizers takes it): it was refused as a
    pre-tokenization pattern that "matches only empty strings"."""
    replace = {"type": "Replace", "pattern": {"Regex": pattern}, "content": "_"}
    texts = ["ab a\nab", "", "\n\n a", "aa_b"]
    spec = document(chars="ab_ \n", normalizer=replace, pre_tokenizer={"type": "WhitespaceSplit"}, decoder=decoder)
    assert_same_ids(spec, texts)
    theirs, ours = tokenizers.Tokenizer.from_str(json.dumps(spec)), parse_hf(spec)
    for text in texts:
        ids = theirs.encode(text, add_special_tokens=False).ids
        assert ours.decode(ids) == theirs.decode(ids)
