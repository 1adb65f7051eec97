"""The one way the app trains, model side: the cache, the runs shared by sessions, and the job.

Every training (the Train button, a link, Compare's algorithms, the parity pair, the superword twin, the talk's
steps) goes page → ``ui.page_training.train`` (the progress bar and Cancel) → :func:`train` here → a job of
``runtime.jobs`` (``playground.trained.train_parts``) → ``bpe_core``. No Streamlit here: the page hands in what to
call while the job runs (``on_progress``) and while another session trains the same request (``on_wait``).

- **One cache**: a session's own results (``Session.results``, passed as ``results``) and
  ``playground.caches.TRAINED``, shared by every session: results of built-in texts, and the helper trainings
  (variants, twins) keyed by the request, whose key holds the corpus's digest (nobody sees another's text).
- **Shared runs**: two sessions asking for the same request at once train it once; the second waits for the
  first (:data:`RUNS`) and takes its result from the cache.
- **The corpus is cut once** (``playground.heldout_texts.split_once``): the job gets the part it trains on and
  the part it measures, the same parts the Train page's limits were computed on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from bpe_core import Tokenizer
from playground import caches
from playground.corpora import PASTE, UPLOAD
from playground.heldout_texts import split_once
from playground.train_form import note_stop
from playground.trained import Request, Trained, train_parts
from runtime import jobs
from runtime.lru import LRU

STOPPED = (jobs.JobStopped, ValueError, TypeError)
"""What a job can end in besides its result: a limit, a crash; bad settings from the library."""
WAIT_POLL_SECONDS = 0.25
"""How often a session waiting for another's run calls its ``on_wait`` (where a page can be interrupted)."""


class SharedRuns:
    """The requests being trained now, by key: the first asker leads (trains), later askers wait for it."""

    def __init__(self) -> None:
        self._events: dict[str, threading.Event] = {}
        self._lock = threading.Lock()

    def lead(self, key: str) -> tuple[threading.Event, bool]:
        """The event that is set when ``key``'s run ends, and whether the caller is to run it."""
        with self._lock:
            event = self._events.get(key)
            if event is not None:
                return event, False
            event = self._events[key] = threading.Event()
            return event, True

    def finish(self, key: str, event: threading.Event) -> None:
        with self._lock:
            if self._events.get(key) is event:
                del self._events[key]
        event.set()

    def __len__(self) -> int:
        return len(self._events)

    def clear(self) -> None:
        """Forget every run (its waiters are let go: they find no result and train themselves)."""
        with self._lock:
            events, self._events = list(self._events.values()), {}
        for event in events:
            event.set()


RUNS = SharedRuns()
caches.register("trained.in_flight", "requests being trained now (an event each, set when the run ends)", RUNS)


def public(request: Request) -> bool:
    """A built-in text's request: its result may be shared with every session as it is."""
    return request.corpus not in (PASTE, UPLOAD)


def cached(request: Request, results: LRU[str, Trained] | None = None) -> Trained | None:
    """The result of ``request`` if this session (``results``) or the shared cache has it."""
    found = results.get(request.key) if results is not None else None
    return found if found is not None else caches.TRAINED.get(request.key)


def failure(request: Request) -> str | None:
    """Why ``request`` could not be trained, if it was tried and failed (a limit or bad settings)."""
    return caches.FAILURES.get(request.key)


def remember(trained: Trained, results: LRU[str, Trained] | None = None) -> None:
    """Keep ``trained``: in the session's ``results`` when given (its own tokenizers: shared only when the text is
    built in), else (a helper training, keyed by its corpus's digest) in the shared cache."""
    note_stop(trained)  # where it ran out of pairs, for the Train page's vocab range
    if results is not None:
        results.put(trained.request.key, trained)
    if results is None or public(trained.request):
        caches.TRAINED.put(trained.request.key, trained)


def train(
    request: Request,
    text: str,
    on_progress: Callable[[jobs.JobStatus], None] | None = None,
    *,
    results: LRU[str, Trained] | None = None,
    on_wait: Callable[[float], None] | None = None,
    base: Tokenizer | None = None,
) -> Trained:
    """``request`` trained on ``text`` (its whole corpus), from the cache when it is there, else as a job (after
    any run of the same request by another session); kept as :func:`remember` says.

    ``on_progress(status)`` is called every poll of the job, ``on_wait(seconds)`` every
    :data:`WAIT_POLL_SECONDS` while another session trains it; an exception from either (a page's rerun) kills
    the job and goes on. A failure in :data:`STOPPED` is kept as its message (:func:`failure`) and raised.
    ``base``: the loaded tokenizer a request continues (a built-in one goes by its name, and the job builds it).
    """
    while True:
        found = cached(request, results)
        if found is not None:
            remember(found, results)
            return found
        event, leader = RUNS.lead(request.key)
        if leader:
            break
        started = time.monotonic()
        while not event.wait(WAIT_POLL_SECONDS):
            if on_wait is not None:
                on_wait(time.monotonic() - started)
        # The other run ended: its result is in the cache now (or it failed there, and this one tries itself).
    try:
        parts = split_once(text, request.text_digest, request.holdout, request.languages)
        extra = {"base": base} if base is not None else None
        trained: Trained = jobs.run_with_progress(train_parts, (parts, request), on_progress, kwargs=extra)
    except STOPPED as stopped:
        caches.FAILURES.put(request.key, str(stopped))
        raise
    finally:
        RUNS.finish(request.key, event)
    remember(trained, results)
    return trained
