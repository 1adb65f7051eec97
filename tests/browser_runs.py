"""Knowing that the script run an action started has ended, without a pause.

Streamlit's page says ``data-test-script-state="notRunning"`` once a run ends, but a click only sends the server a
``rerun_script`` message: the page says "running" when the server's answer arrives. A fixed pause before waiting for
"notRunning" (150 ms, formerly) is a race on a busy machine: the server may not have started the run yet, and the
page still shows the *previous* run's "notRunning", so the wait ends before the action's run has even begun. The
page's state cannot tell either: a short run's "running" and "notRunning" can reach it in one batch and never show.

:data:`RUN_WATCH` (a context's init script, see :func:`watch_runs`) reads the websocket instead, in one sequence:
each ``rerun_script`` the page sends (a BackMsg), each ``new_session`` the server sends (every run starts with one)
and each ``script_finished`` (every run ends with one; "stopped early for a rerun" does not count). A run asked for
has ended when a run has started after the last request and finished after that start.
"""

from __future__ import annotations

RUN_WATCH = """(() => {
  const runs = (window.__bpeRuns = { seq: 0, sent: 0, started: 0, finished: 0 });
  // The top-level fields of a protobuf message: field number -> its value (a varint) or true.
  const fields = (b) => {
    const found = new Map();
    let i = 0;
    const varint = () => {
      let value = 0, shift = 0, byte;
      do { byte = b[i++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80 && i < b.length);
      return value;
    };
    while (i < b.length) {
      const tag = varint(), field = Math.floor(tag / 8), wire = tag & 7;
      if (wire === 0) found.set(field, varint());
      else if (wire === 2) { const n = varint(); i += n; found.set(field, true); }
      else if (wire === 1) i += 8;
      else if (wire === 5) i += 4;
      else break;
    }
    return found;
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (!(event.data instanceof ArrayBuffer)) return;
        const msg = fields(new Uint8Array(event.data));
        if (msg.has(4)) runs.started = ++runs.seq; // ForwardMsg.new_session
        if (msg.has(6) && msg.get(6) !== 2) runs.finished = ++runs.seq; // script_finished, not FINISHED_EARLY_FOR_RERUN
      });
    }
    send(data) {
      const b = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data)
        ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
      if (b && b.length && fields(b).has(11)) runs.sent = ++runs.seq; // BackMsg.rerun_script
      return super.send(data);
    }
  };
})()"""
"""Wraps the page's WebSocket before the app opens one; an init script of the context (:func:`watch_runs`)."""

RUN_ENDED = """() => {
  const runs = window.__bpeRuns, app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute("data-test-script-state") !== "notRunning") return false;
  return runs.started > runs.sent && runs.finished > runs.started;
}"""


# How often a wait checks its condition in the page, in ms. Playwright's default checks at every animation frame, which
# keeps the page drawing frames at 60 a second for as long as the wait lasts: 0.07-0.10 CPU-s more per second of
# waiting than checking every 100 ms (measured on the Train, Talk and Compare pages, idle), and the browser tests spend
# most of their time waiting for runs.
POLL_MS = 50


def reruns_sent(page) -> int:
    """How many reruns the page has asked for since it loaded (:func:`watch_runs`)."""
    return page.evaluate("() => window.__bpeRuns.sent")


def wait_rerun_after(page, sent: int, timeout: float = 30_000) -> int:
    """Wait until a rerun beyond the first ``sent`` is asked for (a component's debounced value) and its run has
    ended; the count sent then."""
    page.wait_for_function("n => window.__bpeRuns.sent > n", arg=sent, timeout=timeout, polling=POLL_MS)
    wait_idle(page)
    return reruns_sent(page)


def watch_runs(context) -> None:
    """Count rerun requests and run states in every page of a Playwright browser context, from its first load."""
    context.add_init_script(RUN_WATCH)


def wait_idle(page, timeout: float = 90_000) -> None:
    """Wait until the script run the last action started has finished (ms ``timeout``; browser_support exports it).

    A page whose context was not watched (:func:`watch_runs`) gets the old wait: "notRunning" after a short pause.
    """
    from browser_support import IDLE
    from playwright.sync_api import Error, expect

    # A moment for requests the page sends a little after the action (a component's debounced value): not what makes
    # the wait right, which is the counters, but what it was before for anything they cannot see.
    page.wait_for_timeout(150)
    try:
        if page.evaluate("() => Boolean(window.__bpeRuns)"):
            page.wait_for_function(RUN_ENDED, timeout=timeout, polling=POLL_MS)
            return
    except Error as error:  # the document changed under the script (a navigation): wait as before
        if "context was destroyed" not in str(error) and "navigat" not in str(error):
            raise
    # a page not watched from its start (its socket was opened unwrapped), or a new document: "notRunning"
    expect(page.locator(IDLE)).to_be_visible(timeout=timeout)
