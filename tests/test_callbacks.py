"""Widget callbacks run before the page, outside the frame's safety net: ``ui.callbacks.guarded`` is theirs."""

from __future__ import annotations

from streamlit.runtime.uploaded_file_manager import DeletedFile

from playground.session import Session
from playground.text_files import Upload
from ui.callbacks import FAILED, guarded
from ui.own_text import store_corpus_upload


def test_a_failing_callback_says_what_failed_as_plain_text_and_keeps_the_work():
    s = Session({})
    s.vocab = 1234

    @guarded
    def breaks(s: Session) -> None:
        raise ValueError("<img src=x onerror=alert(1)> is not allowed")

    breaks(s)  # no exception reaches Streamlit (it would show a traceback)
    [(level, text)] = s.notices
    assert level == "error" and text.startswith(FAILED) and "ValueError" in text
    assert "<img" not in text.replace("\\<img", "")  # quoted input is escaped Markdown: it shows as text
    assert s.vocab == 1234


def test_a_taken_upload_whose_bytes_went_keeps_its_text():
    """After its text is kept, the uploaded file's bytes are let go of; Streamlit then puts a DeletedFile in the
    uploader's state and calls the callback again on the next rerun: the kept text stays, nothing is refused."""
    s = Session({})
    kept = Upload("corpus.txt", "the cat sat", 11, "digest")
    s.upload = kept
    s.upload_box = DeletedFile("file-id")
    store_corpus_upload(s)
    assert s.upload == kept and s.upload_problem == "" and s.notices == []
