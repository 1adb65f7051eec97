"""The Merges page's notes (playground/merge_notes.py, ui/merges_notes.py): where training starts memorizing is
the first round of the library's own trace whose count is 1, and a Chinese clause kept as one pre-token is
named, in English and Chinese."""

from __future__ import annotations

from apptest_helpers import click_train, fresh, sess, unescaped

import bpe_core
from playground.corpora import load_sample
from playground.session import Session

CLASSICS = "chinese-classics"
MIXED = "mixed-english-chinese"


def _merges_page(slug: str, vocab: int, lang: str = "en"):
    at = fresh()
    at.selectbox(key=Session.corpus.key).set_value(slug).run()
    at.number_input(key=Session.vocab.key).set_value(vocab).run()
    click_train(at)
    at.session_state[Session.lang.key] = lang  # the Merges page in this language
    at.switch_page("pages/1_Merges.py")
    at.run()
    return at


def test_memorizing_starts_at_the_first_round_seen_once():
    at = _merges_page(MIXED, 600)
    expected = bpe_core.train(load_sample(MIXED), 600, special_tokens=["<|endoftext|>"])
    first = next(k for k, record in enumerate(expected.trace) if record.count <= 1)
    longest = max(len(record.left + record.right) for record in expected.trace[first:])
    infos = [unescaped(i.value) for i in at.info]
    assert any(f"From round {first + 1:,} on" in i and f"{longest:,} bytes" in i for i in infos), infos
    assert sess(at).trained.tokenizer.merges == expected.tokenizer.merges


def test_a_chinese_clause_kept_as_one_pre_token_is_named():
    at = _merges_page(CLASSICS, 2_000)
    infos = [unescaped(i.value) for i in at.info]
    assert not any("only once" in i for i in infos)  # 2,000 merges of 220 KB: every pair still repeats
    (clause,) = [i for i in infos if "a whole clause" in i]
    example = clause.split("such as “", 1)[1].split("”", 1)[0]
    assert len(example) >= 6 and example in load_sample(CLASSICS)


def test_a_text_that_repeats_has_no_memorizing_note_and_english_has_no_clause():
    at = _merges_page("toy-the-cat-in-the-hat", 262)
    infos = [unescaped(i.value) for i in at.info]
    assert not any("only once" in i or "whole clause" in i for i in infos), infos


def test_the_notes_in_chinese():
    at = _merges_page(MIXED, 600, lang="zh")
    infos = [unescaped(i.value) for i in at.info]
    assert any("背诵" in i for i in infos) and any("整个分句" in i for i in infos), infos
