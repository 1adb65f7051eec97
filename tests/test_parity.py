"""Parity-aware BPE against a naive trainer; one language is plain training; counts; edge cases."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_parity import naive_train_parity

from bpe_core import TrainResult, train, train_parity
from bpe_core.pretokenize import PATTERNS
from bpe_core.training.parity import ParityResult

languages = st.dictionaries(
    st.sampled_from(["en", "zh", "de", "x"]), st.text(alphabet="ab c\né中<|>", max_size=80), min_size=1, max_size=4
)


@settings(max_examples=150, deadline=None)
@given(
    texts=languages,
    n_merges=st.integers(0, 40),
    pattern=st.sampled_from(["gpt2", "whitespace", None]),
    measure=st.sampled_from(["tokens_per_byte", "tokens"]),
)
def test_matches_the_naive_parity_trainer(texts, n_merges, pattern, measure):
    result = train_parity(texts, 256 + n_merges, pattern=pattern, measure=measure)
    merges, chosen, history = naive_train_parity(texts, n_merges, PATTERNS.get(pattern, pattern), measure=measure)
    assert result.merges == merges
    assert result.chosen_languages == chosen
    assert result.token_counts == history
    assert result.stopped_early == (len(merges) < n_merges)


@settings(max_examples=60, deadline=None)
@given(texts=languages, n_merges=st.integers(0, 30))
def test_special_tokens_take_no_part(texts, n_merges):
    specials = ["<|>", "<|"]
    result = train_parity(texts, 256 + n_merges + 2, special_tokens=specials)
    merges, chosen, history = naive_train_parity(texts, n_merges, PATTERNS["gpt2"], specials)
    assert (result.merges, result.chosen_languages, result.token_counts) == (merges, chosen, history)
    assert result.tokenizer.special_tokens == {"<|>": 256 + len(merges), "<|": 257 + len(merges)}


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(alphabet="ab c\né", max_size=120),
    n_merges=st.integers(0, 40),
    measure=st.sampled_from(["tokens_per_byte", "tokens"]),
)
def test_one_language_is_plain_training(text, n_merges, measure):
    result = train_parity({"only": text}, 256 + n_merges, measure=measure)
    plain = train(text, 256 + n_merges)
    assert result.trace == plain.trace
    assert result.vocab == plain.vocab
    assert result.stop_reason == plain.stop_reason


def test_one_language_is_plain_training_on_english(shakespeare):
    text = shakespeare[:60_000]
    result = train_parity({"en": text}, 256 + 400, special_tokens=["<|endoftext|>"])
    plain = train(text, 256 + 400, special_tokens=["<|endoftext|>"])
    assert result.trace == plain.trace
    assert result.tokenizer.encode(text[:5000]) == plain.tokenizer.encode(text[:5000])
    assert result.pretoken_counts == plain.pretoken_counts
    assert set(result.chosen_languages) == {"en"}


@pytest.fixture(scope="module")
def bilingual(shakespeare, chinese):
    texts = {"en": shakespeare[:60_000], "zh": chinese[:20_000]}
    return texts, train_parity(texts, 256 + 500)


def test_token_counts_are_what_the_tokenizer_gives(bilingual):
    texts, result = bilingual
    assert isinstance(result, ParityResult) and isinstance(result, TrainResult)
    for language, text in texts.items():
        assert result.byte_counts[language] == len(text.encode("utf-8"))
        assert result.tokenizer.segment(text).token_counts() == result.token_counts[language]
    for record, language in zip(result.trace, result.chosen_languages):
        counts = result.token_counts[language]
        assert counts[record.rank] - counts[record.rank + 1] == record.replaced
        assert record.count >= record.replaced
        assert all(candidate.count <= record.count for candidate in record.candidates)


def test_the_worst_compressed_language_gets_each_merge(bilingual):
    texts, result = bilingual
    for k, language in enumerate(result.chosen_languages):
        ratios = {name: result.tokens_per_byte(name, k) for name in texts}
        assert ratios[language] == max(ratios.values())
    # Trained on the two texts together, plain BPE compresses them unequally; parity evens them out.
    assert abs(result.tokens_per_byte("en") - result.tokens_per_byte("zh")) < 0.01
    plain = train("".join(texts.values()), 256 + 500).tokenizer
    per_byte = {name: len(plain.encode(text)) / result.byte_counts[name] for name, text in texts.items()}
    assert abs(per_byte["en"] - per_byte["zh"]) > 0.05


def test_ids_are_the_usual_ones(bilingual):
    result = bilingual[1]
    vocab = result.vocab
    assert [vocab[i] for i in range(256)] == [bytes([i]) for i in range(256)]
    assert [vocab[256 + r] for r in range(len(result.merges))] == [a + b for a, b in result.merges]
    assert result.settings["kind"] == "parity" and result.settings["languages"] == ["en", "zh"]


def test_parallel_texts_measured_in_tokens():
    texts = {"en": "hello " * 20, "zh": "你好 " * 20}  # the same content: zh has more bytes
    result = train_parity(texts, 256 + 10, measure="tokens")
    assert result.chosen_languages[0] == "zh"
    assert naive_train_parity(texts, 10, PATTERNS["gpt2"], measure="tokens")[1] == result.chosen_languages


def test_a_language_with_no_text_is_never_chosen():
    result = train_parity({"empty": "", "en": "hello hello"}, 256 + 5)
    assert result.chosen_languages == ["en"] * 5
    assert result.token_counts["empty"] == [0] * 6 and result.tokens_per_byte("empty") == 0.0


def test_a_language_out_of_pairs_yields_to_the_next_worst():
    # "x" is one byte a pre-token: always the worst (1 token per byte), never a pair.
    result = train_parity({"x": "a\nb\nc", "en": "hello hello"}, 256 + 10)
    assert result.chosen_languages == ["en"] * len(result.merges)
    assert result.stopped_early and "no pair left" in result.stop_reason
    assert result.token_counts["x"] == [5] * (len(result.merges) + 1)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        (({}, 300), {}, ValueError, "non-empty mapping"),
        ((["en"], 300), {}, ValueError, "non-empty mapping"),
        (({"en": b"bytes"}, 300), {}, TypeError, "texts must map language names"),
        (({"en": "text"}, 255), {}, ValueError, "at least 256"),
        (({"en": "text"}, 300), {"measure": "bytes"}, ValueError, "measure must be one of"),
        (({"en": "text"}, 300), {"pattern": "(open"}, ValueError, "invalid pre-tokenization pattern"),
    ],
)
def test_bad_input_is_a_clear_error(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        train_parity(*args, **kwargs)


def test_progress_reaches_the_end(shakespeare):
    calls = []
    train_parity(
        {"a": shakespeare[:10_000], "b": shakespeare[10_000:20_000]}, 256 + 200, progress=lambda *c: calls.append(c)
    )
    assert calls[-1][0] == calls[-1][1]
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
