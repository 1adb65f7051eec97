// BPE merge player: a Streamlit components.v2 component.
// All drawing uses DOM nodes and textContent (never innerHTML). Playing runs entirely in the
// browser on requestAnimationFrame and sends nothing to the server; only pausing/stepping
// reports the current round back (one rerun) so the Python view below can follow.

const SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120, 240];
const WS = { " ": "·", "\n": "↵", "\t": "→", "\r": "␍" };
const PERMANENT = 2147483647;

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  if (attrs) for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function showWs(s) {
  return s.replace(/[ \n\t\r]/g, (c) => WS[c]);
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, "0")).join(" ");
}

// A byte token as text; bytes that are not whole UTF-8 characters as ⟨E4 BD⟩.
function byteLabel(bytes) {
  try {
    return showWs(decoder.decode(bytes));
  } catch (e) {
    let out = "";
    let i = 0;
    while (i < bytes.length) {
      let done = false;
      for (let len = Math.min(4, bytes.length - i); len >= 1; len--) {
        try {
          const s = decoder.decode(bytes.subarray(i, i + len));
          out += showWs(s);
          i += len;
          done = true;
          break;
        } catch (e2) { /* try shorter */ }
      }
      if (!done) {
        let j = i + 1;
        // gather a run of undecodable bytes
        while (j < bytes.length) {
          let ok = false;
          for (let len = Math.min(4, bytes.length - j); len >= 1; len--) {
            try { decoder.decode(bytes.subarray(j, j + len)); ok = true; break; } catch (e3) { }
          }
          if (ok) break;
          j++;
        }
        out += "⟨" + hex(bytes.subarray(i, j)) + "⟩";
        i = j;
      }
    }
    return out;
  }
}

class Player {
  constructor(parent) {
    this.parent = parent;
    this.data = null;
    this.round = 0;
    this.playing = false;
    this.speed = 4;
    this.acc = 0;
    this.lastT = 0;
    this.raf = 0;
    this.sendTimer = 0;
    this.seek = null;
    this.labelCache = new Map();
    this.stats = { ticks: 0, renders: 0, renderMs: 0, maxRenderMs: 0, playStart: 0, playRenders: 0, playTicks: 0, lastFps: 0 };
    window.__bpePlayer = this;
    window.__bpePlayerCount = (window.__bpePlayerCount || 0) + 1;
    this.build();
    this.onKey = this.onKey.bind(this);
    document.addEventListener("keydown", this.onKey);
  }

  build() {
    const root = el("div", { class: "bpe-player", tabindex: "0", "data-testid": "bpe-player", "data-round": "0" });
    const controls = el("div", { class: "controls" });
    const mk = (act, text, title) => {
      const b = el("button", { type: "button", "data-act": act, title }, text);
      b.addEventListener("mousedown", (e) => { e.preventDefault(); root.focus(); });
      b.addEventListener("click", () => this.act(act));
      controls.appendChild(b);
      return b;
    };
    mk("first", "|◀", "Round 0");
    mk("prev", "◀", "Step back (←)");
    this.playBtn = mk("play", "▶ Play", "Play / pause (space)");
    mk("next", "▶", "Step forward (→)");
    mk("last", "▶|", "Last round");
    const speedLabel = el("label", { class: "speed" }, "Speed ");
    this.speedSel = el("select", { "data-role": "speed", title: "Rounds per second" });
    for (const s of SPEEDS) {
      const o = el("option", { value: String(s) }, `${s} rounds/s`);
      if (s === this.speed) o.selected = true;
      this.speedSel.appendChild(o);
    }
    this.speedSel.addEventListener("change", () => { this.speed = Number(this.speedSel.value); });
    speedLabel.appendChild(this.speedSel);
    controls.appendChild(speedLabel);
    this.roundLabel = el("span", { class: "roundlabel", "data-role": "round-label" }, "Round 0");
    controls.appendChild(this.roundLabel);
    root.appendChild(controls);

    this.scrub = el("input", { type: "range", min: "0", max: "0", value: "0", step: "1", "data-role": "scrub", "aria-label": "Round" });
    this.scrub.addEventListener("input", () => { this.pause(false); this.go(Number(this.scrub.value), false); });
    this.scrub.addEventListener("change", () => this.report());
    root.appendChild(this.scrub);

    this.info = el("div", { class: "info", "data-role": "info" });
    root.appendChild(this.info);
    this.win = el("div", { class: "window", "data-role": "window" });
    root.appendChild(this.win);
    root.appendChild(el("div", { class: "hint" }, "Keys: space = play / pause · ← → = step · click the player first if keys do nothing"));
    root.addEventListener("pointerdown", (e) => {
      const t = e.composedPath()[0];
      if (!(t instanceof HTMLSelectElement) && !(t instanceof HTMLInputElement)) root.focus({ preventScroll: true });
    });
    this.root = root;
    this.parent.appendChild(root);
  }

