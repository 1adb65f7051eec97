// BPE merge player. One file, two hosts: a Streamlit components.v2 component (the default export)
// and the one-file HTML export (ui/animation_html.py calls mountPlayer itself).
// All drawing uses DOM nodes and textContent (never innerHTML). Playing runs entirely in the
// browser on requestAnimationFrame and sends nothing to the server; pausing and stepping report
// {round, speed, word} back once (ui/merges.py: PlayerView).
// A frame redraws only the tokens whose boundaries changed since the frame before: the payload's
// boundary lifetimes are sorted once into per-round change lists.

const PERMANENT = 2147483647;
const WS = { " ": "·", "\n": "↵", "\t": "→", "\r": "␍" };
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu; // = ui/tokens.py INVISIBLE_CLASS
const COLOURS = 5;
const decoder = new TextDecoder("utf-8", { ignoreBOM: true }); // a token may start with U+FEFF: keep it

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// -- token labels: the same pieces as ui/tokens.py token_pieces ------------------------------

function hex4(cp) { return cp.toString(16).toUpperCase().padStart(4, "0"); }

function markOf(ch, marks) {
  const cp = ch.codePointAt(0);
  const title = "U+" + hex4(cp);
  if (cp < 0x20) return ["mark", String.fromCharCode(0x2400 + cp), title];
  if (cp === 0x7f) return ["mark", "␡", title];
  const names = marks[String(cp)];
  return names ? ["mark", `⟨${names[0]}⟩`, `${title} ${names[1]}`] : ["mark", `⟨${title}⟩`, title];
}

function textPieces(text, marks, out) {
  const shown = text.replace(/[ \n\t\r]/g, (c) => WS[c]);
  let last = 0;
  for (const found of shown.matchAll(INVISIBLE)) {
    if (found.index > last) out.push(["text", shown.slice(last, found.index)]);
    out.push(markOf(found[0], marks));
    last = found.index + found[0].length;
  }
  if (last < shown.length) out.push(["text", shown.slice(last)]);
  return out;
}

// Length of the well-formed UTF-8 sequence starting at bytes[i] (Unicode table 3-7), or 0.
function utf8Length(bytes, i) {
  const b = bytes[i];
  if (b < 0x80) return 1;
  let len, lo = 0x80, hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) len = 2;
  else if (b >= 0xe0 && b <= 0xef) { len = 3; if (b === 0xe0) lo = 0xa0; if (b === 0xed) hi = 0x9f; }
  else if (b >= 0xf0 && b <= 0xf4) { len = 4; if (b === 0xf0) lo = 0x90; if (b === 0xf4) hi = 0x8f; }
  else return 0;
  if (i + len > bytes.length) return 0;
  for (let j = 1; j < len; j++) {
    const c = bytes[i + j];
    if (j === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return 0;
  }
  return len;
}

function bytePieces(bytes, marks) {
  const out = [];
  let i = 0;
  let textStart = 0;
  let bad = [];
  const flushText = (stop) => { if (stop > textStart) textPieces(decoder.decode(bytes.subarray(textStart, stop)), marks, out); };
  while (i < bytes.length) {
    const len = utf8Length(bytes, i);
    if (len) {
      if (bad.length) { out.push(["bytes", `⟨${bad.join(" ")}⟩`]); bad = []; textStart = i; }
      i += len;
    } else {
      if (!bad.length) flushText(i);
      bad.push(bytes[i].toString(16).toUpperCase().padStart(2, "0"));
      i += 1;
    }
  }
  if (bad.length) out.push(["bytes", `⟨${bad.join(" ")}⟩`]);
  else flushText(i);
  return out;
}

function labelOf(pieces) { return pieces.length ? pieces.map((p) => p[1]).join("") : "∅"; }

function fillToken(node, pieces) {
  if (!pieces.length) { node.textContent = "∅"; return; }
  if (pieces.length === 1 && pieces[0][0] === "text") { node.textContent = pieces[0][1]; return; }
  node.textContent = "";
  for (const [kind, shown, title] of pieces) {
    if (kind === "text") { node.appendChild(document.createTextNode(shown)); continue; }
    const part = el("span", kind === "bytes" ? "tokbytes" : "ctl", shown);
    if (title) part.title = title;
    node.appendChild(part);
  }
}

