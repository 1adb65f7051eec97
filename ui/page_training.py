"""The one way anything is trained, page side: :func:`train` draws the progress bar and Cancel over
``playground.runs.train`` (the cache, the runs shared by sessions, the job). The Train button, a link, Compare's
algorithms, the parity pair, the superword twin and the talk's steps all call it.

A session's own tokenizer (:func:`run`) is checked before any work (``playground.train_form.request_for``: corpus
present, pattern valid, vocab size within what the corpus can make), served from a cache when the same request was
trained before (per session, and across sessions so a room opening one link trains it once), and otherwise run as
a job in a worker process with a progress bar and a Cancel button that stops the CPU for real.
"""

from __future__ import annotations

import os

import streamlit as st

from playground import runs, workspace
from playground.bases import found_base, is_file, own_format
from playground.corpora import PASTE, UPLOAD, sample_name
from playground.extend_form import vocab_problem
from playground.i18n import N_, t
from playground.session import Session
from playground.text import human_bytes, plain
from playground.train_form import SettingsError, estimate_seconds, request_for
from playground.trained import Request, Trained
from ui.progress_bar import cancel_clicked, job_bar

AUTO_TRAIN_SECONDS = float(os.environ.get("BPE_AUTO_TRAIN_SECONDS", "5"))
"""A link (or a talk step) may start training by itself only when the estimate is below this; above, it asks for
a click."""


def cached(s: Session, request: Request) -> Trained | None:
    """The result of ``request`` if this session, or the shared cache, has it."""
    return runs.cached(request, s.results)


def store(s: Session, trained: Trained) -> None:
    """Make ``trained`` the session's tokenizer; the Merges page opens on its last round. A tokenizer that continues
    a built-in model puts that model among the references Compare shows (before and after, side by side); a loaded
    base is among the loaded files already."""
    runs.remember(trained, s.results)
    before, s.trained = s.trained, trained
    s.round = None
    base = trained.request.base
    if base and not is_file(base) and base not in s.refs:
        s.refs = [*s.refs, base]
    if base and trained is not before:  # exported in its base's own format, unless chosen otherwise since
        s.format = own_format(base)


# -- running ----------------------------------------------------------------------------------------


SESSION_JOBS = ("train", "quick", "link")
"""Keys of the jobs that train the session's own tokenizer (``run``'s)."""
STOPPED = runs.STOPPED
"""What a job can end in besides its result: a limit, Cancel, a crash; bad settings from the library."""


def train(
    s: Session, request: Request, text: str, label: str, *, key: str, cancelled: str, own: bool = False
) -> Trained:
    """``request`` trained on ``text`` (``playground.runs.train``: from the cache, or after another session's run
    of it, or as a killable job), with a progress bar titled ``label`` and a Cancel button; ``own``: the session's
    own tokenizer (kept with the session's results), else a helper training (kept in the shared cache).

    A click on Cancel reruns the script: Streamlit raises inside the next ``bar.progress`` and runtime.jobs
    kills the job; ``cancelled`` is shown once on the next run. Closing the tab ends the session the
    same way. The exceptions in :data:`STOPPED` propagate.
    """
    results = s.results if own else None
    if runs.cached(request, results) is not None:  # no bar, no button: nothing to wait for
        return runs.train(request, text, results=results)
    base = found_base(request.base, s.loaded) if is_file(request.base) else None  # a built-in one goes by name
    if key in SESSION_JOBS:
        s.training_label = request.label  # cleared below when the job ends; a stopped run leaves it (cancel_notice)
        # Saved now: a reload ends this run (and the job), and the new page restores what was saved before the old
        # run is stopped and saves again. A failure is said by the run's own save, after the training.
        workspace.save_logged(s)
    with job_bar(s, label, key=key, cancelled=cancelled, on_cancel=_cancel_clicked) as bar:
        try:
            trained = runs.train(
                request,
                text,
                bar.progress,
                results=results,
                on_wait=lambda seconds: bar.waiting(seconds, request.label),
                base=base,
            )
        except STOPPED:
            s.training_label = ""
            raise
    s.training_label = ""
    return trained


def _cancel_clicked(s: Session, key: str, cancelled: str) -> None:
    """:func:`ui.progress_bar.cancel_clicked`, and for a training: a cancelled training of the session's tokenizer puts
    the settings back to the tokenizer still shown (before any widget is drawn), so the vocab size on screen is the
    shown tokenizer's, not the cancelled one's; a talk step's waits for a click; a link's is not trained again by
    itself on the next run."""
    if s.running_job == key:
        if key in SESSION_JOBS and s.trained is not None:
            for name, value in s.trained.request.settings().items():
                if value is not None:
                    setattr(s, name, value)
        if key not in SESSION_JOBS and key not in s.stopped_jobs:
            s.stopped_jobs = (*s.stopped_jobs, key)
        if key == "link":
            s.link_pending = False
    if key in SESSION_JOBS:
        s.training_label = ""  # Cancel says so itself
    cancel_clicked(s, key, cancelled)


