"""What an uploader shows under itself, the same on Train (the corpus) and Compare (held-out text):
why the last file was refused, which file is still in use, and how many bytes were not valid text.

A refused file never takes the last good one's place: the message names what was wrong and the
caption says which text is still measured or trained on.
"""

from __future__ import annotations

import streamlit as st

from playground.i18n import N_, t
from playground.text import plain
from playground.text_files import Upload


def upload_status(upload: Upload | None, problem: str) -> None:
    """The refusal (if any), then the text in use (if any) and its replaced bytes."""
    if problem:
        st.error(plain(problem, limit=500), icon=":material/error:")
    if upload is None:
        return
    using = N_("Still using {name}: {n:,} characters.") if problem else N_("Using {name}: {n:,} characters.")
    st.caption(t(using, name=plain(upload.name), n=len(upload.text)))
    if upload.replaced_bytes:
        n, name = upload.replaced_bytes, plain(upload.name)
        st.warning(
            t("{name} is not valid text: {n:,} bytes were replaced by � (U+FFFD).", name=name, n=n)
            if n != 1
            else t("{name} is not valid text: 1 byte was replaced by � (U+FFFD).", name=name),
            icon=":material/warning:",
        )
