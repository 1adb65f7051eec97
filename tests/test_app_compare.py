"""AppTest (headless) tests of the Compare and Export pages: every view, share links, export/import."""

from __future__ import annotations

import json

import pytest
from apptest_helpers import APP, TIMEOUT, chart_rows, htmls, no_exception, vega_specs
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core import vocabulary as voc

COMPARE = "pages/3_Compare.py"
EXPORT = "pages/4_Export.py"

# A small sample keeps these tests fast; the share link trains it.
CAT_LINK = {"corpus": "toy-the-cat-in-the-hat", "vocab": "300", "pattern": "gpt2"}


def _compare(params: dict | None = None, **state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in state.items():
        at.session_state[key] = value
    if params:
        at.query_params.update(params)
    at.switch_page(COMPARE)
    at.run()
    no_exception(at)
    return at


# -- share links ---------------------------------------------------------------------------------


def test_share_link_trains_and_restores_settings():
    params = {**CAT_LINK, "sizes": "270,290,300", "refs": "gpt2", "view": "side", "round": "5"}
    at = _compare(params)
    trained = at.session_state["trained"]
    assert trained.corpus_label.startswith("Toy: the cat in the hat")
    assert trained.settings["vocab_size"] == 300 and trained.settings["pattern"] == "gpt2"
    assert at.session_state["merge_round"] == 5
    assert at.radio(key="cmp_view").value == "side"
    assert at.text_input(key="cmp_sizes_text").value == "270, 290, 300"
    assert at.multiselect(key="cmp_refs").value == ["gpt2"]
    # the page writes its settings back into the URL
    written = dict(at.query_params)
    for key in ("corpus", "vocab", "pattern", "sizes", "view", "refs", "round"):
        assert key in written, key
    assert written["sizes"] in ("270,290,300", ["270,290,300"])
    # the Train page sees the same settings (same session keys)
    assert at.session_state["corpus_source"] == trained.corpus_label
    assert at.session_state["vocab_size"] == 300


def test_share_link_prefills_the_train_page():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"corpus": "toy-aaabdaaabac", "vocab": "259", "pattern": "none"})
    at.run()
    no_exception(at)
    assert at.selectbox(key="corpus_source").value == "Toy: aaabdaaabac"
    assert at.number_input(key="vocab_size").value == 259
    assert at.selectbox(key="pattern_choice").value == "none"
    assert at.session_state["trained"] is None  # the Train page only pre-fills; training is the user's click


def test_share_link_sets_the_merges_round():
    at = _compare(CAT_LINK)
    n = at.session_state["trained"].num_merges
    at.query_params.clear()
    at.query_params.update({"round": "7"})
    at.switch_page("pages/1_Merges.py")
    at.run()
    no_exception(at)
    assert n > 7 and at.session_state["merge_round"] == 7
    (player,) = [c for c in at.get("bidi_component") if c.proto.component_name == "bpe_playground.merge_player"]
    assert json.loads(player.proto.json)["round"] == 7  # the player starts at the linked round


def test_share_link_custom_regex_roundtrip():
    regex = r"\p{L}+|\s+|[^\s\p{L}]+"
    at = _compare({**CAT_LINK, "pattern": "custom", "regex": regex, "view": "side", "refs": ""})
    trained = at.session_state["trained"]
    assert trained.settings["pattern"] == regex
    written = dict(at.query_params)
    assert written["pattern"] in ("custom", ["custom"]) and written["regex"] in (regex, [regex])


def test_share_link_with_bad_values_is_ignored_safely():
    at = _compare({"corpus": "no-such-sample", "vocab": "-3", "pattern": "<script>", "view": "bogus"})
    # nothing usable in the link: the page asks to train instead of crashing
    assert at.session_state["trained"] is None
    assert any("No tokenizer trained yet" in info.value for info in at.info)


def test_no_tokenizer_offers_quick_train():
    at = _compare()
    assert any("No tokenizer trained yet" in info.value for info in at.info)


# -- the views -----------------------------------------------------------------------------------


