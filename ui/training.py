"""The one way anything is trained and stored: the Train button, a link and Compare all call :func:`run`.

A run is checked before any work (``playground.train_form.request_for``: corpus present, pattern valid, vocab size
within what the corpus can make), served from a cache when the same request was trained before
(per session, and across sessions so a room opening one link trains it once), and otherwise run
as a job in a worker process with a progress bar and a Cancel button that stops the CPU for real.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import streamlit as st

from playground.corpora import PASTE, SLUGS, UPLOAD, sample_name
from playground.i18n import N_, t
from playground.session import Session
from playground.text import human_bytes, plain
from playground.train_form import SettingsError, estimate_seconds, note_stop, request_for
from playground.trained import Request, Trained, train_job
from runtime import jobs
from runtime.lru import LRU

SHARED_RESULTS = 16
"""Trained results of built-in corpora shared by all sessions (a session keeps its own: ``Session.results``),
at most :data:`SHARED_MERGES` merges in all, none kept unused for more than :data:`SHARED_IDLE_SECONDS`."""
SHARED_MERGES = 60_000
SHARED_IDLE_SECONDS = 1800.0
AUTO_TRAIN_SECONDS = float(os.environ.get("BPE_AUTO_TRAIN_SECONDS", "5"))
"""A link may start training by itself only when the estimate is below this; above, it asks for a click."""


# -- caches -----------------------------------------------------------------------------------------

_shared: LRU[str, Trained] = LRU(SHARED_RESULTS, max_weight=SHARED_MERGES, weight=lambda trained: trained.num_merges,
                                 max_idle=SHARED_IDLE_SECONDS)  # fmt: skip


def cached(s: Session, request: Request) -> Trained | None:
    """The result of ``request`` if this session, or any session for a built-in corpus, has it."""
    return s.results.get(request.key) or _shared.get(request.key)


def _remember(s: Session, trained: Trained) -> None:
    note_stop(trained)  # where it ran out of pairs, for the Train page's vocab range
    s.results.put(trained.request.key, trained)
    if trained.request.corpus in SLUGS:  # built-in text is public: share the result with every session
        _shared.put(trained.request.key, trained)


def store(s: Session, trained: Trained) -> None:
    """Make ``trained`` the session's tokenizer; the Merges page opens on its last round."""
    _remember(s, trained)
    s.trained = trained
    s.round = None


# -- running ----------------------------------------------------------------------------------------


SESSION_JOBS = ("train", "quick", "link")
"""Keys of the jobs that train the session's own tokenizer (``run``'s)."""
STOPPED = (jobs.JobStopped, ValueError, TypeError)
"""What a job can end in besides its result: a limit, Cancel, a crash; bad settings from the library."""


def with_progress(s: Session, fn: Callable[..., Any], args: tuple, label: str, *, key: str, cancelled: str) -> Any:
    """``fn(*args)`` as a killable job (runtime.jobs), with a progress bar titled ``label`` and a Cancel button.

    A click on Cancel reruns the script: Streamlit raises inside the next ``bar.progress`` and runtime.jobs
    kills the job; ``cancelled`` is shown once on the next run. Closing the tab ends the session the
    same way. The exceptions in :data:`STOPPED` propagate.
    """
    holder = st.empty()
    with holder.container():
        bar = st.progress(0.0, text=f"{plain(label)}…")
        st.button(t("Cancel"), key=f"{key}_cancel", on_click=_cancel_clicked, args=(s, key, cancelled))

    def on_progress(status: jobs.JobStatus) -> None:
        # Called every poll, even without news: this call is where Streamlit stops the script.
        if status.state == jobs.QUEUED:
            text = t("{label}: waiting for a free worker (number {n} in line)…", label=plain(label),
                     n=status.position or 1)
        else:
            steps = t("{done:,} / {total:,} steps, ", done=status.done, total=status.total) if status.total else ""
            text = f"{plain(label)}… {steps}{status.seconds:.1f} s"
        bar.progress(min(1.0, status.fraction), text=text)

    s.running_job = key
    try:
        result = jobs.run_with_progress(fn, args, on_progress)
    except STOPPED:
        s.running_job = ""
        raise
    finally:
        holder.empty()
    s.running_job = ""  # a Cancel click that arrives now is too late: _cancel_clicked says so
    return result


def _cancel_clicked(s: Session, key: str, cancelled: str) -> None:
    """Cancel's callback, run before the rerun the click starts (the job is killed as that rerun begins).

    A click that lands after the job finished must not claim the old result was kept. A cancelled training of
    the session's tokenizer puts the settings back to the tokenizer still shown (before any widget is drawn),
    so the vocab size on screen is the shown tokenizer's, not the cancelled one's."""
    if s.running_job != key:
        s.notice("info", t("Cancel arrived after the job had finished: its result is shown."))
    else:
        if key in SESSION_JOBS and s.trained is not None:
            for name, value in s.trained.request.settings().items():
                if value is not None:
                    setattr(s, name, value)
        s.cancelled = cancelled
        if key == "link":
            s.link_pending = False  # a cancelled link is not trained again by itself on the next run
    s.running_job = ""