// -- the payload, decoded once -----------------------------------------------------------------

async function inflate(b64) {
  const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Response(stream).arrayBuffer();
}

class Model {
  constructor(data, buffer) {
    this.n = data.n;
    this.bytesMode = data.mode === "bytes";
    this.marks = data.marks;
    this.atoms = this.bytesMode ? new TextEncoder().encode(data.window) : data.window;
    const m = data.atomCount;
    let at = 0;
    const take = (Type, count) => { const a = new Type(buffer, at, count); at += count * Type.BYTES_PER_ELEMENT; return a; };
    const n = this.n;
    this.life = take(Int32Array, Math.max(0, m - 1));
    this.left = take(Uint32Array, n);
    this.right = take(Uint32Array, n);
    const idStep = take(Int32Array, n);
    this.count = take(Uint32Array, n);
    this.replaced = take(Uint32Array, n);
    const c = (buffer.byteLength - at - n) / 12;
    this.candLeft = take(Uint32Array, c);
    this.candRight = take(Uint32Array, c);
    this.candCount = take(Uint32Array, c);
    const candN = new Uint8Array(buffer, at, n);
    this.ids = new Int32Array(n);
    this.candStart = new Uint32Array(n + 1);
    for (let r = 0, id = 0; r < n; r++) {
      id += idStep[r];
      this.ids[r] = id;
      this.candStart[r + 1] = this.candStart[r] + candN[r];
    }
    this.base = data.base;
    this.tableBytes = [];
    this.tablePieces = [];
    this.tokenPieces = new Map();
    this.indexChanges();
  }

  // byLife: boundaries removed by some merge, by lifetime; off[r]: first with lifetime >= r.
  indexChanges() {
    const life = this.life;
    const n = this.n;
    const counts = new Uint32Array(n + 1);
    for (let j = 0; j < life.length; j++) if (life[j] >= 0 && life[j] < n) counts[life[j] + 1]++;
    this.off = new Uint32Array(n + 1);
    for (let r = 1; r <= n; r++) this.off[r] = this.off[r - 1] + counts[r];
    const fill = this.off.slice();
    this.byLife = new Uint32Array(this.off[n]);
    for (let j = 0; j < life.length; j++) if (life[j] >= 0 && life[j] < n) this.byLife[fill[life[j]]++] = j;
    this.colours = this.assignColours();
  }

  key(s, e) { return s * (this.atoms.length + 1) + e; }

  // Colour of every token that exists at some round, keyed by (start, end): alternating at round
  // 0, then each merged token keeps its left part's colour unless a neighbour has it. A token
  // exists over one run of rounds, so its colour is the same however the player got there.
  assignColours() {
    const m = this.atoms.length;
    const colours = new Map();
    const next = new Int32Array(m + 1).fill(m);
    const prev = new Int32Array(m + 1).fill(-1);
    const colour = new Int8Array(m + 1).fill(-1);
    let start = 0, idx = 0;
    for (let j = 0; j < m; j++) {
      if (j === m - 1 || this.life[j] >= 0) {
        next[start] = j + 1;
        if (j + 1 < m) prev[j + 1] = start;
        colour[start] = idx++ % COLOURS;
        colours.set(this.key(start, j + 1), colour[start]);
        start = j + 1;
      }
    }
    for (let i = 0; i < this.byLife.length; i++) {
      const j = this.byLife[i];
      const a = prev[j + 1];
      const e = next[j + 1];
      next[a] = e;
      if (e < m) prev[e] = a;
      const avoidLeft = prev[a] >= 0 ? colour[prev[a]] : -1;
      const avoidRight = e < m ? colour[e] : -1;
      let c = colour[a];
      for (let k = 0; c === avoidLeft || c === avoidRight; k++) c = k;
      colour[a] = c;
      colours.set(this.key(a, e), c);
    }
    return colours;
  }

