"""Continuing a tokenizer on the Train page ("Start from" a byte-level model), and the trainer options ("Advanced"),
in AppTest: the page trains exactly what ``bpe_core.extend`` / ``bpe_core.train`` / ``bpe_core.train_classic``
give with the same settings; links carry both and bad values are named; the store keeps a built-in base by its
name and brings the tokenizer back; the player's rounds are the new merges; Compare gets the base as a reference;
Export writes the base's own format through ``bpe_core.save_extension``; every new label has its Chinese.

Toy corpora only (GPT-2 + 40 merges on the built-in English/Chinese sample trains in about a second)."""

from __future__ import annotations

import base64
import json
import tempfile
from array import array
from pathlib import Path

import pytest
from apptest_helpers import (
    MERGES,
    SENNRICH,
    TRAIN,
    click_train,
    fresh,
    no_exception,
    open_page,
    options_in,
    sess,
    unescaped,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_app_compare_parts import parts_table
from test_i18n import english_left

import bpe_core
from bpe_core.analysis.heldout import count_parts, split_sections
from bpe_core.encoding.lifetimes import PERMANENT
from playground import bases, i18n, references, workspace
from playground.corpora import load_sample
from playground.heldout_texts import CODE_PROSE_CHINESE, built_in_text
from playground.request import Request
from playground.session import Session
from playground.trained import train_job
from playground.trained_codec import from_bytes, to_bytes
from ui import export, merge_frames

CORPUS = "mixed-english-chinese"
GPT2 = 50_257
NEW = 40


@pytest.fixture(scope="module")
def gpt2() -> bpe_core.Tokenizer:
    return bases.reference_base("gpt2")


def _merges(trained) -> list[tuple[bytes, bytes]]:
    return [(record.left, record.right) for record in trained.trace]


# -- Start from: a built-in model, continued through the page ------------------------------------------------------


def test_continuing_gpt2_through_the_page_gives_what_bpe_core_extend_gives(gpt2):
    at = fresh()
    at.selectbox(key=Session.corpus.key).set_value(CORPUS).run()
    at.selectbox(key=Session.base.key).set_value("gpt2").run()
    no_exception(at)
    assert sess(at).vocab == GPT2 + 1000  # set to the base's size + 1,000 new merges, and said
    assert any("50,257" in unescaped(info.value) for info in at.info)
    # the base's pattern, special tokens (shown read-only: test_app_train_continue_fixes) and tie rule
    assert not [box for box in at.selectbox if box.key == Session.pattern.key]
    assert at.selectbox(key=Session.ties.key).disabled
    at.number_input(key=Session.vocab.key).set_value(GPT2 + NEW).run()
    assert any("50,257 tokens + the new merges (40 now)" in unescaped(caption.value) for caption in at.caption)
    trained = sess(click_train(at)).trained
    direct = bpe_core.extend(gpt2, load_sample(CORPUS), GPT2 + NEW)
    assert _merges(trained) == direct.merges
    assert trained.trace.base == direct.first_new_id == GPT2  # new ids after the base's highest
    sample = "字节对编码 merges bytes"
    assert trained.tokenizer.encode(sample) == direct.tokenizer.encode(sample)
    assert all(trained.tokenizer.token_bytes(i) == gpt2.token_bytes(i) for i in range(0, GPT2, 997))  # ids kept
    assert "GPT-2 (r50k) + 40 merges" in trained.label
    assert any("ids 50,257 to 50,296" in unescaped(caption.value) for caption in at.caption)


def test_a_tokenizer_loaded_from_files_is_continued_and_never_goes_into_a_link():
    base = bpe_core.train(load_sample("python-reference-excerpt")[:6000], 400).tokenizer
    at = fresh()
    at.session_state[Session.loaded.key] = {"mine.json": base}
    at.run()
    at.selectbox(key=Session.base.key).set_value("file:mine.json").run()
    assert sess(at).vocab == 400 + 1000
    at.selectbox(key=Session.corpus.key).set_value(CORPUS).run()
    assert sess(at).vocab == 400 + 1000  # a new corpus keeps the size a base asks (not the corpus's suggestion)
    at.number_input(key=Session.vocab.key).set_value(400 + NEW).run()
    at.run()
    trained = sess(click_train(at)).trained
    assert trained.request.base == "file:" + bases.content_digest(base) and trained.base.vocab == base.vocab
    assert _merges(trained) == bpe_core.extend(base, load_sample(CORPUS), 400 + NEW).merges
    assert "base" not in dict(at.query_params)
    assert "mine.json + 40 merges" in trained.label


def test_a_link_with_a_base_trains_it_and_the_page_link_gives_it_back(gpt2):
    at = fresh(TRAIN, corpus=CORPUS, base="gpt2", vocab=str(GPT2 + NEW))
    trained = sess(at).trained
    assert trained is not None and trained.request.base == "gpt2"
    assert _merges(trained) == bpe_core.extend(gpt2, load_sample(CORPUS), GPT2 + NEW).merges
    params = {key: value[0] if isinstance(value, list) else value for key, value in dict(at.query_params).items()}
    assert params["base"] == "gpt2" and params["vocab"] == str(GPT2 + NEW)
    params.pop("ws", None)
    again = fresh(TRAIN, **params)
    assert sess(again).trained.request.key == trained.request.key


@pytest.mark.parametrize(
    ("base", "said"),
    [("deepseek-v4", "DeepSeek V4 is not byte-level BPE with merge ranks"), ("gpt5", "no built-in model")],
)
def test_a_base_that_cannot_be_continued_is_named_and_the_work_kept(base, said):
    at = fresh(TRAIN, corpus="toy-aaabdaaabac", vocab="259")  # the work a person has
    before = sess(at).trained
    at.query_params.clear()
    at.query_params.update({"base": base, "vocab": "136256", "corpus": CORPUS})
    at.run()
    no_exception(at)
    assert any("“base”" in unescaped(warning.value) and said in unescaped(warning.value) for warning in at.warning)
    assert sess(at).base == "bytes" and sess(at).vocab == 259 and sess(at).corpus == "toy-aaabdaaabac"
    assert sess(at).trained is before  # nothing else trained in its place


def test_a_vocab_size_below_the_base_is_refused_with_what_is_allowed():
    at = fresh(TRAIN, corpus=CORPUS, base="gpt2", vocab="50000")
    assert sess(at).trained is None
    assert any("GPT-2 (r50k) has 50,257 tokens" in unescaped(warning.value) for warning in at.warning)
    click_train(at)
    assert any("from 50,258 to 150,257" in unescaped(error.value) for error in at.error)


def test_a_kind_that_cannot_continue_a_tokenizer_has_no_start_from():
    at = fresh(TRAIN, kind="classic", corpus=SENNRICH, vocab="20")
    assert not [box for box in at.selectbox if box.key == Session.base.key]
    assert "base" not in dict(at.query_params)


# -- the store: a built-in base is named, the new merges kept ------------------------------------------------------


def test_a_continued_tokenizer_comes_back_after_a_reload_without_its_base_in_the_store(gpt2):
    at = fresh(TRAIN, corpus=CORPUS, base="gpt2", vocab=str(GPT2 + NEW))
    s = sess(at)
    _, blobs = workspace.encode({"trained": s.trained})
    (key,) = blobs
    stored = blobs[key]()
    assert len(stored) < 20_000  # GPT-2's 50,000 merges are not in it: its name is
    again = Session({})
    again.initialize()
    again.browser = s.browser
    assert workspace.restore(again, s.workspace) is True
    back = again.trained
    assert back.request == s.trained.request and _merges(back) == _merges(s.trained)
    assert back.tokenizer.encode(load_sample(CORPUS)) == s.trained.tokenizer.encode(load_sample(CORPUS))


def test_a_loaded_base_is_kept_with_the_tokenizer_and_comes_back():
    base = bpe_core.train("low lower lowest newer " * 20, 270).tokenizer
    digest = bases.content_digest(base)
    request = Request("toy", "Toy", "d", "byte", 290, "gpt2", None, (), base="file:" + digest, base_label="t.json")
    request = Request(**{**request.__dict__, "base_size": len(base.vocab)})
    from playground.trained import train_parts

    trained = train_parts(("widest newest wider " * 20, ""), request, base=base)
    assert _merges(trained) == bpe_core.extend(base, "widest newest wider " * 20, 290).merges
    back = from_bytes(request, to_bytes(trained))
    assert back.tokenizer.vocab == trained.tokenizer.vocab and back.tokenizer.merges == trained.tokenizer.merges


# -- the player: round 0 is the base's tokens, the rounds are the new merges ----------------------------------------


def _boundaries(payload: dict, k: int) -> list[int]:
    lifetimes = array("i", base64.b64decode(payload["lifetimes"]))
    return [j + 1 for j, life in enumerate(lifetimes) if life >= k]


def _cuts(tokenizer: bpe_core.Tokenizer, text: str) -> list[int]:
    cuts, at = [], 0
    for identifier in tokenizer.encode(text)[:-1]:
        at += len(tokenizer.token_bytes(identifier))
        cuts.append(at)
    return cuts


def test_the_player_starts_from_the_base_tokens_and_plays_the_new_merges(gpt2):
    request = Request(CORPUS, "c", "d", "byte", GPT2 + NEW, "gpt2", None, (), base="gpt2", base_label="GPT-2")
    request = Request(**{**request.__dict__, "base_size": GPT2})
    trained = train_job(load_sample(CORPUS), request)
    payload = merge_frames.player_payload(trained, 0)
    window = trained.window_text
    assert payload["n"] == NEW and "GPT-2" in payload["zeroText"] and not payload["coded"]
    assert _boundaries(payload, 0) == _cuts(gpt2, window)  # round 0: the base's tokens, not bytes
    for k in (1, NEW // 2):  # round k: the base with the first k new merges (an independent tokenizer built so)
        records = trained.trace[:k]
        at_k = bpe_core.Tokenizer(
            gpt2.vocab | {record.new_id: record.token for record in records},
            gpt2.merges + [(record.left, record.right) for record in records],
            gpt2.special_tokens,
            gpt2.pattern,
        )
        assert _boundaries(payload, k) == _cuts(at_k, window), k
    assert _boundaries(payload, NEW) == _cuts(trained.tokenizer, window)  # the last round: the extended tokenizer's
    lifetimes = array("i", base64.b64decode(payload["lifetimes"]))
    assert all(life < NEW or life >= PERMANENT - 1 for life in lifetimes)


def test_the_merges_page_and_word_steps_number_the_new_merges():
    at = fresh(TRAIN, corpus=CORPUS, base="gpt2", vocab=str(GPT2 + NEW))
    at.session_state[Session.word.key] = "字节对编码从字节开始"
    open_page(at, MERGES)
    assert any("40 new merges" in unescaped(caption.value) for caption in at.caption)
    steps = "".join(element.proto.body for element in at.get("html"))
    assert "start: GPT-2 (r50k)&#x27;s tokens" in steps or "start: GPT-2 (r50k)'s tokens" in steps
    assert "round 1:" in steps or "round 2:" in steps


def test_encode_says_how_many_tokens_are_new():
    text = "字节对编码从字节开始，反复合并出现次数最多的相邻字节对。"
    at = fresh(TRAIN, corpus=CORPUS, base="gpt2", vocab=str(GPT2 + NEW))
    at.session_state[Session.text.key] = text
    open_page(at, "pages/2_Encode.py")
    ids = sess(at).trained.tokenizer.encode(text)
    new = sum(identifier >= GPT2 for identifier in ids)
    assert 0 < new < len(ids)
    assert any(f"{new} of these {len(ids)} tokens are new" in unescaped(c.value) for c in at.caption)


# -- Compare and Export ----------------------------------------------------------------------------------------------


def test_the_base_joins_the_references_compare_shows():
    at = fresh(TRAIN, corpus=CORPUS)
    at.session_state[Session.refs.key] = ["cl100k_base"]
    at.session_state[Session.base.key] = "gpt2"
    at.session_state[Session.vocab.key] = GPT2 + NEW
    at.run()
    click_train(at)
    assert sess(at).refs == ["cl100k_base", "gpt2"]
    assert sess(at).format == "gpt2"  # GPT-2's own files by default


def test_compare_counts_the_base_and_the_continued_tokenizer_on_the_held_out_text_by_part():
    at = fresh(TRAIN, corpus=CORPUS, base="gpt2", vocab=str(GPT2 + NEW), holdout="20")
    trained = sess(at).trained
    at.query_params.clear()
    at.query_params.update({"view": "curve", "heldout": CODE_PROSE_CHINESE, "refs": "gpt2"})
    open_page(at, "pages/3_Compare.py")
    table = parts_table(at)
    parts = split_sections(built_in_text(CODE_PROSE_CHINESE))
    gpt2 = bases.reference_base("gpt2")
    tokens = {}
    for name, tokenizer in ((references.short_name("gpt2"), gpt2), (trained.label, trained.tokenizer)):
        counted = {count.name: count.tokens for count in count_parts(tokenizer, parts)}
        shown = {part: n for (who, part), n in table.items() if who.startswith(name[:30]) and part in counted}
        assert shown == counted, (name, sorted(table), counted)
        tokens[name] = counted
    before, after = tokens.values()
    assert after["中文"] < before["中文"]  # the new merges are Chinese: the continued tokenizer needs fewer tokens
    at.query_params["view"] = "languages"
    at.run()
    no_exception(at)


@pytest.mark.parametrize("fmt", ["tiktoken", "gpt2", "hf"])
def test_export_writes_files_that_load_back_with_the_same_ids(fmt):
    request = Request(CORPUS, "c", "d", "byte", GPT2 + NEW, "gpt2", None, (), base="gpt2", base_label="GPT-2")
    trained = train_job(load_sample(CORPUS), Request(**{**request.__dict__, "base_size": GPT2}))
    files = export.extension_files(trained, fmt)
    folder = Path(tempfile.mkdtemp())
    for name, data in files.items():
        (folder / name).write_bytes(data)
    (path,) = folder.iterdir()
    loaded = bpe_core.load(path) if fmt == "hf" else bpe_core.load(path, pattern="gpt2")
    sample = load_sample(CORPUS)
    assert loaded.encode_ordinary(sample) == trained.tokenizer.encode_ordinary(sample)
    if fmt == "hf":
        tokenizers = pytest.importorskip("tokenizers")
        assert tokenizers.Tokenizer.from_file(str(path)).encode(sample).ids == trained.tokenizer.encode_ordinary(sample)


# -- the trainer options ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("min_freq", "max_len"), [(3, 0), (0, 3), (2, 5)])
def test_the_options_train_exactly_what_bpe_core_train_trains_with_them(min_freq, max_len):
    at = fresh()
    at.selectbox(key=Session.corpus.key).set_value("toy-the-cat-in-the-hat").run()
    at.number_input(key=Session.min_freq.key).set_value(min_freq).run()
    at.number_input(key=Session.max_len.key).set_value(max_len).run()
    at.run()  # (as apptest_helpers.trained_on: a click in the run right after a new corpus can be lost)
    trained = sess(click_train(at)).trained
    assert trained is not None and trained.request.options() == {
        name: value for name, value in (("min_freq", min_freq), ("max_len", max_len)) if value
    }
    expected = bpe_core.train(
        load_sample("toy-the-cat-in-the-hat"),
        300,
        special_tokens=["<|endoftext|>"],
        min_frequency=min_freq,
        max_token_length=max_len or None,
    )
    assert _merges(trained) == expected.merges
    params = dict(at.query_params)
    assert ("min_freq" in params) == bool(min_freq) and ("max_len" in params) == bool(max_len)
    assert "alphabet" not in params  # classic only


def test_the_classic_alphabet_options_train_what_train_classic_trains_and_travel_in_links():
    at = fresh(TRAIN, corpus=SENNRICH, kind="classic", vocab="16", alphabet="4", keep_chars="z", max_len="3")
    trained = sess(at).trained
    expected = bpe_core.train_classic(
        load_sample(SENNRICH), 16, limit_alphabet=4, initial_alphabet="z", max_token_length=3
    )
    assert [(r.left, r.right) for r in trained.trace] == [(r.left, r.right) for r in expected.trace]
    assert "alphabet 4" in trained.label and "≤ 3 characters" in trained.label
    assert at.number_input(key=Session.alphabet.key).value == 4
    assert at.text_input(key=Session.keep_chars.key).value == "z"


@pytest.mark.parametrize(("parameter", "value"), [("min_freq", "-1"), ("max_len", "²"), ("alphabet", "9" * 12)])
def test_a_bad_option_in_a_link_is_named_and_the_default_kept(parameter, value):
    at = fresh(TRAIN, **{parameter: value})
    assert any(f"“{parameter}”" in unescaped(warning.value) for warning in at.warning)
    assert getattr(sess(at), parameter) == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(alphabet="ab cd\n", min_size=1, max_size=80),
    min_frequency=st.integers(0, 4),
    max_token_length=st.integers(0, 4),
    extra=st.integers(1, 30),
)
def test_a_request_with_options_trains_as_bpe_core_train(text, min_frequency, max_token_length, extra):
    request = Request("paste", "p", "d", "byte", 256 + extra, "gpt2", "gpt2", ())
    request = Request(**{**request.__dict__, "min_frequency": min_frequency, "max_token_length": max_token_length})
    trained = train_job(text, request)
    expected = bpe_core.train(text, 256 + extra, min_frequency=min_frequency, max_token_length=max_token_length or None)
    assert _merges(trained) == expected.merges


def test_the_default_options_keep_the_key_saved_work_has():
    plain = Request("toy", "Toy", "d", "byte", 300, "gpt2", "gpt2", ("<s>",))
    assert plain.key == Request(**{**plain.__dict__, "base": ""}).key
    assert Request(**{**plain.__dict__, "min_frequency": 2}).key != plain.key
    one = Request(**{**plain.__dict__, "min_frequency": 3})
    other = Request(**{**plain.__dict__, "max_token_length": 3})
    assert one.key != other.key  # (each option in its place: 3 as a count is not 3 as a length)


# -- 中文 ------------------------------------------------------------------------------------------------------------


def test_the_new_labels_in_chinese(monkeypatch):
    options_in("zh", monkeypatch)
    i18n.MISSING.clear()
    at = fresh(TRAIN, lang="zh", corpus=CORPUS, base="gpt2", vocab=str(GPT2 + NEW), min_freq="2")
    assert sess(at).trained is not None
    assert not i18n.MISSING, sorted(i18n.MISSING)
    assert not english_left(at), english_left(at)
    texts = json.dumps([caption.value for caption in at.caption], ensure_ascii=False)
    assert "次新合并" in texts or "新合并" in texts


def test_a_link_continuing_a_model_at_too_small_a_size_is_said_once_on_the_train_page():
    """A new user's link: four alerts stacked on the Train page, the vocab problem twice (202,049 against 202,049 to
    302,048) and two "train" prompts, the page's and the quick-train block's."""
    at = fresh(None, base="llama3", vocab="300", corpus="toy-aaabdaaabac")
    warnings = [unescaped(warning.value) for warning in at.warning]
    assert len(warnings) == 1 and "too small to continue Llama 3" in warnings[0]
    assert [info.value for info in at.info] == ["Click **Train** to train on the selected corpus."]
    assert sess(at).trained is None
