"""New special tokens while extending (``special_tokens=[...]``, CLI ``--special-token``): their ids follow the
highest id in use, before the new merges; they cut the corpus like a document boundary (the merges equal the naive
extender's on the corpus cut there, tests/naive_options.py); they are written where the format holds them and read
back by ``tokenizers`` and our loader, and refused with a reason where it does not (tiktoken ranks)."""

from __future__ import annotations

import json

import pytest
import tokenizers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive_options import naive_extend

import bpe_core
from bpe_core.cli import main
from bpe_core.formats import load
from bpe_core.reference import ReferenceDataError

OLD, NEW = "<|end|>", "<|sep|>"
texts = st.lists(st.sampled_from([*"ab c\nd!é", OLD, NEW, " abc"]), max_size=80).map("".join)


def trained(kind: str, text: str) -> bpe_core.Tokenizer:
    """A base trained here with one special token: as trained (merges), or as tiktoken ranks."""
    tokenizer = bpe_core.train(text + " abc dab", 270, special_tokens=[OLD]).tokenizer
    if kind == "ranks":
        return bpe_core.Tokenizer.from_ranks(tokenizer.mergeable_ranks, tokenizer.special_tokens, "gpt2")
    return tokenizer


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["merges", "ranks"]), texts, st.lists(texts, min_size=1, max_size=3), st.integers(0, 20))
def test_a_new_special_cuts_the_corpus_and_comes_before_the_merges(kind, base_text, documents, n_new):
    base = trained(kind, base_text.replace(NEW, ""))
    result = bpe_core.extend(base, documents, len(base.vocab) + 1 + n_new, special_tokens=[NEW])
    cut = [part for document in documents for part in document.split(NEW)]
    assert result.merges == naive_extend(base, cut, n_new)
    first = max(base.vocab) + 1
    assert result.first_new_id == first and result.new_special_tokens == {NEW: first}
    assert sorted(result.new_tokens) == list(range(first + 1, first + 1 + len(result.merges)))
    extended = result.tokenizer
    assert extended.special_tokens == base.special_tokens | {NEW: first}
    for document in documents:
        left, _, right = document.partition(NEW)
        assert extended.encode(left + NEW + right) == extended.encode(left) + [first] + extended.encode(right)


@settings(max_examples=15, deadline=None)
@given(texts, st.integers(0, 15), texts)
def test_written_and_read_back_where_the_format_holds_specials(tmp_path_factory, documents, n_new, probe):
    folder = tmp_path_factory.mktemp("specials")
    (base_file,) = bpe_core.save(trained("merges", "abc abd"), folder, "hf")
    base = load(base_file)
    result = bpe_core.extend(base, [documents], len(base.vocab) + 2 + n_new, special_tokens=[NEW, "<pad>"])
    sample = probe + NEW + documents + "<pad>" + OLD
    expected = result.tokenizer.encode(sample)
    (path,) = bpe_core.save_extension(result, folder / "hf", "hf", source=base_file)
    peer = tokenizers.Tokenizer.from_file(str(path))
    assert peer.encode(sample, add_special_tokens=False).ids == expected
    added = {entry["content"]: entry for entry in json.loads(path.read_text())["added_tokens"]}
    for text, identifier in result.new_special_tokens.items():
        assert peer.token_to_id(text) == identifier and added[text]["special"] is True
    for fmt in ("hf", "bpe-playground", "gpt2"):
        written = bpe_core.save_extension(result, folder / fmt, fmt)
        reloaded = load(written[0])
        assert reloaded.special_tokens == result.tokenizer.special_tokens and reloaded.encode(sample) == expected
    with pytest.raises(ValueError, match=r"tiktoken ranks file holds no special tokens.*Encoding\(special_tokens"):
        bpe_core.save_extension(result, folder / "tt", "tiktoken")


def test_added_tokens_missing_from_model_vocab_keep_their_ids(tmp_path):
    """A tokenizer.json whose added token is not in model.vocab (Llama 3's, DeepSeek's): tokenizers numbers it
    after the model's vocabulary, which the new tokens grow; written into model.vocab, it keeps its id."""
    (base_file,) = bpe_core.save(trained("merges", "abc abd"), tmp_path, "hf")
    spec = json.loads(base_file.read_text())
    del spec["model"]["vocab"][OLD]
    base_file.write_text(json.dumps(spec))
    base = load(base_file)
    result = bpe_core.extend(base, "xyz xyz xyw " + OLD, len(base.vocab) + 4, special_tokens=[NEW])
    (path,) = bpe_core.save_extension(result, tmp_path / "out", "hf", source=base_file)
    peer = tokenizers.Tokenizer.from_file(str(path))
    assert peer.token_to_id(OLD) == base.special_tokens[OLD] and peer.token_to_id(NEW) == result.first_new_id
    sample = "xyz" + OLD + "xyw" + NEW
    assert peer.encode(sample, add_special_tokens=False).ids == result.tokenizer.encode(sample)


def test_refusals():
    base = trained("merges", "abc abd")
    size = len(base.vocab) + 5
    for given_tokens, error, message in [
        (NEW, TypeError, "a list of strings, not one str"),
        ([NEW, NEW], ValueError, "given twice"),
        ([""], ValueError, "empty string"),
        ([3], TypeError, "must be a str, not int"),
        ([OLD], ValueError, f"already the base's token {base.special_tokens[OLD]} \\(special\\)"),
        (["ab"], ValueError, "already the text of the base's token"),
    ]:
        with pytest.raises(error, match=message):
            bpe_core.extend(base, "abc", size, special_tokens=given_tokens)
    with pytest.raises(
        ValueError, match=f"smaller than the base's {len(base.vocab)} tokens and the 2 new special ones"
    ):
        bpe_core.extend(base, "abc", len(base.vocab) + 1, special_tokens=["<a>", "<b>"])


def test_cli_extends_deepseek_with_a_special_token(tmp_path, capsys):
    try:
        base = bpe_core.reference("deepseek-v4")
    except ReferenceDataError as error:
        pytest.skip(str(error))
    corpus = tmp_path / "code.txt"
    text = "def zorqua(vexly):\n    return vexly + 42  # 京都の\n" * 20 + NEW + "東京都 zorqua 🎉\n" * 10
    corpus.write_text(text, encoding="utf-8")
    size = len(base.vocab) + 1 + 8
    args = ["extend", str(corpus), "--base", "deepseek-v4", "--vocab-size", str(size), "--out", str(tmp_path / "o")]
    assert main([*args, "--special-token", NEW, "--quiet"]) == 0
    assert f"{NEW} = 129,280" in capsys.readouterr().err
    expected = bpe_core.extend(base, [text], size, special_tokens=[NEW])
    peer = tokenizers.Tokenizer.from_file(str(tmp_path / "o" / "tokenizer.json"))
    assert peer.encode(text, add_special_tokens=False).ids == expected.tokenizer.encode(text)
    assert peer.token_to_id(NEW) == 129_280 and len(expected.merges) == 8


def test_cli_refuses_specials_for_tiktoken_ranks_before_training(tmp_path, capsys):
    corpus = tmp_path / "a.txt"
    corpus.write_text("abc abc", encoding="utf-8")
    args = ["extend", str(corpus), "--base", "cl100k_base", "--vocab-size", "100300", "--out", str(tmp_path / "o")]
    assert main([*args, "--special-token", NEW]) == 2
    assert "a tiktoken ranks file holds no special tokens" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
