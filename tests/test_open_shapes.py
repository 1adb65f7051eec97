"""DeepSeek V4 (a Hugging Face pipeline) and Mistral 7B v3 (SentencePiece) fill ``bpe_core.TokenizerShape``
(issue 26): ``reference()`` gives them, they encode as their own libraries do (``tokenizers`` loading DeepSeek's
file, ``sentencepiece`` loading Mistral's .model) on mixed text, Chinese included, and their ``segment`` holds
their own tokens with every merge and, with only the first k, the tokens of the same model cut to k merges
(``tokenizers`` on DeepSeek's file with its merges cut; for SentencePiece, our encoder on the model without the
pieces of the other scores). Each skips when its package is absent.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from conftest import corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core.encoding.sentencepiece import SentencePieceModel, SentencePieceTokenizer
from bpe_core.encoding.sentencepiece.segmenting import score_ranks
from bpe_core.pipeline import PipelineTokenizer
from bpe_core.reference import ReferenceDataError, reference_files

SNIPPETS = [
    "Hello, world! ",
    "  code: def f(x):\n    return x ** 2\n",
    "你好，世界。我们今天学习分词：字节对编码。",
    "🤖🎉 naïve café Ωmega ＡＢＣ ",
    "1234567890 3.14 ",
    "\r\n\n  \t ",
    "ꙮ \x01 ",
]
TEXTS = st.lists(
    st.one_of(st.sampled_from(SNIPPETS), st.text(st.characters(exclude_categories=("Cs",)), max_size=10)),
    max_size=6,
).map("".join)
HYPOTHESIS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _reference(name: str):
    try:
        return bpe_core.reference(name), next(iter(reference_files(name).values()))
    except ReferenceDataError as error:
        pytest.skip(str(error))


@pytest.fixture(scope="module")
def deepseek():
    hf = pytest.importorskip("tokenizers")
    ours, path = _reference("deepseek-v4")
    return ours, hf.Tokenizer.from_file(str(path)), path


@pytest.fixture(scope="module")
def mistral():
    sentencepiece = pytest.importorskip("sentencepiece")
    ours, path = _reference("mistral-7b-v3")
    return ours, sentencepiece.SentencePieceProcessor(model_file=str(path))


def test_reference_gives_them_and_they_fill_the_shape(deepseek, mistral):
    assert isinstance(deepseek[0], PipelineTokenizer) and isinstance(mistral[0], SentencePieceTokenizer)
    for tokenizer, vocab in ((deepseek[0], 129_280), (mistral[0], 32_768)):
        assert isinstance(tokenizer, bpe_core.TokenizerShape)
        assert tokenizer.n_vocab == vocab and tokenizer.byte_level and tokenizer.unknown_id is None
    # How each cuts text, as the views word it: DeepSeek's file's own Split stages; SentencePiece, the whole text.
    assert deepseek[0].pre_tokenization.stages == deepseek[0].pre_tokenizer.describe() != ""
    assert deepseek[0].pre_tokenization.pattern is None and not deepseek[0].pre_tokenization.whole_text
    assert mistral[0].pre_tokenization.whole_text and mistral[0].pre_tokenization.stages is None


def _full_segmentation_is_the_encoding(tokenizer, text: str) -> None:
    ids = tokenizer.encode(text)
    segmentation = tokenizer.segment(text)
    tokens = segmentation.tokens_at(segmentation.num_merges)
    assert tokens == [tokenizer.token_bytes(i) for i in ids]
    assert [tokenizer.token_id(token) for token in tokens] == ids
    assert segmentation.token_counts()[-1] == len(ids)
    assert b"".join(segmentation.tokens_at(0)) == b"".join(tokens)


@HYPOTHESIS
@given(text=TEXTS)
def test_deepseek_encodes_and_segments_as_tokenizers(deepseek, text):
    ours, theirs, _ = deepseek
    assert ours.encode(text) == theirs.encode(text, add_special_tokens=False).ids
    _full_segmentation_is_the_encoding(ours, text)


@HYPOTHESIS
@given(text=TEXTS)
def test_mistral_encodes_and_segments_as_sentencepiece(mistral, text):
    ours, theirs = mistral
    assert ours.encode(text) == theirs.encode(text)
    _full_segmentation_is_the_encoding(ours, text)


def test_corpora_encode_as_their_libraries(deepseek, mistral):
    texts = [corpus("chinese_classics.txt", 6_000), corpus("tinyshakespeare.txt", 6_000), corpus("docs10m.txt", 6_000)]
    for text in texts:
        for start in range(0, len(text), 1_500):
            piece = text[start : start + 1_500]
            assert deepseek[0].encode(piece) == deepseek[1].encode(piece, add_special_tokens=False).ids
            assert mistral[0].encode(piece) == mistral[1].encode(piece)
            _full_segmentation_is_the_encoding(deepseek[0], piece)
            _full_segmentation_is_the_encoding(mistral[0], piece)


@pytest.mark.parametrize("k", [0, 300, 5_000, 60_000])
def test_deepseek_with_the_first_k_merges_is_tokenizers_with_its_merges_cut_to_k(deepseek, k):
    ours, _, path = deepseek
    spec = json.loads(path.read_text(encoding="utf-8"))
    model = spec["model"]
    merges = [tuple(merge.split(" ")) if isinstance(merge, str) else tuple(merge) for merge in model["merges"]]
    made = {left + right for left, right in merges[:k]}
    # the vocabulary of the cut model: what no merge makes (bytes, added tokens) and what its first k merges make
    every_made = {left + right for left, right in merges}
    model["vocab"] = {token: i for token, i in model["vocab"].items() if token not in every_made or token in made}
    model["merges"] = [list(merge) for merge in merges[:k]]
    cut = pytest.importorskip("tokenizers").Tokenizer.from_str(json.dumps(spec))
    text = "".join(SNIPPETS) * 2
    segmentation = ours.segment(text)
    expected = [ours.token_bytes(i) for i in cut.encode(text, add_special_tokens=False).ids]
    assert segmentation.tokens_at(k) == expected


@pytest.mark.parametrize("k", [0, 200, 3_000, 20_000])
def test_mistral_with_the_pieces_of_the_k_best_scores_is_the_model_without_the_others(mistral, k):
    ours = mistral[0]
    ranks = score_ranks(ours.model)
    pieces = tuple(piece for piece in ours.model.pieces if ranks.get(piece.piece, -1) < k)
    cut = SentencePieceTokenizer(SentencePieceModel(pieces, ours.model.trainer, replace(ours.model.normalizer)))
    text = "".join(SNIPPETS) * 2
    expected = [cut.token_bytes(i) for i in cut.encode(text)]
    assert ours.segment(text).tokens_at(k) == expected


def test_token_text_shows_the_token(deepseek, mistral):
    for tokenizer, text in ((deepseek[0], "你好 world"), (mistral[0], "你好 world")):
        ids = tokenizer.encode(text)
        assert "".join(tokenizer.token_text(i) for i in ids).strip() == text
