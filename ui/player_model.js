// The merge player's data side (loaded before player.js, in the same module): token labels
// drawn exactly as ui/tokens.py draws them, and the payload of ui/merges.py decoded once into
// typed arrays, per-round change lists and a colour for every token that ever exists.

const PERMANENT = 2147483647;
const WS = { " ": "·", "\n": "↵", "\t": "→", "\r": "␍" };
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Cs}]/gu; // = ui/invisible_marks.py INVISIBLE_CLASS
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

// "{k} of {n}" with values filled in (the words come translated from the host, in data.labels).
function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

function labelOf(pieces) { return pieces.length ? pieces.map((p) => p[1]).join("") : "∅"; }

function fillToken(node, pieces) {
  if (!pieces.length) { node.textContent = "∅"; return; }
  if (pieces.length === 1 && pieces[0][0] === "text") { node.textContent = pieces[0][1]; return; }
  node.textContent = "";
  appendPieces(node, pieces);
}

// A token whose text goes on after its last newline (``↵···``, the next line's indentation): its head, one break per
// newline, then the rest, all inside the token, so the indentation starts the next line (as ui/token_html.py).
function fillBrokenToken(node, tok) {
  node.textContent = "";
  appendPieces(node, tok.head);
  for (let i = 0; i < tok.breaks; i++) node.appendChild(document.createElement("br"));
  appendPieces(node, tok.tail);
}

function appendPieces(node, pieces) {
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
  // The window (drawable at once) from the payload's plain fields; the merges come later.
  constructor(data) {
    this.n = data.n;
    this.bytesMode = data.mode === "bytes";
    this.labels = data.labels;
    this.marks = data.marks;
    this.atoms = this.bytesMode ? new TextEncoder().encode(data.window) : data.window;
    this.life = new Int32Array(Uint8Array.from(atob(data.lifetimes), (c) => c.charCodeAt(0)).buffer);
    this.base = data.base;
    this.zeroText = data.zeroText || ""; // a continued tokenizer's round 0: its base's tokens, not bytes
    this.tableBytes = [];
    this.tablePieces = [];
    this.tokenPieces = new Map();
    this.merged = false;
    this.indexChanges();
  }

  // The merges' columns, once the blob is inflated (asynchronous, so the window is drawn first).
  loadMerges(buffer) {
    const n = this.n;
    let at = 0;
    const take = (Type, count) => { const a = new Type(buffer, at, count); at += count * Type.BYTES_PER_ELEMENT; return a; };
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
    this.merged = true;
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
      if (t < this.base.length) {
        const b = this.base[t];
        v = !this.bytesMode ? b : typeof b === "number" ? Uint8Array.of(b) : Uint8Array.from(b);
      }
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
      const unit = (this.bytesMode ? "byte" : "symbol") + (e - s === 1 ? "" : "s");
      let title = `${labelOf(pieces)} · ${fill(this.labels[unit], { n: e - s })}`;
      if (this.bytesMode && pieces.some((p) => p[0] === "bytes")) title += ` · ${fill(this.labels.partOf, { chars: this.wholeCharacters(s, e) })}`;
      tok = { pieces, title };
      const last = this.bytesMode ? value.lastIndexOf(10) : -1;
      if (last >= 0 && last < value.length - 1) {
        tok.head = this.piecesOfValue(value.subarray(0, last + 1));
        tok.tail = this.piecesOfValue(value.subarray(last + 1));
        tok.breaks = this.linesEnded(s, e);
      }
      this.tokenPieces.set(key, tok);
    }
    return tok;
  }

  // The characters whose bytes the token from atom s to e holds a part of (round 0 of a Chinese text shows
  // ⟨E5⟩⟨AD⟩⟨A6⟩: the learner sees they are 学): widened to the characters' first and last bytes.
  wholeCharacters(s, e) {
    while (s > 0 && (this.atoms[s] & 0xc0) === 0x80) s--;
    while (e < this.atoms.length && (this.atoms[e] & 0xc0) === 0x80) e++;
    return decoder.decode(this.atoms.subarray(s, e)).replace(/\uFFFD/g, "");
  }

  // Whether the window's token from atom s to e ends a line: it holds a newline (``↵↵··`` too, as ui/tokens.py
  // draws it); classic: a word's </w>.
  // How many line ends follow the token s..e: one per newline byte it holds, so "\n\n" keeps its blank line
  // (classic: a word's </w> ends it, drawn as a space).
  linesEnded(s, e) {
    if (!this.bytesMode) return this.atoms[e - 1] === "</w>" ? 1 : 0;
    let lines = 0;
    for (let j = s; j < e; j++) if (this.atoms[j] === 10) lines++;
    return lines;
  }

  // The word (pre-token) holding atom j: between the payload's word boundaries (PERMANENT;
  // a boundary inside a word that no merge removes is PERMANENT - 1).
  wordAt(j) {
    const [s, e] = this.wordRange(j);
    return this.bytesMode ? decoder.decode(this.atoms.subarray(s, e)) : this.atoms.slice(s, e).join("");
  }

  // [first atom, end atom) of the word holding atom j.
  wordRange(j) {
    let s = j, e = j + 1;
    while (s > 0 && this.life[s - 1] !== PERMANENT) s--;
    while (e < this.atoms.length && this.life[e - 1] !== PERMANENT) e++;
    return [s, e];
  }
}


