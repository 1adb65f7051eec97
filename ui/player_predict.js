// Predict the next merge (after player_code.js, before player.js, in the same module): a mode of the player
// that stops before each round and asks which pair wins it, among the winner and its runner-ups (ui/merges.py
// sends up to five), in an order that gives nothing away (by label); then it shows the answer, the counts, and
// the tie rule when it decided, and keeps the score over the run. Mouse or keyboard: 1-6 pick, Enter confirms,
// Enter again asks the next. PredictGame is the rule of the game without a DOM (tests/test_predict_js.py runs it
// in Node); Quiz draws it inside the player's round panel.

class PredictGame {
  constructor() { this.reset(); }

  // The score is one answer per round, the last one given: stepping back (←, Home) and answering a round again
  // replaces its answer (a rehearsal counted it once more each time: "Score: 5 of 5" after one round).
  reset() { this.right = 0; this.total = 0; this.question = null; this.answers = new Map(); }

  // choices: [{label, count, winner}] for the round about to be played, exactly one of them the winner. A round
  // with one pair left (forced) is shown and played but not scored: there was nothing to guess.
  ask(round, choices) {
    const sorted = [...choices].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    this.question = { round, choices: sorted, picked: null, answered: false, correct: false, byRule: false,
      forced: sorted.length === 1 };
    return this.question;
  }

  pick(i) {
    const q = this.question;
    if (!q || q.answered || !Number.isInteger(i) || i < 0 || i >= q.choices.length) return false;
    q.picked = i;
    return true;
  }

  // Score the picked choice once: right when it is the winner; byRule when it had the winner's count (the tie
  // rule decided against it). Null when nothing is picked or it was scored already.
  confirm() {
    const q = this.question;
    if (!q || q.answered || q.picked === null) return null;
    const chosen = q.choices[q.picked];
    const winner = q.choices.find((c) => c.winner);
    q.answered = true;
    q.correct = chosen.winner;
    q.tied = q.choices.filter((c) => c.count === winner.count).length > 1;
    q.byRule = !chosen.winner && chosen.count === winner.count;
    if (q.forced) return q;
    this.answers.set(q.round, q.correct);
    this.total = this.answers.size;
    this.right = [...this.answers.values()].filter(Boolean).length;
    return q;
  }
}

// Two sentences as their language joins them: a space after English, none after Chinese's full-width stop ("。 得分").
function joined(first, second) {
  return /[。！？）]$/.test(first) ? first + second : first + " " + second;
}

class Quiz {
  constructor(labels, onPick) {
    this.L = labels;
    this.game = new PredictGame();
    this.node = el("div", "quiz");
    this.node.dataset.role = "predict";
    this.ask = el("div", "ask");
    this.options = el("div", "options");
    this.result = el("div", "result");
    this.result.dataset.role = "predict-result";
    this.node.append(this.ask, this.options, this.result);
    this.onPick = onPick;
  }

  // The question before merge r (round r + 1) from the model's columns.
  pose(m, r) {
    const pair = (left, right) => `${labelOf(m.tablePiecesOf(left))} + ${labelOf(m.tablePiecesOf(right))}`;
    const choices = [{ label: pair(m.left[r], m.right[r]), count: m.count[r], winner: true }];
    for (let c = m.candStart[r]; c < m.candStart[r + 1]; c++) {
      choices.push({ label: pair(m.candLeft[c], m.candRight[c]), count: m.candCount[c], winner: false });
    }
    const q = this.game.ask(r + 1, choices);
    this.ask.textContent = fill(q.forced ? this.L.predictOnly : this.L.predictAsk,
      { k: (r + 1).toLocaleString(), pair: choices[0].label });
    this.options.replaceChildren(...q.choices.map((c, i) => {
      const b = el("button", "option", `${i + 1}  ${c.label}`);
      b.type = "button";
      b.dataset.choice = String(i + 1);
      b.addEventListener("mousedown", (e) => e.preventDefault());
      b.addEventListener("click", () => this.onPick(i));
      return b;
    }));
    this.result.textContent = q.forced ? "" : fill(this.L.predictHow, {});
  }

  pick(i) {
    if (!this.game.pick(i)) return false;
    [...this.options.children].forEach((b, j) => b.classList.toggle("picked", j === i));
    return true;
  }

  // Show the answer: every choice's count, the winner marked, the verdict and the score (after the ``last`` round,
  // without "Enter: next round").
  reveal(last = false) {
    const q = this.game.confirm();
    if (!q) return null;
    [...this.options.children].forEach((b, j) => {
      const c = q.choices[j];
      b.textContent = `${j + 1}  ${c.label}: ${c.count.toLocaleString()}${c.winner ? " ✓" : ""}`;
      b.classList.toggle("winner", c.winner);
      b.disabled = true;
    });
    const winner = q.choices.find((c) => c.winner);
    let verdict = q.forced ? this.L.predictOnlyDone
      : q.correct ? this.L.predictRight : q.byRule ? this.L.predictRule : this.L.predictWrong;
    if (q.correct && q.tied) verdict = joined(verdict, this.L.predictRightTie);
    this.result.textContent = joined(fill(verdict, { pair: winner.label, count: winner.count.toLocaleString(),
      rule: this.L.tieRule }), fill(last ? this.L.predictScoreLast : this.L.predictScore,
      { right: this.game.right, total: this.game.total }));
    this.node.dataset.score = `${this.game.right}/${this.game.total}`;
    return q;
  }
}