  update(data, setStateValue) {
    this.setStateValue = setStateValue;
    if (!this.root.isConnected) this.parent.appendChild(this.root);
    const fresh = !this.data || this.data.sig !== data.sig;
    const oldSeek = this.seek;
    this.data = data;
    this.n = data.rounds.length;
    if (fresh) {
      this.labelCache.clear();
      this.atoms = data.mode === "bytes" ? Uint8Array.from(data.atoms) : data.atoms;
      this.life = Int32Array.from(data.lifetimes.map((x) => Math.min(x, PERMANENT)));
      this.scrub.max = String(this.n);
      this.pause(false);
      this.seek = data.seek;
      this.go(Math.min(data.round, this.n), false);
    } else if (data.seek !== oldSeek) {
      // Python moved the round (slider / buttons): jump there.
      this.seek = data.seek;
      this.pause(false);
      this.go(Math.min(data.round, this.n), false);
    }
  }

  tokenLabel(start, stop) {
    const key = start * 1048576 + stop;
    let s = this.labelCache.get(key);
    if (s === undefined) {
      s = this.data.mode === "bytes" ? byteLabel(this.atoms.subarray(start, stop)) : this.atoms.slice(start, stop).join("");
      if (this.labelCache.size > 200000) this.labelCache.clear();
      this.labelCache.set(key, s);
    }
    return s;
  }

  act(a) {
    if (a === "play") return this.playing ? this.pause(true) : this.play();
    this.pause(false);
    if (a === "first") this.go(0, true);
    else if (a === "last") this.go(this.n, true);
    else if (a === "prev") this.go(this.round - 1, true);
    else if (a === "next") this.go(this.round + 1, true);
  }

