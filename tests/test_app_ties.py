"""The tie rule of the tutorial one follows, on the Train page (AppTest): the setting, its link value, the request
it is recorded in (whose key stays as it was for the default), the tokenizer's label, in English and 中文."""

from __future__ import annotations

import hashlib
import json

import pytest
from apptest_helpers import SENNRICH, TRAIN, click_train, fresh, no_exception, sess

import bpe_core
from playground.corpora import load_sample
from playground.session import TIE_RULES, Session
from playground.trained import Request
from ui.train_page import TIE_LABELS

CLASSIC_VOCAB = 20  # the toy's 10 characters + </w> + 9 merges


def _classic_toy(at, rule: str):
    at.selectbox(key=Session.corpus.key).set_value(SENNRICH).run()
    at.radio(key=Session.kind.key).set_value("classic").run()
    at.number_input(key=Session.vocab.key).set_value(CLASSIC_VOCAB).run()
    at.selectbox(key=Session.ties.key).set_value(rule).run()
    return click_train(at)


def _merges(at) -> list[tuple[bytes, bytes]]:
    return [(record.left, record.right) for record in sess(at).trained.trace]


def test_the_sennrich_toy_merges_es_est_est_w_as_the_paper_shows_with_first_seen_ties():
    at = _classic_toy(fresh(), "first")
    assert _merges(at)[:3] == [(b"e", b"s"), (b"es", b"t"), (b"est", b"</w>")]
    assert sess(at).trained.request.tie_break == "first"
    assert "ties: first seen" in sess(at).trained.label
    assert dict(at.query_params)["ties"] in ("first", ["first"])  # the page's link carries it


@pytest.mark.parametrize("rule", TIE_RULES)
def test_each_rule_trains_what_bpe_core_trains_with_it(rule):
    at = _classic_toy(fresh(), rule)
    expected = bpe_core.train_classic(load_sample(SENNRICH), CLASSIC_VOCAB, tie_break=rule).trace
    assert _merges(at) == [(record.left, record.right) for record in expected]
    assert ("ties" in dict(at.query_params)) == (rule != "greatest")  # the default is never in a link


def test_a_link_with_a_tie_rule_opens_it_and_trains_with_it():
    at = fresh(TRAIN, corpus=SENNRICH, kind="classic", vocab=str(CLASSIC_VOCAB), ties="hf")
    assert sess(at).ties == "hf"
    assert at.selectbox(key=Session.ties.key).value == "hf"
    expected = bpe_core.train_classic(load_sample(SENNRICH), CLASSIC_VOCAB, tie_break="hf").trace
    assert _merges(at) == [(record.left, record.right) for record in expected]


def test_a_bad_tie_rule_in_a_link_is_named_and_the_default_kept():
    at = fresh(TRAIN, ties="largest")
    assert any("“ties”" in warning.value for warning in at.warning)
    assert sess(at).ties == "greatest"


def test_the_default_rule_keeps_the_key_saved_work_has():
    """The key of a default request is the digest of the same parts as before tie rules existed."""
    request = Request("toy", "Toy", "d", "byte", 300, "gpt2", "gpt2", ("<s>",))
    before = hashlib.sha256(json.dumps(["d", "byte", 300, "gpt2", ["<s>"]]).encode()).hexdigest()[:24]
    assert request.key == before
    assert Request("toy", "Toy", "d", "byte", 300, "gpt2", "gpt2", ("<s>",), tie_break="first").key != before


def test_a_kind_without_tie_rules_disables_the_setting_and_records_the_default():
    at = fresh()
    at.selectbox(key=Session.ties.key).set_value("first").run()
    at.radio(key=Session.kind.key).set_value("superword").run()
    assert at.selectbox(key=Session.ties.key).disabled
    assert "ties" not in dict(at.query_params)


def test_the_setting_in_chinese():
    at = fresh(lang="zh")
    box = at.selectbox(key=Session.ties.key)
    assert box.label == "出现次数相同的符号对（平局）归于"
    assert list(box.options) and all("（" in option for option in box.options)
    assert list(box.options) != [TIE_LABELS[r] for r in TIE_RULES]  # translated, not the English names
    at = fresh(TRAIN, lang="zh", corpus=SENNRICH, kind="classic", vocab=str(CLASSIC_VOCAB), ties="first")
    no_exception(at)
    assert any("平局：取最先出现者" in caption.value for caption in at.caption)  # the tokenizer's label, shown
    assert _merges(at)[:3] == [(b"e", b"s"), (b"es", b"t"), (b"est", b"</w>")]
