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
    // Predicting, ▶ / space and → go on as Enter does: → played the next round unasked (the quiz then asked the one
    // after it).
    if ((a === "play" || a === "next") && this.predicting) return this.predictNext();
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

Object.assign(Player.prototype, RoundPanel); // ui/player_panel.js

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
