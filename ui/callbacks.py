"""The safety net of widget callbacks. A callback runs before the page script, outside the frame's own net
(``ui.frame.run_app``), so without this a bug in one would put Streamlit's traceback in the browser; with it,
the page says what failed in a message and the session's work stays as it was.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import ParamSpec

from playground import session
from playground.i18n import N_, t
from playground.text import plain
from ui import state

FAILED = N_("Something went wrong on this page:")
P = ParamSpec("P")


def failure_message(error: BaseException) -> str:
    """What the page says about an unexpected error: its type and message, as plain text (it may quote input)."""
    return t(
        "{failed} {error}: {message}. Your tokenizer and settings are kept.",
        failed=t(FAILED),
        error=plain(type(error).__name__),
        message=plain(error),
    )


def guarded(callback: Callable[P, None]) -> Callable[P, None]:
    """``callback`` as a widget's callback: an unexpected error is logged and shown on the page, not raised."""

    @functools.wraps(callback)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            callback(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 -- the net: a bug shows as a message, never a traceback
            logging.getLogger("bpe_playground").exception("callback %s failed", callback.__name__)
            s = next((arg for arg in args if isinstance(arg, session.Session)), None) or state.current()
            s.notice("error", failure_message(error))

    return run
