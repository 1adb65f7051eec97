"""The code beside the Merges player, as the page sends it (AppTest): the trainer's lines in the session's
language, the step lines, the tie rule of the training; read from the payload's columns as ui/player_code.js reads
them, each round's highlighted line and values agree with the trace and with the shown trainer run on the text."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from apptest_helpers import MERGES, SENNRICH, fresh, no_exception, sess
from test_app_merges import decode

from playground.corpora import load_sample
from playground.learn import trainers
from playground.learn.code_view import code_view, round_view
from playground.session import Session

CAT = "toy-the-cat-in-the-hat"


def _data(at) -> dict:
    (player,) = [c for c in at.get("bidi_component") if c.proto.component_name == "bpe_playground.merge_player"]
    return json.loads(player.proto.json)


def _merges(lang: str = "en", **query: str):
    at = fresh(MERGES, lang=lang, **query)
    no_exception(at)
    return at, _data(at)


def js_round(data: dict, decoded: dict, k: int) -> dict:
    """Round k as player_code.js reads it from the payload: the highlighted steps, the count, the tied pairs."""
    r = k - 1
    first = sum(decoded["cand_n"][:r])
    cands = range(first, first + decoded["cand_n"][r])
    count, table = decoded["count"][r], decoded["table"]
    tied = bool(cands) and decoded["cand_count"][first] == count
    return {
        "lines": [data["code"]["steps"][step] for step in (["rule", "tie"] if tied else ["top"])],
        "count": count,
        "pair": (table[decoded["left"][r]], table[decoded["right"][r]]),
        "tied": [
            (table[decoded["cand_left"][c]], table[decoded["cand_right"][c]])
            for c in cands
            if decoded["cand_count"][c] == count
        ],
    }


@pytest.mark.parametrize("rule", ["first", "greatest", "hf"])
def test_every_round_of_a_classic_training_agrees_with_the_shown_trainer(rule):
    at, data = _merges(corpus=SENNRICH, kind="classic", vocab="24", ties=rule)
    trained, decoded = sess(at).trained, decode(data)
    assert data["code"] == code_view("symbols", rule, "en") and data["rule"] == rule
    made = trainers.train_classic(dict(Counter(load_sample(SENNRICH).split())), trained.num_merges, rule)
    assert len(made) == trained.num_merges == data["n"] == 13
    for k, (record, (best, top, tied)) in enumerate(zip(trained.trace, made), start=1):
        shown = js_round(data, decoded, k)
        assert shown["pair"] == best and shown["count"] == top == record.count
        assert shown["lines"] == [data["code"]["steps"][step] for step in round_view(record)["highlight"]]
        assert (len(shown["lines"]) == 2) == (len(tied) > 1)  # the tie line lit exactly when the rule decided
        assert set(shown["tied"]) <= set(tied)


def test_a_byte_level_training_in_chinese_shows_chinese_comments_and_its_rule():
    at, data = _merges("zh", corpus=CAT, vocab="300", ties="first")
    assert data["code"] == code_view("bytes", "first", "zh")
    assert any("统计每个相邻的符号对" in line for line in data["code"]["lines"])
    assert data["labels"]["tieRule"] == "并列时选文本中最先出现的符号对"
    assert data["labels"]["codeTitle"].startswith("窗口旁的代码")
    decoded, trained = decode(data), sess(at).trained
    for k, record in enumerate(trained.trace, start=1):
        shown = js_round(data, decoded, k)
        assert shown["pair"] == (record.left, record.right) and shown["count"] == record.count
        assert shown["lines"] == [data["code"]["steps"][step] for step in round_view(record)["highlight"]]


def test_superword_tokens_have_no_short_trainer_beside_them():
    _, data = _merges(corpus=CAT, kind="superword", vocab="300", transition="280")
    assert data["code"] is None and data["coded"] is False


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_link_opens_the_player_in_predict_mode_and_the_toggle_leaves_it(lang):
    at, data = _merges(lang, corpus=CAT, vocab="300", predict="1")
    toggle = at.toggle(key=Session.predict.key)
    assert toggle.value is True and data["predict"] is True
    assert dict(at.query_params)["predict"] in ("1", ["1"])
    words = {"en": ("Predict the next merge", "which pair is merged"), "zh": ("预测下一次合并", "哪个符号对会被合并")}
    assert toggle.label == words[lang][0] and words[lang][1] in data["labels"]["predictAsk"]
    toggle.set_value(False).run()
    no_exception(at)
    assert _data(at)["predict"] is False and "predict" not in dict(at.query_params)
    at.toggle(key=Session.predict.key).set_value(True).run()
    assert _data(at)["predict"] is True and sess(at).predict


def test_a_bad_predict_value_in_a_link_is_named_and_predict_stays_off():
    at, data = _merges(corpus=CAT, vocab="300", predict="yes")
    assert any("“predict”" in warning.value for warning in at.warning)
    assert data["predict"] is False
