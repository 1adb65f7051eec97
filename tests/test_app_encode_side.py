"""AppTest: Encode shows the chosen tokenizers side by side, each with its count and its ids to copy (equal to each
model's own library: tiktoken for OpenAI's, Llama's own), and turns typed ids back into text, with a message that
names a bad id; the link carries the built-in choices; in English and 中文."""

from __future__ import annotations

import pytest
import test_open_models as own  # the open models' own libraries (each skips when absent)
from apptest_helpers import ENCODE, TRAIN, fresh, no_exception, open_page, sess, token_spans, unescaped
from hypothesis import given
from hypothesis import strategies as st
from test_reference import tiktoken_encodings  # noqa: F401 -- tiktoken's own Encodings, offline (a fixture)

import bpe_core
from playground import i18n
from playground.session import Session
from ui import encode_side

TEXT = "Hello world, 你好世界! def f(x): return x ** 2"


def captions(at) -> list[str]:
    return [caption.value for caption in at.caption]


def side_columns(at) -> dict[str, tuple[str, list[int]]]:
    """{short name: (count caption, ids in its copy box)} of the side-by-side columns, in order."""
    found = {}
    codes = [code.value for code in at.code]
    captions = [
        caption.value for caption in at.caption if "bytes per token" in caption.value or "每词元" in caption.value
    ]
    titles = [md.value.strip("*") for md in at.markdown if md.value.startswith("**")]
    for title, caption, code in zip(titles, captions, codes[1:]):  # codes[0]: the page's own tokenizer's ids
        found[unescaped(title)] = (caption, encode_side.parse_ids(code))
    return found


def test_side_by_side_counts_and_ids_are_each_models_own(tiktoken_encodings):  # noqa: F811
    own.pair("llama3")  # (skips when llama-models is absent)
    at = fresh(ENCODE, tokenizer="gpt2", also="cl100k_base,o200k_base,llama3", text=TEXT)
    assert sess(at).also == ["cl100k_base", "o200k_base", "llama3"]
    columns = side_columns(at)
    _, llama = own.pair("llama3")
    theirs = {
        "cl100k_base (GPT-4)": tiktoken_encodings["cl100k_base"].encode(TEXT),
        "o200k_base (GPT-4o)": tiktoken_encodings["o200k_base"].encode(TEXT),
        "Llama 3": own.their_ids("llama3", llama, TEXT, specials=False),
    }
    assert list(columns) == list(theirs)
    for name, ids in theirs.items():
        caption, shown = columns[name]
        assert shown == ids and caption.startswith(f"{len(ids):,} tokens"), name
    assert encode_side.parse_ids(at.code[0].value) == tiktoken_encodings["gpt2"].encode(TEXT)  # the page's own
    drawn = [body.proto.body for body in at.get("html") if body.proto.body.startswith('<div class="tokens">')]
    assert [int(span.token_id) for span in token_spans(drawn[1])] == theirs["cl100k_base (GPT-4)"]  # one renderer
    assert at.query_params["also"] in ("cl100k_base,o200k_base,llama3", ["cl100k_base,o200k_base,llama3"])


def test_ids_copied_decode_back_to_the_text_and_a_bad_id_is_named():
    at = fresh(ENCODE, tokenizer="cl100k_base", text=TEXT)
    copied = at.code[0].value
    at.text_area(key=Session.decode_ids.key).input(copied).run()
    no_exception(at)
    assert TEXT in [code.value for code in at.code] and not at.error
    at.text_area(key=Session.decode_ids.key).input("[9906, 100277, 300000]").run()
    (error,) = at.error
    assert "100,277, 300,000 are not ids of this tokenizer: its ids run from 0 to 100,276" in unescaped(error.value)
    at.text_area(key=Session.decode_ids.key).input("9906, 12a").run()
    (error,) = at.error
    assert "“12a” is not a token id" in unescaped(error.value)


def test_in_chinese():
    at = fresh(ENCODE, tokenizer="gpt2", also="o200k_base", text="你好", lang="zh")
    assert i18n.t("Compare with (side by side)", lang="zh") in [box.label for box in at.multiselect]
    assert any(i18n.t("Ids back into text", lang="zh") in header.value for header in at.subheader)
    n = len(bpe_core.reference("o200k_base").encode("你好"))
    assert i18n.t("{n:,} tokens · {bpt} bytes per token", n=n, bpt=f"{6 / n:.2f}", lang="zh") in captions(at)


def test_a_gone_choice_is_dropped_and_a_loaded_file_never_travels_in_links():
    at = fresh(ENCODE, tokenizer="gpt2", also="o200k_base", text="你好")
    at.session_state[Session.also.key] = ["o200k_base", "file:gone.json"]
    at.run()
    no_exception(at)
    assert sess(at).also == ["o200k_base"]  # a file gone after a reload is dropped from the choice
    assert at.query_params["also"] in ("o200k_base", ["o200k_base"])


@given(st.lists(st.integers(0, 10**9), max_size=50), st.sampled_from([", ", " ", ";", ",\n"]), st.booleans())
def test_typed_ids_read_back_as_written(ids, separator, brackets):
    typed = separator.join(map(str, ids))
    assert encode_side.parse_ids(f"[{typed}]" if brackets else typed) == ids
    assert encode_side.parse_ids(encode_side.ids_text(list(ids))) == ids


@pytest.mark.parametrize("typed", ["-1", "1.5", "0x10", "١٢", "[1, two]"])
def test_what_is_not_an_id_is_named(typed):
    with pytest.raises(ValueError, match="is not a token id"):
        encode_side.parse_ids(typed)


def test_the_choice_survives_another_page():
    at = fresh(ENCODE, tokenizer="gpt2", also="o200k_base,cl100k_base", text="hello")
    open_page(at, TRAIN)
    open_page(at, ENCODE)
    assert sess(at).also == ["o200k_base", "cl100k_base"]
    assert list(side_columns(at)) == ["o200k_base (GPT-4o)", "cl100k_base (GPT-4)"]
