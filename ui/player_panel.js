// The player's round panel (the pair a round merges, its figures and runner-ups) and its predict mode, as methods
// Object.assign adds to the Player class (ui/player.js, joined after this file by ui/animation_html.py): the
// class keeps the controls, the keys and the playing.
const RoundPanel = {
  // The round panel's nodes are made once; a frame only changes their text.
  buildInfo() {
    const info = this.info;
    this.zeroLine = el("div", "line");
    const pair = el("div", "pair");
    this.leftNode = el("span", "part");
    this.leftNode.dataset.role = "left";
    this.rightNode = el("span", "part");
    this.rightNode.dataset.role = "right";
    this.newNode = el("span", "new");
    this.newNode.dataset.role = "new";
    pair.append(this.leftNode, " + ", this.rightNode, " → ", this.newNode);
    this.pairNode = pair;
    this.figures = el("div", "line figures");
    this.candLine = el("div", "cands");
    this.candLine.appendChild(el("span", "lead", this.L.runnerUps + " "));
    this.chips = [];
    for (let i = 0; i < 5; i++) this.chips.push(this.candLine.appendChild(el("span", "cand")));
    this.note = el("div", "note");
    this.quiz = new Quiz(this.L, (i) => { if (this.quiz.pick(i)) this.predictNext(); });
    this.quiz.node.hidden = true;
    info.append(this.quiz.node, this.zeroLine, pair, this.figures, this.candLine, this.note);
  },

  renderInfo(k) {
    this.drawInfo(k);
    if (this.predicting && this.root.classList.contains("talk")) this.fitPredictWindow();
    else this.win.style.height = ""; // the slide's or the page's own height (predict or talk mode turned off)
  },

  // A talk slide in predict mode: the question, its choices and the answer take a height of their own, so the window
  // takes what is left of the screen below them, in whole rows, at least one (after an answer at 1280×720 the text
  // being merged had gone below the screen, one row cut in half).
  fitPredictWindow() {
    const w = this.win;
    const up = (node) => node.parentElement || node.getRootNode().host || null; // out of the component's shadow root
    let scroller = up(this.root);
    while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) scroller = up(scroller);
    if (!scroller) return;
    const style = getComputedStyle(w);
    const row = parseFloat(style.lineHeight);
    const frame = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth) + parseFloat(style.paddingTop);
    w.style.height = `${row + frame}px`; // one row, then measure what is below it
    const box = w.getBoundingClientRect();
    // Below the window: the player's foot and the rest of the page, to the bottom of the scroller's content.
    const end = Math.max(...[...scroller.children].map((child) => child.getBoundingClientRect().bottom));
    const under = end + parseFloat(getComputedStyle(scroller).paddingBottom) - box.bottom;
    const room = scroller.getBoundingClientRect().top + scroller.clientHeight - box.top - under;
    w.style.height = `${row * Math.max(1, Math.floor((room - frame) / row)) + frame}px`;
  },

  drawInfo(k) {
    const m = this.model;
    if (!m.merged) return; // drawn when the merges are inflated, a moment after the window
    if (this.predicting && this.renderQuiz(m, k)) return;
    if (this.root.classList.contains("code-open")) this.code.render(m, k);
    const zero = k === 0;
    this.zeroLine.hidden = !zero;
    this.pairNode.hidden = this.figures.hidden = zero;
    if (zero) {
      this.zeroLine.textContent = m.zeroText || (m.bytesMode ? this.L.zeroBytes : this.L.zeroClassic);
      this.candLine.hidden = this.note.hidden = true;
      return;
    }
    const r = k - 1;
    fillToken(this.leftNode, m.tablePiecesOf(m.left[r]));
    fillToken(this.rightNode, m.tablePiecesOf(m.right[r]));
    fillToken(this.newNode, m.tablePiecesOf(m.newToken(r)));
    const count = m.count[r];
    this.figures.textContent = fill(this.L.figures,
      { id: m.ids[r], count: count.toLocaleString(), replaced: m.replaced[r].toLocaleString() });
    const first = m.candStart[r], stop = m.candStart[r + 1];
    this.candLine.hidden = stop === first;
    for (let i = 0; i < this.chips.length; i++) {
      const chip = this.chips[i];
      const c = first + i;
      chip.hidden = c >= stop;
      if (c >= stop) continue;
      const tie = m.candCount[c] === count;
      chip.className = tie ? "cand tie" : "cand";
      chip.textContent = `${labelOf(m.tablePiecesOf(m.candLeft[c]))} + ${labelOf(m.tablePiecesOf(m.candRight[c]))}: ` +
        `${m.candCount[c].toLocaleString()}${tie ? " " + this.L.tie : ""}`;
    }
    const tied = stop > first && m.candCount[first] === count;
    this.note.hidden = !tied;
    if (tied) this.note.textContent = fill(this.L.tieAt, { count: count.toLocaleString(), rule: this.L.tieRule });
    if (this.root.classList.contains("talk")) this.fitChips();
  },

  // Predict mode on or off (the payload's predict, from the page's toggle or a link's predict=1).
  setPredict(on) {
    if (on === this.predicting || !this.model || !this.model.merged) return;
    this.predicting = on;
    this.root.classList.toggle("predicting", on);
    this.root.dataset.predict = on ? "1" : "0";
    this.quiz.game.reset();
    this.quiz.node.hidden = !on;
    if (on) this.pause(false);
    this.renderInfo(this.round);
  },

  // At round k, ask which pair wins round k + 1 (unless the answer to round k is on show); true while asking.
  renderQuiz(m, k) {
    const q = this.quiz.game.question;
    const answering = q && q.answered && q.round === k;
    if (!answering && !(q && !q.answered && q.round === k + 1)) {
      if (k >= this.n) {
        this.quiz.game.question = null;
        this.quiz.options.replaceChildren();
        this.quiz.ask.textContent = fill(this.L.predictEnd, { right: this.quiz.game.right, total: this.quiz.game.total });
        this.quiz.result.textContent = "";
      } else this.quiz.pose(m, k);
    }
    const asking = Boolean(this.quiz.game.question) && !this.quiz.game.question.answered;
    this.zeroLine.hidden = this.pairNode.hidden = this.figures.hidden = asking || k === 0;
    this.candLine.hidden = this.note.hidden = asking || k === 0;
    if (k === 0 && !asking) { this.zeroLine.hidden = false; return true; }
    return asking;
  },

  // Enter (or ▶, or a click on a choice): score the picked pair and play its round; after an answer, ask the next.
  predictNext() {
    const q = this.quiz.game.question;
    if (!q) return;
    if (!q.answered) {
      if (q.forced && q.picked === null) this.quiz.pick(0); // one pair left: Enter plays it
      if (q.picked === null || !this.quiz.reveal(q.round >= this.n)) return;
      this.go(q.round, true);
      this.root.dataset.score = this.quiz.node.dataset.score;
    } else {
      this.quiz.game.question = null;
      this.renderInfo(this.round);
    }
  },

  // Talk mode keeps the runner-ups to one line of big type: a chip that would wrap (or cut) is left out whole.
  fitChips() {
    const top = this.chips[0].offsetTop;
    let full = false;
    for (const chip of this.chips) {
      if (chip.hidden) continue;
      if (full || chip.offsetTop > top + 2 || chip.offsetLeft + chip.offsetWidth > this.candLine.clientWidth + 1) {
        chip.hidden = true;
        full = true;
      }
    }
  },
};
