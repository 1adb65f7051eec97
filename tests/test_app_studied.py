"""DeepSeek V4 (a Hugging Face pipeline) and Mistral 7B v3 (SentencePiece) as the tokenizer Compare's choose,
languages and health views study, opened by links in English and Chinese. The numbers shown are the model's own
library's at its full size and the model cut to each size (``bpe_core.analysis.ladder``) below it; a bad value in
such a link is told by the view's own message.

DeepSeek V4's health view lists its 129,280 tokens' classes (about a minute here): set BPE_ALL_REFERENCES=1.
Skips without the models' packages (requirements-models.txt).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from functools import cache

import pytest
from apptest_helpers import fresh, sess, unescaped
from test_app_open_models import COMPARE, needs

import bpe_core
from bpe_core.analysis.ladder import ladder
from playground import i18n, references
from playground.heldout_texts import built_in_text
from playground.links import parse_link
from playground.session import Session

STUDIED = ["deepseek-v4", "mistral-7b-v3"]
HELDOUT = "parallel-en-zh"  # English and Chinese, 3 KB: quick for both models
SLOW = pytest.mark.skipif(os.environ.get("BPE_ALL_REFERENCES") != "1", reason="set BPE_ALL_REFERENCES=1")


def sizes_warnings(at) -> list[str]:
    """The view's warnings but the one that says a held-out text this small cannot decide a size (HELDOUT is 3 KB:
    quick, and too small to decide on, which the view rightly says)."""
    message = next(key for key in i18n.catalog("zh") if key.startswith("The held-out text is too small to decide"))
    too_small = [i18n.t(message, lang=lang).split("{")[0] for lang in ("en", "zh")]  # the text before the numbers
    return [unescaped(w.value) for w in at.warning if not any(w.value.startswith(mark) for mark in too_small)]


@cache
def library(name: str) -> Callable[[str], list[int]]:
    """The model's own library, loaded once: tokenizers on DeepSeek's tokenizer.json, sentencepiece on Mistral's
    .model."""
    (path,) = references.reference_files(name).values()
    if name == "deepseek-v4":
        hf = pytest.importorskip("tokenizers").Tokenizer.from_file(str(path))
        return lambda text: hf.encode(text, add_special_tokens=False).ids
    processor = pytest.importorskip("sentencepiece").SentencePieceProcessor(model_file=str(path))
    return lambda text: processor.encode(text)


def own_ids(name: str, text: str) -> list[int]:
    return library(name)(text)


def number(cell: str) -> int:
    return int(cell.replace("★", "").replace(",", "").strip())


def table_with(at, column: str):  # type: ignore[no-untyped-def]
    (found,) = [table.value for table in at.table if column in table.value.columns]
    return found


@pytest.mark.parametrize("view", ["choose", "languages", "health", "overlap"])
@pytest.mark.parametrize("name", STUDIED)
def test_a_link_may_name_them_as_the_studied_tokenizer(view, name):
    values, problems = parse_link({"view": [view], "compared": [name]})
    assert not problems and values["compared"] == name and values["view"] == view


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", STUDIED)
def test_choose_measures_the_model_cut_to_each_size_and_its_own_library_at_its_size(name, lang):
    needs(name)
    full = bpe_core.reference(name)
    sized = ladder(full)
    ks = (300, 4_000)
    sizes = [sized.vocab_size(k) for k in ks]
    at = fresh(COMPARE, view="choose", compared=name, heldout=HELDOUT, sizes=f"{sizes[0]},{sizes[1]}", lang=lang)
    assert sess(at).compared == name and at.selectbox(key=Session.compared.key).value == name
    text = built_in_text(HELDOUT)
    table = table_with(at, i18n.t("tokens", lang=lang))
    rows = dict(
        zip(map(number, table[i18n.t("vocab size", lang=lang)]), map(number, table[i18n.t("tokens", lang=lang)]))
    )
    for size, k in zip(sizes, ks):
        assert rows[size] == len(full.truncated(k).encode(text)), size
    suggested = [size for size in rows if size not in sizes]
    assert len(suggested) <= 1  # the suggestion, measured with the rest
    assert not sizes_warnings(at)  # every size asked for is one the model has
    assert any(references.licence(name, lang) in caption.value for caption in at.caption)
    # the full size is the model's own library's count
    at = fresh(COMPARE, view="choose", compared=name, heldout=HELDOUT, sizes=str(sized.vocab_size()), lang=lang)
    table = table_with(at, i18n.t("tokens", lang=lang))
    rows = dict(
        zip(map(number, table[i18n.t("vocab size", lang=lang)]), map(number, table[i18n.t("tokens", lang=lang)]))
    )
    assert rows[sized.vocab_size()] == len(own_ids(name, text))


@pytest.mark.parametrize("name", STUDIED)
def test_languages_counts_the_model_as_its_library_does_and_cut_to_a_size_as_the_cut_model_does(name):
    needs(name)
    full = bpe_core.reference(name)
    k = 2_000
    size = ladder(full).vocab_size(k)
    at = fresh(COMPARE, view="languages", compared=name, refs="gpt2", cut_vocab=str(size))
    frame = at.dataframe[0].value
    sample = bpe_core.parallel_sample()
    whole = frame[frame["tokenizer"] == references.short_name(name)]
    cut = frame[frame["tokenizer"] == i18n.t("{name} at {n:,}", name=references.short_name(name), n=size)]
    assert len(whole) == len(cut) == len(sample)
    small = full.truncated(k)
    for code, tokens in zip(whole["code"], whole["tokens"]):
        assert tokens == sum(len(own_ids(name, line)) for line in sample[code]), code
    for code, tokens in zip(cut["code"], cut["tokens"]):
        assert tokens == sum(len(small.encode(line)) for line in sample[code]), code


@pytest.mark.parametrize("name", STUDIED)
def test_languages_opens_on_them_in_chinese(name):
    needs(name)
    at = fresh(COMPARE, view="languages", compared=name, refs="gpt2", cut_vocab="5000", lang="zh")
    assert sess(at).compared == name and sess(at).cut_vocab == 5000
    frame = at.dataframe[0].value
    label = i18n.t("{name} at {n:,}", lang="zh", name=references.short_name(name), n=5000)
    assert any(label in set(frame[column].astype(str)) for column in frame.columns)  # its rows, labelled in Chinese
    assert i18n.t("Also the chosen tokenizer cut to vocab size", lang="zh") in [box.label for box in at.number_input]


def health_check(name: str, lang: str) -> None:
    needs(name)
    at = fresh(COMPARE, view="health", compared=name, heldout=HELDOUT, lang=lang)
    assert sess(at).compared == name and at.selectbox(key=Session.compared.key).value == name
    full = bpe_core.reference(name)
    sized = ladder(full)
    used = Counter(own_ids(name, built_in_text(HELDOUT)))
    never = sum(1 for i in range(full.n_vocab) if sized.first_k[i] >= 0 and not used[i])
    table = table_with(at, i18n.t("class", lang=lang))
    counts = dict(zip(table[i18n.t("class", lang=lang)], map(number, table[i18n.t("tokens", lang=lang)])))
    assert counts[i18n.t("never emitted", lang=lang)] == never
    # a pipeline's and SentencePiece's merges never emit a token they do not build: that class, not the whole-token one
    assert i18n.t("never built by the merges", lang=lang) in counts
    assert i18n.t("only as a whole pre-token", lang=lang) not in counts


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_health_lists_mistral_7b_tokens_its_encoding_never_emits(lang):
    health_check("mistral-7b-v3", lang)


@SLOW
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_health_lists_deepseek_tokens_its_encoding_never_emits(lang):
    health_check("deepseek-v4", lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bad_values_in_their_links_are_told_by_the_view(lang):
    at = fresh(COMPARE, view="choose", compared="deepseek-v5", lang=lang)
    (warning,) = [unescaped(w.value) for w in at.warning if "compared" in w.value]
    assert "deepseek-v5" in warning and "deepseek-v4" in warning and "mistral-7b-v3" in warning
    at = fresh(COMPARE, view="choose", compared="mistral-7b-v3", heldout=HELDOUT, sizes="100,150000", lang=lang)
    (warning,) = sizes_warnings(at)
    high = ladder(bpe_core.reference("mistral-7b-v3")).vocab_size()
    assert "150,000" in warning and f"{high:,}" in warning  # measured at the nearest end, and said so


@pytest.mark.parametrize(
    ("view", "link", "foreign"),
    [
        ("choose", {"compared": "mistral-7b-v3", "heldout": HELDOUT}, [291, 371, 600]),
        ("side", {"corpus": "toy-the-cat-in-the-hat", "vocab": "300"}, [1_000, 2_000]),  # the trained one's: 256-300
    ],
)
def test_sizes_typed_for_another_tokenizer_give_way_to_its_own_and_say_so(view, link, foreign):
    """291, 371, 600 (a small trained tokenizer's) against Mistral 7B v3: every one outside its range, so each was
    drawn at its smallest size, three identical rows. Its own sizes instead, and a note."""
    if "compared" in link:
        needs(link["compared"])
    at = fresh(COMPARE, view=view, sizes=",".join(map(str, foreign)), **link)
    (said,) = [unescaped(info.value) for info in at.info if "are all outside" in info.value]
    assert ", ".join(f"{n:,}" for n in foreign) in said
    sizes = sess(at).sizes
    assert sizes and not set(foreign) & set(sizes) and f"its own {', '.join(f'{n:,}' for n in sizes)}" in said
    if view == "choose":
        shown = [number(cell) for cell in table_with(at, "tokens")["vocab size"]]
        assert len(shown) == len(set(shown)) and set(sizes) <= set(shown)  # the suggestion may add one
        assert not sizes_warnings(at)
    else:
        assert not [w.value for w in at.warning if "nearest end" in w.value]


@pytest.mark.parametrize("compared", ["mistral-7b-v3", "trained"])
def test_languages_names_the_trained_tokenizer_as_such_when_another_is_studied(compared):
    """With Mistral 7B v3 studied, the trained tokenizer's rows said "this tokenizer"."""
    if compared != "trained":
        needs(compared)
    at = fresh(COMPARE, view="languages", compared=compared, corpus="toy-the-cat-in-the-hat", vocab="300")
    assert sess(at).trained is not None and sess(at).compared == compared
    names = set(at.dataframe[0].value["tokenizer"])
    if compared == "trained":
        assert "this tokenizer" in names and "the trained tokenizer" not in names
    else:
        assert {references.short_name(compared), "the trained tokenizer"} <= names and "this tokenizer" not in names
