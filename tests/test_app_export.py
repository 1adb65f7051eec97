"""AppTest (headless) tests of the Export page: every format offered, files loaded back (and then
usable on Compare), malformed files refused without changing anything."""

from __future__ import annotations

import pytest
from apptest_helpers import APP, TIMEOUT, markdown_texts, no_exception, unescaped
from streamlit.testing.v1 import AppTest
from test_app_compare import CAT, RAW_MARKDOWN_LINK, field, views_html

from bpe_core.formats import GPT2_ASSUMED
from playground.session import FORMATS, Session
from playground.text import plain
from ui.export import LABELS, export_files
from ui.tokenizer_output import loaded_choice

EXPORT = "pages/4_Export.py"
COMPARE = "pages/3_Compare.py"
SAMPLE = "the cat in the hat, 你好 <|endoftext|>"


def export_page(params: dict | None = None) -> AppTest:
    """A new session opened on the Export page by a link that trains the cat sample."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(params or {**CAT, "specials": "<|endoftext|>"})
    at.switch_page(EXPORT)
    at.run()
    no_exception(at)
    return at


def load(at: AppTest, name: str, data: bytes) -> AppTest:
    at.file_uploader(key=f"export_import_files_{field(at, 'import_round')}").upload(name, data)
    at.run()
    at.button(key="export_import_load").click().run()
    no_exception(at)
    return at


def test_every_format_is_offered_for_the_linked_tokenizer():
    at = export_page({**CAT, "format": "hf"})
    assert field(at, "trained").request.vocab_size == 300
    assert at.radio(key=Session.format.key).value == "hf"
    for fmt in FORMATS:
        at.radio(key=Session.format.key).set_value(fmt).run()
        no_exception(at)
        (button,) = at.get("download_button")
        assert LABELS[fmt] in button.proto.label
        (name,) = export_files(field(at, "trained").tokenizer, fmt)
        assert any(plain(name) in caption.value for caption in at.caption), name
        assert at.query_params["format"] == fmt


@pytest.mark.parametrize("fmt", ["hf", "bpe-playground", "gpt2"])
def test_an_exported_file_loads_back_and_is_used_on_compare(fmt):
    at = export_page()
    trained = field(at, "trained").tokenizer
    ((name, data),) = export_files(trained, fmt).items()
    load(at, name, data)
    assert any("Loaded" in success.value for success in at.success)
    ((label, loaded),) = field(at, "loaded").items()
    assert loaded.encode(SAMPLE) == trained.encode(SAMPLE)
    at.switch_page(COMPARE)
    at.run()
    at.selectbox(key=Session.compared.key).set_value(loaded_choice(label)).run()
    at.radio(key=Session.view.key).set_value("side").run()
    no_exception(at)
    assert views_html(at)


@pytest.mark.parametrize(
    "name,data",
    [
        ("tokenizer.json", b'{"model": {"type": "BPE", "vocab": {"a": "zero"}}}'),
        ("broken.json", b"{not json"),
        ("tokenizer.tiktoken", b"!!!! notanumber\n"),
        ("bad.zip", b"PK\x03\x04 not really a zip"),
        ("![x](http://127.0.0.1:9/x.png)[t](http://x)<img src=x onerror=alert(1)>.json", b"{"),
    ],
)
def test_a_malformed_file_changes_nothing(name, data):
    at = export_page()
    trained = field(at, "trained")
    load(at, name, data)
    assert at.error and "Nothing was changed" in at.error[0].value
    assert field(at, "trained") is trained and field(at, "loaded") == {}
    assert not [text for text in markdown_texts(at) if RAW_MARKDOWN_LINK.search(text) or "<img" in text]


def test_a_stray_file_next_to_a_good_one_is_named_and_nothing_loaded():
    """Several files load together only as vocab.json + merges.txt: a good tokenizer.json with a stray
    file is refused naming both, instead of the stray one being ignored silently."""
    at = export_page()
    ((name, data),) = export_files(field(at, "trained").tokenizer, "hf").items()
    uploader = at.file_uploader(key=f"export_import_files_{field(at, 'import_round')}")
    uploader.upload(name, data)
    uploader.upload("wrong.txt", b"not a tokenizer")
    at.run()
    at.button(key="export_import_load").click().run()
    no_exception(at)
    message = unescaped(at.error[0].value) if at.error else ""
    assert "Load one tokenizer at a time" in message and "tokenizer.json, wrong.txt" in message
    assert field(at, "loaded") == {}


def test_after_a_load_the_import_box_is_empty_again():
    """Files do not pile up: the next load starts from an empty box, not from these files plus new ones."""
    at = export_page()
    ((name, data),) = export_files(field(at, "trained").tokenizer, "hf").items()
    load(at, name, data)
    assert field(at, "import_round") == 1
    assert not at.file_uploader(key="export_import_files_1").value


def test_without_a_tokenizer_the_page_says_so():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.switch_page(EXPORT)
    at.run()
    no_exception(at)
    assert any("Nothing to export yet" in info.value for info in at.info)


def test_files_that_store_no_pattern_say_how_to_load_them_back_with_the_same_ids():
    """An o200k-pattern tokenizer exported as GPT-2 files (no pattern in them) loaded back with GPT-2's: 38 tokens
    became 39, and the page had promised the same ids and said the pattern was "stored in the file". Export now names
    the pattern to choose; the import says GPT-2's was assumed; chosen, the ids are the trained tokenizer's."""
    text = "Hello world's 12345 numbers, don't    stop!\n\t你好 x" * 3
    at = export_page({**CAT, "pattern": "o200k", "format": "gpt2"})
    trained = field(at, "trained").tokenizer
    assert trained.pattern == "o200k"
    captions = [unescaped(caption.value) for caption in at.caption]
    assert any("store no pattern" in caption and "(o200k)" in caption for caption in captions), captions
    ((name, data),) = export_files(trained, "gpt2").items()
    at = load(at, name, data)
    ((label, assumed),) = field(at, "loaded").items()
    assert assumed.pattern == "gpt2" and assumed.pattern_source == GPT2_ASSUMED
    assert any("gpt2, assumed" in unescaped(success.value) for success in at.success)
    at.selectbox(key=Session.import_pattern.key).set_value("o200k").run()
    at = load(at, name, data)
    chosen = [tokenizer for tokenizer in field(at, "loaded").values() if tokenizer.pattern == "o200k"]
    assert chosen and chosen[0].encode(text) == trained.encode(text)
    at.radio(key=Session.format.key).set_value("tiktoken").run()
    assert any("(o200k)" in unescaped(caption.value) for caption in at.caption)
    at.radio(key=Session.format.key).set_value("hf").run()
    assert any("same token ids" in unescaped(caption.value) for caption in at.caption)
