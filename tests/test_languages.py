"""bpe_core.analysis.parallel and .languages: the parallel sample's files, reading parallel texts, token costs per
language (equal to tiktoken's counts for the reference tokenizers), premiums, and the Gini coefficient."""

from __future__ import annotations

import itertools
import unicodedata

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st
from test_reference import tiktoken_encodings  # noqa: F401  (the session fixture)

import bpe_core
from bpe_core.analysis.languages import gini, language_costs, premiums_by_size
from bpe_core.analysis.parallel import LANGUAGES, PARALLEL_DIR, parallel_sample, read_parallel

REQUIRED = ["en", "zh", "ja", "ko", "ar", "hi", "ru", "es", "de", "th", "sw", "vi"]


# -- the built-in sample ---------------------------------------------------------------------------


def test_every_language_has_a_file_and_every_file_a_language():
    codes = [language.code for language in LANGUAGES]
    assert sorted(path.stem for path in PARALLEL_DIR.glob("*.txt")) == sorted(codes)
    assert set(REQUIRED) <= set(codes) and len(codes) >= 16
    readme = (PARALLEL_DIR / "README.md").read_text(encoding="utf-8")
    for language in LANGUAGES:
        assert f"| `{language.code}` | {language.native} | {language.english} |" in readme


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda language: language.code)
def test_sample_file_is_clean_and_in_its_script(language):
    raw = (PARALLEL_DIR / f"{language.code}.txt").read_bytes()
    text = raw.decode("utf-8")  # strict: not UTF-8 fails here
    assert text.endswith("\n") and not text.startswith("\ufeff")
    lines = text.split("\n")[:-1]
    assert len(lines) == 40
    for number, line in enumerate(lines, 1):
        assert line and line == line.strip(), (language.code, number)
        assert unicodedata.is_normalized("NFC", line), (language.code, number)
    letters = regex.findall(r"\p{L}", text)
    in_script = regex.findall("|".join(rf"\p{{{script}}}" for script in language.scripts), "".join(letters))
    assert len(in_script) / len(letters) >= 0.9, language.code
    if language.code in ("zh", "ja"):  # full-width punctuation, no ASCII ones
        assert not regex.search(r"[,.?!;:]", text) and regex.search(r"[，。？！、]", text)
    if language.code == "th":  # no spaces between words: at most a few phrase breaks per sentence
        assert all(line.count(" ") <= 4 for line in lines)
    if language.code == "ar":
        assert "،" in text and "؟" in text and "," not in text and "?" not in text


def test_english_sentences_are_everyday_length():
    english = parallel_sample()["en"]
    assert all(8 <= len(sentence.split()) <= 20 for sentence in english)
    assert len(set(english)) == 40 and sum(sentence.endswith("?") for sentence in english) >= 2


def test_parallel_sample_is_a_fresh_copy():
    sample = parallel_sample()
    sample["en"].clear()
    assert len(parallel_sample()["en"]) == 40


# -- reading a user's parallel texts ----------------------------------------------------------------


def test_read_parallel_names_the_bad_file():
    good = "One.\nTwo.\n"
    assert read_parallel({"en.txt": good, "de.txt": "\ufeffEins.\r\nZwei.\n\n"}) == {
        "en": ["One.", "Two."],
        "de": ["Eins.", "Zwei."],
    }
    with pytest.raises(ValueError, match=r"^fr\.txt has 3 lines, but en\.txt has 2"):
        read_parallel({"en.txt": good, "fr.txt": "Un.\nDeux.\nTrois."})
    with pytest.raises(ValueError, match=r"^es\.txt is empty"):
        read_parallel({"en.txt": good, "es.txt": "\n \n"})
    with pytest.raises(ValueError, match=r"^ja\.txt is not UTF-8"):
        read_parallel({"en.txt": good, "ja.txt": "こんにちは\n".encode("shift_jis")})
    with pytest.raises(ValueError, match="both for the language 'en'"):
        read_parallel({"en.txt": good, "a/en.txt": good})


