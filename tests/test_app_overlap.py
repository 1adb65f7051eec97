"""AppTest (headless) tests of Compare's overlap view: a link opens it with the pair it names (and the page writes
that link back), the numbers and lists are the library's, the search and the script filter, Chinese labels, talk
mode, bad link values named while the view goes on, and a loaded file's name shown literally."""

from __future__ import annotations

import pytest
from apptest_helpers import (
    APP,
    TIMEOUT,
    assert_no_raw_tags,
    htmls,
    markdown_texts,
    no_exception,
    token_spans,
    vega_specs,
)
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core.analysis.overlap import vocabulary_overlap
from playground import i18n
from playground.corpora import CAT_IN_THE_HAT
from playground.session import FIELDS, Session
from ui.compare.overlap import SCRIPT_NAMES
from ui.token_html import display_bytes
from ui.tokenizer_output import loaded_choice

COMPARE = "pages/3_Compare.py"
CAT = {"corpus": "toy-the-cat-in-the-hat", "vocab": "300"}
"""A tiny sample: its link trains in milliseconds."""
PAYLOAD = "<img src=x onerror=alert(1)> [t](http://x)"


def compare(params: dict | None = None, **fields) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for name, value in fields.items():
        at.session_state[FIELDS[name].key] = value
    if params:
        at.query_params.update(params)
    at.switch_page(COMPARE)
    at.run()
    no_exception(at)
    return at


def field(at: AppTest, name: str):
    return at.session_state[FIELDS[name].key]


def top_level_rows(at: AppTest) -> list[dict]:
    """A dict spec's top-level data, which Streamlit ships as Arrow IPC in ``proto.data``."""
    import pyarrow as pa

    (element,) = at.get("vega_lite_chart")
    return pa.ipc.open_stream(element.proto.data.data).read_pandas().to_dict("records")


def listed(at: AppTest) -> list[tuple[str | None, str]]:
    """The tokens of the view's list: each span's id and visible text."""
    (body,) = [body for body in htmls(at) if "class='overlap'" in body]
    return [(span.token_id, span.text) for span in token_spans(body)]


def shown(found, tokens: list[bytes]) -> list[tuple[str | None, str]]:
    """The same for tokens of an overlap, as the token renderer labels them (A's id, else B's)."""
    return [(str(found.ids_a.get(token, found.ids_b.get(token))), display_bytes(token)) for token in tokens]


def test_a_link_opens_the_view_with_its_pair_and_the_page_writes_it_back():
    at = compare({**CAT, "view": "overlap", "compared": "gpt2", "with": "cl100k_base", "list": "only_b"})
    assert (field(at, "view"), field(at, "compared"), field(at, "overlap_with")) == ("overlap", "gpt2", "cl100k_base")
    found = vocabulary_overlap(bpe_core.reference("gpt2"), bpe_core.reference("cl100k_base"))
    (summary,) = [text for text in markdown_texts(at) if text.startswith("**A**")]
    for number in (found.size_a, found.size_b, len(found.shared)):
        assert f"{number:,}" in summary
    assert f"{found.jaccard:.3f}" in summary
    assert listed(at) == shown(found, found.tokens("only_b")[:50])
    (table,) = [frame for frame in at.dataframe]
    rows = table.value.to_dict("records")
    assert [list(row.values())[1:] for row in rows] == [[r.shared, r.only_a, r.only_b] for r in found.by_script]
    assert len(vega_specs(at)) == 1
    bars = top_level_rows(at)
    by_set = {
        name: {row.name: getattr(row, name) for row in found.by_length} for name in ("shared", "only_a", "only_b")
    }
    labels = {"shared": "shared", "only_a": "only in A", "only_b": "only in B"}
    for name, counts in by_set.items():
        assert {row["length"]: row["tokens"] for row in bars if row["set"] == labels[name]} == counts
    written = {key: value for key, value in at.query_params.items() if key != "ws"}
    assert (written["view"], written["compared"], written["with"], written["list"]) == (
        "overlap",
        "gpt2",
        "cl100k_base",
        "only_b",
    )


def test_the_trained_tokenizer_against_a_reference_searched_and_filtered():
    at = compare({**CAT, "view": "overlap", "with": "gpt2"})
    assert field(at, "compared") == "trained"
    trained = field(at, "trained").tokenizer
    assert trained.merges == bpe_core.train(CAT_IN_THE_HAT, 300, special_tokens=["<|endoftext|>"]).tokenizer.merges
    found = vocabulary_overlap(trained, bpe_core.reference("gpt2"))
    assert listed(at) == shown(found, found.tokens("only_a")[:50])
    at.radio(key=Session.overlap_list.key).set_value("shared").run()
    at.text_input(key=Session.overlap_search.key).input("·the").run()  # the renderer's mark for a space
    assert listed(at) == shown(found, found.tokens("shared", contains=b" the"))
    assert listed(at), "GPT-2 and a tokenizer trained on English share ' the'"
    at.text_input(key=Session.overlap_search.key).input("²").run()  # a digit, but no id: searched as text
    no_exception(at)
    assert listed(at) == shown(found, found.tokens("shared", contains="²".encode()))
    at.text_input(key=Session.overlap_search.key).input("").run()
    at.selectbox(key=Session.overlap_script.key).set_value("digits").run()
    assert listed(at) == shown(found, found.tokens("shared", "digits"))
    at.selectbox(key=Session.overlap_script.key).set_value("all").run()
    at.text_input(key=Session.overlap_search.key).input("198").run()  # an id: GPT-2's newline comes first
    (first, *_) = listed(at)
    assert first == (str(found.ids_a[b"\n"]), "↵") and found.ids_b[b"\n"] == 198  # shown by A's id
    at.text_input(key=Session.overlap_search.key).input("²").run()  # a digit, but no id: searched as text
    no_exception(at)
    assert listed(at) == shown(found, found.tokens("shared", contains="²".encode()))
    at.text_input(key=Session.overlap_search.key).input("").run()
    at.selectbox(key=Session.overlap_script.key).set_value("digits").run()
    written = {key: value for key, value in at.query_params.items() if key != "ws"}
    assert (written["with"], written["list"], written["script"]) == ("gpt2", "shared", "digits")
    assert "compared" not in written  # the trained tokenizer comes from the link's settings


