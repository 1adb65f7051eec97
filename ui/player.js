// BPE merge player, for two hosts: a Streamlit components.v2 component (the default export)
// and the one-file HTML export (ui/animation_html.py calls mountPlayer itself).
// All drawing uses DOM nodes and textContent (never innerHTML). Playing runs entirely in the
// browser on requestAnimationFrame and sends nothing to the server; pausing and stepping report
// {round, speed, word} back once (ui/merges.py: PlayerView).
// Needs player_model.js and player_window.js before it (ui/animation_html.py joins the three).

// -- the player ------------------------------------------------------------------------------

class Player {
  constructor(parent, labels) {
    this.parent = parent;
    this.L = labels;
    this.data = null;
    this.model = null;
    this.round = 0;
    this.playing = false;
    this.speed = 4;
    this.word = null;
    this.raf = 0;
    this.sendTimer = 0;
    this.predicting = false; // predict the next merge (ui/player_predict.js): asks before each round
    this.codeOpen = null; // the code beside the window: open by default, not in talk mode or on a slide (c toggles it)
    window.__bpePlayer = this;
    this.build();
    this.onKey = this.onKey.bind(this);
    document.addEventListener("keydown", this.onKey);
  }

  build() {
    const root = el("div", "bpe-player");
    root.tabIndex = 0;
    root.dataset.testid = "bpe-player";
    root.dataset.round = "0";
    const controls = el("div", "controls");
    const L = this.L;
    const mk = (act, text, title) => {
      const b = el("button", "", text);
      b.type = "button";
      b.dataset.act = act;
      b.title = L[title];
      b.addEventListener("mousedown", (e) => { e.preventDefault(); root.focus(); });
      b.addEventListener("click", () => this.act(act));
      controls.appendChild(b);
      return b;
    };
    mk("first", "|◀", "first");
    mk("prev", "◀", "prev");
    this.playBtn = mk("play", L.play, "playPause");
    mk("next", "▶", "next");
    mk("last", "▶|", "last");
    this.codeBtn = mk("code", "{ }", "codeTitle");
    const speedLabel = el("label", "speed", L.speed + " ");
    this.speedSel = el("select");
    this.speedSel.dataset.role = "speed";
    this.speedSel.title = L.speedTitle;
    this.speedSel.addEventListener("change", () => { this.speed = Number(this.speedSel.value); this.report(); });
    speedLabel.appendChild(this.speedSel);
    controls.appendChild(speedLabel);
    this.roundLabel = el("span", "roundlabel", "");
    this.roundLabel.dataset.role = "round-label";
    controls.appendChild(this.roundLabel);
    root.appendChild(controls);

    this.scrub = el("input");
    Object.assign(this.scrub, { type: "range", min: "0", max: "0", value: "0", step: "1" });
    this.scrub.dataset.role = "scrub";
    this.scrub.setAttribute("aria-label", L.round);
    this.scrub.addEventListener("input", () => { this.pause(false); this.go(Number(this.scrub.value), false); });
    this.scrub.addEventListener("change", () => this.report());
    root.appendChild(this.scrub);

    this.info = el("div", "info");
    this.info.dataset.role = "info";
    this.buildInfo();
    root.appendChild(this.info);
    this.win = el("div", "window tokens");
    this.win.dataset.role = "window";
    this.win.addEventListener("click", (e) => this.inspect(e));
    this.window = new TokenWindow(this.win);
    this.code = new CodePanel(L);
    const stage = el("div", "stage");
    stage.append(this.win, this.code.node);
    root.appendChild(stage);
    root.appendChild(el("div", "hint", L.keys));
    root.addEventListener("pointerdown", (e) => {
      const t = e.composedPath()[0];
      if (!(t instanceof HTMLSelectElement) && !(t instanceof HTMLInputElement)) root.focus({ preventScroll: true });
    });
    this.root = root;
    this.parent.appendChild(root);
  }

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
    this.figures = el("div", "line");
    this.candLine = el("div", "cands");
    this.candLine.appendChild(el("span", "lead", this.L.runnerUps + " "));
    this.chips = [];
    for (let i = 0; i < 5; i++) this.chips.push(this.candLine.appendChild(el("span", "cand")));
    this.note = el("div", "note");
    this.quiz = new Quiz(this.L, (i) => { if (this.quiz.pick(i)) this.predictNext(); });
    this.quiz.node.hidden = true;
    info.append(this.quiz.node, this.zeroLine, pair, this.figures, this.candLine, this.note);
  }

  // A new tokenizer (sig) starts the player at data.round; the same one again changes nothing:
  // after mounting, the player alone moves the round.
  update(data, setStateValue) {
    this.setStateValue = setStateValue;
    if (!this.root.isConnected) this.parent.appendChild(this.root);
    this.root.classList.toggle("talk", Boolean(data.talk));
    this.root.classList.toggle("compact", Boolean(data.compact));
    if (this.data && this.data.sig === data.sig) { this.setPredict(Boolean(data.predict)); return; }
    this.data = data;
    this.predicting = false;
    this.quiz.game.reset();
    this.pause(false);
    const model = (this.model = new Model(data));
    this.n = model.n;
    this.scrub.max = String(this.n);
    this.setSpeeds(data.speeds, data.speed);
    this.code.show(data.code);
    this.codeBtn.hidden = !data.code;
    if (this.codeOpen === null) this.codeOpen = !data.talk && !data.compact; // a talk slide keeps its layout
    this.root.classList.toggle("code-open", Boolean(data.code) && this.codeOpen);
    this.window.show(model);
    this.go(data.round, false);
    inflate(data.blob).then((buffer) => {
      model.loadMerges(buffer);
      if (this.model !== model) return;
      this.setPredict(Boolean(data.predict));
      this.renderInfo(this.round);
      this.root.dataset.ready = "1";
    });
  }

  setSpeeds(speeds, speed) {
    this.speeds = speeds;
    this.speed = speeds.includes(speed) ? speed : speeds[0];
    this.speedSel.replaceChildren(...speeds.map((s) => {
      const o = el("option", "", s === 1 ? this.L.perSecondOne : fill(this.L.perSecond, { s }));
      o.value = String(s);
      o.selected = s === this.speed;
      return o;
    }));
  }

  act(a) {
    if (!this.model) return;
    if (a === "play" && this.predicting) return this.predictNext();
    if (a === "play") return this.playing ? this.pause(true) : this.play();
    if (a === "code") {
      this.codeOpen = !this.root.classList.contains("code-open") && Boolean(this.data.code);
      this.root.classList.toggle("code-open", this.codeOpen);
      return this.renderInfo(this.round);
    }
    if (a === "faster" || a === "slower") {
      const i = this.speeds.indexOf(this.speed) + (a === "faster" ? 1 : -1);
      this.speed = this.speeds[Math.max(0, Math.min(this.speeds.length - 1, i))];
      this.speedSel.value = String(this.speed);
      if (!this.playing) this.report();
      return;
    }
    this.pause(false);
    if (a === "first") this.go(0, true);
    else if (a === "last") this.go(this.n, true);
    else if (a === "prev") this.go(this.round - 1, true);
    else if (a === "next") this.go(this.round + 1, true);
  }

  play() {
    if (this.round >= this.n) this.go(0, false);
    this.playing = true;
    this.playBtn.textContent = this.L.pause;
    this.root.dataset.playing = "1";
    let acc = 0;
    let lastT = performance.now();
    const tick = (t) => {
      if (!this.playing) return;
      acc += ((t - lastT) / 1000) * this.speed;
      lastT = t;
      const steps = Math.floor(acc);
      if (steps > 0) {
        acc -= steps;
        this.go(this.round + steps, false);
      }
      if (this.round >= this.n) { this.pause(true); return; }
      this.raf = requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
  }

  pause(report) {
    const was = this.playing;
    this.playing = false;
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.playBtn.textContent = this.L.play;
    this.root.dataset.playing = "0";
    if (was && report) this.report();
  }

  // Tell the host {round, speed, word} (debounced): one rerun per pause or step, never while playing.
  report() {
    if (!this.setStateValue) return;
    // The Merges page's link box follows at once (the talk's players are not the page's view: their link has no round).
    if (/\/Merges$/.test(window.location.pathname)) window.__bpeLink?.follow({ round: this.round, speed: this.speed });
    clearTimeout(this.sendTimer);
    this.sendTimer = setTimeout(() => {
      if (!this.playing) this.setStateValue("view", { round: this.round, speed: this.speed, word: this.word });
    }, 400);
  }

  go(k, report) {
    this.round = Math.max(0, Math.min(this.n, k | 0));
    this.render();
    if (report) this.report();
  }

  // One frame (bench/browser.py times this method): the labels, the round panel and the
  // window's changed tokens.
  render() {
    const k = this.round;
    this.root.dataset.round = String(k);
    this.scrub.value = String(k);
    this.roundLabel.textContent = fill(this.L.roundOf, { k: k.toLocaleString(), n: this.n.toLocaleString() });
    this.renderInfo(k);
    this.window.render(k);
  }

  renderInfo(k) {
    const m = this.model;
    if (!m.merged) return; // drawn when the merges are inflated, a moment after the window
    if (this.predicting && this.renderQuiz(m, k)) return;
    if (this.root.classList.contains("code-open")) this.code.render(m, k);
    const zero = k === 0;
    this.zeroLine.hidden = !zero;
    this.pairNode.hidden = this.figures.hidden = zero;
    if (zero) {
      this.zeroLine.textContent = m.bytesMode ? this.L.zeroBytes : this.L.zeroClassic;
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
  }

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
  }

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
  }

  // Enter (or ▶, or a click on a choice): score the picked pair and play its round; after an answer, ask the next.
  predictNext() {
    const q = this.quiz.game.question;
    if (!q) return;
    if (!q.answered) {
      if (q.picked === null || !this.quiz.reveal()) return;
      this.go(q.round, true);
      this.root.dataset.score = this.quiz.node.dataset.score;
    } else {
      this.quiz.game.question = null;
      this.renderInfo(this.round);
    }
  }

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
  }

  inspect(e) {
    const span = e.target instanceof Element ? e.target.closest(".tok") : null;
    if (!span || span._s === undefined || !this.model) return;
    this.word = this.model.wordAt(span._s);
    this.root.dataset.word = this.word;
    this.window.pick(this.model.wordRange(span._s));
    if (!this.playing) this.report();
  }

  onKey(e) {
    if (!this.root.isConnected || !this.model || e.ctrlKey || e.metaKey || e.altKey) return;
    const path = e.composedPath();
    const target = path[0];
    if (path.includes(this.root)) {
      if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement) return;
    } else if (target instanceof HTMLElement) {
      // Keys typed into a field, or meant for another widget, are not ours.
      const role = target.getAttribute("role") || "";
      if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName) ||
          /^(slider|textbox|combobox|listbox|spinbutton|option|menuitem|tab|switch|checkbox|radio)$/.test(role)) return;
    }
    const action = { " ": "play", ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last",
      "+": "faster", "=": "faster", "-": "slower", "_": "slower", c: "code" }[e.key];
    if (this.predicting && (/^[1-9]$/.test(e.key) || e.key === "Enter")) {
      e.preventDefault();
      if (e.key === "Enter") this.predictNext();
      else this.quiz.pick(Number(e.key) - 1);
      return;
    }
    if (!action) return;
    e.preventDefault();
    this.act(action);
  }

  destroy() {
    this.pause(false);
    clearTimeout(this.sendTimer);
    document.removeEventListener("keydown", this.onKey);
    if (window.__bpePlayer === this) window.__bpePlayer = undefined;
  }
}

// Streamlit components.v2 entry point; the one-file export calls it with its own data.
export default function mountPlayer(component) {
  const { data, parentElement, setStateValue } = component;
  if (!data) return;
  let player = parentElement.__bpePlayer;
  if (!player) {
    player = new Player(parentElement, data.labels);
    parentElement.__bpePlayer = player;
  }
  window.__bpePlayer = player;
  player.update(data, setStateValue);
  return () => {
    player.destroy();
    parentElement.__bpePlayer = undefined;
  };
}