def cancel_notice(s: Session) -> None:
    """Say here, once, that the last job was cancelled (the Train page: under its button, where the bar was;
    other pages: at the top, from ``ui.frame.page``)."""
    if s.cancelled:
        st.warning(s.cancelled, icon=":material/cancel:")
        s.cancelled = ""


_in_flight: dict[str, threading.Event] = {}


def _wait_for_other_session(request: Request) -> None:
    """A room opening one link: the first session trains, the others wait here (interruptibly)."""
    event = _in_flight.get(request.key)
    if event is None:
        return
    bar = st.progress(0.0, text=t("Another session is training {label}: waiting for it…", label=plain(request.label)))
    waited = 0.0
    while not event.wait(0.25):
        waited += 0.25
        bar.progress(min(0.99, waited / 60), text=t("Another session is training {label}: waiting for it… {n:.0f} s",
                                                    label=plain(request.label), n=waited))
    bar.empty()


def run(s: Session, request: Request, text: str, *, key: str = "train") -> Trained | None:
    """Train ``request`` (or take it from a cache), store it, and return it; None after a shown error."""
    _wait_for_other_session(request)
    found = cached(s, request)
    if found is not None:
        store(s, found)
        return found
    event = _in_flight.setdefault(request.key, threading.Event())
    try:
        if s.trained is None:
            cancelled = t("Training cancelled. No tokenizer was trained.")
        else:
            cancelled = t("Training cancelled. The tokenizer shown is still the previous one, and the settings are "
                          "back to it: {label}.", label=plain(s.trained.label))
        trained = with_progress(s, train_job, (text, request), t("Training {label}", label=request.label), key=key,
                                cancelled=cancelled)
    except STOPPED as failure:
        st.error(t("Training stopped: {reason}. The previous tokenizer is kept.", reason=plain(failure, limit=600)))
        return None
    finally:
        _in_flight.pop(request.key, None)
        event.set()
    store(s, trained)
    return trained


def offer(s: Session, request: Request, text: str, why: str, *, key: str) -> Trained | None:
    """Train by itself when cheap; above the budget, show the estimate and train only on a click."""
    if cached(s, request) is None:
        n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
        seconds = estimate_seconds(request, n_bytes)
        if seconds > AUTO_TRAIN_SECONDS:
            st.info(t("{why} {label} on {size} of text: about {n:,.0f} s of training. It starts only when you click.",
                      why=t(why), label=plain(request.label), size=human_bytes(n_bytes), n=seconds))
            if not st.button(t("Train it ▶"), type="primary", key=f"{key}_confirm"):
                return None
    return run(s, request, text, key=key)


def ensure(s: Session, what: str) -> Trained | None:
    """The tokenizer a page shows: the one a just-opened link describes (trained if cheap, else on a
    click), or the session's; with none, one click trains the Train page's settings."""
    if s.link_pending:
        if s.corpus in (PASTE, UPLOAD) and corpus_missing(s):
            s.link_pending = False
            st.warning(t("This link was made from {corpus}, which never travels in links: add the text on the Train "
                         "page to train this tokenizer. Nothing else was substituted.", corpus=sample_name(s.corpus)))
        else:
            try:
                request, text = request_for(s)
            except SettingsError as error:
                s.link_pending = False
                st.warning(t("The tokenizer this link describes cannot be trained: {error}", error=t(error.message)))
            else:
                already = s.trained is not None and s.trained.request.key == request.key
                asked_round = s.round  # the link's round, which storing a new tokenizer would reset
                if already or offer(s, request, text, N_("This link shows"), key="link") is not None:
                    s.link_pending = False
                    s.round = asked_round
    if s.trained is None:
        _quick_train(s, what)
    return s.trained


def corpus_missing(s: Session) -> bool:
    return (s.corpus == PASTE and s.pasted is None) or (s.corpus == UPLOAD and s.upload is None)


def _quick_train(s: Session, what: str) -> None:
    st.info(t("No tokenizer trained yet in this session. Train one to {what}.", what=t(what)))
    try:
        request, text = request_for(s)
    except SettingsError as error:
        st.warning(t(error.message))
    else:
        clicked = st.button(t("▶ Train {label} now", label=plain(request.label)), type="primary", key="quick_train")
        if clicked and run(s, request, text, key="quick") is not None:
            st.rerun()  # draw the page with its tokenizer
    st.page_link("pages/0_Train.py", label=t("Or choose a corpus and settings on the Train page"),
                 icon=":material/tune:")