def test_curve_view_is_exact_and_has_reference_points():
    at = _compare({**CAT_LINK, "view": "curve", "refs": "gpt2", "heldout": "mixed-english-chinese"})
    specs = vega_specs(at)
    assert specs, "the curve chart is drawn"
    rows = chart_rows(at)
    trained = at.session_state["trained"]
    from ui.corpora import MIXED_EN_ZH, load_sample

    curve_rows = [r for r in rows if r.get("tokenizer") == "trained (every size)"]
    heldout = [r for r in curve_rows if r["text"].startswith("held-out")]
    expected = dict(voc.bytes_per_token_curve(trained.tokenizer, MIXED_EN_ZH))
    assert heldout and all(abs(r["bytes per token"] - expected[r["vocab size"]]) < 1e-3 for r in heldout)
    training = [r for r in curve_rows if r["text"].startswith("training")]
    expected_training = dict(voc.bytes_per_token_curve(trained.tokenizer, load_sample(trained.corpus_label)))
    assert training and all(abs(r["bytes per token"] - expected_training[r["vocab size"]]) < 1e-3 for r in training)
    # the curve spans the whole range, and GPT-2 is a point at 50,257 on both texts
    sizes = sorted({r["vocab size"] for r in curve_rows})
    assert sizes[0] == voc.vocab_size_of(trained.tokenizer, 0) == 257
    assert sizes[-1] == voc.vocab_size_of(trained.tokenizer)  # the tiny sample stops early, below 300
    gpt2 = [r for r in rows if r.get("tokenizer") == "GPT-2"]
    assert len(gpt2) == 2 and {r["vocab size"] for r in gpt2} == {50257}
    assert "tooltip" in json.dumps(specs[0])
    assert specs[0]["layer"][1]["encoding"]["x"]["scale"]["type"] == "log"


def test_curve_view_with_pasted_heldout_text():
    at = _compare({**CAT_LINK, "view": "curve", "refs": ""})
    at.selectbox(key="cmp_heldout").set_value("paste").run()
    at.text_area(key="cmp_heldout_paste").input("the hat and the cat, pasted and held out").run()
    no_exception(at)
    rows = chart_rows(at)
    assert any(r["text"] == "held-out: pasted text" for r in rows)
    # pasted text never goes into the link
    assert "heldout" not in dict(at.query_params)


def test_side_by_side_view_escapes_and_marks_changes():
    at = _compare({**CAT_LINK, "view": "side", "sizes": "257,280,300", "refs": "gpt2"})
    at.text_area(key="cmp_side_text").input('the cat <script>alert("x")</script> & the hat').run()
    no_exception(at)
    views = [h for h in htmls(at) if 'class="cmp-view"' in h]
    assert len(views) == 4
    joined = "".join(views)
    assert "<script" not in joined and "</script" not in joined
    assert "&lt;" in joined and "&gt;" in joined and "&amp;" in joined and "&quot;" in joined
    assert 'class="tok ' in joined and "data-token-id=" in joined
    assert "tok c0 diff" in joined or " diff" in joined
    # the first view is at 257 (bytes only): every token is a single byte
    trained = at.session_state["trained"]
    tokens, _ = voc.tokens_at_size(trained.tokenizer, 'the cat <script>alert("x")</script> & the hat', 257)
    assert f"{len(tokens):,} tokens" in views[0]


def test_side_by_side_clamps_and_limits_sizes():
    at = _compare({**CAT_LINK, "view": "side", "refs": ""})
    at.text_input(key="cmp_sizes_text").input("1, 270, 280, 285, 99999").run()
    no_exception(at)
    assert any("At most 4 sizes" in w.value for w in at.warning)
    views = [h for h in htmls(at) if 'class="cmp-view"' in h]
    assert len(views) == 4


def test_vocabulary_view_table_search_tree_histogram_never_emitted():
    at = _compare({**CAT_LINK, "view": "vocab"})
    trained = at.session_state["trained"]
    tokenizer = trained.tokenizer
    frame = at.dataframe[0].value
    assert len(frame) == len(tokenizer.vocab)
    assert {"id", "token", "bytes", "length", "merge round", "count when merged", "used in corpus"} <= set(
        frame.columns
    )
    first_learned = frame[frame["merge round"] == 0].iloc[0]
    assert first_learned["count when merged"] == trained.trace[0].count
    at.text_input(key="cmp_vocab_search").input("cat").run()
    no_exception(at)
    filtered = at.dataframe[0].value
    assert 0 < len(filtered) < len(frame) and filtered["token"].str.contains("cat").all()
    # merge tree of a chosen token
    token_id = tokenizer.encode(" cat")[0]
    at.number_input(key="cmp_tree_token").set_value(token_id).run()
    no_exception(at)
    trees = [h for h in htmls(at) if 'class="mtree"' in h]
    assert trees and f'data-token-id="{token_id}"' in trees[0]
    assert trees[0].count('class="node leaf"') == len(b" cat")
    assert dict(at.query_params).get("token") in (str(token_id), [str(token_id)])
    # histogram chart and never-emitted list
    assert any("length (bytes)" in json.dumps(spec) for spec in vega_specs(at))
    assert any("learned tokens never appear" in caption.value for caption in at.caption)


