"""Knowing that the script run an action started has ended, without a pause.

Streamlit's page says ``data-test-script-state="notRunning"`` once a run ends, but a click only sends the server a
``rerun_script`` message: the page says "running" when the server's answer arrives. A fixed pause before waiting for
"notRunning" (150 ms, formerly) is a race on a busy machine: the server may not have started the run yet, and the
page still shows the *previous* run's "notRunning", so the wait ends before the action's run has even begun.

:data:`RUN_WATCH` (a context's init script, see :func:`watch_runs`) counts, in one sequence, each ``rerun_script``
message the page sends and each change of the run state. :func:`wait_idle` then waits until a run has
ended after the last request, and, for a request sent while idle, until a run has also started after it.
"""

from __future__ import annotations

RUN_WATCH = """(() => {
  if (window.__bpeRuns) return true;
  const runs = (window.__bpeRuns = { seq: 0, sent: 0, sentIdle: false, started: 0, finished: 0 });
  const APP = '[data-testid="stApp"]';
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    // A BackMsg whose first byte is field 11's tag (11 << 3 | 2 = 0x5a) is rerun_script, the only field it sets.
    let first = -1;
    if (data instanceof ArrayBuffer && data.byteLength) first = new Uint8Array(data, 0, 1)[0];
    else if (ArrayBuffer.isView(data) && data.byteLength) first = new Uint8Array(data.buffer, data.byteOffset, 1)[0];
    if (first === 0x5a) {
      const app = document.querySelector(APP);
      runs.sent = ++runs.seq;
      runs.sentIdle = Boolean(app) && app.getAttribute("data-test-script-state") === "notRunning";
    }
    return send.call(this, data);
  };
  const note = (state) => {
    if (state === "running") runs.started = ++runs.seq;
    else if (state === "notRunning") runs.finished = ++runs.seq;
  };
  new MutationObserver((records) => {
    // Records come in batches: a record's new value is the next record's old value (or the attribute now).
    records.forEach((record, i) => {
      const next = records.slice(i + 1).find((later) => later.target === record.target);
      note(next ? next.oldValue : record.target.getAttribute("data-test-script-state"));
    });
  }).observe(document, { subtree: true, attributes: true, attributeOldValue: true,
                         attributeFilter: ["data-test-script-state"] });
  return false;
})()"""
"""Installs the counters once per document; evaluates to whether they were there already."""

RUN_ENDED = """() => {
  const runs = window.__bpeRuns, app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute("data-test-script-state") !== "notRunning") return false;
  return runs.finished > runs.sent && (!runs.sentIdle || runs.started > runs.sent);
}"""


def watch_runs(context) -> None:
    """Count rerun requests and run states in every page of a Playwright browser context, from its first load."""
    context.add_init_script(RUN_WATCH)


def wait_idle(page, timeout: float = 90_000) -> None:
    """Wait until the script run the last action started has finished (ms ``timeout``; browser_support exports it).

    A page whose context was not watched from the start gets the counters now (they follow it from here on) and,
    this once, the old wait: "notRunning" after a short pause.
    """
    from browser_support import IDLE
    from playwright.sync_api import Error, expect

    # A moment for requests the page sends a little after the action (a component's debounced value): not what makes
    # the wait right, which is the counters, but what it was before for anything they cannot see.
    page.wait_for_timeout(150)
    try:
        if page.evaluate(RUN_WATCH):
            page.wait_for_function(RUN_ENDED, timeout=timeout)
            return
    except Error as error:  # the document changed under the script (a navigation): wait as before
        if "context was destroyed" not in str(error) and "navigat" not in str(error):
            raise
    # counters installed only now (the request may have gone already), or a new document: "notRunning"
    expect(page.locator(IDLE)).to_be_visible(timeout=timeout)
