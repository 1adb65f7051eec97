"""The corpus's paste and upload boxes (Train, Check), and what an uploader shows under itself, the same on
Train (the corpus) and Compare (held-out text):
why the last file was refused, which file is still in use, and how many bytes were not valid text.

A refused file never takes the last good one's place: the message names what was wrong and the
caption says which text is still measured or trained on.
"""

from __future__ import annotations

import streamlit as st

from playground.i18n import N_, t
from playground.session import Session
from playground.text import plain
from playground.text_files import Upload
from ui.own_text import refill_paste_box, store_corpus_paste, store_corpus_upload


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


def corpus_paste_box(s: Session, height: int) -> None:
    """The pasted corpus's box (Train, Check): its text is kept in ``s.pasted`` and comes back after a reload."""
    refill_paste_box(s)
    st.text_area(
        t("Paste your text"),
        key=Session.paste_box.key,
        height=height,
        on_change=store_corpus_paste,
        args=(s,),
        placeholder=t("Paste or type text here, then click outside the box (or press Ctrl+Enter)."),
    )
    if s.pasted is not None and not s.paste_box:
        st.caption(t("Using the stored pasted text: {n:,} characters.", n=len(s.pasted.text)))


def corpus_upload_box(s: Session) -> None:
    """The uploaded corpus's file box (Train, Check), with what it says under itself."""
    st.file_uploader(
        t("Upload a text file (UTF-8, or UTF-16/32 with a byte-order mark)"),
        type=["txt", "text", "md", "csv", "py", "json"],
        key=Session.upload_box.key,
        on_change=store_corpus_upload,
        args=(s,),
    )
    upload_status(s.upload, s.upload_problem)
