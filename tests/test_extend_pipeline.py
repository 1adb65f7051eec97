"""``bpe_core.extend`` on a Hugging Face pipeline whose model is byte-level BPE (DeepSeek V4's tokenizer.json):
held merge for merge to a naive extender built on ``tokenizers`` itself (its normalizer, pre-tokenizer and model
run piece by piece, the merge rule written out here), and the written ``tokenizer.json`` read back by
``tokenizers`` and by our loader with the extended pipeline's ids, every base id and added token kept.

DeepSeek's model has 128k merges, so the base, one extension (with a new special token) and its file are built
once for the module, on a small corpus made here (code, CJK, emoji, digits, accents, its own special tokens).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import regex
import tokenizers
from conftest import corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive_bpe import naive_merge_pair
from naive_options import naive_loop

import bpe_core
from bpe_core.pipeline import BPE, AddedTokens, PipelineTokenizer, decoders, pre_tokenizers
from bpe_core.reference import ReferenceDataError

NEW_SPECIAL = "<|cell|>"
END = "<｜end▁of▁sentence｜>"
FRAGMENTS = [
    "def tokenize(text: str) -> list[int]:\n",
    "    return [vocab[piece] for piece in pieces]  # 查表\n",
    "for (let i = 0; i < 12345; i++) { total += i; }\n",
    "东京都的天气很好，我们去公园散步吧。",
    "とうきょうのてんきはいいです。",
    "Olá! A informação e o coração da nação. ",
    "🎉🎉 party 🚀 launch 2026-11-27 ",
    "价格是 3.14159 元，数量 1000000 个。",
    END,
    NEW_SPECIAL,
]
N_NEW = 40


SYLLABLES = ["zor", "qua", "vex", "ly", "thu", "京", "都", "の", "ん", "🎉", "é", "_id", "42"]


def made_corpus(seed: int, size: int) -> list[str]:
    """Documents of fragments and made-up words (syllables no base merges wholly) drawn at random; a fixed
    seed, so the test is the same every run."""
    chooser = random.Random(seed)
    words = [" " + "".join(chooser.choices(SYLLABLES, k=chooser.randint(2, 4))) for _ in range(60)]
    return ["".join(chooser.choices(FRAGMENTS + words, k=16)) for _ in range(size)]


@pytest.fixture(scope="module")
def deepseek():
    try:
        return bpe_core.reference("deepseek-v4")
    except ReferenceDataError as error:
        pytest.skip(str(error))


@pytest.fixture(scope="module")
def extension(deepseek, tmp_path_factory):
    """The extension (a new special token, N_NEW merges), its file, and that file read by tokenizers and by us."""
    documents = made_corpus(0, 60)
    result = bpe_core.extend(deepseek, documents, len(deepseek.vocab) + 1 + N_NEW, special_tokens=[NEW_SPECIAL])
    (path,) = bpe_core.save_extension(result, tmp_path_factory.mktemp("deepseek") / "extended", "hf")
    peer = tokenizers.Tokenizer.from_file(str(path))
    return documents, result, path, peer, bpe_core.load(path)


def gpt2_table() -> dict[str, int]:
    """GPT-2's byte alphabet, written out from its definition (printable bytes as themselves, the rest from 256 up)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars, extra = {}, 0
    for byte in range(256):
        if byte in printable:
            chars[chr(byte)] = byte
        else:
            chars[chr(256 + extra)] = byte
            extra += 1
    return chars


def naive_extension(spec_text: str, documents: list[str], specials: list[str], n_merges: int) -> list[tuple]:
    """The extension by the project's rule, on tokenizers' own stages: added tokens cut out (longest first), the
    rest normalized (``normalize_str``) and pre-tokenized (``pre_tokenize_str``), each piece encoded by the base
    model (``model.tokenize``); then the most frequent pair, ties to the greatest, none that is already a token."""
    peer = tokenizers.Tokenizer.from_str(spec_text)
    table = gpt2_table()
    added = [entry["content"] for entry in json.loads(spec_text)["added_tokens"]] + specials
    as_bytes = {}
    for text, identifier in peer.get_vocab(with_added_tokens=True).items():
        in_alphabet = all(char in table for char in text) and text not in added
        as_bytes[identifier] = bytes(table[char] for char in text) if in_alphabet else text.encode("utf-8")
    cut = regex.compile("|".join(regex.escape(text) for text in sorted(added, key=len, reverse=True)))
    words: Counter = Counter()
    for document in documents:
        for part in cut.split(document):
            if not part:
                continue
            normalized = peer.normalizer.normalize_str(part) if peer.normalizer else part
            for piece, _ in peer.pre_tokenizer.pre_tokenize_str(normalized):
                words[tuple(as_bytes[token.id] for token in peer.model.tokenize(piece))] += 1
    known = set(as_bytes.values()) | {text.encode("utf-8") for text in specials}
    merges: list[tuple] = []
    while len(merges) < n_merges:
        found = naive_loop(words, 1, 0, lambda pair: pair[0] + pair[1] not in known)
        if not found:
            break
        merges.extend(found)
        known.add(found[0][0] + found[0][1])
        words = naive_merge_pair(words, found[0])
    return merges