  // Bytes (or string) of token-table entry t: a base token, or the parts of merge t - base.
  tableValue(t) {
    let v = this.tableBytes[t];
    if (v === undefined) {
      if (t < this.base.length) v = this.bytesMode ? Uint8Array.of(this.base[t]) : this.base[t];
      else {
        const l = this.tableValue(this.left[t - this.base.length]);
        const r = this.tableValue(this.right[t - this.base.length]);
        if (this.bytesMode) { v = new Uint8Array(l.length + r.length); v.set(l); v.set(r, l.length); } else v = l + r;
      }
      this.tableBytes[t] = v;
    }
    return v;
  }

  piecesOfValue(v) { return this.bytesMode ? bytePieces(v, this.marks) : textPieces(v, this.marks, []); }

  tablePiecesOf(t) {
    let p = this.tablePieces[t];
    if (p === undefined) this.tablePieces[t] = p = this.piecesOfValue(this.tableValue(t));
    return p;
  }

  newToken(r) { return this.base.length + r; }

  // Pieces and label of the window's token from atom s to atom e (exclusive), cached.
  windowToken(s, e) {
    const key = this.key(s, e);
    let tok = this.tokenPieces.get(key);
    if (tok === undefined) {
      const value = this.bytesMode ? this.atoms.subarray(s, e) : this.atoms.slice(s, e).join("");
      const pieces = this.piecesOfValue(value);
      const unit = this.bytesMode ? "byte" : "symbol";
      tok = { pieces, title: `${labelOf(pieces)} · ${e - s} ${unit}${e - s === 1 ? "" : "s"}` };
      this.tokenPieces.set(key, tok);
    }
    return tok;
  }

  endsLine(e) { return this.bytesMode ? this.atoms[e - 1] === 10 : this.atoms[e - 1] === "</w>"; }

  // The pre-token (word) holding atom j: between the boundaries no merge ever removes.
  wordAt(j) {
    let s = j, e = j + 1;
    while (s > 0 && this.life[s - 1] !== PERMANENT) s--;
    while (e < this.atoms.length && this.life[e - 1] !== PERMANENT) e++;
    return this.bytesMode ? decoder.decode(this.atoms.subarray(s, e)) : this.atoms.slice(s, e).join("");
  }
}


// -- the player ------------------------------------------------------------------------------

class Player {
  constructor(parent) {
    this.parent = parent;
    this.data = null;
    this.model = null;
    this.round = 0;
    this.drawn = -1; // the round the window shows
    this.playing = false;
    this.speed = 4;
    this.word = null;
    this.raf = 0;
    this.sendTimer = 0;
    this.stats = { renders: 0, renderMs: 0, maxRenderMs: 0 };
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
    const mk = (act, text, title) => {
      const b = el("button", "", text);
      b.type = "button";
      b.dataset.act = act;
      b.title = title;
      b.addEventListener("mousedown", (e) => { e.preventDefault(); root.focus(); });
      b.addEventListener("click", () => this.act(act));
      controls.appendChild(b);
      return b;
    };
    mk("first", "|◀", "First round (Home)");
    mk("prev", "◀", "Step back (←)");
    this.playBtn = mk("play", "▶ Play", "Play / pause (space)");
    mk("next", "▶", "Step forward (→)");
    mk("last", "▶|", "Last round (End)");
    const speedLabel = el("label", "speed", "Speed ");
    this.speedSel = el("select");
    this.speedSel.dataset.role = "speed";
    this.speedSel.title = "Rounds per second (+ / −)";
    this.speedSel.addEventListener("change", () => { this.speed = Number(this.speedSel.value); this.report(); });
    speedLabel.appendChild(this.speedSel);
    controls.appendChild(speedLabel);
    this.roundLabel = el("span", "roundlabel", "Round 0");
    this.roundLabel.dataset.role = "round-label";
    controls.appendChild(this.roundLabel);
    root.appendChild(controls);

    this.scrub = el("input");
    Object.assign(this.scrub, { type: "range", min: "0", max: "0", value: "0", step: "1" });
    this.scrub.dataset.role = "scrub";
    this.scrub.setAttribute("aria-label", "Round");
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
    root.appendChild(this.win);
    root.appendChild(el("div", "hint",
      "Keys: space play / pause · ← → step · Home / End first / last round · + − speed · click a token to pick its word"));
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
    this.candLine.appendChild(el("span", "lead", "Runner-ups: "));
    this.chips = [];
    for (let i = 0; i < 5; i++) this.chips.push(this.candLine.appendChild(el("span", "cand")));
    this.note = el("div", "note");
    info.append(this.zeroLine, pair, this.figures, this.candLine, this.note);
  }

