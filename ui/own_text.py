"""The user's own text entering the session: the callbacks of the paste boxes and file uploaders, the
Train page's (the corpus) and the Compare page's (held-out text: its files are taken by
``ui.uploads.store_heldout_files``) alike.

A widget's callback runs before the page draws, so the text is decoded and hashed here once, never on a
rerun; a big paste leaves its box (a widget's value travels to the server on every rerun); a refused file
never takes the last good one's place: why it was refused is kept for the uploader to show
(``ui.uploads.upload_status``) until the next file.
"""

from __future__ import annotations

from playground.corpora import PASTED
from playground.fields import Field
from playground.i18n import N_, t
from playground.session import Session, UploadedFile
from playground.text_files import CorpusError, Upload, decode_upload
from runtime.store import text_digest
from ui.callbacks import guarded

BIG_PASTE = 50_000
"""Characters; a bigger paste is moved out of its box."""


@guarded
def store_corpus_paste(s: Session) -> None:
    """The Train page's paste box was edited: its text is the pasted corpus."""
    s.pasted = _pasted(
        s,
        Session.paste_box,
        N_(
            "Pasted text stored ({n:,} characters). The box was cleared so the text is not re-sent on every click; "
            "paste again to replace it."
        ),
    )


def refill_paste_box(s: Session) -> None:
    """The stored pasted text back in its box before the box is drawn, to edit it (after a reload, say); a big
    paste stays out of it, as when it came. An empty box with text stored happens only then: emptying the box
    by hand stores no text."""
    if s.pasted is not None and not s.paste_box and len(s.pasted.text) <= BIG_PASTE:
        s.paste_box = s.pasted.text


@guarded
def store_corpus_upload(s: Session) -> None:
    """A corpus file was uploaded: keep its text, or say at the uploader why not."""
    upload = _take_upload(s, Session.upload_box, Session.upload_problem)
    if upload is not None:
        s.upload = upload


@guarded
def store_heldout_paste(s: Session) -> None:
    """Compare's held-out paste box was edited."""
    s.heldout_text = _pasted(
        s,
        Session.heldout_box,
        N_(
            "Held-out text stored ({n:,} characters). The box was cleared so the text is not re-sent on every click; "
            "paste again to replace it."
        ),
    )


PARALLEL_MAX_BYTES = 2_000_000
"""Parallel files in all: they are kept in the session's saved document, and measured on every tokenizer."""


@guarded
def store_parallel_files(s: Session) -> None:
    """Parallel files were uploaded (one per language): keep their sentences, or say at the uploader why not."""
    from bpe_core.analysis.parallel import read_parallel

    s.parallel_problem = ""
    files = s.parallel_files or []
    if not files:
        return
    contents = {file.name: file.getvalue() for file in files}
    if sum(map(len, contents.values())) > PARALLEL_MAX_BYTES:
        s.parallel_problem = t("The parallel files are too big together: at most {n:,} bytes.", n=PARALLEL_MAX_BYTES)
        return
    try:
        s.parallel_own = read_parallel(contents)
    except ValueError as error:  # the library's message names the file and what is wrong (English)
        s.parallel_problem = t("These files cannot be read as a parallel text: {error}", error=str(error))


@guarded
def forget_heldout_text(s: Session) -> None:
    """A new held-out choice: pasted and uploaded text are separate choices, so neither stands in for the other."""
    s.heldout_text = None
    s.heldout_problem = ""


def _pasted(s: Session, box: Field[str], stored: str) -> Upload | None:
    """The box's text as a pasted text (None when empty); a big one is cleared from the box with a notice
    (``stored``, counting ``n``)."""
    text = getattr(s, box.name) or ""
    if len(text) > BIG_PASTE:
        setattr(s, box.name, "")
        s.notice("info", t(stored, n=len(text)))
    return Upload(PASTED, text, 0, text_digest(text)) if text else None


def _take_upload(s: Session, uploader: Field[UploadedFile | None], problem: Field[str]) -> Upload | None:
    """The uploaded file decoded, or None: nothing uploaded, or refused (the reason kept in ``problem``)."""
    file = getattr(s, uploader.name)
    if file is not None and not hasattr(file, "getvalue"):
        # A file this session already took: its bytes were let go of, Streamlit now holds a DeletedFile in its place
        # and calls back once more. Its text is kept, or why it was refused (a binary file's reason was lost here,
        # and Train then said only "No file uploaded yet").
        return None
    setattr(s, problem.name, "")
    if file is None:  # nothing uploaded, or the file taken out of the uploader
        return None
    try:
        return decode_upload(file.getvalue(), file.name)
    except CorpusError as error:
        setattr(s, problem.name, t(error.message))
        return None
    finally:
        _let_go_of(file)


def _let_go_of(file: UploadedFile) -> None:
    """Streamlit keeps an uploaded file's bytes in the server's memory for as long as its uploader shows the file;
    its text is kept here (and in the store), so the bytes go now: 3 MB a person in a room uploading 3 MB each.
    The uploader still shows the file's name; the next run reads no file from it (its text stays here)."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    context = get_script_run_ctx(suppress_warning=True)
    if context is None or not Runtime.exists():
        return  # outside a server (AppTest): nothing to let go of
    manager = Runtime.instance().uploaded_file_mgr
    if isinstance(manager, MemoryUploadedFileManager):  # remove_file is its own: UploadedFileManager has none
        manager.remove_file(context.session_id, file.file_id)