  play() {
    if (!this.data) return;
    if (this.round >= this.n) this.go(0, false);
    this.playing = true;
    this.playBtn.textContent = "⏸ Pause";
    this.root.setAttribute("data-playing", "1");
    this.acc = 0;
    this.lastT = performance.now();
    this.stats.playStart = this.lastT;
    this.stats.playRenders = 0;
    this.stats.playTicks = 0;
    const tick = (t) => {
      if (!this.playing) return;
      this.stats.ticks++;
      this.stats.playTicks++;
      this.acc += ((t - this.lastT) / 1000) * this.speed;
      this.lastT = t;
      const steps = Math.floor(this.acc);
      if (steps > 0) {
        this.acc -= steps;
        this.go(Math.min(this.n, this.round + steps), false);
        this.stats.playRenders++;
      }
      const secs = (t - this.stats.playStart) / 1000;
      if (secs > 0.5) this.stats.lastFps = this.stats.playRenders / secs;
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
    this.playBtn.textContent = "▶ Play";
    this.root.setAttribute("data-playing", "0");
    if (was && report) this.report();
  }

  // Tell Python the round (debounced): one rerun, never while playing.
  report() {
    if (!this.setStateValue) return;
    clearTimeout(this.sendTimer);
    this.sendTimer = setTimeout(() => {
      if (!this.playing) this.setStateValue("round", this.round);
    }, 400);
  }

  go(k, report) {
    k = Math.max(0, Math.min(this.n, k | 0));
    this.round = k;
    this.render();
    if (report) this.report();
  }

  render() {
    const t0 = performance.now();
    const k = this.round;
    const d = this.data;
    this.root.setAttribute("data-round", String(k));
    this.scrub.value = String(k);
    this.roundLabel.textContent = `Round ${k.toLocaleString()} / ${this.n.toLocaleString()}`;
    this.renderInfo(k);
    this.renderWindow(k);
    const ms = performance.now() - t0;
    this.stats.renders++;
    this.stats.renderMs += ms;
    if (ms > this.stats.maxRenderMs) this.stats.maxRenderMs = ms;
  }

  renderInfo(k) {
    const info = this.info;
    const frag = document.createDocumentFragment();
    if (k === 0) {
      frag.appendChild(el("div", { class: "line" },
        `Round 0: the text as raw ${this.data.mode === "bytes" ? "bytes" : "characters + </w>"}, before any merge. Press ▶ or →.`));
      info.replaceChildren(frag);
      return;
    }
    const [left, right, neu, id, count, replaced, tied, cands] = this.data.rounds[k - 1];
    const pair = el("div", { class: "pair" });
    pair.appendChild(el("span", { class: "part", "data-role": "left" }, left));
    pair.appendChild(document.createTextNode(" + "));
    pair.appendChild(el("span", { class: "part", "data-role": "right" }, right));
    pair.appendChild(document.createTextNode(" → "));
    pair.appendChild(el("span", { class: "new", "data-role": "new" }, neu));
    frag.appendChild(pair);
    frag.appendChild(el("div", { class: "line" },
      `new token id ${id} · pair count ${count.toLocaleString()} · occurrences replaced ${replaced.toLocaleString()}`));
    if (cands.length) {
      const line = el("div", { class: "cands" });
      line.appendChild(el("span", { class: "lead" }, "Runner-ups: "));
      for (const [l, r, c] of cands) {
        const chip = el("span", { class: c === count ? "cand tie" : "cand" }, `${l} + ${r}: ${c.toLocaleString()}${c === count ? " (tie)" : ""}`);
        line.appendChild(chip);
      }
      frag.appendChild(line);
    }
    if (tied) frag.appendChild(el("div", { class: "note" }, `Tie at count ${count.toLocaleString()}: ${this.data.tieRule}.`));
    info.replaceChildren(frag);
  }

  renderWindow(k) {
    const life = this.life;
    const n = this.atoms.length;
    const frag = document.createDocumentFragment();
    const bytesMode = this.data.mode === "bytes";
    let start = 0;
    let idx = 0;
    let just = false;
    for (let j = 0; j < n; j++) {
      const last = j === n - 1;
      if (last || life[j] >= k) {
        const stop = j + 1;
        const text = this.tokenLabel(start, stop);
        const span = document.createElement("span");
        span.className = just ? `tok c${idx % 5} just` : `tok c${idx % 5}`;
        span.textContent = text;
        frag.appendChild(span);
        if (bytesMode ? this.atoms[stop - 1] === 10 : text.endsWith("</w>")) {
          frag.appendChild(bytesMode ? document.createElement("br") : document.createTextNode(" "));
        }
        idx++;
        start = stop;
        just = false;
      } else if (life[j] === k - 1) {
        just = true;
      }
    }
    this.win.replaceChildren(frag);
  }

  onKey(e) {
    if (!this.root.isConnected || !this.data || e.ctrlKey || e.metaKey || e.altKey) return;
    const path = e.composedPath();
    const inside = path.includes(this.root);
    const target = path[0];
    if (inside) {
      if (target instanceof HTMLSelectElement) return;
    } else if (target instanceof HTMLElement) {
      // Keys typed into a field, or meant for another widget, are not ours.
      const role = target.getAttribute("role") || "";
      if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName) ||
          /^(slider|textbox|combobox|listbox|spinbutton|option|menuitem|tab|switch|checkbox|radio)$/.test(role)) return;
    }
    if (e.key === " " || e.code === "Space") {
      e.preventDefault();
      this.act("play");
    } else if (e.key === "ArrowRight") {
      e.preventDefault();
      this.act("next");
    } else if (e.key === "ArrowLeft") {
      e.preventDefault();
      this.act("prev");
    }
  }

  destroy() {
    this.pause(false);
    clearTimeout(this.sendTimer);
    document.removeEventListener("keydown", this.onKey);
    if (window.__bpePlayer === this) window.__bpePlayer = undefined;
  }
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  if (!data) return;
  let player = parentElement.__bpePlayer;
  if (!player) {
    player = new Player(parentElement);
    parentElement.__bpePlayer = player;
  }
  window.__bpePlayer = player;
  player.update(data, setStateValue);
  return () => {
    player.destroy();
    parentElement.__bpePlayer = undefined;
  };
}
