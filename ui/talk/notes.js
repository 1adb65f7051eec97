// The speaker's notes in a second window (ui/talk/notes.py mounts this on the Talk page): a button, or the v key,
// opens a small window the speaker keeps on their own screen; it shows the current step's note and the next step's
// title. Every step's note comes at once, and the window shows the step in the page's address (the session writes
// it after every run), checked on each render and every 300 ms: however the runs' renders interleave, it never
// stays a step behind. n / p (and PageDown / PageUp) typed in that window move the talk too. Nothing of the note is
// drawn on the projected page.
// Text is drawn with textContent only.
const NAME = "bpe-speaker-notes";
const TYPING = /^(slider|textbox|combobox|listbox|spinbutton|option|menuitem|tab|switch|checkbox|radio)$/;
const MOVES = ["n", "p", "PageDown", "PageUp"];
let current = null; // { data, button } of the latest render
let notes = null; // the second window
let following = 0; // the timer that keeps the window on the address's step

function stepShown(data) {
  const step = Number(new URLSearchParams(window.location.search).get("step"));
  return Number.isInteger(step) && step >= 1 && step <= data.steps.length ? step : data.step;
}

function typingInto(target) {
  if (!(target instanceof HTMLElement)) return false;
  const role = target.getAttribute("role") || "";
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || TYPING.test(role);
}

const STYLE = `body{margin:0;font:22px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","PingFang SC",
"Microsoft YaHei","Noto Sans CJK SC",sans-serif;color:#111;background:#fffdf5}
main{padding:18px 24px}[data-role=step]{color:#555}h1{font-size:28px;margin:.2em 0 .5em}
[data-role=note]{font-size:26px;white-space:pre-wrap}[data-role=next]{margin-top:1.2em;padding-top:.6em;
border-top:2px solid #ddd;color:#333}[data-role=keys]{margin-top:1em;color:#666;font-size:18px}`;

function part(doc, parent, tag, role) {
  const node = parent.appendChild(doc.createElement(tag));
  node.dataset.role = role;
  return node;
}

function draw(win, data) {
  const doc = win.document;
  let root = doc.getElementById("bpe-notes");
  if (!root) {
    doc.head.appendChild(doc.createElement("style")).textContent = STYLE;
    root = doc.body.appendChild(doc.createElement("main"));
    root.id = "bpe-notes";
    root.dataset.testid = "bpe-notes";
    for (const [tag, role] of [["div", "step"], ["h1", "title"], ["div", "note"], ["div", "next"], ["div", "keys"]]) {
      part(doc, root, tag, role);
    }
    doc.addEventListener("keydown", (e) => {
      if (!MOVES.includes(e.key) || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      // The talk's own keys (ui/stage/keys.js) listen on the projected page's document.
      document.dispatchEvent(new KeyboardEvent("keydown", { key: e.key }));
    });
  }
  const step = stepShown(data);
  const page = data.steps[step - 1];
  doc.title = data.labels.window;
  doc.documentElement.lang = data.lang;
  root.dataset.step = String(step);
  const text = { step: page.where, title: page.title, note: page.note, next: page.next, keys: data.labels.keys };
  for (const [role, value] of Object.entries(text)) root.querySelector(`[data-role=${role}]`).textContent = value;
}

function open() {
  if (!current) return;
  if (!notes || notes.closed) notes = window.open("", NAME, "popup,width=780,height=560");
  if (!notes) {
    current.button.title = current.data.labels.blocked;
    current.button.dataset.blocked = "1";
    return;
  }
  draw(notes, current.data);
  notes.focus();
}

function onKey(e) {
  if (e.key !== "v" || !current || !current.button.isConnected || e.ctrlKey || e.metaKey || e.altKey) return;
  if (typingInto(e.composedPath()[0])) return;
  e.preventDefault();
  open();
}

export default function (component) {
  const { data, parentElement } = component;
  if (!data || !parentElement) return;
  if (!current) document.addEventListener("keydown", onKey);
  let button = parentElement.querySelector("button");
  if (!button) {
    button = parentElement.appendChild(document.createElement("button"));
    button.type = "button";
    button.dataset.testid = "bpe-notes-button";
    button.addEventListener("click", open);
  }
  button.textContent = data.labels.button;
  button.classList.toggle("talk", Boolean(data.talk));
  current = { data, button };
  if (notes && !notes.closed) draw(notes, data);
  if (!following) following = setInterval(follow, 300);
}

function follow() {
  if (!current || !notes || notes.closed) return;
  const root = notes.document.getElementById("bpe-notes");
  if (!root || root.dataset.step !== String(stepShown(current.data))) draw(notes, current.data);
}
