"""Links on every page (AppTest): every parameter with hostile values at once, Markdown in values, the
tokenizer a link describes (special tokens included), and the page's own link written back."""

from __future__ import annotations

import pytest
from apptest_helpers import APP, ENCODE, MERGES, TIMEOUT, fresh, no_exception, sess, unescaped
from streamlit.testing.v1 import AppTest

import bpe_core
from playground.corpora import DEFAULT_SLUG, SLUGS, load_sample, sample_name
from playground.session import URL_FIELDS, Session
from ui.frame import PAGES

PAGE_FILES = {page_id: script for page_id, script, *_ in PAGES}
HOSTILE = {
    "unicode digits": "²",
    "arabic digit": "٣",
    "float": "1e999",
    "negative": "-1",
    "5000 digits": "9" * 5000,
    "100 KB": "A" * 100_000,
    "markdown": "![x](http://127.0.0.1:9/x.png) [t](http://127.0.0.1:9/)",
}


def _open(page: str, query: dict) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.switch_page(PAGE_FILES[page])
    at.run()
    no_exception(at)
    return at


@pytest.mark.parametrize("page", list(PAGE_FILES))
@pytest.mark.parametrize("family", list(HOSTILE))
def test_every_parameter_with_a_bad_value_gives_one_plain_warning_each(page, family):
    """All parameters bad at once: no traceback, each named in a warning, Markdown shown literally, the page
    goes on with its defaults."""
    value = HOSTILE[family]
    # Streamlit itself ignores a query string over 512 K characters: 100 KB values go three at a time.
    names = ["vocab", "regex", "text"] if family == "100 KB" else [*URL_FIELDS, "unknown_name"]
    at = _open(page, {name: value for name in names})
    warnings = [unescaped(w.value) for w in at.warning]
    for name in names:
        named = [w for w in warnings if f"“{name}”" in w]
        free_text = name in ("regex", "specials", "word", "text", "check_specials", "keep_chars") and family not in (
            "100 KB",
        )
        assert named or free_text, (name, warnings[:3])
    for w in at.warning:
        assert "](" not in w.value.replace("\\](", "")  # no Markdown link or image survives
    assert sess(at).vocab == 600 and sess(at).view == "curve"  # defaults


@pytest.mark.parametrize("page", ["merges", "compare", "export", "encode"])
def test_a_link_trains_its_tokenizer_with_its_special_tokens(page):
    """The tokenizer a link describes is trained on a fresh session, special tokens included."""
    query = {"corpus": "toy-the-cat-in-the-hat", "vocab": "280", "pattern": "gpt2", "specials": "<|endoftext|> <|x|>"}
    if page == "encode":
        query["tokenizer"] = "trained"
    at = _open(page, query)
    trained = sess(at).trained
    expected = bpe_core.train(load_sample("toy-the-cat-in-the-hat"), 280, special_tokens=["<|endoftext|>", "<|x|>"])
    assert trained.tokenizer.merges == expected.tokenizer.merges
    assert trained.tokenizer.special_tokens == expected.tokenizer.special_tokens
    written = dict(at.query_params)
    for key, value in query.items():
        assert written[key] in (value, [value]), key


@pytest.mark.parametrize("corpus", ["paste", "upload"])
def test_a_link_made_from_own_text_says_so_once_and_substitutes_nothing(corpus):
    """One warning, not two: "No file uploaded yet …: upload a .txt file first" stood below it, on a page with no
    uploader."""
    at = _open("merges", {"corpus": corpus, "vocab": "300"})
    assert sess(at).trained is None
    (warning,) = [unescaped(w.value) for w in at.warning]
    assert "never travels in links" in warning and f"your own text ({sample_name(corpus)})" in warning
    assert not at.get("button") or not [b for b in at.button if b.key == "quick_train"]


