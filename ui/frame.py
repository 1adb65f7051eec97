"""The frame around every page: the session opened once per run, the link read once, work restored
after a reload and saved after each run, the sidebar, and the "copy link" box.

``app.py`` calls :func:`run_app`. Each page starts with :func:`page`, which also covers one quirk:
on a freshly started server Streamlit runs a deep-linked page of a ``pages/`` folder by itself,
without ``app.py`` (its v1 multipage mode, until some session has called ``st.navigation``); the
page then switches that mode off and reruns, so the frame runs first and the URL is kept.
"""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlencode

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from playground import caches, i18n, links, session, workspace
from playground.corpora import PASTE, UPLOAD
from playground.i18n import N_, t
from playground.session import Session
from playground.text import plain
from runtime import jobs
from runtime.store import Removed, default_store
from ui import page_css, page_training, stage, state
from ui.callbacks import failure_message, guarded
from ui.stage import keys as talk_keys

ROOT = Path(__file__).resolve().parent.parent
PAGES = (
    # id, script, title, URL path (the old multipage paths, so links in old slides keep working), icon
    ("train", "pages/0_Train.py", N_("Train"), "", ":material/model_training:"),
    ("merges", "pages/1_Merges.py", N_("Merges"), "Merges", ":material/animation:"),
    ("encode", "pages/2_Encode.py", N_("Encode"), "Encode", ":material/text_fields:"),
    ("compare", "pages/3_Compare.py", N_("Compare"), "Compare", ":material/compare:"),
    ("export", "pages/4_Export.py", N_("Export"), "Export", ":material/download:"),
    ("talk", "pages/5_Talk.py", N_("Talk"), "Talk", ":material/co_present:"),
    ("check", "pages/6_Check.py", N_("Check your BPE"), "Check", ":material/fact_check:"),
)
_PATHS = {page: path for page, _, _, path, _ in PAGES}
COOKIE = "bpe_browser"
PAGE_TOOLS_KEY = "bpe.page_tools"
_page_tools = st.components.v2.component(
    "bpe_playground.page_tools",
    js=(Path(__file__).parent / "page_tools.js").read_text(encoding="utf-8"),
    css=page_css.LINK_BOX_CSS,
)


def run_app() -> None:
    """The whole app: navigation over the pages, with the session opened before the page runs."""
    _start_services()
    s = state.current()
    _open(s)  # first: the language decides the page titles
    st.set_page_config(page_title=t("BPE Playground"), page_icon="🔤", layout="wide")
    pages = [
        st.Page(str(ROOT / script), title=t(title), url_path=path or None, icon=icon, default=not path)
        for _, script, title, path, icon in PAGES
    ]
    navigation = st.navigation(pages, position="sidebar")
    language_switch()
    link_slot = st.sidebar.container()
    with link_slot:
        st.html(page_css.PAGE_STYLE)  # in the sidebar: a style element in the main column would leave a gap
        stage.apply(s.talk)
        st.toggle(
            t("Talk mode"),
            key=Session.talk.key,
            help=t("Big text for a projector; press ? for the keys."),
            persist_state="session",
        )
    try:
        navigation.run()
    except PageDone:
        pass
    except Exception as error:  # the last safety net: a bug shows as a message, never a traceback
        logging.getLogger("bpe_playground").exception("page failed")
        st.error(failure_message(error))
    finally:  # also when the page stops or reruns early: the work is saved, the link box filled
        _save(s)
        with link_slot:
            _link_box(s)
            talk_keys.mount(s, [(page_id, path) for page_id, _, _, path, _ in PAGES])
        s.scroll_to = ""
        _let_go(s)
        caches.report()  # what the caches hold now, for a bench (only when BPE_CACHE_REPORT names a file)


def _let_go(s: Session) -> None:
    """The session's tokenizers forget what encoding remembered during this run (up to ~20 MB each after a
    megabyte of text): a room's sessions keep their tokenizers between runs, not those caches. The texts the
    pages measure are remembered as results (``ui.compare.common``), so the next run encodes little again."""
    tokenizers = [*s.loaded.values(), *([s.trained.tokenizer] if s.trained is not None else [])]
    for tokenizer in tokenizers:
        tokenizer.forget_encodings()


@st.cache_resource(show_spinner=False)
def _start_services() -> bool:
    """Once per server: the job runner's spare process, and the timer that hands ended sessions'
    memory back to the system (Streamlit has no session-end hook)."""
    jobs.default_runner()
    jobs.release_memory_every(30)
    return True


def language_switch() -> None:
    """``English | 简体中文`` at the top of the sidebar, bound to ``Session.lang`` (in links as ``lang``).

    Its label is in both languages, so whoever cannot read the current one still finds it.
    """
    st.sidebar.segmented_control(
        "Language · 语言",
        tuple(i18n.LANGUAGES),
        format_func=i18n.LANGUAGES.__getitem__,
        key=session.Session.lang.key,
        required=True,
        persist_state="session",
        on_change=_keep_choices,
    )


@guarded
def _keep_choices() -> None:
    """A selectbox sends back the text of its option, which the new language no longer has (its value would
    become that text): every field is set again here, where the old texts still map to their options."""
    for field in session.FIELDS.values():
        if not field.uploader and field.key in st.session_state and field is not session.Session.lang:
            st.session_state[field.key] = st.session_state[field.key]


def scroll_into_view(element_id: str) -> None:
    """Ask the browser to scroll to an element drawn in this run (e.g. a result below the fold)."""
    state.current().scroll_to = element_id


class PageDone(Exception):
    """Raised by :func:`stop`: the page has drawn all it can; the frame still saves and writes the link."""


