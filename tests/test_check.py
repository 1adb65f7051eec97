"""check_merges (bpe_core.analysis.check): tutorial trainers written here (tests/tutorial_trainers.py), one
correct and five with one classic bug each, trained on prose, Chinese and code with special tokens; the
check must find the first merge where each parts from the correct one and name its bug."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tutorial_trainers import ENDOFTEXT, GPT2, count_pairs, tutorial_train, words_of

import bpe_core
from bpe_core.analysis.check import EXPLANATIONS, check_merges

ROOT = Path(__file__).resolve().parents[1]
N_MERGES = 120


def _documents(lines: list[str], per_document: int) -> str:
    return ENDOFTEXT.join("".join(lines[i : i + per_document]) for i in range(0, len(lines), per_document))


def prose() -> str:
    lines = []
    for code in ("en", "de", "fr", "es"):
        lines += (ROOT / "bpe_core/data/parallel" / f"{code}.txt").read_text(encoding="utf-8").splitlines(True)
    lines += ["Wait... what?!! No -- no...\n", "So   many   spaces, and so    many more...\n"] * 3
    return _documents(lines, 5)


def chinese() -> str:
    text = (ROOT / "playground/samples/chinese_classics.txt").read_text(encoding="utf-8")[:4000]
    return _documents(text.splitlines(True), 8)


def code() -> str:
    return _documents(Path(textwrap.__file__).read_text(encoding="utf-8")[:8000].splitlines(True), 20)


CORPORA = {"prose": prose, "chinese": chinese, "code": code}
BUGS = {
    "tie-break": {"tie": "first"},
    "overlapping-pairs": {"overlapping": False},
    "special-tokens": {"split_specials": False},
    "pre-tokenization": {"pattern": None},
    "counts": {"update_counts": False},
    "word-frequency": {"weighted": False},
}


@pytest.fixture(scope="module", params=list(CORPORA))
def corpus(request) -> tuple[str, str, list]:
    text = CORPORA[request.param]()
    return request.param, text, tutorial_train(text, N_MERGES)


def first_difference(a: list, b: list) -> int | None:
    return next((r for r, (x, y) in enumerate(zip(a, b)) if x != y), None)


def test_the_correct_tutorial_trainer_passes(corpus):
    _, text, correct = corpus
    check = check_merges(text, correct, special_tokens=[ENDOFTEXT])
    assert (check.cause, check.first_difference, check.finding) == ("none", None, "none")
    assert check.explanation == f"All {N_MERGES} merges match bpe_core's training on this text with the same settings."


@pytest.mark.parametrize("bug", list(BUGS))
def test_each_bug_is_found_where_it_first_shows(corpus, bug):
    name, text, correct = corpus
    merges = tutorial_train(text, N_MERGES, **BUGS[bug])
    expected = first_difference(merges, correct)
    check = check_merges(text, merges, special_tokens=[ENDOFTEXT])
    if expected is None:  # this corpus does not show the bug within N_MERGES
        assert bug == "overlapping-pairs" and name != "code" and check.cause == "none"
        return
    assert check.first_difference == expected
    assert check.cause == bug, check.explanation
    assert check.learner_merges == merges[: expected + 1] and check.reference_merges == correct[: expected + 1]
    assert check.explanation.startswith(f"At merge {expected + 1:,}, ")
    assert check.candidates[0].left + check.candidates[0].right == b"".join(correct[expected])
    if bug == "counts":
        assert check.learner_count < check.candidates[0].count
    else:  # the hypothesis named reproduces the learner's merges past the difference
        assert check.reproduced[check.reproduced_by] > expected


def test_tie_break_report_names_the_tie_set_and_the_rule(corpus):
    _, text, correct = corpus
    merges = tutorial_train(text, N_MERGES, tie="first")
    check = check_merges(text, merges, special_tokens=[ENDOFTEXT])
    k = check.first_difference
    tied = {(c.left, c.right) for c in check.tie_set}
    assert merges[k] in tied and correct[k] in tied and len({c.count for c in check.tie_set}) == 1
    assert "first" in check.picking_rules and "greatest" not in check.picking_rules
    assert check.tie_set[0].left + check.tie_set[0].right == b"".join(correct[k])
    assert check.learner_count == check.tie_set[0].count
    assert "the pair seen first in the text" in check.explanation


def test_whitespace_split_is_a_pre_tokenization_difference():
    text = prose()
    merges = tutorial_train(text, N_MERGES, pattern=r"\S+")
    check = check_merges(text, merges, special_tokens=[ENDOFTEXT])
    assert check.cause == "pre-tokenization" and check.reproduced_by == "pattern=text.split()"
    assert "text.split()" in check.explanation


def test_classic_sennrich_toy_first_seen():
    text = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3
    learner = [("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w")]
    check = check_merges(text, learner, classic=True)
    assert (check.first_difference, check.cause, check.reproduced_by) == (0, "tie-break", "tie_break='first'")
    assert "first" in check.picking_rules and "greatest" not in check.picking_rules  # smallest, hf: (e, s) too
    reference = bpe_core.train_classic(text, 100, tie_break="first").merges[:5]
    assert check_merges(text, reference, classic=True, tie_break="first").cause == "none"


def test_classic_counts_bug():
    text = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3
    check = check_merges(text, [("l", "o"), ("w", "i")], classic=True)
    assert check.cause == "counts" and check.first_difference == 0 and check.learner_count == 7


def test_a_list_longer_than_training_can_go():
    check = check_merges("ab", [(b"a", b"b"), (b"ab", b"ab")])
    assert (check.first_difference, check.cause, check.finding) == (1, "counts", "counts-no-pair")


@settings(max_examples=40)
@given(
    st.text(alphabet="ab c\n\u00e9\u4e2d!", max_size=80),
    st.integers(0, 25),
    st.sampled_from(["gpt2", None, "whitespace"]),
    st.sampled_from(["greatest", "first", "hf", "smallest"]),
)
def test_bpe_cores_own_merges_pass(text, n_merges, pattern, rule):
    text = text.replace("!", ENDOFTEXT)
    merges = bpe_core.train(text, 257 + n_merges, special_tokens=[ENDOFTEXT], pattern=pattern, tie_break=rule).merges
    check = check_merges(text, merges, special_tokens=[ENDOFTEXT], pattern=pattern, tie_break=rule)
    assert (check.cause, check.first_difference) == ("none", None)


def test_every_sentence_fills_from_named_fields():
    import string

    for finding, sentence in EXPLANATIONS.items():
        names = {name for _, name, _, _ in string.Formatter().parse(sentence) if name}
        assert names and all(name.isidentifier() for name in names), finding


@pytest.mark.parametrize(
    ("merges", "message"),
    [([(b"a",)], "merge 0 is not a pair of tokens"), ([(b"a", b"")], "tokens must be non-empty")],
)
def test_bad_merges_are_clear_errors(merges, message):
    with pytest.raises(ValueError, match=message):
        check_merges("abc", merges)


def test_tie_break_without_pre_tokenization():
    text = prose()[:3000]
    merges = tutorial_train(text, 60, pattern=None, tie="first")
    expected = first_difference(merges, tutorial_train(text, 60, pattern=None))
    check = check_merges(text, merges, special_tokens=[ENDOFTEXT], pattern=None)
    assert (check.first_difference, check.cause, check.reproduced_by) == (expected, "tie-break", "tie_break='first'")
    assert check.reproduced["tie_break='first'"] == 60


@settings(max_examples=30)
@given(st.text(alphabet="abc d\n\u00e9", max_size=80), st.integers(0, 20), st.sampled_from(["greatest", "first", "hf"]))
def test_classic_own_merges_pass(text, n_merges, rule):
    base = len(set("".join(text.split()))) + 1
    merges = bpe_core.train_classic(text, base + n_merges, tie_break=rule).merges
    check = check_merges(text, merges, classic=True, tie_break=rule)
    assert (check.cause, check.first_difference) == ("none", None)


def test_a_first_merge_no_hypothesis_explains_asks_how_pairs_are_counted_not_updated():
    """At merge 1 no count has been updated yet: "check that the pair counts are updated after every merge" sent the
    learner to the wrong place."""
    text = prose()
    correct = tutorial_train(text, 3)
    (rarest,) = [min(count_pairs(words_of(text, [ENDOFTEXT], GPT2, True), True).items(), key=lambda item: item[1])]
    merges = [rarest[0], *correct[1:]]
    check = check_merges(text, merges, special_tokens=[ENDOFTEXT])
    assert (check.first_difference, check.cause, check.finding) == (0, "counts", "counts-first")
    assert check.explanation.startswith("At merge 1, ") and "before the first merge" in check.explanation
    assert "updated after every merge" not in check.explanation


def test_merges_replaced_from_the_right_are_sent_to_the_merge_direction():
    """A trainer that counts right but replaces a pair's occurrences from the right ('aaa' -> 'a aa') parts from the
    reference where runs of one symbol meet; no hypothesis reproduces it, and the sentence named only the count
    updates, which were right: it names the direction too (a new user's trainer)."""
    from playground.corpora import load_sample

    text = load_sample("python-reference-excerpt")
    merges = tutorial_train(text, 60, from_the_right=True)
    expected = first_difference(merges, tutorial_train(text, 60))
    check = check_merges(text, merges, special_tokens=[ENDOFTEXT])
    assert (check.first_difference, check.cause) == (expected, "counts")
    assert "from left to right ('aaa' becomes 'aa a', not 'a aa')" in check.explanation
