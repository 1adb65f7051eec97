"""Predict the next merge: the game's rule (ui/player_predict.js, PredictGame) run in Node without a browser and
compared with the rule written here in Python, over many random runs (hypothesis). Skips without Node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

NODE = shutil.which("node")
SOURCE = (Path(__file__).resolve().parents[1] / "ui" / "player_predict.js").read_text(encoding="utf-8")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node.js to run the player's JavaScript")

# Each run: rounds of (choices as [label, count], the winner's index, the index picked); the script plays them
# through PredictGame and prints what it recorded.
RUNNER = """
const vm = require("vm");
const context = {};
vm.runInNewContext(process.argv[1] + "\\n;globalThis.PredictGame = PredictGame;", context);
const runs = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = runs.map((rounds) => {
  const game = new context.PredictGame();
  const seen = rounds.map(([choices, winner, picked], r) => {
    const q = game.ask(r + 1, choices.map(([label, count], i) => ({ label, count, winner: i === winner })));
    const early = game.confirm();  // nothing picked yet: not scored
    game.pick(q.choices.findIndex((c) => c.label === choices[picked][0]));
    const answer = game.confirm();
    const again = game.confirm();  // scored once only
    return [early === null && again === null, answer.correct, answer.byRule, answer.tied,
            q.choices.map((c) => c.label)];
  });
  return [seen, game.right, game.total];
});
console.log(JSON.stringify(out));
"""


def play(runs: list) -> list:
    return json.loads(node(RUNNER, json.dumps(runs)))


def node(script: str, stdin: str = "") -> str:
    done = subprocess.run([NODE, "-e", script, SOURCE], input=stdin, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@st.composite
def a_round(draw):
    n = draw(st.integers(1, 6))
    labels = draw(st.lists(st.text("abcdefg", min_size=1, max_size=3), min_size=n, max_size=n, unique=True))
    counts = sorted(draw(st.lists(st.integers(1, 9), min_size=n, max_size=n)), reverse=True)
    winner = 0  # the winner has the highest count (the trace's order: winner, then runner-ups)
    return [list(pair) for pair in zip(labels, counts)], winner, draw(st.integers(0, n - 1))


@settings(max_examples=10, deadline=None)
@given(st.lists(st.lists(a_round(), min_size=1, max_size=12), min_size=20, max_size=20))
def test_the_games_score_is_the_rule_written_in_python(runs):
    for (seen, right, total), rounds in zip(play(runs), runs):
        expected_right = 0
        for (once, correct, by_rule, tied, order), (choices, winner, picked) in zip(seen, rounds):
            top = choices[winner][1]
            assert once
            assert correct == (picked == winner)
            assert by_rule == (picked != winner and choices[picked][1] == top)  # the tie rule decided against it
            assert tied == (sum(count == top for _, count in choices) > 1)
            assert order == sorted(label for label, _ in choices)  # the order gives nothing away
            expected_right += picked == winner and len(choices) > 1
        # A round with one pair left is played but not scored: there was nothing to guess.
        assert (right, total) == (expected_right, sum(len(choices) > 1 for choices, _, _ in rounds))


def test_a_pick_out_of_range_or_without_a_question_is_refused_and_not_scored():
    script = """
    const vm = require("vm");
    const c = {};
    vm.runInNewContext(process.argv[1] + "\\n;globalThis.PredictGame = PredictGame;", c);
    const game = new c.PredictGame();
    const before = [game.pick(0), game.confirm()];
    game.ask(1, [{ label: "a + b", count: 2, winner: true }, { label: "b + c", count: 1, winner: false }]);
    const out = [game.pick(-1), game.pick(2), game.pick(1.5), game.confirm(), game.total];
    console.log(JSON.stringify([...before, ...out]));
    """
    assert json.loads(node(script)) == [False, None, False, False, False, None, 0]


def test_a_round_answered_again_replaces_its_answer():
    """Stepping back and answering a round again (a rehearsal, ← during the talk) counts that round once, with its
    last answer: it counted it again each time ("Score: 5 of 5" after answering round 1 five times)."""
    script = """
    const vm = require("vm");
    const c = {};
    vm.runInNewContext(process.argv[1] + "\\n;globalThis.PredictGame = PredictGame;", c);
    const game = new c.PredictGame();
    const choices = [{ label: "a + b", count: 2, winner: true }, { label: "b + c", count: 1, winner: false }];
    const scores = [];
    for (const [round, pick] of [[1, 0], [1, 0], [1, 1], [2, 0], [1, 0]]) {
      game.ask(round, choices);
      game.pick(pick);
      game.confirm();
      scores.push([game.right, game.total]);
    }
    console.log(JSON.stringify(scores));
    """
    assert json.loads(node(script)) == [[1, 1], [1, 1], [0, 1], [1, 2], [2, 2]]


def test_two_sentences_are_joined_as_their_language_joins_them():
    """The verdict and the score: a space after an English sentence, none after a Chinese full stop ("。 得分")."""
    script = """
    const vm = require("vm");
    const c = {};
    vm.runInNewContext(process.argv[1] + "\\n;globalThis.joined = joined;", c);
    console.log(JSON.stringify([c.joined("Right: a + t (27).", "Score: 1 of 1."), c.joined("答对了。", "得分：1。")]));
    """
    assert json.loads(node(script)) == ["Right: a + t (27). Score: 1 of 1.", "答对了。得分：1。"]
