// The merge player's window (between player_model.js and player.js in the same module): the
// training text's tokens at a round. A frame redraws only the tokens whose boundaries changed
// since the round drawn before (the model's per-round change lists); a jump past half the
// window's boundaries redraws it whole.

class TokenWindow {
  constructor(node) {
    this.node = node;
    this.model = null;
    this.drawn = -1; // the round shown
    this.just = []; // spans outlined as merged at the round shown
    this.picked = null; // [s, e) of the word picked by a click
  }

  show(model) {
    this.model = model;
    this.drawn = -1;
    this.picked = null;
  }

  // Outline the tokens of the word [s, e) the person clicked (kept through every frame, see setToken).
  pick(range) {
    const old = this.picked;
    this.picked = range;
    for (const [s, e] of [old, range].filter(Boolean)) {
      for (let j = s; j < e; j++) {
        const span = this.spanOf[j];
        if (span !== undefined) span.classList.toggle("picked", this.isPicked(j));
      }
    }
  }

  isPicked(s) { return this.picked !== null && s >= this.picked[0] && s < this.picked[1]; }

  tokenNode(s, e) {
    const span = el("span");
    span._s = s;
    this.setToken(span, s, e);
    return span;
  }

  setToken(span, s, e) {
    const m = this.model;
    const tok = m.windowToken(s, e);
    span.className = `tok c${m.colours.get(m.key(s, e)) ?? 0}${tok.tail ? " broken" : ""}${this.isPicked(s) ? " picked" : ""}`;
    if (tok.tail) fillBrokenToken(span, tok);
    else fillToken(span, tok.pieces);
    span.title = tok.title;
    this.endOf[s] = e;
    this.spanOf[s] = span;
  }

  // Line breaks after a token ending in newlines, one each (classic: a space after a word's </w>); one node, so
  // that setAfter can replace it when a merge changes the token. A token with text after its last newline holds its
  // breaks itself (fillBrokenToken).
  afterNode(s, e) {
    const lines = this.model.linesEnded(s, e);
    if (!lines || this.model.windowToken(s, e).tail) return null; // breaks inside the token (fillBrokenToken)
    if (!this.model.bytesMode) return document.createTextNode(" ");
    if (lines === 1) return document.createElement("br");
    const breaks = el("span");
    for (let i = 0; i < lines; i++) breaks.appendChild(document.createElement("br"));
    return breaks;
  }

  setAfter(span, e) {
    if (span._after) span._after.remove();
    span._after = this.afterNode(span._s, e);
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
        span._after = this.afterNode(start, j + 1);
        if (span._after) frag.appendChild(span._after);
        start = j + 1;
      }
    }
    this.just = [];
    this.node.replaceChildren(frag);
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
        span._after = this.afterNode(start, x);
        if (span._after) span.after(span._after);
        cursor = span._after || span;
        start = x;
      }
    }
  }

  render(k) {
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
  }
}
