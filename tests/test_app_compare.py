"""AppTest (headless) tests of the Compare page: every view, links (trained on a fresh session,
reproducing the view), bad link values, and user or file text shown literally."""

from __future__ import annotations

import json
import re

import pytest
from apptest_helpers import (
    APP,
    TIMEOUT,
    assert_no_raw_markdown_tags,
    assert_no_raw_tags,
    chart_rows,
    htmls,
    markdown_texts,
    no_exception,
    sess,
    unescaped,
    vega_specs,
)
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core import analysis
from playground.corpora import CAT_IN_THE_HAT, MIXED_EN_ZH
from playground.session import FIELDS, REFERENCES, Session
from playground.text import plain
from ui.compare import side
from ui.tokenizer_output import loaded_choice

COMPARE = "pages/3_Compare.py"
CAT = {"corpus": "toy-the-cat-in-the-hat", "vocab": "300"}
"""A tiny sample: its link trains in milliseconds."""
PAYLOADS = ("![x](http://127.0.0.1:9/x.png)", "[t](http://x)", "<img src=x onerror=alert(1)>")
# In Markdown, an image or link needs "](" and "![" unescaped; playground.text.plain escapes both.
RAW_MARKDOWN_LINK = re.compile(r"(?<!\\)\]\(|(?<!\\)!\[")


def compare(params: dict | None = None, **fields) -> AppTest:
    """A new session opened on the Compare page (with a link's ``params``, session ``fields`` set first)."""
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


def link(at: AppTest) -> dict:
    """The page's link as the frame wrote it into the address bar (without the reload id)."""
    return {key: value for key, value in at.query_params.items() if key != "ws"}


def views_html(at: AppTest) -> list[str]:
    return [body for body in htmls(at) if 'class="cmp-view"' in body]


def assert_literal(at: AppTest) -> None:
    """No payload became Markdown (image, link, tag) or HTML anywhere on the page."""
    texts_ = markdown_texts(at)
    assert_no_raw_markdown_tags(texts_)
    assert not [text for text in texts_ if RAW_MARKDOWN_LINK.search(text)]
    assert_no_raw_tags(htmls(at))


# -- links -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("view", ["curve", "side", "vocab", "algos"])
def test_a_link_trains_its_tokenizer_and_opens_its_view(view):
    at = compare({**CAT, "view": view, "refs": "gpt2"})
    trained = field(at, "trained")
    assert trained.request.corpus == "toy-the-cat-in-the-hat" and trained.request.vocab_size == 300
    assert at.radio(key=Session.view.key).value == view
    assert field(at, "compared") == "trained"
    written = link(at)
    assert written["view"] == view and written["refs"] == "gpt2" and written["corpus"] == CAT["corpus"]


def test_a_link_with_special_tokens_trains_exactly_those():
    at = compare({**CAT, "specials": "<|endoftext|> <sep>", "view": "side"})
    tokenizer = field(at, "trained").tokenizer
    expected = bpe_core.train(CAT_IN_THE_HAT, 300, special_tokens=["<|endoftext|>", "<sep>"], pattern="gpt2")
    assert tokenizer.merges == expected.tokenizer.merges
    assert tokenizer.special_tokens == expected.tokenizer.special_tokens
    assert link(at)["specials"] == "<|endoftext|> <sep>"


def test_the_written_link_reproduces_the_view_on_a_fresh_session():
    at = compare({**CAT, "view": "curve", "refs": "o200k_base"})
    at.selectbox(key=Session.heldout.key).set_value("mixed-english-chinese").run()
    at.radio(key=Session.view.key).set_value("side").run()
    at.text_input(key=Session.sizes_text.key).input("260, 280").run()
    at.radio(key=Session.view.key).set_value("vocab").run()
    at.number_input(key=Session.token.key).set_value(270).run()
    no_exception(at)
    written = link(at)
    assert (written["sizes"], written["token"], written["heldout"]) == ("260,280", "270", "mixed-english-chinese")
    again = compare(written)
    for name in ("view", "sizes", "refs", "heldout", "token", "vocab", "specials"):
        assert field(again, name) == field(at, name), name
    assert field(again, "trained").request.key == field(at, "trained").request.key


BAD_VALUES = ("²", "٣", "1e999", "-1", "9" * 5000, "nope", ["300", "400"], "x" * 100_000)


@pytest.mark.parametrize("value", BAD_VALUES, ids=["superscript", "arabic", "1e999", "-1", "5000-digits", "unknown",
                                                   "twice", "100KB"])  # fmt: skip
