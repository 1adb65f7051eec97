"""The code beside the Merges player (playground/learn): the shown trainer is real code that makes bpe_core's
merges under every tie rule, and what the code view shows at each round agrees with the trace the player has."""

from __future__ import annotations

from collections import Counter

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core.pretokenize import PATTERNS
from playground.corpora import SENNRICH
from playground.learn import trainers
from playground.learn.code_view import STEPS, code_view, round_view, source
from playground.trained import Request, train_job

RULES = tuple(trainers.RULES)
TEXTS = st.text(alphabet="abcde \n", min_size=1, max_size=80)


def shown_trainer(mode: str, rule: str, lang: str):
    """The trainer as the page shows it (comments in ``lang``), executed: its rule line, then its function."""
    view = code_view(mode, rule, lang)
    namespace = {"RULES": {}, "byte_ids": trainers.byte_ids, "Pair": trainers.Pair}
    exec("\n".join(view["lines"]), namespace)  # noqa: S102 -- our own source, shown on the page
    assert set(namespace["RULES"]) == {rule}  # the shown rule line defines the rule it names
    return namespace["train" if mode == "bytes" else "train_classic"]


def byte_words(text: str) -> dict[bytes, int]:
    return dict(Counter(piece.encode() for piece in regex.findall(PATTERNS["gpt2"], text)))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=25, deadline=None)
@given(text=TEXTS)
def test_the_shown_byte_trainer_makes_bpe_cores_merges(rule, lang, text):
    expected = [(r.left, r.right) for r in bpe_core.train(text, 256 + 30, tie_break=rule, special_tokens=[]).trace]
    made = shown_trainer("bytes", rule, lang)(byte_words(text), 30, rule)
    assert [best for best, _, _ in made] == expected


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=25, deadline=None)
@given(text=TEXTS.filter(str.split))
def test_the_shown_classic_trainer_makes_bpe_cores_merges(rule, lang, text):
    words = Counter(text.split())
    base = len({c for word in words for c in word}) + 1
    trace = bpe_core.train_classic(text, base + 30, tie_break=rule).trace
    made = shown_trainer("symbols", rule, lang)(dict(words), 30, rule)
    assert [best for best, _, _ in made] == [(r.left.decode(), r.right.decode()) for r in trace]


def test_the_sennrich_toy_with_first_seen_ties_merges_as_the_paper():
    made = trainers.train_classic(dict(Counter(SENNRICH.split())), 3, "first")
    assert [best for best, _, _ in made] == [("e", "s"), ("es", "t"), ("est", "</w>")]


@pytest.mark.parametrize("mode", ["bytes", "symbols"])
def test_each_step_points_at_the_line_that_does_it_in_both_languages(mode):
    english, chinese = code_view(mode, "first", "en"), code_view(mode, "first", "zh")
    assert english["steps"] == chinese["steps"]
    code = {
        "rule": 'RULES["first"] = ',
        "count": "counts",
        "top": "top = max(",
        "tie": "RULES[rule](tied, ids)",
        "record": "merges.append(",
        "merge": "for symbols in splits.values()",
    }
    for step, line in english["steps"].items():
        assert code[step] in english["lines"][line] and code[step] in chinese["lines"][line]
    strip = [line.partition("#")[0].rstrip() for line in english["lines"]]
    assert strip == [line.partition("#")[0].rstrip() for line in chinese["lines"]]  # only the comments differ
    assert any("统计" in line for line in chinese["lines"]) and not any("统计" in line for line in english["lines"])
    assert len(english["lines"]) <= 32 and set(english["steps"]) == set(STEPS)


def test_a_bad_mode_or_rule_is_refused_with_what_is_allowed():
    with pytest.raises(ValueError, match="rule must be one of greatest"):
        source("bytes", "largest")
    with pytest.raises(ValueError, match="mode must be"):
        source("words", "first")


TRAININGS = [
    ("classic", "first", SENNRICH, 20),
    ("classic", "greatest", SENNRICH, 20),
    ("classic", "hf", SENNRICH, 20),
    ("byte", "first", "the cat in the hat sat on the mat; the bat ate the rat. " * 4, 320),
    ("byte", "greatest", "the cat in the hat sat on the mat; the bat ate the rat. " * 4, 320),
    ("byte", "hf", "aaabdaaabac low lower newest widest " * 3, 300),
]


@pytest.mark.parametrize("kind, rule, text, vocab", TRAININGS)
def test_the_code_view_agrees_with_the_trace_at_every_round(kind, rule, text, vocab):
    """What the view shows of each round of the packed trace (the player's data) is what the shown trainer,
    executed on the same words, did in that round: its count, whether the rule decided, the tied pairs."""
    pattern = None if kind == "classic" else "gpt2"
    request = Request("paste", "t", "d", kind, vocab, pattern or "classic", pattern, (), tie_break=rule)
    trained = train_job(text, request)
    if kind == "classic":
        made = trainers.train_classic(dict(Counter(text.split())), trained.num_merges, rule)
        name = lambda pair: tuple(part.decode() for part in pair)  # noqa: E731
    else:
        made = trainers.train(byte_words(text), trained.num_merges, rule)
        name = tuple
    assert len(made) == trained.num_merges > 5
    decided = 0
    for record, (best, top, tied) in zip(trained.trace, made):
        view = round_view(record)
        assert name(view["top"][0][0]) == best and view["count"] == top
        assert view["tied"] == (len(tied) > 1)
        assert view["highlight"] == (["rule", "tie"] if len(tied) > 1 else ["top"])
        assert {name(pair) for pair in view["tied_pairs"]} <= set(tied)  # the trace keeps the top 5 only
        assert [count for _, count in view["top"]] == sorted((count for _, count in view["top"]), reverse=True)
        decided += view["tied"]
    assert decided > 0  # these trainings have ties, so the tie line is tested too
