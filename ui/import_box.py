"""The one import box (Export and Encode): upload a tokenizer's files and load them.

Everything bpe_core writes loads back here, the GPT-2 zip included (checked against size limits before anything is
extracted). A file that holds no pre-tokenization pattern (a tiktoken file of no known model, GPT-2's pair) is
loaded with the pattern the box chooses (a named one or a regex); a loaded tokenizer is named by its files and by
what it is (a recognised model's file by its model), never over another one; every error is shown as plain text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from bpe_core import PATTERNS
from bpe_core.formats import GPT2_ASSUMED, NOT_GIVEN
from playground.file_labels import loaded_label, pattern_shown
from playground.i18n import N_, t
from playground.session import Session
from playground.text import code_span, plain
from playground.tokenizer_files import PatternNeeded, check_one_set, load_files, unpack
from ui import export
from ui.tokenizer_output import LOADED

MAX_REGEX = 1_000


IMPORT_AUTO = "auto"
IMPORT_REGEX = "regex"
IMPORT_PATTERNS = (IMPORT_AUTO, *PATTERNS, IMPORT_REGEX)
"""The import box's pattern choices: the file's own (or its model's), a named pattern, or a regex."""


def pattern_argument(choice: str, regex: str) -> Any:
    """What ``bpe_core.load`` gets as ``pattern=`` for the box's choice (NOT_GIVEN: the file's own)."""
    if choice == IMPORT_REGEX:
        if not regex.strip():
            raise ValueError(t("Type the pattern's regex first."))
        if len(regex) > MAX_REGEX:
            raise ValueError(t("A pattern's regex can be at most {n:,} characters.", n=MAX_REGEX))
        return regex
    return NOT_GIVEN if choice == IMPORT_AUTO else choice


def pattern_note(tokenizer: Any) -> str:
    """Which pattern a loaded tokenizer runs with and where it came from (Markdown-safe). A file of another family
    has no pattern but a pre-tokenizer of its own (a pipeline), or none (SentencePiece): "none (stored in the file)"
    said DeepSeek's three Splits were missing."""
    how = tokenizer.pre_tokenization
    if how.stages is not None:  # a Hugging Face pipeline: its stages, as the file gives them
        if not how.stages:
            return t("Pre-tokenization: none (the file has no pre-tokenizer).")
        shown = how.stages if len(how.stages) <= 160 else how.stages[:160] + "…"
        return t("Pre-tokenization: the file's own pre-tokenizer, {stages}.", stages=code_span(shown))
    if how.whole_text:  # SentencePiece: BPE on the whole normalized text
        return t("Pre-tokenization: none: SentencePiece runs BPE on the whole (normalized) text, spaces as ▁.")
    if how.whitespace:  # classic BPE
        return t("Pre-tokenization: the whitespace-separated words, each ending in </w>.")
    source = how.source or ""
    if source == GPT2_ASSUMED:  # not read from the files: say so, and how to load them with another
        return t(
            "Pre-tokenization pattern: gpt2, assumed: vocab.json + merges.txt store no pattern. If the tokenizer was "
            "trained with another (the Export page names it), choose it under Pattern and load the files again."
        )
    if source.startswith("recognised"):
        where = t("recognised by the file's SHA-256")
    else:
        where = t("chosen here") if source == "given" else t("stored in the file")
    shown = pattern_shown(tokenizer)  # a name, or a regex: copied exactly from a code span
    pattern = plain(shown) if shown in PATTERNS else code_span(shown)
    return t("Pre-tokenization pattern: {pattern} ({where}).", pattern=pattern, where=where)


def select_loaded(s: Session, label: str) -> None:
    """A tokenizer just loaded from files becomes the one Encode, Compare and Export show (their "Encode →" and
    "Compare →" links then open on it)."""
    choice = LOADED + label
    s.tokenizer = s.compared = s.exported = choice
    export.keep_a_format_that_holds(s)


def import_box(
    s: Session,
    key: str,
    on_loaded: Callable[[str], None] | None = None,
    now_where: str = N_("It is now selectable on Encode and Compare."),
) -> None:
    """Upload one set of tokenizer files and load them (the messages say which set was loaded, and ``now_where``
    where it is now shown: a page whose own choice switches to it says so).

    Loading runs in the button's callback, before the page draws its widgets, so ``on_loaded(label)``
    may select the new tokenizer in a widget of the page.
    """
    files_key = f"{key}_files_{s.import_round}"

    def refused(message: str, keep_files: bool = False) -> None:
        """Keep why (shown under the box until the next load) and empty the box: a refused file left in it would
        stand in the way of the next one (``import_round`` names a new uploader). Files that only need a pattern
        stay, so that choosing one and clicking again is all it takes (emptied, they had to be found again)."""
        s.import_problem = message
        if not keep_files:
            s.import_round += 1

    def load() -> None:
        uploads = st.session_state.get(files_key) or []
        try:
            check_one_set([upload.name for upload in uploads])
            files = [file for upload in uploads for file in unpack(upload.name, upload.getvalue())]
            tokenizer, fmt = load_files(files, pattern_argument(s.import_pattern, s.import_regex))
            # what the tokenizer is, and the files as the user named them; never over another one
            label = loaded_label(s.loaded, " + ".join(upload.name for upload in uploads), tokenizer, fmt)
        except ValueError as error:
            refused(
                t(
                    "{error}. Nothing was changed: the tokenizers stay as they were.",
                    error=plain(error, limit=600).rstrip("."),
                ),
                keep_files=isinstance(error, PatternNeeded),
            )
            return
        except Exception as error:  # noqa: BLE001 -- a hostile file must not put a traceback in the browser
            refused(
                t(
                    "Could not load a tokenizer: {kind}: {error}. Nothing was changed.",
                    kind=plain(type(error).__name__),
                    error=plain(error),
                )
            )
            return
        s.loaded[label] = tokenizer
        s.import_problem = ""
        s.import_round += 1  # a new, empty uploader: the next load does not carry these files along
        if on_loaded is not None:
            on_loaded(label)
        loaded_message = t("Loaded {label}.", label=plain(label)) + " " + t(now_where)
        s.notice("success", loaded_message + " " + pattern_note(tokenizer))

    uploads = st.file_uploader(
        t(
            "Tokenizer file(s): bpe-playground.json, tokenizer.json (Hugging Face), *.tiktoken, Mistral's "
            "tekken.json, a SentencePiece .model, vocab.json + merges.txt together, or the GPT-2 zip"
        ),
        accept_multiple_files=True,
        key=files_key,
    )
    explained = t(
        "A tiktoken file of no known model, or vocab.json + merges.txt, holds no pre-tokenization pattern: choose the "
        "one it was trained with. The file's own: the pattern the file stores, or its model's when the file is "
        "recognised."
    )
    pattern_key = Session.import_pattern.key
    st.selectbox(
        t("Pattern"),
        IMPORT_PATTERNS,
        format_func=pattern_choice_label,
        key=pattern_key,
        persist_state="session",
        help=explained,
    )
    if s.import_pattern == IMPORT_REGEX:
        st.text_input(t("Regex"), key=Session.import_regex.key, max_chars=MAX_REGEX, persist_state="session")
    st.button(t("Load tokenizer"), key=f"{key}_load", disabled=not uploads, on_click=load)
    if s.import_problem:
        st.error(s.import_problem, icon=":material/error:")  # (Markdown-safe: made with plain())


def pattern_choice_label(choice: str) -> str:
    if choice == IMPORT_AUTO:
        return t("the file's own")
    return t("a regex") if choice == IMPORT_REGEX else choice