@pytest.mark.parametrize("parameter", ["view", "sizes", "refs", "heldout", "token"])
def test_bad_link_values_are_named_and_replaced_by_defaults(parameter, value):
    at = compare({**CAT, "refs": "", parameter: value} if parameter != "refs" else {**CAT, parameter: value})
    assert any(f"“{parameter}”" in warning.value for warning in at.warning), [w.value for w in at.warning]
    assert field(at, parameter) == FIELDS[parameter].initial()
    assert field(at, "trained") is not None  # the rest of the link still works


def test_unknown_link_parameters_are_named():
    at = compare({**CAT, "bogus": "1", "refs": ""})
    assert any("“bogus”" in warning.value for warning in at.warning)


def test_a_token_id_beyond_the_vocabulary_gives_a_message():
    at = compare({**CAT, "view": "vocab", "token": "299999"})
    assert any("299,999" in warning.value and "not in this tokenizer" in warning.value for warning in at.warning)
    assert field(at, "token") < len(field(at, "trained").tokenizer.vocab)
    at = compare({**CAT, "view": "vocab", "token": str(2**53)})
    assert any("“token”" in warning.value for warning in at.warning)


def test_without_a_tokenizer_the_page_offers_to_train_or_load():
    at = compare()
    assert any("No tokenizer trained yet" in info.value for info in at.info)
    assert at.button(key="quick_train")
    # The views that study the built-in models are one click away (the view choice was gone until a training).
    at.radio(key=Session.view.key).set_value("languages").run()
    no_exception(at)
    assert not any("No tokenizer trained yet" in info.value for info in at.info)
    assert at.selectbox(key=Session.compared.key).value in REFERENCES
    assert at.dataframe or at.table


# -- the curve ----------------------------------------------------------------------------------------


def test_curve_is_exact_with_reference_points():
    at = compare({**CAT, "view": "curve", "refs": "gpt2", "heldout": "mixed-english-chinese"})
    tokenizer = field(at, "trained").tokenizer
    rows = chart_rows(at)
    for label, text in (("held-out", MIXED_EN_ZH), ("training text", CAT_IN_THE_HAT)):
        expected = dict(analysis.bytes_per_token_curve(tokenizer, text))
        line = [r for r in rows if r["tokenizer"].startswith("this tokenizer") and r["text"].startswith(label)]
        assert line and all(abs(r["bytes per token"] - expected[r["vocab size"]]) < 1e-3 for r in line)
        assert line[0]["vocab size"] == analysis.vocab_size_of(tokenizer, 0)
        assert line[-1]["vocab size"] == analysis.vocab_size_of(tokenizer)
    gpt2 = [r for r in rows if r["tokenizer"].startswith("GPT-2")]
    assert {r["vocab size"] for r in gpt2} == {50257} and len(gpt2) == 2
    spec = json.dumps(vega_specs(at)[0])
    assert '"type": "log"' in spec and "tooltip" in spec
    table = at.table[0].value
    assert len(table) == 4  # two texts with this tokenizer, and with GPT-2
    assert not any("Dashed lines" in caption.value for caption in at.caption)  # no sizes chosen: none drawn


def test_curve_sends_at_most_400_points_a_line():
    at = compare({"corpus": "python-reference-all", "vocab": "2000", "view": "curve", "refs": ""})
    rows = chart_rows(at)
    for text in {r["text"] for r in rows}:
        assert 100 < len([r for r in rows if r["text"] == text]) <= 401


def test_pasted_heldout_text_is_measured_and_only_its_choice_linked():
    """The link says the held-out text was pasted (so whoever opens it is asked for it), never the text."""
    pasted = "the hat and the cat, pasted and held out"
    at = compare({**CAT, "view": "curve", "refs": ""})
    at.selectbox(key=Session.heldout.key).set_value("paste").run()
    at.text_area(key=Session.heldout_box.key).input(pasted).run()
    no_exception(at)
    assert any(r["text"] == "held-out: pasted text" for r in chart_rows(at))
    assert link(at)["heldout"] in ("paste", ["paste"])
    assert not any(pasted in str(value) for value in link(at).values())


def test_uploaded_heldout_text_is_measured():
    at = compare({**CAT, "view": "curve", "refs": ""})
    at.selectbox(key=Session.heldout.key).set_value("upload").run()
    at.file_uploader(key=Session.heldout_file.key).upload("held.txt", MIXED_EN_ZH.encode(), "text/plain").run()
    no_exception(at)
    line = [r for r in chart_rows(at) if r["text"] == "held-out: held.txt"]
    expected = dict(analysis.bytes_per_token_curve(field(at, "trained").tokenizer, MIXED_EN_ZH))
    assert line and all(abs(r["bytes per token"] - expected[r["vocab size"]]) < 1e-3 for r in line)


