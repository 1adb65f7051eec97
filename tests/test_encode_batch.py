"""``encode_batch`` / ``encode_ordinary_batch``: the ids of encoding each text alone, in threads or processes, and
tiktoken's own ``encode_ordinary_batch`` on the same texts (Llama 3's ranks and pattern, loaded by tiktoken)."""

from __future__ import annotations

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st
from tiktoken.load import load_tiktoken_bpe

import bpe_core
from bpe_core.pretokenize import PATTERNS
from bpe_core.reference import reference_files

TEXT = st.lists(st.sampled_from([*"ab 1\n中é🙂'", " the", "<|end_of_text|>", "<|begin_of_text|>"]), max_size=30)
TEXTS = st.lists(TEXT.map("".join), max_size=8)


@pytest.fixture(scope="module")
def llama3():
    return bpe_core.reference("llama3")


@pytest.fixture(scope="module")
def llama3_tiktoken():
    path = next(iter(reference_files("llama3").values()))  # Llama 3's tokenizer.model is tiktoken's format
    ranks = load_tiktoken_bpe(str(path))
    return tiktoken.Encoding("llama3", pat_str=PATTERNS["llama3"], mergeable_ranks=ranks, special_tokens={})


@settings(max_examples=60, deadline=None)
@given(texts=TEXTS)
def test_threads_give_the_ids_of_each_text_alone(llama3, texts):
    assert llama3.encode_batch(texts, num_threads=3) == [llama3.encode(text) for text in texts]
    assert llama3.encode_ordinary_batch(texts, num_threads=2) == [llama3.encode_ordinary(text) for text in texts]
    assert llama3.encode_batch(texts) == [llama3.encode(text) for text in texts]


@settings(max_examples=6, deadline=None)  # each example starts two processes
@given(texts=TEXTS)
def test_processes_give_the_ids_of_each_text_alone_in_order(llama3, texts):
    assert llama3.encode_batch(texts, processes=2) == [llama3.encode(text) for text in texts]


def test_ordinary_batch_equals_tiktokens(llama3, llama3_tiktoken, docs):
    documents = docs[:1_000_000].split("<|endoftext|>")
    expected = llama3_tiktoken.encode_ordinary_batch(documents, num_threads=2)
    assert llama3.encode_ordinary_batch(documents, processes=2) == expected
    assert bpe_core.reference("gpt2").encode_ordinary_batch(["hello world", ""]) == [[31373, 995], []]


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"num_threads": 0}, ValueError),
        ({"processes": "2"}, ValueError),
        ({"num_threads": 2, "processes": 2}, ValueError),
    ],
)
def test_bad_counts_are_refused(llama3, kwargs, error):
    with pytest.raises(error, match="num_threads|processes"):
        llama3.encode_batch(["a", "b"], **kwargs)


def test_a_string_is_not_a_batch(llama3):
    with pytest.raises(TypeError, match="list of strings"):
        llama3.encode_batch("abc")