def test_a_link_whose_settings_cannot_be_trained_says_why_once():
    """The link's warning, not a second copy of its reason under the offer to train (a new user saw it twice)."""
    at = _open("merges", {"corpus": "toy-aaabdaaabac", "vocab": "100"})
    assert sess(at).trained is None
    (warning,) = [unescaped(w.value) for w in at.warning]
    assert warning.startswith("The tokenizer this link describes cannot be trained: Vocab size 100 is not possible")


def test_without_a_link_a_page_says_the_train_pages_own_text_is_missing_there():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state[Session.corpus.key] = "upload"
    at.switch_page(MERGES)
    at.run()
    no_exception(at)
    (warning,) = [unescaped(w.value) for w in at.warning]
    assert "chosen on the Train page is your own text (uploaded file), not added yet" in warning


def test_a_link_above_the_budget_waits_for_a_click():
    """A big corpus x vocab does not start by itself: the estimate is shown with a button."""
    at = _open("merges", {"corpus": "python-reference-all", "vocab": "200000", "pattern": "none"})
    assert sess(at).trained is None
    texts = [unescaped(i.value) for i in at.info] + [unescaped(w.value) for w in at.warning]
    assert any("starts only when you click" in t or "is not possible here" in t for t in texts), texts


def test_a_merges_link_opens_the_player_at_its_round_and_speed():
    """Round and speed travel in the link: the player starts there, and the page writes them back."""
    import json

    at = _open("merges", {"corpus": "toy-the-cat-in-the-hat", "vocab": "280", "round": "7", "speed": "30"})
    (player,) = [c for c in at.get("bidi_component") if c.proto.component_name == "bpe_playground.merge_player"]
    data = json.loads(player.proto.json)
    assert data["round"] == 7 and data["speed"] == 30
    written = dict(at.query_params)
    assert written["round"] in ("7", ["7"]) and written["speed"] in ("30", ["30"])


def test_a_catastrophic_regex_in_a_link_is_a_message_not_a_hang():
    """The regex from the issue backtracks for minutes; its time budget turns it into a message.

    No clock here (a busy machine is slow, not wrong): the run ending at all (AppTest's timeout bounds a hang) with
    the budget's own message, and no tokenizer, shows that the budget stopped it.
    """
    catastrophic = r"([\w ]|[\w ])+!|[\s\S]"
    at = _open("merges", {"corpus": "python-reference-excerpt", "pattern": "custom", "regex": catastrophic})
    assert sess(at).trained is None
    warnings = [unescaped(w.value) for w in at.warning]
    assert any("backtracks catastrophically" in w for w in warnings), warnings


def test_a_rerun_carrying_the_address_before_the_last_run_keeps_the_new_settings():
    """A click while the run before it is ending can carry the address the browser had not replaced yet: that
    address is this session's own, not a link, so it must not put the old settings back."""
    at = _open("train", {"corpus": "toy-the-cat-in-the-hat", "vocab": "280"})
    stale = dict(at.query_params)
    at.number_input(key=Session.vocab.key).set_value(300).run()  # its run writes vocab=300 into the address
    assert dict(at.query_params)["vocab"] in ("300", ["300"])
    at.query_params.clear()
    at.query_params.update(stale)  # the next rerun comes with the older address
    at.run()
    no_exception(at)
    assert sess(at).vocab == 300
    at.query_params.update({"vocab": "320"})  # a new address is still read as a link
    at.run()
    assert sess(at).vocab == 320


def test_a_first_visit_in_chinese_starts_on_the_chinese_classics_and_a_link_keeps_its_corpus():
    """A Chinese learner's first visit (no corpus in its link) trains on Chinese text by default, at that sample's
    size; a link's corpus (links always carry it) and vocab stay as given; English keeps its own default."""
    zh = sess(fresh(lang="zh"))
    assert (zh.corpus, zh.vocab) == ("chinese-classics", SLUGS["chinese-classics"].vocab_size)
    assert sess(fresh(lang="zh", vocab="700")).vocab == 700
    linked = sess(fresh(lang="zh", corpus="toy-the-cat-in-the-hat", vocab="300"))
    assert (linked.corpus, linked.vocab) == ("toy-the-cat-in-the-hat", 300)
    assert sess(fresh(lang="en")).corpus == sess(fresh()).corpus == DEFAULT_SLUG


