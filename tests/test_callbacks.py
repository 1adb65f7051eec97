"""Widget callbacks run before the page, outside the frame's safety net: ``ui.callbacks.guarded`` is theirs."""

from __future__ import annotations

from streamlit.runtime.uploaded_file_manager import DeletedFile

from playground.session import Session
from playground.text_files import Upload
from ui.callbacks import FAILED, guarded
from ui.own_text import store_corpus_upload
from ui.uploads import store_heldout_files


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


def test_a_refused_upload_whose_bytes_went_keeps_its_reason():
    """The same second call after a refused file (a binary one): the reason stays for the uploader and for Train."""
    s = Session({})
    s.upload_problem = "ls.txt looks like a binary file (it contains NUL bytes), not text."
    s.upload_box = DeletedFile("file-id")
    store_corpus_upload(s)
    assert s.upload is None and s.upload_problem.startswith("ls.txt looks like a binary file")
    s.upload_box = None  # the file taken out of the uploader: nothing to say any more
    store_corpus_upload(s)
    assert s.upload_problem == ""


def test_a_refused_heldout_file_whose_bytes_went_keeps_the_set_refused():
    """Compare's held-out files alike: the second call found no bytes, skipped the refused file, took the others and
    cleared the reason, so a set with a binary file in it was measured without it and without a word."""
    s = Session({})
    good = Upload("a.txt", "held out", 0, "digest")
    s.heldout_taken, s.heldout_text = {"good-id": good}, good
    s.heldout_problem = "b.bin looks like a binary file (it contains NUL bytes), not text."
    s.heldout_file = [DeletedFile("good-id"), DeletedFile("refused-id")]
    store_heldout_files(s)
    assert s.heldout_problem.startswith("b.bin looks like a binary file") and s.heldout_text == good
