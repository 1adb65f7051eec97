"""The corpus's paste and upload boxes (Train, Check), and what an uploader shows under itself, the same on
Train (the corpus) and Compare (held-out text):
why the last file was refused, which file is still in use, and how many bytes were not valid text.

A refused file never takes the last good one's place: the message names what was wrong and the
caption says which text is still measured or trained on. Compare's held-out uploader takes several files, each a
part of the held-out text (:func:`store_heldout_files`).
"""

from __future__ import annotations

import streamlit as st

from bpe_core.analysis.heldout import MAX_PART_NAME
from playground.i18n import N_, t
from playground.session import Session
from playground.text import plain
from playground.text_files import CorpusError, Upload, decode_upload
from runtime.store import text_digest
from ui.callbacks import guarded
from ui.own_text import _let_go_of, refill_paste_box, store_corpus_paste, store_corpus_upload


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


@guarded
def store_heldout_files(s: Session) -> None:
    """Held-out files were uploaded: one file is the held-out text; several are one text, each file a part opened by
    a line ``### its name`` (``bpe_core.analysis.heldout.split_sections``), so Compare measures each. A refused file
    refuses the set: the last good text stays, and why is kept for the uploader to show."""
    refused_before, s.heldout_problem = s.heldout_problem, ""
    files = s.heldout_file or []
    taken: dict[str, Upload] = {}
    for file in files:
        found = s.heldout_taken.get(file.file_id)
        if found is None:
            if not hasattr(file, "getvalue"):  # its bytes were let go of, and its text is no longer at hand
                if refused_before:  # Streamlit's second call for a refused file (a DeletedFile now): still refused
                    s.heldout_problem = refused_before
                    return
                continue
            try:
                found = decode_upload(file.getvalue(), file.name)
            except CorpusError as error:
                s.heldout_problem = t(error.message)
                return
            finally:
                _let_go_of(file)
        taken[file.file_id] = found
    s.heldout_taken = taken
    if taken:
        s.heldout_text = joined(list(taken.values()))


def joined(uploads: list[Upload]) -> Upload:
    """One upload as it is; several as one text, each opened by its ``### name`` line (names are kept short).

    >>> joined([Upload("a.py", "x = 1"), Upload("b.txt", "你好\\n")]).text
    '### a.py\\nx = 1\\n### b.txt\\n你好\\n'
    """
    if len(uploads) == 1:
        return uploads[0]
    text = "".join(
        f"### {upload.name[:MAX_PART_NAME]}\n{upload.text}" + ("" if upload.text.endswith("\n") else "\n")
        for upload in uploads
    )
    names = " + ".join(upload.name for upload in uploads)
    return Upload(names, text, sum(upload.replaced_bytes for upload in uploads), text_digest(text))