def test_merges_equal_a_naive_extender_on_tokenizers(deepseek, extension):
    documents, result, *_ = extension
    assert result.merges == naive_extension(deepseek.source_json, documents, [NEW_SPECIAL], N_NEW)
    assert len(result.merges) == N_NEW


def test_every_base_id_and_added_token_survives(deepseek, extension):
    _, result, path, peer, reloaded = extension
    base_spec, spec = json.loads(deepseek.source_json), json.loads(path.read_text(encoding="utf-8"))
    first = max(deepseek.special_tokens.values()) + 1  # 129,280: after the added tokens, the highest ids in use
    assert result.first_new_id == first and result.new_special_tokens == {NEW_SPECIAL: first}
    assert sorted(result.new_tokens) == list(range(first + 1, first + 1 + N_NEW))
    assert spec["model"]["merges"][: len(base_spec["model"]["merges"])] == base_spec["model"]["merges"]
    assert all(spec["model"]["vocab"][text] == i for text, i in base_spec["model"]["vocab"].items())
    assert spec["added_tokens"][:-1] == base_spec["added_tokens"]
    assert spec["added_tokens"][-1] | {"id": first, "content": NEW_SPECIAL, "special": True} == spec["added_tokens"][-1]
    assert spec | {"model": None, "added_tokens": None} == base_spec | {"model": None, "added_tokens": None}
    assert spec["model"] | {"vocab": None, "merges": None} == base_spec["model"] | {"vocab": None, "merges": None}
    for text, identifier in [*deepseek.special_tokens.items(), (NEW_SPECIAL, first)]:
        assert peer.token_to_id(text) == identifier == reloaded.special_tokens[text]
    vocab = result.tokenizer.vocab
    assert all(vocab[identifier] == token for identifier, token in deepseek.vocab.items())
    old_merges = {pair: rank for pair, (rank, _) in deepseek.model.merges.items()}
    assert {pair: rank for pair, (rank, _) in result.tokenizer.model.merges.items() if pair in old_merges} == old_merges


def test_the_written_file_is_the_base_file_with_lines_added(deepseek, extension):
    """Every line of DeepSeek's file is kept, in order (the one before an insertion gains a comma), and the only
    new lines are the new vocab entries (added tokens held there, the new special, the new tokens), the new
    merges and the new special's added_tokens entry (9 lines, as its neighbours are laid out)."""
    _, result, path, *_ = extension
    original, written = deepseek.source_json.splitlines(), path.read_text(encoding="utf-8").splitlines()
    new_vocab = len(json.loads(path.read_text(encoding="utf-8"))["model"]["vocab"]) - len(deepseek.model.vocab)
    assert len(written) - len(original) == new_vocab + N_NEW + 9
    lines = iter(line.rstrip(",") for line in written)
    assert all(any(line.rstrip(",") == kept for kept in lines) for line in original)


FROM_CORPUS = [*FRAGMENTS, "tokenize", "東京", "coração", "🎉", "12345", " 2026", "<｜User｜>", "<|EOT|>"]
texts = st.lists(
    st.sampled_from(FROM_CORPUS) | st.text(st.sampled_from("ab 字の🎉9\n.é{}<|>"), max_size=6), max_size=12
).map("".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts)
def test_tokenizers_and_our_loader_read_the_written_file(extension, text):
    _, result, _, peer, reloaded = extension
    ids = result.tokenizer.encode(text)
    assert peer.encode(text, add_special_tokens=False).ids == ids == reloaded.encode(text)
    assert peer.decode(ids, skip_special_tokens=False) == result.tokenizer.decode(ids)


def test_new_merges_are_used_and_the_new_special_cuts_the_text(extension):
    documents, result, *_ = extension
    extended, first = result.tokenizer, result.first_new_id
    assert any(identifier > first for identifier in extended.encode(documents[0]))
    before, after = result.tokens_on_counts()
    assert after < before
    left, right = "def tokenize(", "東京都的天气"
    assert extended.encode(left + NEW_SPECIAL + right) == extended.encode(left) + [first] + extended.encode(right)
    assert not any(NEW_SPECIAL.encode() in token for token in result.new_tokens.values())
    assert not any(NEW_SPECIAL in piece for piece in result.pretoken_counts)