  async update(data, setStateValue) {
    this.setStateValue = setStateValue;
    if (!this.root.isConnected) this.parent.appendChild(this.root);
    const fresh = !this.data || this.data.sig !== data.sig;
    const seekChanged = this.data && data.seek !== this.data.seek;
    this.data = data;
    if (fresh) {
      this.pause(false);
      this.loading = (this.loading || Promise.resolve()).then(() => inflate(data.blob)).then((buffer) => {
        if (this.data !== data) return;
        this.model = new Model(data, buffer);
        this.n = this.model.n;
        this.scrub.max = String(this.n);
        this.setSpeeds(data.speeds, data.speed);
        this.drawn = -1;
        this.go(data.round, false);
        this.root.dataset.ready = "1";
      });
      return this.loading;
    }
    if (seekChanged && this.model) {
      this.pause(false);
      this.go(data.round, false);
    }
  }

  setSpeeds(speeds, speed) {
    this.speeds = speeds;
    this.speed = speeds.includes(speed) ? speed : speeds[0];
    this.speedSel.replaceChildren(...speeds.map((s) => {
      const o = el("option", "", `${s} rounds/s`);
      o.value = String(s);
      o.selected = s === this.speed;
      return o;
    }));
  }

  act(a) {
    if (!this.model) return;
    if (a === "play") return this.playing ? this.pause(true) : this.play();
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
    this.playBtn.textContent = "⏸ Pause";
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
    this.playBtn.textContent = "▶ Play";
    this.root.dataset.playing = "0";
    if (was && report) this.report();
  }

  // Tell the host {round, speed, word} (debounced): one rerun per pause or step, never while playing.
  report() {
    if (!this.setStateValue) return;
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

  // One frame: the labels, the round panel and the window's changed tokens.
  render() {
    const t0 = performance.now();
    const k = this.round;
    this.root.dataset.round = String(k);
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
    const m = this.model;
    const zero = k === 0;
    this.zeroLine.hidden = !zero;
    this.pairNode.hidden = this.figures.hidden = zero;
    if (zero) {
      this.zeroLine.textContent = `Round 0: the text as raw ${m.bytesMode ? "bytes" : "characters + </w>"}, before any merge. Press ▶ or →.`;
      this.candLine.hidden = this.note.hidden = true;
      return;
    }
    const r = k - 1;
    fillToken(this.leftNode, m.tablePiecesOf(m.left[r]));
    fillToken(this.rightNode, m.tablePiecesOf(m.right[r]));
    fillToken(this.newNode, m.tablePiecesOf(m.newToken(r)));
    const count = m.count[r];
    this.figures.textContent =
      `new token id ${m.ids[r]} · pair count ${count.toLocaleString()} · occurrences replaced ${m.replaced[r].toLocaleString()}`;
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
        `${m.candCount[c].toLocaleString()}${tie ? " (tie)" : ""}`;
    }
    const tied = stop > first && m.candCount[first] === count;
    this.note.hidden = !tied;
    if (tied) this.note.textContent = `Tie at count ${count.toLocaleString()}: ${this.data.tieRule}.`;
  }

  // -- the window: only the tokens whose boundaries changed are touched --------------------

  tokenNode(s, e) {
    const span = el("span");
    span._s = s;
    this.setToken(span, s, e);
    return span;
  }