def test_chinese_labels_and_nothing_missing_from_the_catalog():
    i18n.MISSING.clear()
    at = compare({**CAT, "view": "overlap", "compared": "cl100k_base", "with": "gpt2", "lang": "zh"})
    assert at.selectbox(key=Session.overlap_with.key).label == "与之比较（B）"
    assert at.radio(key=Session.overlap_list.key).label == "列表"
    (table,) = at.dataframe
    scripts = list(table.value.iloc[:, 0])
    assert scripts[0] == i18n.t(SCRIPT_NAMES["latin"], lang="zh") == "拉丁字母"
    assert not [text for lang, text in i18n.MISSING if lang == "zh"]
    assert any("“ the”" in caption.value and "特殊词元" in caption.value for caption in at.caption)


def test_talk_mode_shows_a_static_table_and_a_page_of_twenty():
    at = compare({**CAT, "view": "overlap", "compared": "gpt2", "with": "cl100k_base", "talk": "1"})
    assert not at.dataframe and at.table, "talk mode draws tables the stage's type sizes reach"
    assert len(listed(at)) == 20


@pytest.mark.parametrize(("parameter", "value"), [("with", "nope"), ("list", "both"), ("script", "klingon")])
def test_bad_link_values_are_named_and_the_view_goes_on(parameter, value):
    at = compare({**CAT, "view": "overlap", "compared": "cl100k_base", parameter: value})
    warnings = [warning.value for warning in at.warning]
    assert any(f"“{parameter}”" in text and value in text and "was ignored" in text for text in warnings), warnings
    if parameter == "with":  # not chosen: the first tokenizer that is not A
        assert field(at, "overlap_with") not in (value, "cl100k_base")
    else:
        assert field(at, FIELDS_BY_URL[parameter]) == FIELDS[FIELDS_BY_URL[parameter]].initial()
    assert field(at, "view") == "overlap" and listed(at)


@pytest.mark.parametrize("compared", ["gpt2", "cl100k_base", "trained"])
def test_b_is_another_tokenizer_until_one_is_chosen(compared):
    """A fresh page compared GPT-2 with itself ("A and B are the same tokenizer")."""
    at = compare({**CAT, "view": "overlap", "compared": compared})
    assert field(at, "compared") == compared and field(at, "overlap_with") not in ("", compared)
    assert not [info.value for info in at.info if "same tokenizer" in info.value]
    assert [text for text in markdown_texts(at) if text.startswith("**A**")]  # the sizes and what they share
    at.selectbox(key=Session.overlap_with.key).set_value(compared).run()  # chosen: kept, and said
    assert field(at, "overlap_with") == compared
    assert [info.value for info in at.info if "same tokenizer" in info.value]


FIELDS_BY_URL = {"with": "overlap_with", "list": "overlap_list", "script": "overlap_script"}


def test_a_loaded_file_as_b_is_named_literally_and_never_in_the_link():
    tokenizer = bpe_core.train("Hello there, hello world. 你好世界。" * 5, 290).tokenizer
    at = compare({**CAT, "view": "overlap", "compared": "gpt2"}, loaded={PAYLOAD: tokenizer})
    at.selectbox(key=Session.overlap_with.key).set_value(loaded_choice(PAYLOAD)).run()
    no_exception(at)
    found = vocabulary_overlap(bpe_core.reference("gpt2"), tokenizer)
    assert listed(at) == shown(found, found.tokens("only_a")[:50])
    assert_no_raw_tags(htmls(at))
    (summary,) = [text for text in markdown_texts(at) if text.startswith("**A**")]
    assert "<img" not in summary.replace("\\<img", "")
    assert "with" not in dict(at.query_params)


def test_a_loaded_file_as_a_is_named_literally():
    tokenizer = bpe_core.train("Hello there, hello world. 你好世界。" * 5, 290).tokenizer
    at = compare({**CAT, "view": "overlap", "with": "gpt2"}, loaded={PAYLOAD: tokenizer})
    at.selectbox(key=Session.compared.key).set_value(loaded_choice(PAYLOAD)).run()
    no_exception(at)
    found = vocabulary_overlap(tokenizer, bpe_core.reference("gpt2"))
    assert listed(at) == shown(found, found.tokens("only_a")[:50])
    (summary,) = [text for text in markdown_texts(at) if text.startswith("**A**")]
    assert "\\<img" in summary and "<img" not in summary.replace("\\<img", "")


def test_a_classic_tokenizer_is_not_offered_as_b():
    at = compare(
        {"corpus": "toy-the-cat-in-the-hat", "kind": "classic", "vocab": "60", "view": "overlap", "with": "trained"}
    )
    assert field(at, "trained") is not None and not field(at, "trained").tokenizer.byte_level
    assert any("classic (character-level) BPE" in info.value for info in at.info)  # A: the page's own message
    at.selectbox(key=Session.compared.key).set_value("cl100k_base").run()
    no_exception(at)
    assert "trained" not in at.selectbox(key=Session.overlap_with.key).options
    assert field(at, "overlap_with") == "gpt2" and listed(at)  # the first other built-in tokenizer instead
