"""The Merges page's every pair at a round (ui/merges_pairs.py): the table is bpe_core.analysis.round_pairs over
the training text, its first row is the trace's winner of that round, the round travels in the link, and a
kind that is not one rule over one text shows no table."""

from __future__ import annotations

from apptest_helpers import sess, trained_on, unescaped

from bpe_core.analysis.round_pairs import pairs_at_round
from playground.corpora import load_sample
from playground.links import link_params
from playground.session import Session
from ui.token_html import display_bytes

CAT = "toy-the-cat-in-the-hat"


def _merges(at):
    at.switch_page("pages/1_Merges.py")
    at.run()
    return at


def _table(at):
    (frame,) = [df.value for df in at.dataframe if "place" in df.value.columns]
    return frame


def test_every_pair_before_a_round_is_the_replay_and_its_first_is_the_round_s_winner():
    at = _merges(trained_on(CAT, vocab=300))
    trained = sess(at).trained
    at.number_input(key=Session.pairs_round.key).set_value(5).run()
    frame = _table(at)
    merges = [(record.left, record.right) for record in trained.trace]
    expected = pairs_at_round(load_sample(CAT), merges, 4, special_tokens=trained.request.special_tokens)
    assert list(frame["count"]) == [count for _, _, count in expected]
    assert list(frame["left"]) == [display_bytes(left) for left, _, _ in expected]
    record = trained.trace[4]
    assert (frame["left"][0], frame["right"][0], frame["count"][0]) == (
        display_bytes(record.left),
        display_bytes(record.right),
        record.count,
    )
    assert link_params(sess(at), "merges")["pairs"] == "5"
    assert any(f"{len(expected):,} pairs before round 5" in unescaped(c.value) for c in at.caption)


def test_by_default_the_round_after_the_player_s_and_classic_too():
    at = _merges(trained_on("toy-low-lower-newest-widest", kind="classic", vocab=30))
    assert sess(at).pairs_round == 1  # the player opens at round 0: its next round is 1
    frame = _table(at)
    record = sess(at).trained.trace[0]
    assert frame["count"][0] == record.count


def test_superword_tokens_have_no_such_table():
    at = _merges(trained_on(CAT, kind="superword", vocab=300))
    assert not [df for df in at.dataframe if "place" in df.value.columns]