@pytest.mark.parametrize("bad", [("empty.txt", b""), ("image.txt", bytes(range(256)) * 4)])
def test_a_refused_heldout_file_keeps_the_last_good_one_and_says_so_at_the_uploader(bad):
    """As on the Train page: the refusal stays by the uploader on later runs (not a one-run banner),
    the caption names the file still measured, and its curve stays."""
    at = compare({**CAT, "view": "curve", "refs": ""})
    at.selectbox(key=Session.heldout.key).set_value("upload").run()
    at.file_uploader(key=Session.heldout_file.key).upload("held.txt", MIXED_EN_ZH.encode(), "text/plain").run()
    name, data = bad
    at.file_uploader(key=Session.heldout_file.key).upload(name, data, "text/plain").run()
    for _ in range(2):  # and on the next run as well
        no_exception(at)
        assert len(at.error) == 1 and name in unescaped(at.error[0].value)
        assert any("Still using held.txt" in unescaped(caption.value) for caption in at.caption)
        assert any(r["text"] == "held-out: held.txt" for r in chart_rows(at))
        at.run()
    at.selectbox(key=Session.heldout.key).set_value("paste").run()  # another choice forgets both
    assert not at.error and field(at, "heldout_text") is None


@pytest.mark.parametrize("choice", ["paste", "upload"])
def test_a_link_asking_for_own_heldout_text_says_so(choice):
    at = compare({**CAT, "view": "curve", "refs": "", "heldout": choice})
    assert any("never travels in links" in info.value and "Nothing else" in info.value for info in at.info)
    assert {r["text"] for r in chart_rows(at)} == {"training text: Toy: the cat in the hat"}  # no sample stands in


# -- side by side --------------------------------------------------------------------------------------


def test_side_by_side_escapes_text_and_outlines_changes():
    text = 'the cat <script>alert("x")</script> & the hat'
    at = compare({**CAT, "view": "side", "sizes": "257,280,300", "refs": "gpt2"}, side_text=text)
    views = views_html(at)
    assert len(views) == 4
    joined = "".join(views)
    assert_no_raw_tags(views)
    assert "&lt;" in joined and "&amp;" in joined and "data-token-id=" in joined and "tok c0" in joined
    assert ' diff"' in joined
    tokens, _ = analysis.tokens_at_size(field(at, "trained").tokenizer, text, 257)
    assert f"{len(tokens):,} tokens" in views[0]


def test_side_by_side_sizes_box():
    at = compare({**CAT, "view": "side", "refs": ""})
    assert field(at, "sizes") == side.default_sizes(field(at, "trained").tokenizer)
    at.text_input(key=Session.sizes_text.key).input("1, 280, 99999").run()
    no_exception(at)
    (warning,) = [w.value for w in at.warning if "shown at the nearest end" in w.value]
    assert "1, 99,999 are outside" in warning  # the sizes not shown as asked are named
    assert len(views_html(at)) == 3
    at.text_input(key=Session.sizes_text.key).input("1, 2, 3, 4, 5").run()
    no_exception(at)
    assert any("were not used" in warning.value for warning in at.warning)
    assert field(at, "sizes") == [1, 280, 99999]


def test_a_loaded_tokenizer_whose_pattern_misses_the_text_gets_a_message():
    pattern = r"<img src=x onerror=alert\(1\)>|[a-z]+"  # no alternative for spaces: it cannot cover text
    tokenizer = bpe_core.Tokenizer({i: bytes([i]) for i in range(256)}, [], pattern=pattern)
    at = compare(loaded={PAYLOADS[2]: tokenizer}, compared=loaded_choice(PAYLOADS[2]), view="side", refs=[])
    assert any("does not cover" in warning.value for warning in at.warning)
    assert [code.value for code in at.code if code.value == pattern]  # the pattern, verbatim
    assert_literal(at)


# -- vocabulary -----------------------------------------------------------------------------------------


def test_vocabulary_table_search_tree_histogram_never_emitted():
    at = compare({**CAT, "view": "vocab"})
    trained = field(at, "trained")
    frame = at.dataframe[0].value
    assert len(frame) == len(trained.tokenizer.vocab)
    first = frame[frame["merge round"] == 1].iloc[0]  # rounds from 1, as on the Merges page
    assert first["count when merged"] == trained.trace[0].count and first["id"] == 256
    assert not (frame["merge round"] == 0).any()
    for query in ("cat", "²", "9" * 40):
        at.text_input(key=Session.vocab_search.key).input(query).run()
        no_exception(at)
    at.text_input(key=Session.vocab_search.key).input("cat").run()
    shown = at.dataframe[0].value
    assert 0 < len(shown) < len(frame) and shown["token"].str.contains("cat").all()
    token_id = trained.tokenizer.encode(" cat")[0]
    at.number_input(key=Session.token.key).set_value(token_id).run()
    no_exception(at)
    (tree,) = [body for body in htmls(at) if 'class="mtree"' in body]
    assert f'data-token-id="{token_id}"' in tree and tree.count('class="node leaf"') == len(b" cat")
    assert link(at)["token"] == str(token_id)
    assert any("length (bytes)" in json.dumps(spec) for spec in vega_specs(at))
    assert any("learned tokens never appear" in caption.value for caption in at.caption)