# -- costs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_token_counts_equal_tiktoken(name, tiktoken_encodings):  # noqa: F811
    sample = parallel_sample()
    costs = language_costs(bpe_core.reference(name), sample)
    encoding = tiktoken_encodings[name]
    for row in costs.rows:
        expected = sum(len(encoding.encode(sentence)) for sentence in sample[row.code])
        assert row.tokens == expected, row.code
        assert row.tokens_per_sentence == expected / 40
        assert row.bytes == sum(len(sentence.encode()) for sentence in sample[row.code])
        assert row.characters == sum(len(sentence) for sentence in sample[row.code])
    english = costs.row("en").tokens
    premiums = [row.tokens / english for row in costs.rows]
    assert [row.premium for row in costs.rows] == premiums
    assert costs.max_min_ratio == max(premiums) / min(premiums)
    pairwise = sum(abs(a - b) for a, b in itertools.product(premiums, repeat=2))
    assert costs.gini == pytest.approx(pairwise / (2 * len(premiums) ** 2 * (sum(premiums) / len(premiums))))


def test_baseline_and_alignment_are_checked():
    tokenizer = bpe_core.reference("gpt2")
    with pytest.raises(ValueError, match="baseline language 'xx'"):
        language_costs(tokenizer, {"en": ["a"]}, baseline="xx")
    with pytest.raises(ValueError, match="same number of sentences"):
        language_costs(tokenizer, {"en": ["a", "b"], "de": ["a"]})


def test_premiums_by_size_equal_costs_at_each_size():
    sample = {code: lines[:12] for code, lines in parallel_sample().items() if code in ("en", "de", "zh", "hi", "th")}
    training = "\n".join(itertools.chain.from_iterable(lines[12:] for lines in parallel_sample().values()))
    for tokenizer, base in (
        (bpe_core.train(training, 900).tokenizer, 256),
        (bpe_core.train_classic(training, 2_000).tokenizer, None),
    ):
        curve = premiums_by_size(tokenizer, sample, baseline="de")
        n = tokenizer.num_merges
        if base is None:
            base = len(tokenizer.symbols) - n
        assert curve.vocab_sizes.tolist() == list(range(base, base + n + 1))
        for k in sorted({0, 1, n // 3, n // 2, n}):
            costs = language_costs(tokenizer, sample, baseline="de", vocab_size=base + k)
            truncated = tokenizer.truncated(k)
            for row in costs.rows:
                assert row.tokens == sum(len(truncated.encode(s)) for s in sample[row.code])
                assert curve.token_counts[row.code][k] == row.tokens
                assert curve.premiums[row.code][k] == pytest.approx(row.premium)
            assert curve.gini[k] == pytest.approx(costs.gini)


# -- the Gini coefficient --------------------------------------------------------------------------

values = st.lists(st.floats(min_value=0.01, max_value=1e6, allow_nan=False), min_size=1, max_size=25)


@settings(max_examples=200, deadline=None)
@given(values, st.floats(min_value=1e-3, max_value=1e3))
def test_gini_properties(xs, scale):
    n = len(xs)
    g = gini(xs)
    pairwise = sum(abs(a - b) for a, b in itertools.product(xs, repeat=2)) / (2 * n * n * (sum(xs) / n))
    assert g == pytest.approx(pairwise, abs=1e-9)
    assert -1e-12 <= g <= 1 - 1 / n + 1e-12
    assert gini([x * scale for x in xs]) == pytest.approx(g, abs=1e-9)
    assert gini([xs[0]] * n) == 0.0
    assert gini(list(reversed(xs))) == pytest.approx(g, abs=1e-12)


def test_gini_edges():
    assert gini([]) == 0.0 and gini([0, 0]) == 0.0 and gini([5]) == 0.0
    assert gini([0, 0, 0, 1]) == pytest.approx(0.75)
