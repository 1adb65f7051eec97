"""This run's session: the typed face (:class:`playground.session.Session`) over ``st.session_state``.

The model package imports no Streamlit; here the two meet. Importing ``ui`` registers :func:`session_language`
as the source of ``playground.i18n.language``, so every text a page draws is in the session's language.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from playground.i18n import LANG_KEY
from playground.session import Session


def current() -> Session:
    """This run's session (Streamlit's session state)."""
    return Session(st.session_state)


def session_language() -> str | None:
    """The session's ``lang`` in a Streamlit run; None outside one (the library, a job process, a doctest)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or LANG_KEY not in ctx.session_state:
        return None
    return ctx.session_state[LANG_KEY]
