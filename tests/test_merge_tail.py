"""The tail of a big vocabulary: merges of pairs held by one word, runner-ups shared between rounds;
and a small text's index built without numpy.

Trained to exhaustion, most late merges have count 1 or 2 and touch one word: the word engine merges
those by splitting the word (``WordEngine._merge_in_one``), and the trace shares a runner-up's
``Candidate`` between the rounds that show it. Both are held here to a naive recount: every pair of
every word counted from scratch each round, the best merged left to right, the next five the
runner-ups (count first, then the greatest pair by bytes).
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_bpe import naive_merge_pair, naive_pair_counts

from bpe_core.training import train_counts, word_engine
from bpe_core.training.shape import RUNNERS_UP
from bpe_core.training.word_engine import WordEngine

ROOT = Path(__file__).resolve().parent.parent


def naive_rounds(
    pretokens: dict[str, int], n_merges: int, runners_up: int = RUNNERS_UP
) -> list[tuple[tuple[bytes, bytes, int], list[tuple]]]:
    """Each round's best pair with its count, and its ``runners_up`` next-best pairs as (left, right, count)."""
    words: Counter = Counter()
    for pretoken, count in pretokens.items():
        words[tuple(bytes([b]) for b in pretoken.encode("utf-8"))] += count
    rounds = []
    for _ in range(n_merges):
        pairs = naive_pair_counts(words)
        if not pairs:
            break
        ranked = sorted(pairs, key=lambda pair: (pairs[pair], pair), reverse=True)
        best, others = ranked[0], ranked[1 : 1 + runners_up]
        rounds.append(((*best, pairs[best]), [(*pair, pairs[pair]) for pair in others]))
        words = naive_merge_pair(words, best)
    return rounds


def trained_rounds(
    pretokens: dict[str, int], n_merges: int, runners_up: int = RUNNERS_UP
) -> list[tuple[tuple[bytes, bytes, int], list[tuple]]]:
    result = train_counts(pretokens, 256 + n_merges, runners_up=runners_up)
    return [
        (
            (record.left, record.right, record.count),
            [(candidate.left, candidate.right, candidate.count) for candidate in record.candidates],
        )
        for record in result.trace
    ]


# Few letters, repeats (abab: chained occurrences), small weights: ties of count 1 and 2 everywhere.
pretoken_maps = st.dictionaries(st.text(alphabet="abcé ", min_size=1, max_size=9), st.integers(1, 3), max_size=12)


@settings(max_examples=120, deadline=None)
@given(pretokens=pretoken_maps, runners_up=st.sampled_from([RUNNERS_UP, RUNNERS_UP, 0, 1, 12]))
def test_training_to_exhaustion_matches_a_naive_recount_round_by_round(pretokens, runners_up):
    n_merges = sum(len(pretoken.encode("utf-8")) for pretoken in pretokens)  # more than can be made
    assert trained_rounds(pretokens, n_merges, runners_up) == naive_rounds(pretokens, n_merges, runners_up)


def test_one_word_merges_take_their_own_path_and_agree(monkeypatch):
    taken = []
    one_word = WordEngine._merge_in_one

    def counted(self, index, a, b, new):
        taken.append((a, b))
        return one_word(self, index, a, b, new)

    monkeypatch.setattr(WordEngine, "_merge_in_one", counted)
    pretokens = {"abab": 1, "ababab": 2, " xaby": 1, "ba": 3, "cabbage": 1, "éé": 2, "cab": 1}
    assert trained_rounds(pretokens, 60) == naive_rounds(pretokens, 60)
    assert len(taken) >= 5  # the path ran (8 of these merges are of pairs one word holds)


def test_runner_ups_are_shared_between_rounds_not_remade():
    pretokens = {f"{a}{b}{c}": 1 for a in "abcd" for b in "abcd" for c in "xyz"}
    trace = train_counts(pretokens, 256 + 80).trace
    shown = [candidate for record in trace for candidate in record.candidates]
    assert len({id(candidate) for candidate in shown}) < len(shown) / 2
    assert all(record.candidates for record in trace[:-RUNNERS_UP])


@settings(max_examples=60, deadline=None)
@given(pretokens=pretoken_maps)
def test_the_index_is_the_same_with_numpy_or_without(pretokens):
    words = [(pretoken.encode("utf-8"), count) for pretoken, count in pretokens.items()]
    symbols = [bytes([byte]) for byte in range(256)]
    built = {}
    for with_numpy in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(word_engine, "_numpy_pays", lambda texts, answer=with_numpy: answer)
            engine = WordEngine(words, symbols)
        built[with_numpy] = (dict(engine._counts), {pair: list(found) for pair, found in engine._words.items()})
    assert built[True] == built[False]


def test_training_a_small_text_never_imports_numpy():
    script = "import sys, bpe_core; bpe_core.train('low lower lowest ' * 500, 300); print('numpy' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    assert run.stdout.strip() == "False"