  setToken(span, s, e) {
    const m = this.model;
    const tok = m.windowToken(s, e);
    span.className = `tok c${m.colours.get(m.key(s, e)) ?? 0}`;
    fillToken(span, tok.pieces);
    span.title = tok.title;
    this.endOf[s] = e;
    this.spanOf[s] = span;
  }

  // A line break after a token ending in a newline (classic: a space after a word's </w>).
  afterNode(e) {
    if (!this.model.endsLine(e)) return null;
    return this.model.bytesMode ? document.createElement("br") : document.createTextNode(" ");
  }

  setAfter(span, e) {
    if (span._after) span._after.remove();
    span._after = this.afterNode(e);
    if (span._after) span.after(span._after);
  }

  startOf(j) {
    while (this.spanOf[j] === undefined) j--;
    return j;
  }

  fullDraw(k) {
    const m = this.model;
    const count = m.atoms.length;
    this.spanOf = new Array(count);
    this.endOf = new Int32Array(count);
    const frag = document.createDocumentFragment();
    let start = 0;
    for (let j = 0; j < count; j++) {
      if (j === count - 1 || m.life[j] >= k) {
        const span = frag.appendChild(this.tokenNode(start, j + 1));
        span._after = this.afterNode(j + 1);
        if (span._after) frag.appendChild(span._after);
        start = j + 1;
      }
    }
    this.just = [];
    this.win.replaceChildren(frag);
  }

  mergeForward(a, b) {
    const m = this.model;
    const dirty = new Set();
    for (let i = m.off[a]; i < m.off[b]; i++) {
      const j = m.byLife[i];
      const right = this.spanOf[j + 1];
      const left = this.startOf(j);
      if (right._after) right._after.remove();
      right.remove();
      this.spanOf[j + 1] = undefined;
      this.endOf[left] = this.endOf[j + 1];
      dirty.add(left);
    }
    for (const s of dirty) {
      const span = this.spanOf[s];
      if (span === undefined) continue; // merged into its left neighbour in the same frame
      this.setToken(span, s, this.endOf[s]);
      this.setAfter(span, this.endOf[s]);
    }
  }

  splitBack(a, b) {
    const m = this.model;
    const owners = new Set();
    for (let i = m.off[b]; i < m.off[a]; i++) owners.add(this.startOf(m.byLife[i]));
    for (const s of owners) {
      const end = this.endOf[s];
      let cursor = this.spanOf[s];
      if (cursor._after) { cursor._after.remove(); cursor._after = null; }
      let start = s;
      for (let x = s + 1; x <= end; x++) {
        if (x < end && m.life[x - 1] < b) continue;
        const span = start === s ? cursor : this.tokenNode(start, x);
        if (start === s) this.setToken(span, s, x);
        else cursor.after(span);
        span._after = this.afterNode(x);
        if (span._after) span.after(span._after);
        cursor = span._after || span;
        start = x;
      }
    }
  }

  renderWindow(k) {
    const m = this.model;
    const from = this.drawn;
    const changes = from < 0 ? Infinity : Math.abs(m.off[Math.max(from, k)] - m.off[Math.min(from, k)]);
    if (changes > m.atoms.length / 2) this.fullDraw(k);
    else if (k > from) this.mergeForward(from, k);
    else if (k < from) this.splitBack(from, k);
    this.drawn = k;
    for (const span of this.just) span.classList.remove("just");
    this.just = [];
    if (k === 0) return;
    for (let i = m.off[k - 1]; i < m.off[k]; i++) {
      const span = this.spanOf[this.startOf(m.byLife[i])];
      span.classList.add("just");
      this.just.push(span);
    }
    this.win.dataset.round = String(k);
  }

  inspect(e) {
    const span = e.target instanceof Element ? e.target.closest(".tok") : null;
    if (!span || span._s === undefined || !this.model) return;
    this.word = this.model.wordAt(span._s);
    this.root.dataset.word = this.word;
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
      "+": "faster", "=": "faster", "-": "slower", "_": "slower" }[e.key];
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
