"""Every loaded tokenizer saved in every format that can hold it (issue 25), and a clear refusal where one cannot:
what cannot be held, and why.

- Llama 3 (from its tiktoken file): hf (in ``tokenizers``), tiktoken and gpt2 load back with the same ids;
- DeepSeek V4 (a Hugging Face pipeline): hf writes its own file again (``tokenizers`` gives the same ids); the
  byte-level-only formats refuse, naming the stages;
- Mistral 7B v3 (SentencePiece): hf as ``transformers``' converter builds it, which ``tokenizers`` and our loader
  encode as ``sentencepiece`` does (hypothesis, mixed text, Chinese); the others refuse, and so does hf for what
  a tokenizer.json cannot hold;
- a tokenizer whose ids are not in merge order: tiktoken (rank = id) refuses.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core.encoding.sentencepiece import SentencePieceModel, SentencePieceTokenizer
from bpe_core.formats.sentencepiece_hf import sentencepiece_json
from bpe_core.pipeline import PipelineTokenizer
from bpe_core.reference import ReferenceDataError, reference_files

tokenizers = pytest.importorskip("tokenizers")
TEXT = "Hello, world! def f(x):\n    return x ** 2  你好，世界。字节对编码 🤖 naïve café 1234567"
BYTE_LEVEL_ONLY = ["gpt2", "tiktoken", "bpe-playground"]


def reference(name: str):
    try:
        return bpe_core.reference(name)
    except ReferenceDataError as error:
        pytest.skip(str(error))


@pytest.mark.parametrize("fmt", ["hf", "tiktoken", "gpt2"])
def test_llama3_loaded_from_ranks_saves_in_every_byte_level_format(tmp_path, fmt):
    llama = reference("llama3")
    paths = bpe_core.save(llama, tmp_path, fmt)
    loaded = bpe_core.load(tmp_path, fmt, pattern=llama.pattern_regex)
    assert loaded.encode(TEXT) == llama.encode(TEXT)
    if fmt == "hf":
        (path,) = paths
        theirs = tokenizers.Tokenizer.from_file(str(path))
        assert theirs.encode(TEXT, add_special_tokens=False).ids == llama.encode(TEXT)
    if fmt == "tiktoken":  # the same file as Meta's: recognised again, with its pattern and special tokens
        (original,) = reference_files("llama3").values()
        assert paths[0].read_bytes() == original.read_bytes()


def test_a_pipeline_saves_as_its_own_tokenizer_json_and_only_so(tmp_path):
    deepseek = reference("deepseek-v4")
    assert isinstance(deepseek, PipelineTokenizer)
    (path,) = bpe_core.save(deepseek, tmp_path, "hf")
    assert tokenizers.Tokenizer.from_file(str(path)).encode(TEXT, add_special_tokens=False).ids == deepseek.encode(TEXT)
    assert bpe_core.load(path).encode(TEXT) == deepseek.encode(TEXT)
    for fmt in BYTE_LEVEL_ONLY:
        with pytest.raises(ValueError, match=r"Hugging Face pipeline .*pre-tokenizer: Split.*save it as hf") as error:
            bpe_core.save(deepseek, tmp_path / fmt, fmt)
        assert f"{fmt} files hold only byte-level BPE" in str(error.value)


def test_a_pipeline_built_in_code_has_no_file_to_write(tmp_path):
    from bpe_core.pipeline import BPE, AddedTokens, decoders, normalizers, pre_tokenizers

    pipeline = PipelineTokenizer(
        normalizers.Lowercase(), pre_tokenizers.Whitespace(), BPE({"a": 0}, []), decoders.Fuse(), AddedTokens([])
    )
    with pytest.raises(ValueError, match="built in code"):
        bpe_core.save(pipeline, tmp_path, "hf")


@pytest.fixture(scope="module")
def mistral_json(tmp_path_factory):
    sentencepiece = pytest.importorskip("sentencepiece")
    mistral = reference("mistral-7b-v3")
    (path,) = bpe_core.save(mistral, tmp_path_factory.mktemp("mistral"), "hf")
    (model_file,) = reference_files("mistral-7b-v3").values()
    own = sentencepiece.SentencePieceProcessor(model_file=str(model_file))
    return tokenizers.Tokenizer.from_file(str(path)), bpe_core.load(path), own


CONTROL_FREE = st.text(
    st.one_of(st.characters(exclude_categories=("Cs",), exclude_characters="[]<>"), st.sampled_from("你好世界 \n")),
    max_size=40,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(CONTROL_FREE, st.just(TEXT), st.just("  two  spaces  "), st.just("")))
def test_sentencepiece_saved_as_tokenizer_json_encodes_as_sentencepiece(mistral_json, text):
    """Control pieces' text ([INST], <s>) is left out: tokenizers reads it as the token, sentencepiece never does."""
    theirs, ours_loaded, own = mistral_json
    expected = own.encode(text)
    assert theirs.encode(text, add_special_tokens=False).ids == expected
    assert ours_loaded.encode(text) == expected


def test_sentencepiece_is_refused_by_the_byte_level_formats(tmp_path):
    mistral = reference("mistral-7b-v3")
    for fmt in BYTE_LEVEL_ONLY:
        with pytest.raises(ValueError, match=f"SentencePiece model .* {fmt} files hold only byte-level BPE"):
            bpe_core.save(mistral, tmp_path, fmt)


@pytest.mark.parametrize(
    "change, named",
    [
        (lambda m: replace(m, normalizer=replace(m.normalizer, remove_extra_whitespaces=True)), "extra whitespace"),
        (lambda m: replace(m, normalizer=replace(m.normalizer, name="nmt_nfkc")), "'nmt_nfkc'"),
        (lambda m: replace(m, trainer=replace(m.trainer, treat_whitespace_as_suffix=True)), "as a suffix"),
    ],
)
def test_what_a_tokenizer_json_cannot_hold_of_sentencepiece_is_named(change, named):
    model: SentencePieceModel = reference("mistral-7b-v3").model
    changed = SentencePieceTokenizer(change(model))
    with pytest.raises(ValueError, match=f"cannot be saved as a Hugging Face tokenizer.json.*{named}"):
        sentencepiece_json(changed)


def test_ids_out_of_merge_order_cannot_be_tiktoken_ranks(tmp_path):
    trained = bpe_core.train("low lower lowest " * 20, 262).tokenizer
    vocab = dict(trained.vocab)
    vocab[256], vocab[257] = vocab[257], vocab[256]  # the first two merges' ids swapped
    swapped = bpe_core.Tokenizer(vocab, trained.merges)
    assert swapped.encode("lowest lower") == [
        {256: 257, 257: 256}.get(i, i) for i in trained.encode("lowest lower")
    ]  # it works; tiktoken would merge 257's token first
    with pytest.raises(ValueError, match="ids are not in the order of its merges"):
        bpe_core.save(swapped, tmp_path, "tiktoken")
    for fmt in ("gpt2", "hf", "bpe-playground"):
        loaded = bpe_core.load(bpe_core.save(swapped, tmp_path / fmt, fmt)[0], fmt)
        assert loaded.encode("lowest lower") == swapped.encode("lowest lower")