def test_extend_files_reads_each_file_whole(deepseek, tmp_path):
    documents = made_corpus(1, 6)
    for index, document in enumerate(documents):
        (tmp_path / f"{index}.txt").write_text(document, encoding="utf-8")
    size = len(deepseek.vocab) + 8
    assert (
        bpe_core.extend_files(deepseek, tmp_path / "*.txt", size).merges
        == bpe_core.extend(deepseek, documents, size).merges
    )


def tiny_pipeline(pre_tokenizer, vocab_bytes=range(256), **options) -> PipelineTokenizer:
    table = {char: byte for char, byte in gpt2_table().items() if byte in vocab_bytes}
    model = BPE({char: byte for char, byte in table.items()}, [], **options)
    return PipelineTokenizer(None, pre_tokenizer, model, decoders.ByteLevel(), AddedTokens([]))


def test_what_is_not_byte_level_is_refused_by_name(deepseek):
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    with pytest.raises(ValueError, match="continuing_subword_prefix '##'"):
        bpe_core.extend(tiny_pipeline(byte_level, continuing_subword_prefix="##"), "abc", 300)
    with pytest.raises(ValueError, match="end_of_word_suffix '</w>'"):
        bpe_core.extend(tiny_pipeline(byte_level, end_of_word_suffix="</w>"), "abc", 300)
    with pytest.raises(ValueError, match="no ByteLevel step"):
        bpe_core.extend(tiny_pipeline(pre_tokenizers.Sequence([])), "abc", 300)
    with pytest.raises(ValueError, match="lacks 1 of the 256 byte tokens"):
        bpe_core.extend(tiny_pipeline(byte_level, vocab_bytes=range(255)), "abc", 300)
    assert bpe_core.extend(tiny_pipeline(byte_level), "abab ab", 258).merges == [(b"a", b"b"), (b"ab", b"ab")]
    with pytest.raises(ValueError, match="already the base's token 1 "):
        bpe_core.extend(deepseek, "abc", len(deepseek.vocab) + 2, special_tokens=[END])


small_texts = st.lists(st.sampled_from([*"aB c\nD!é1", "<|end|>", " abc", "ABC"]), max_size=60).map("".join)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_texts, st.lists(small_texts, min_size=1, max_size=3), st.integers(0, 15), st.booleans())
def test_a_small_pipeline_equals_the_naive_extender(tmp_path_factory, base_text, documents, n_new, ignore_merges):
    """A pipeline that lowercases first (so it loads as a pipeline), with and without ``ignore_merges``."""
    folder = tmp_path_factory.mktemp("small")
    trained = bpe_core.train(base_text.lower() + " abc dab", 275, special_tokens=["<|end|>"]).tokenizer
    (source,) = bpe_core.save(trained, folder, "hf")
    spec = json.loads(source.read_text(encoding="utf-8"))
    spec["normalizer"] = {"type": "Lowercase"}
    spec["model"]["ignore_merges"] = ignore_merges
    text = json.dumps(spec, ensure_ascii=False)
    base = bpe_core.formats.parse_hf(json.loads(text), text=text)
    assert isinstance(base, PipelineTokenizer)
    result = bpe_core.extend(base, documents, len(base.vocab) + 1 + n_new, special_tokens=[NEW_SPECIAL])
    assert result.merges == naive_extension(text, documents, [NEW_SPECIAL], n_new)
    peer = tokenizers.Tokenizer.from_str(result.tokenizer.source_json)
    for sample in [*documents, NEW_SPECIAL.join(documents)]:
        assert peer.encode(sample, add_special_tokens=False).ids == result.tokenizer.encode(sample)


def test_a_shared_corpus_slice_equals_the_naive_extender(deepseek):
    """Real text (classical Chinese and English docs, 20,000 characters each), when ../shared/corpora is there."""
    documents = [corpus("chinese_classics.txt", 20_000), corpus("docs10m.txt", 20_000)]
    result = bpe_core.extend(deepseek, documents, len(deepseek.vocab) + 30)
    assert result.merges == naive_extension(deepseek.source_json, documents, [], 30)
    peer = tokenizers.Tokenizer.from_str(result.tokenizer.source_json)
    assert peer.encode(documents[0], add_special_tokens=False).ids == result.tokenizer.encode(documents[0])