def test_algorithms_view_trains_three_variants():
    at = _compare({**CAT_LINK, "view": "algos"})
    at.button(key="cmp_algos_run").click().run()
    no_exception(at)
    table = at.dataframe[0].value
    assert list(table["algorithm"]) == [
        "byte-level, pattern gpt2",
        "byte-level, no pre-tokenization",
        "classic char-level </w>",
    ]
    assert (table["corpus tokens"] > 0).all()
    views = [h for h in htmls(at) if 'class="cmp-view' in h]
    assert len(views) == 3
    assert "&lt;/w&gt;" in views[2]  # classic symbols keep their end-of-word mark, escaped
    assert "⟨" in views[0]  # Chinese split into bytes by the byte-level tokenizer trained on English


def test_classic_tokenizer_gets_a_clear_message():
    text = "the cat in the hat sat on the mat " * 20
    result = bpe_core.train_classic(text, 40)
    from ui.state import Trained

    trained = Trained(
        kind="classic",
        result=result,
        settings={"kind": "classic", "vocab_size": 40},
        corpus_label="x",
        corpus_chars=len(text),
        corpus_bytes=len(text),
        digest="d",
        window_text=text,
    )
    trained.label = "classic test"
    at = _compare(trained=trained)
    assert any("classic" in info.value for info in at.info)


# -- export and import ---------------------------------------------------------------------------


def _export_page(params=CAT_LINK) -> AppTest:
    at = _compare(params)
    at.switch_page(EXPORT)
    at.run()
    no_exception(at)
    return at


def test_export_offers_every_format():
    at = _export_page()
    buttons = at.get("download_button")
    assert len(buttons) == 4


def test_import_roundtrip_and_use_on_compare(tmp_path):
    at = _export_page()
    trained = at.session_state["trained"]
    from ui.compare import export_files

    ((name, data),) = export_files(trained.tokenizer, "hf").items()
    at.file_uploader(key="import_files").upload(name, data, "application/json")
    at.run()
    at.button(key="import_button").click().run()
    no_exception(at)
    assert any("Loaded" in s.value for s in at.success)
    loaded = at.session_state["loaded_tokenizers"]["tokenizer.json"]
    sample = "the cat in the hat, 你好"
    assert loaded.encode(sample) == trained.tokenizer.encode(sample)
    # the loaded tokenizer is selected on Compare, whose views work with it
    at.switch_page(COMPARE)
    at.run()
    no_exception(at)
    assert at.selectbox(key="cmp_tokenizer").value == "file:tokenizer.json"
    at.radio(key="cmp_view").set_value("side").run()
    no_exception(at)
    assert [h for h in htmls(at) if 'class="cmp-view"' in h]


def test_import_gpt2_zip():
    at = _export_page()
    trained = at.session_state["trained"]
    from ui.compare import export_files

    ((name, data),) = export_files(trained.tokenizer, "gpt2").items()
    at.file_uploader(key="import_files").upload(name, data, "application/zip")
    at.run()
    at.button(key="import_button").click().run()
    no_exception(at)
    loaded = at.session_state["loaded_tokenizers"]["vocab.json + merges.txt"]
    assert loaded.encode("the cat sat") == trained.tokenizer.encode("the cat sat")


@pytest.mark.parametrize(
    "name,data",
    [
        ("tokenizer.json", b'{"model": {"type": "BPE", "vocab": {"a": "zero"}}}'),
        ("broken.json", b"{not json"),
        ("tokenizer.tiktoken", b"!!!! notanumber\n"),
        ("bad.zip", b"PK\x03\x04 not really a zip"),
    ],
)
def test_malformed_upload_keeps_current_tokenizer(name, data):
    at = _export_page()
    trained_before = at.session_state["trained"]
    loaded_before = dict(at.session_state["loaded_tokenizers"])
    at.file_uploader(key="import_files").upload(name, data)
    at.run()
    at.button(key="import_button").click().run()
    no_exception(at)
    assert at.error, "a clear error is shown"
    assert "Nothing was changed" in at.error[0].value
    assert at.session_state["trained"] is trained_before
    assert dict(at.session_state["loaded_tokenizers"]) == loaded_before
