// Small page services the frame needs from the browser (ui/frame.py), all without touching the page's text:
// - keeps this browser's id in a cookie, so a reload finds this tab's work again (ui/store.py). The
//   server proposes an id (data.known); a cookie already set by another tab wins and is reported back;
// - scrolls a just-drawn result into view (data.scroll: an element id, once per data.nonce).
function readCookie(name) {
  const found = document.cookie.split("; ").find((item) => item.startsWith(name + "="));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

let lastNonce = null;

export default function (component) {
  const { data, setStateValue } = component;
  if (!data || !data.known) return;
  const existing = readCookie(data.cookie);
  if (!existing) {
    document.cookie = `${data.cookie}=${encodeURIComponent(data.known)}; path=/; max-age=86400; SameSite=Strict`;
  } else if (existing !== data.known) {
    setStateValue("browser", existing);
  }
  if (data.scroll && data.nonce !== lastNonce) {
    lastNonce = data.nonce;
    // The target is drawn in the same run; give the page a moment to lay it out.
    setTimeout(() => document.getElementById(data.scroll)?.scrollIntoView({ behavior: "smooth", block: "start" }), 300);
  }
}
