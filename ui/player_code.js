// The code beside the merge player (after player_window.js, before player.js, in the same module): a short
// trainer (playground/learn/trainers.py, the payload's data.code) whose lines follow the player's round. At
// round k the line that decided merge k is highlighted (the highest count; the tie line and the rule's line when
// several pairs had it) and the round's values are shown beside the lines: the top pairs' counts, the chosen
// pair and why it won, the new token, the words of the window it changed. Read from the trace the player has
// (ui/merges.py's columns); playground/learn/code_view.py round_view is the same reading, tested in Python.

class CodePanel {
  constructor(labels) {
    this.L = labels;
    this.node = el("div", "code");
    this.node.dataset.role = "code";
    this.lines = [];
    this.steps = {};
  }

  // The trainer's lines (textContent only) and the line of each step (data.code from code_view).
  show(code) {
    this.node.replaceChildren();
    this.lines = [];
    this.steps = code ? code.steps : {};
    if (!code) return;
    code.lines.forEach((text, i) => {
      const line = el("div", "ln");
      line.dataset.line = String(i + 1);
      const src = el("span", "src", text || " ");
      const val = el("span", "val");
      line.append(src, val);
      this.node.appendChild(line);
      this.lines.push({ line, val });
    });
    for (const [step, i] of Object.entries(this.steps)) this.lines[i].line.dataset.step = step;
  }

  set(step, text) {
    const at = this.steps[step];
    if (at === undefined) return;
    this.lines[at].val.textContent = text ? "↑ " + text : "";
  }

  // Words of the window changed by merge r (at most four, then "…").
  changedWords(m, r) {
    const words = new Set();
    for (let i = m.off[r]; i < m.off[r + 1] && words.size < 5; i++) {
      words.add(labelOf(textPieces(m.wordAt(m.byLife[i]), m.marks, [])));
    }
    const shown = [...words].slice(0, 4);
    return shown.length ? shown.join(", ") + (words.size > 4 ? ", …" : "") : this.L.codeNoWord;
  }

  render(m, k) {
    if (!this.lines.length || !m.merged) return;
    for (const { line, val } of this.lines) { line.classList.remove("now"); val.textContent = ""; }
    this.node.dataset.highlight = "";
    if (k === 0) return;
    const r = k - 1;
    const pair = (left, right) => `${labelOf(m.tablePiecesOf(left))} + ${labelOf(m.tablePiecesOf(right))}`;
    const count = m.count[r];
    const first = m.candStart[r], stop = m.candStart[r + 1];
    const tied = stop > first && m.candCount[first] === count;
    const chosen = pair(m.left[r], m.right[r]);
    const top = [`${chosen}: ${count.toLocaleString()}`];
    for (let c = first; c < stop && top.length < 4; c++) top.push(`${pair(m.candLeft[c], m.candRight[c])}: ${m.candCount[c].toLocaleString()}`);
    this.set("count", top.join(" · "));
    this.set("top", fill(this.L.codeTop, { count: count.toLocaleString() }));
    let ties = 1;
    for (let c = first; c < stop && m.candCount[c] === count; c++) ties++;
    this.set("tie", tied ? fill(this.L.codeTied, { n: ties, pair: chosen }) : fill(this.L.codeAlone, { pair: chosen }));
    if (tied) this.set("rule", fill(this.L.codeRule, { pair: chosen }));
    this.set("record", fill(this.L.codeRecord, { k: k.toLocaleString(), pair: chosen }));
    this.set("merge", fill(this.L.codeMerge, { token: labelOf(m.tablePiecesOf(m.newToken(r))),
      replaced: m.replaced[r].toLocaleString(), words: this.changedWords(m, r) }));
    const lit = tied ? ["rule", "tie"] : ["top"];
    this.node.dataset.highlight = lit.join(" ");
    for (const step of lit) if (this.steps[step] !== undefined) this.lines[this.steps[step]].line.classList.add("now");
    // Keep the decisive line in sight (the panel scrolls itself, never the page).
    const target = this.lines[this.steps[lit[lit.length - 1]]];
    if (target) this.node.scrollTop = Math.max(0, target.line.offsetTop - this.node.clientHeight / 3);
  }
}