def test_a_vocabulary_without_training_text_or_trace_leaves_those_columns_out():
    """A tokenizer loaded from files: no training text here, no trace; its table said None and 0 on every row
    ("count when merged", "used in corpus"), and 0 read as "never used"; a sort by one of them falls back."""
    tokenizer = bpe_core.train(("files have no trace here" + " " * 40 + "\n") * 20, 300).tokenizer
    label = "tokenizer.json · loaded"
    # (the sort as chosen on a trained tokenizer's table before)
    at = compare(loaded={label: tokenizer}, compared=loaded_choice(label), view="vocab", vocab_sort="used in corpus")
    frame = at.dataframe[0].value
    assert "used in corpus" not in frame.columns and "count when merged" not in frame.columns
    assert {"id", "token", "merge round", "length"} <= set(frame.columns) and len(frame) == len(tokenizer.vocab)
    assert sess(at).vocab_sort == "merge round"
    assert "used in corpus" not in at.selectbox(key=Session.vocab_sort.key).options
    # The tree opens on the longest word, not the longest token (here a run of spaces, as Qwen 3.6's 128).
    assert tokenizer.token_bytes(sess(at).token) == b" trace"


# -- algorithms -----------------------------------------------------------------------------------------


def test_algorithms_train_only_on_a_click():
    at = compare({"corpus": "mixed-english-chinese", "vocab": "400", "specials": "<|endoftext|>", "view": "algos"})
    assert not at.table and at.button(key="algos_run")
    at.button(key="algos_run").click().run()
    no_exception(at)
    names = ["byte-level, pattern gpt2", "byte-level, no pre-tokenization", "classic char-level </w>"]
    assert list(at.table[0].value["algorithm"]) == [plain(name) for name in names]
    views = views_html(at)
    assert len(views) == 3 and "&lt;/w&gt;" in views[2] and "⟨" in views[0]
    assert [code.value for code in at.code if "\\p{L}" in code.value]  # the byte-level pattern, verbatim


def test_a_classic_tokenizer_gets_a_message_and_the_algorithms_view():
    at = compare({**CAT, "kind": "classic", "vocab": "60", "view": "curve"})
    assert not field(at, "trained").tokenizer.byte_level
    assert any("classic" in info.value for info in at.info)
    at.radio(key=Session.view.key).set_value("algos").run()
    no_exception(at)
    assert at.button(key="algos_run")


# -- user and file text stays text --------------------------------------------------------------------


@pytest.mark.parametrize("payload", PAYLOADS)
def test_file_names_and_texts_are_shown_literally(payload):
    at = compare({**CAT, "view": "curve", "refs": "gpt2"})
    at.selectbox(key=Session.heldout.key).set_value("upload").run()
    name = f"{payload}.txt"
    at.file_uploader(key=Session.heldout_file.key).upload(name, f"{payload} held out".encode(), "text/plain").run()
    no_exception(at)
    assert any(r["text"] == f"held-out: {name}" for r in chart_rows(at))
    assert_literal(at)
    at.radio(key=Session.view.key).set_value("side").run()
    at.text_area(key=Session.side_text.key).input(payload).run()
    no_exception(at)
    assert_literal(at)


def test_a_loaded_tokenizer_named_like_markup_is_shown_literally():
    trained = bpe_core.train(CAT_IN_THE_HAT, 280).tokenizer
    loaded = {payload: trained for payload in PAYLOADS}
    for view in ("curve", "side", "vocab", "algos"):
        at = compare(loaded=loaded, compared=loaded_choice(PAYLOADS[0]), view=view, refs=list(REFERENCES[:1]))
        assert_literal(at)
        assert at.selectbox(key=Session.compared.key).value == loaded_choice(PAYLOADS[0])


def test_a_custom_pattern_from_a_link_is_shown_verbatim():
    regex = r"<img src=x onerror=alert\(1\)>|!\[x\]\(http://127\.0\.0\.1:9/x\.png\)|\s+|[^\s]+"
    at = compare({**CAT, "pattern": "custom", "regex": regex, "view": "algos"})
    assert field(at, "trained").request.pattern == regex
    assert [code.value for code in at.code if code.value == regex]
    assert_literal(at)
