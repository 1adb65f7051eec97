// Talk mode's keys, on every page (ui/talk/keys.py mounts this component from the frame):
// n / PageDown and p / PageUp move between the guided talk's steps (elsewhere: between pages, by
// the sidebar's links),
// t turns talk mode on and off, s shows or hides the sidebar, ? shows the keys (Esc hides them).
// In talk mode it also reports the window's width once and after a resize (charts size their text from it),
// and folds the sidebar away when talk mode starts. Text is drawn with textContent only.
const MOVES = { n: "next", PageDown: "next", p: "prev", PageUp: "prev", t: "talk" };
const TYPING = /^(slider|textbox|combobox|listbox|spinbutton|option|menuitem|tab|switch|checkbox|radio)$/;
let current = null; // { data, setStateValue } of the latest render
let counter = Date.now(); // each action a new value, so pressing n twice moves twice
let overlay = null;
let resizeTimer = 0;
let wasTalk = false;
let pendingFolds = []; // talk mode's own fold/unfold timers: the person's own s cancels them

function typingInto(target) {
  if (!(target instanceof HTMLElement)) return false;
  const role = target.getAttribute("role") || "";
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || TYPING.test(role);
}

function sidebarOpen() {
  return document.querySelector('[data-testid="stSidebar"]')?.dataset.collapsed === "false";
}

function sidebarClosed() {
  return document.querySelector('[data-testid="stSidebar"]')?.dataset.collapsed === "true";
}

const FOLDED = "bpe.talkFoldedSidebar";

function folded() {
  try { return window.localStorage.getItem(FOLDED) === "1"; } catch { return false; }
}

function noteFolded(on) {
  try { on ? window.localStorage.setItem(FOLDED, "1") : window.localStorage.removeItem(FOLDED); } catch { /* private mode */ }
}

function toggleSidebar() {
  const button = sidebarOpen()
    ? document.querySelector('[data-testid="stSidebarCollapseButton"] button')
    : document.querySelector('[data-testid="stExpandSidebarButton"]');
  button?.click();
}

// Another page through the sidebar's own link (works folded too): the session and talk mode stay.
function openPage(path) {
  const links = document.querySelectorAll('a[data-testid="stSidebarNavLink"]');
  [...links].find((a) => new URL(a.href).pathname.replace(/^\//, "") === path)?.click();
}

function showKeys() {
  if (overlay) return hideKeys();
  const labels = current.data.labels;
  overlay = document.createElement("div");
  overlay.dataset.testid = "bpe-keys-help";
  overlay.setAttribute("role", "dialog");
  overlay.setAttribute("aria-label", labels.title);
  Object.assign(overlay.style, {
    position: "fixed", inset: "4vh 6vw", zIndex: 1000100, background: "#fff", color: "#111",
    border: "3px solid #111", borderRadius: "12px", padding: "2vh 3vw", overflow: "auto",
    fontSize: "max(28px, 2.25vw)", lineHeight: "1.35", boxShadow: "0 0 0 100vmax rgba(0,0,0,.45)",
  });
  const heading = overlay.appendChild(document.createElement("div"));
  heading.textContent = labels.title;
  heading.style.fontWeight = "700";
  const table = overlay.appendChild(document.createElement("table"));
  table.style.borderCollapse = "collapse";
  for (const [keys, what] of labels.keys) {
    const row = table.insertRow();
    const key = row.insertCell();
    key.textContent = keys;
    Object.assign(key.style, { fontWeight: "700", paddingRight: "1.2em", whiteSpace: "nowrap", fontFamily: "monospace" });
    row.insertCell().textContent = what;
  }
  overlay.addEventListener("click", hideKeys);
  document.body.appendChild(overlay);
}

function hideKeys() {
  overlay?.remove();
  overlay = null;
}

function onKey(e) {
  if (!current || e.ctrlKey || e.metaKey || e.altKey || typingInto(e.composedPath()[0])) return;
  if (e.key === "Escape" && overlay) { hideKeys(); return; }
  if (e.key === "?") { e.preventDefault(); showKeys(); return; }
  if (e.key === "s") { e.preventDefault(); cancelFolds(); toggleSidebar(); return; }
  let act = MOVES[e.key];
  // On a talk step with no player the keys a presenter tries first (→ ←, space) move the talk; where a player is
  // drawn they are the player's.
  if (!act && current.data.talk && current.data.steps && !window.__bpePlayer?.root?.isConnected) {
    act = { ArrowRight: "next", " ": "next", ArrowLeft: "prev" }[e.key];
  }
  if (!act) return;
  e.preventDefault();
  hideKeys();
  if (act !== "talk" && !current.data.steps) { openPage(current.data[act]); return; }
  current.setStateValue("action", { act, n: ++counter });
}

// Only in talk mode (outside it nothing needs the width), and only between runs: a report costs a
// rerun, which would interrupt the page's own (a link's training, say).
function reportWidth() {
  if (!current || !current.data.talk || current.data.width === window.innerWidth) return;
  const app = document.querySelector('[data-testid="stApp"]');
  if (app && app.dataset.testScriptState === "running") {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(reportWidth, 500);
    return;
  }
  current.setStateValue("width", window.innerWidth);
}

function cancelFolds() {
  pendingFolds.forEach(clearTimeout);
  pendingFolds = [];
}

// Tries now and twice more within a second, and stops after the first try that acts, so a sidebar the
// person opens with s a moment later is not folded again behind their back.
function foldSoon(wanted, act) {
  cancelFolds();
  pendingFolds = [0, 300, 1000].map((ms) => setTimeout(() => { if (wanted()) { cancelFolds(); act(); } }, ms));
}

// A button clicked with the mouse keeps the focus, so the keys pressed next went to it: space clicked it again (the
// talk skipped a slide after a click on "Next") and the player ignored its keys. A click made with the keyboard
// (detail 0) keeps its focus.
function letGoOfClickedButton(e) {
  const button = e.target instanceof Element ? e.target.closest("button") : null;
  if (button && e.detail > 0) button.blur();
}

export default function (component) {
  const { data, setStateValue } = component;
  if (!data) return;
  if (!current) {
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", letGoOfClickedButton);
    window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(reportWidth, 300); });
  }
  current = { data, setStateValue };
  // The sidebar may be drawn a moment after this component: look again for a second. Streamlit remembers a
  // folded sidebar in the browser, so talk mode notes that it folded it, and a page out of talk mode opens it
  // again (once: a sidebar the person folded themselves stays folded).
  if (data.talk && !wasTalk) {
    foldSoon(sidebarOpen, () => { toggleSidebar(); noteFolded(true); });
  } else if (!data.talk && folded()) {
    foldSoon(() => folded() && sidebarClosed(), () => { toggleSidebar(); noteFolded(false); });
  }
  wasTalk = data.talk;
  document.documentElement.dataset.bpeTalk = data.talk ? "1" : "0";
  reportWidth();
}