def test_a_first_visit_in_chinese_encodes_chinese_text_with_qwen_unless_the_link_says_otherwise():
    """Encode opened on GPT-2 and an English sample for a Chinese learner: it opens on a Chinese sample with the first
    model the session compares with (Qwen 3.6, where installed), the others side by side; a link's text and side by
    side stay; English keeps its own."""
    from playground.corpora import ENCODE_SAMPLE, ENCODE_SAMPLES

    zh = sess(fresh(ENCODE, lang="zh"))
    assert zh.text == ENCODE_SAMPLES["zh"] and zh.tokenizer == zh.refs[0] and zh.also == zh.refs[1:]
    assert sess(fresh(ENCODE, lang="zh", also="gpt2")).also == ["gpt2"]
    assert sess(fresh(ENCODE, lang="zh", tokenizer="gpt2")).also == []  # a link's view: nothing put beside it
    assert sess(fresh(ENCODE, lang="zh", text="hello")).text == "hello"
    en = sess(fresh(ENCODE, lang="en"))
    assert en.text == ENCODE_SAMPLE and en.tokenizer == "gpt2" and en.also == []


def test_a_first_visit_in_chinese_compares_with_qwen_deepseek_and_gpt4o_unless_the_link_names_models():
    """Compare's references follow the first visit's language as the talk's step 8 does (a Chinese learner asks first
    how Qwen and DeepSeek split Chinese); a link's refs stay as given; English keeps OpenAI's three."""
    from playground.references import DEFAULT_REFERENCES, ZH_DEFAULT_REFERENCES, installed

    assert sess(fresh(lang="zh")).refs == [name for name in ZH_DEFAULT_REFERENCES if installed(name)]
    assert sess(fresh(lang="zh", refs="gpt2,llama3")).refs == ["gpt2", "llama3"]
    assert sess(fresh(lang="en")).refs == sess(fresh()).refs == list(DEFAULT_REFERENCES)


def test_what_a_person_types_fits_the_link_of_the_page():
    """A fuzz of link round trips: the text boxes took specials over 500 characters and a regex over 1,000, which the
    page's own link then carried and a new tab refused ("was ignored"); each box now stops at its link's limit."""
    from playground.fields import short_text

    at = fresh(None, pattern="custom", regex="x")
    boxes = {
        Session.regex: at.text_input(key=Session.regex.key),
        Session.specials: at.text_input(key=Session.specials.key),
    }
    check = fresh("pages/6_Check.py")
    boxes[Session.check_specials] = check.text_input(key=Session.check_specials.key)
    for field, box in boxes.items():
        assert isinstance(field.parse, short_text) and box.max_chars == field.max_chars == field.parse.limit


def test_a_built_in_models_own_sizes_travel_in_links():
    """Qwen 3.6's default sizes on Compare end at its 248,077 tokens, which the sizes parameter refused (it stopped
    at 200,000): the page's own link lost them."""
    from ui.compare.side import default_sizes

    sizes = default_sizes(bpe_core.reference("qwen3.6"))
    assert max(sizes) == 248_077
    assert Session.sizes.from_text(Session.sizes.dump(sizes)) == sizes


def test_every_built_in_model_fits_the_biggest_vocabulary_a_page_shows():
    from playground.bases import MAX_EXTENDED_VOCAB
    from playground.references import MAX_SHOWN_VOCAB, REFERENCES

    assert MAX_SHOWN_VOCAB == MAX_EXTENDED_VOCAB
    assert max(bpe_core.reference_spec(name).vocab_size for name in REFERENCES) <= MAX_SHOWN_VOCAB