def stop() -> NoReturn:
    """End the page here (``st.stop`` would also stop the frame's work after the page)."""
    raise PageDone


def page(page_id: str) -> Session:
    """The first call of every page script: the session, and the page noted for its link."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        # The server's first run: the job runner's spare process starts here, a run earlier, as it needs
        # ~0.2 s to be ready and a deep link's training is asked for within that time.
        _start_services()
        st.rerun()
    s = state.current()
    s.page = page_id
    shown = [*(s.shown_notices if s.width_rerun else []), *s.notices]
    for level, text in shown:
        getattr(st, level)(t(text) if isinstance(text, i18n.Later) else text)
    s.notices.clear()
    s.shown_notices, s.width_rerun = shown, False
    if page_id != "train":  # the Train page says it under its button, where the progress bar was
        page_training.cancel_notice(s)
    return s


# -- opening: browser, reload, link -----------------------------------------------------------------


def _params() -> dict[str, list[str]]:
    return {key: st.query_params.get_all(key) for key in st.query_params}


def _open(s: Session) -> None:
    s.initialize()
    params = _params()
    first_run = not s.browser
    if first_run:
        cookie = st.context.cookies.get(COOKIE)
        s.browser = cookie if isinstance(cookie, str) and 0 < len(cookie) <= 64 else secrets.token_hex(16)
    other = st.session_state.get(PAGE_TOOLS_KEY, {}).get("browser")
    if isinstance(other, str) and other != s.browser and len(other) <= 64:
        default_store().claim(s.browser, other)  # another tab of this browser set the cookie first
        s.browser = other
    restored: Removed | bool = False
    if first_run:
        wanted = links.workspace_id(params)
        if wanted:
            restored = workspace.restore(s, wanted)
        s.workspace = wanted or secrets.token_hex(8)
    signature = links.signature({key: ",".join(values) for key, values in params.items()})
    if signature not in s.link_signatures:
        _note_signature(s, signature)
        _apply_link(s, params, own=restored is not False)
    if s.lang not in i18n.LANGUAGES:
        s.lang = i18n.browser_language(st.context.locale)
    if first_run and restored is False and "corpus" not in params:
        links.start_in_the_language(s, params.keys())
    if isinstance(restored, Removed):  # said once the link's settings (its corpus) are read
        s.notice("warning", workspace.removal_message(restored, own_text=s.corpus in (PASTE, UPLOAD)))


def _note_signature(s: Session, signature: str, keep: int = 3) -> None:
    if not s.link_signatures or s.link_signatures[-1] != signature:
        s.link_signatures = (*s.link_signatures[-(keep - 1) :], signature)


def _apply_link(s: Session, params: dict[str, list[str]], *, own: bool) -> None:
    """A link's values into the session. A stranger's link (not ``own``: not this tab's reload) that names a
    tokenizer asks for it to be trained (``ensure``); a reload's link is the tab's own settings."""
    values, problems = links.parse_link(params)
    for name, value in values.items():
        setattr(s, name, value)
    if s.lang not in i18n.LANGUAGES:  # the problems are told in the language this session starts in
        s.lang = i18n.browser_language(st.context.locale)
    for problem in problems:
        s.notice("warning", plain(t(problem.message), limit=400))
    if set(values) & set(session.TOKENIZER_FIELDS) and not own:
        s.link_pending = True


# -- saving -----------------------------------------------------------------------------------------


def _save(s: Session) -> None:
    """Keep the work for a reload; a failure says so as a message (the work stays in this session), never a
    traceback."""
    error = workspace.save_logged(s)
    if error is not None:  # the page already ran: what it shows must not be lost to this
        st.warning(
            t(
                "Your work could not be kept for a reload ({kind}: {error}); it stays here until you close the tab.",
                kind=plain(type(error).__name__),
                error=plain(str(error), limit=200),
            )
        )


# -- the link -----------------------------------------------------------------------------------------


def link_params(s: Session) -> dict[str, str]:
    """What the link to the current view carries: the page's fields, the tokenizer as trained."""
    params = links.link_params(s, s.page)
    if s.page not in ("train", "talk", "check") and s.trained is not None:  # a check is not of the tokenizer
        params.update(links.tokenizer_params(s.trained.request.settings()))
    return params


def _link_box(s: Session) -> None:
    params = link_params(s)
    address = {**params, links.WORKSPACE_PARAM: s.workspace} if s.workspace else params
    if {key: ",".join(values) for key, values in _params().items()} != address:
        st.query_params.from_dict(address)
    _note_signature(s, links.signature(address))
    base = links.page_address(st.context.url or "", st.get_option("server.baseUrlPath") or "", _PATHS[s.page])
    st.caption(":material/link: " + t("Link to this view (copy with the icon)"))
    # The link is drawn by the page's own small component, not st.code: st.code loads a 1.5 MB syntax
    # highlighter whose parsing held Chromium's main thread ~0.3 s on every fresh page (measured).
    _page_tools(
        key=PAGE_TOOLS_KEY,
        data={
            "known": s.browser,
            "cookie": COOKIE,
            "scroll": s.scroll_to,
            "nonce": secrets.token_hex(4),
            "link": f"{base}?{urlencode(params, safe=',')}",
            "copy": t("Copy the link"),
            "talk": bool(s.talk),
        },
        default={},
        on_browser_change=lambda: None,
    )
    notes = []
    if params.get("corpus") in (PASTE, UPLOAD):
        notes.append(t("Pasted and uploaded text never goes into a link: whoever opens it is asked for the text."))
    if s.trained is not None:
        notes.append(t("Tokenizer: {label}", label=plain(s.trained.label)))
    if notes:
        st.caption(" ".join(notes))
