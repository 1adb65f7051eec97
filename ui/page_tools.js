// Small page services the frame needs from the browser (ui/frame.py), all without touching the page's text:
// - keeps this browser's id in a cookie (30 days), so a reload finds this tab's work again (runtime.store). The
//   server proposes an id (data.known); a cookie already set by another tab wins and is reported back;
// - scrolls a just-drawn result into view (data.scroll: an element id, once per data.nonce);
// - shows the link to this view (data.link, as text) with a copy button (titled data.copy).
function readCookie(name) {
  const found = document.cookie.split("; ").find((item) => item.startsWith(name + "="));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

let lastNonce = null;

// Icons are drawn as SVG: a copy glyph such as ⧉ is missing from common fonts and showed as an empty box.
const ICONS = {
  copy: ["M9 9h10v10H9z", "M5 15V5h10"],
  done: ["M5 12.5l4.5 4.5L19 7.5"],
};

function setIcon(button, name) {
  const svgNS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "16");
  svg.setAttribute("height", "16");
  svg.setAttribute("aria-hidden", "true");
  for (const d of ICONS[name]) {
    const path = document.createElementNS(svgNS, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", "2");
    path.setAttribute("stroke-linejoin", "round");
    svg.appendChild(path);
  }
  button.replaceChildren(svg);
}

function copy(text, button) {
  const done = () => {
    setIcon(button, "done");
    setTimeout(() => setIcon(button, "copy"), 1200);
  };
  const byHand = () => { // no clipboard API outside a secure context (an http:// address other than localhost)
    const range = document.createRange();
    range.selectNodeContents(button.previousSibling);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    if (document.execCommand("copy")) done();
  };
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, byHand);
  else byHand();
}

// The link as a person reads it: %-escapes of the letters of common left-to-right scripts (and their marks) shown
// as the characters (a Chinese text in a link is 9 characters an ideograph escaped: 15 lines of them). Everything
// else stays escaped: spaces, punctuation (so & = # keep their meaning), invisible and direction-changing
// characters, and letters of right-to-left or rarer scripts, which could reorder the link around them.
const SHOWN = new RegExp("^[" + ["Latin", "Greek", "Cyrillic", "Armenian", "Georgian", "Han", "Hiragana", "Katakana",
  "Hangul", "Bopomofo", "Thai", "Lao", "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Tamil", "Telugu", "Kannada",
  "Malayalam", "Sinhala", "Ethiopic", "Khmer", "Myanmar", "Tibetan"].map((s) => `\\p{Script=${s}}`).join("") + "]$", "u");

function readable(link) {
  return link.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    let text;
    try { text = decodeURIComponent(run); } catch { return run; }
    return [...text].map((ch) => (SHOWN.test(ch) ? ch : encodeURIComponent(ch))).join("");
  });
}

function setLink(box, link) {
  box.dataset.link = link; // what the button copies: the link as the address bar has it
  box.firstChild.textContent = readable(link); // text, never HTML
  box.firstChild.title = link;
}

// The Merges player moves between reruns (it reports a pause or a step 400 ms later, and never while playing):
// it calls this at once, so the link box shows the round on screen, not the one of the last rerun.
window.__bpeLink = {
  follow(values) {
    const box = document.querySelector(".bpe-link");
    if (!box || !box.dataset.link) return;
    const url = new URL(box.dataset.link);
    for (const [key, value] of Object.entries(values)) url.searchParams.set(key, String(value));
    setLink(box, url.toString());
  },
};

function showLink(parent, link, label, talk) {
  let box = parent.querySelector(".bpe-link");
  if (!box) {
    box = document.createElement("div");
    box.className = "bpe-link";
    box.append(document.createElement("code"), document.createElement("button"));
    const button = box.lastChild;
    button.type = "button";
    setIcon(button, "copy");
    button.addEventListener("click", () => copy(box.dataset.link, button));
    parent.appendChild(box);
  }
  setLink(box, link);
  box.classList.toggle("talk", Boolean(talk));
  box.lastChild.title = label;
  box.lastChild.setAttribute("aria-label", label);
}

export default function (component) {
  const { data, setStateValue, parentElement } = component;
  if (!data || !data.known) return;
  if (data.link && parentElement) showLink(parentElement, data.link, data.copy || "Copy", data.talk);
  const existing = readCookie(data.cookie);
  if (!existing) {
    document.cookie = `${data.cookie}=${encodeURIComponent(data.known)}; path=/; max-age=2592000; SameSite=Strict`;
  } else if (existing !== data.known) {
    setStateValue("browser", existing);
  }
  if (data.scroll && data.nonce !== lastNonce) {
    lastNonce = data.nonce;
    // The target is drawn in the same run; give the page a moment to lay it out.
    setTimeout(() => document.getElementById(data.scroll)?.scrollIntoView({ behavior: "smooth", block: "start" }), 300);
  }
}