def cancel_notice(s: Session) -> None:
    """Say here, once, that the last job was cancelled (the Train page: under its button, where the bar was;
    other pages: at the top, from ``ui.frame.page``), or that the session's training stopped unasked."""
    if s.cancelled:
        st.warning(s.cancelled, icon=":material/cancel:")
        s.cancelled = ""
    if s.training_label:  # still set: the run that trained was stopped before the job ended
        kept = (
            t("No tokenizer was trained; click Train to run it again.")
            if s.trained is None
            else t("The tokenizer shown is still the previous one; click Train to run it again.")
        )
        stopped = t(
            "The training of {label} stopped before it finished: a training runs only while its page waits for it, "
            "and the page was left, changed or reloaded.",
            label=plain(s.training_label),
        )
        st.warning(f"{stopped} {kept}", icon=":material/cancel:")
        s.training_label = ""


def run(s: Session, request: Request, text: str, *, key: str = "train") -> Trained | None:
    """Train ``request`` (or take it from a cache) as the session's tokenizer, store it, and return it; None after a
    shown error."""
    if s.trained is None:
        cancelled = t("Training cancelled. No tokenizer was trained.")
    else:
        cancelled = t(
            "Training cancelled. The tokenizer shown is still the previous one, and the settings are "
            "back to it: {label}.",
            label=plain(s.trained.label),
        )
    try:
        trained = train(
            s, request, text, t("Training {label}", label=request.label), key=key, cancelled=cancelled, own=True
        )
    except STOPPED as failure:
        st.error(t("Training stopped: {reason}. The previous tokenizer is kept.", reason=plain(failure, limit=600)))
        return None
    store(s, trained)
    return trained


def affordable(s: Session, request: Request, text: str, why: str, *, key: str, own: bool = True) -> bool:
    """Whether ``request`` may be trained now without asking: it is cached, or its estimate is within
    :data:`AUTO_TRAIN_SECONDS` and its job (``key``) was not cancelled in this session; else show the estimate and a
    button, and say whether it was clicked."""
    if runs.cached(request, s.results if own else None) is not None:
        return True
    n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    seconds = estimate_seconds(request, n_bytes)
    if seconds <= AUTO_TRAIN_SECONDS and key not in s.stopped_jobs:
        return True
    st.info(
        t(
            "{why} {label} on {size} of text: about {n:,.0f} s of training. It starts only when you click.",
            why=t(why),
            label=plain(request.label),
            size=human_bytes(n_bytes),
            n=seconds,
        )
    )
    if not st.button(t("Train it ▶"), type="primary", key=f"{key}_confirm"):
        return False
    s.stopped_jobs = tuple(each for each in s.stopped_jobs if each != key)
    return True


def offer(s: Session, request: Request, text: str, why: str, *, key: str) -> Trained | None:
    """Train the session's tokenizer by itself when cheap; above the budget, show the estimate and train only on a
    click."""
    return run(s, request, text, key=key) if affordable(s, request, text, why, key=key) else None


def ensure(s: Session, what: str) -> Trained | None:
    """The tokenizer a page shows: the one a just-opened link describes (trained if cheap, else on a
    click), or the session's; with none, one click trains the Train page's settings."""
    missing_said = settings_said = False  # said already: the page says each problem once
    if s.link_pending:
        if s.corpus in (PASTE, UPLOAD) and corpus_missing(s):
            s.link_pending, missing_said = False, True
            st.warning(
                t(
                    "This link was made with your own text ({corpus}), which never travels in links: add the text "
                    "on the Train page to train this tokenizer. Nothing else was substituted.",
                    corpus=sample_name(s.corpus),
                )
            )
        else:
            try:
                request, text = request_for(s)
            except SettingsError as error:
                s.link_pending, settings_said = False, True
                # The Train page's form says a continued base's vocab problem itself, just above.
                if not (s.page == "train" and vocab_problem(s) is not None):
                    st.warning(
                        t("The tokenizer this link describes cannot be trained: {error}", error=t(error.message))
                    )
            else:
                already = s.trained is not None and s.trained.request.key == request.key
                asked_round = s.round  # the link's round, which storing a new tokenizer would reset
                if already or offer(s, request, text, N_("This link shows"), key="link") is not None:
                    s.link_pending = False
                    s.round = asked_round
    if s.trained is None and s.page != "train":  # the Train page has its own button and says so itself
        _quick_train(s, what, missing_said, settings_said)
    return s.trained


def corpus_missing(s: Session) -> bool:
    return (s.corpus == PASTE and s.pasted is None) or (s.corpus == UPLOAD and s.upload is None)


def _quick_train(s: Session, what: str, missing_said: bool, settings_said: bool) -> None:
    st.info(t("No tokenizer trained yet in this session. Train one to {what}.", what=t(what)))
    if not corpus_missing(s):
        _quick_train_button(s, settings_said)
    elif not missing_said:  # only the Train page takes a text: "upload a .txt file first" read as if here
        st.warning(
            t(
                "The corpus chosen on the Train page is your own text ({corpus}), not added yet: add it there to "
                "train.",
                corpus=sample_name(s.corpus),
            )
        )
    st.page_link(
        "pages/0_Train.py", label=t("Or choose a corpus and settings on the Train page"), icon=":material/tune:"
    )


def _quick_train_button(s: Session, settings_said: bool) -> None:
    try:
        request, text = request_for(s)
    except SettingsError as error:
        if not settings_said:  # a link's settings: said once above ("The tokenizer this link describes ...")
            st.warning(t(error.message))
        return
    clicked = st.button(t("▶ Train {label} now", label=plain(request.label)), type="primary", key="quick_train")
    if clicked and run(s, request, text, key="quick") is not None:
        st.rerun()  # draw the page with its tokenizer
