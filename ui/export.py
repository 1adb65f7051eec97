"""Formats in and out: the files the Export page offers, and the one import box (Export and Encode).

Everything bpe_core writes loads back here, the GPT-2 zip included. A zip is checked against size
limits before anything is extracted, and every error is shown as plain text.
"""

from __future__ import annotations

import io
import re
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from bpe_core import TokenizerShape, formats
from bpe_core.formats.archive import read_zip
from playground.i18n import N_, t
from playground.kinds import kind_of
from playground.session import Session
from playground.text import plain
from playground.trained import Request
from ui.tokenizer_output import LOADED

LABELS = {
    "gpt2": N_("GPT-2 (zip)"),
    "tiktoken": N_("tiktoken ranks"),
    "hf": N_("Hugging Face"),
    "bpe-playground": N_("Project JSON"),
}
HELP = {
    "gpt2": N_("vocab.json + merges.txt, zipped together"),
    "tiktoken": N_("one base64 token and its rank per line"),
    "hf": N_("tokenizer.json for the Hugging Face tokenizers library"),
    "bpe-playground": N_("this project's format, with the training settings"),
}
"""Shown with playground.i18n.t."""
MIME = {
    "gpt2": "application/zip",
    "tiktoken": "text/plain",
    "hf": "application/json",
    "bpe-playground": "application/json",
}
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def export_files(tokenizer: Any, fmt: str, training: dict | None = None) -> dict[str, bytes]:
    """The download for one format: ``{file name: bytes}``; GPT-2's two files come as one zip."""
    if fmt not in formats.FORMATS:
        raise ValueError(f"{fmt!r} is not an export format: the formats are {', '.join(formats.FORMATS)}")
    with tempfile.TemporaryDirectory(prefix="bpe-export-") as tmp:
        paths = formats.save(tokenizer, tmp, fmt, training=training if fmt == "bpe-playground" else None)
        if fmt == "gpt2":
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
                for path in paths:
                    zipped.write(path, Path(path).name)
            return {"tokenizer-gpt2.zip": buffer.getvalue()}
        return {Path(path).name: Path(path).read_bytes() for path in paths}


@dataclass(frozen=True)
class File:
    name: str
    data: bytes


def unpack(name: str, data: bytes) -> list[File]:
    """An uploaded file, or the members of an uploaded zip (the GPT-2 download), within bpe_core's limits."""
    if not name.lower().endswith(".zip"):
        return [File(name, data)]
    return [File(member, content) for member, content in read_zip(data, name).items()]


def load_files(files: list[File]) -> tuple[Any, str]:
    """A tokenizer from one file, or vocab.json + merges.txt together; ValueError says what is wrong."""
    if not files:
        raise ValueError(t("Choose a tokenizer file first."))
    with tempfile.TemporaryDirectory(prefix="bpe-upload-") as tmp:
        names = []
        for file in files:
            safe = _SAFE_NAME.sub("_", Path(file.name).name).lstrip(".") or "tokenizer"
            (Path(tmp) / safe).write_bytes(file.data)
            names.append(safe)
        target = Path(tmp) if len(files) > 1 else Path(tmp) / names[0]
        try:
            tokenizer = formats.load(target)
            if not isinstance(tokenizer, TokenizerShape):  # a SentencePiece model: not yet the shape the views ask
                reason = "a SentencePiece model; bpe_core.load reads it, the app cannot show it yet"
                raise formats.FormatError(names[0], reason)
        except (ValueError, FileNotFoundError, KeyError, UnicodeDecodeError) as error:
            message = str(error).replace(tmp + "/", "").replace(tmp, "upload")
            raise ValueError(
                t("Could not load a tokenizer from {files}: {error}", files=", ".join(names), error=message)
            ) from None
    return tokenizer, " + ".join(file.name for file in files)


def check_one_set(names: list[str]) -> None:
    """Several files load together only as the GPT-2 pair; anything else is one file at a time, so a
    stray file is named instead of being silently ignored next to a good one.

    >>> check_one_set(["vocab.json", "merges.txt"])
    >>> check_one_set(["tokenizer.json", "notes.txt"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: Load one tokenizer at a time: tokenizer.json, notes.txt are 2 files; ...
    """
    if len(names) <= 1:
        return
    vocab = [name for name in names if Path(name).name in formats.GPT2_VOCAB_NAMES]
    merges = [name for name in names if Path(name).name in formats.GPT2_MERGES_NAMES]
    if len(names) != 2 or len(vocab) != 1 or len(merges) != 1:
        raise ValueError(
            t(
                "Load one tokenizer at a time: {files} are {n} files; only vocab.json + merges.txt "
                "(or encoder.json + vocab.bpe) go together. Remove the others from the box.",
                files=", ".join(names),
                n=len(names),
            )
        )


SUPERWORD_REFUSAL = N_(
    "a superword tokenizer cannot be saved in {fmt} format: {fmt} files do not store the "
    "pre-tokenization pattern, and its tokens span words only with its own pattern; save it as "
    "bpe-playground or hf"
)
"""``bpe_core``'s refusal (``refuse_superword``), word for word: shown in the session's language (tests hold the
English to the library's)."""


def export_error(error: Exception, fmt: str) -> str:
    """Why ``fmt`` cannot hold the tokenizer, as text (not yet escaped): the library's message, translated when it
    is the refusal of a superword tokenizer."""
    if str(error) == SUPERWORD_REFUSAL.format(fmt=fmt):
        return t(SUPERWORD_REFUSAL, fmt=fmt)
    return str(error)


def training_info(request: Request, seconds: float) -> dict[str, Any]:
    """What the project's JSON keeps of how the tokenizer was trained (the superword settings too)."""
    info = {
        "corpus": request.corpus_label,
        "vocab_size": request.vocab_size,
        "pattern": request.pattern,
        "special_tokens": list(request.special_tokens),
        "seconds": round(seconds, 3),
    }
    if kind_of(request.kind).uses("transition"):  # superword tokens' stages
        info.update(kind=request.kind, transition=request.transition, max_words=request.max_words)
    return info


def select_loaded(s: Session, label: str) -> None:
    """A tokenizer just loaded from files becomes the one Encode, Compare and Export show (their "Encode →" and
    "Compare →" links then open on it)."""
    choice = LOADED + label
    s.tokenizer = s.compared = s.exported = choice


def import_box(s: Session, key: str, on_loaded: Callable[[str], None] | None = None) -> None:
    """Upload one set of tokenizer files and load them (the messages say which set was loaded).

    Loading runs in the button's callback, before the page draws its widgets, so ``on_loaded(label)``
    may select the new tokenizer in a widget of the page.
    """
    files_key = f"{key}_files_{s.import_round}"

    def load() -> None:
        uploads = st.session_state.get(files_key) or []
        try:
            check_one_set([upload.name for upload in uploads])
            files = [file for upload in uploads for file in unpack(upload.name, upload.getvalue())]
            tokenizer, _ = load_files(files)
            label = " + ".join(upload.name for upload in uploads)  # the files as the user named them
        except ValueError as error:
            s.notice(
                "error",
                t(
                    "{error}. Nothing was changed: the tokenizers stay as they were.",
                    error=plain(error, limit=600).rstrip("."),
                ),
            )
            return
        except Exception as error:  # noqa: BLE001 -- a hostile file must not put a traceback in the browser
            s.notice(
                "error",
                t(
                    "Could not load a tokenizer: {kind}: {error}. Nothing was changed.",
                    kind=plain(type(error).__name__),
                    error=plain(error),
                ),
            )
            return
        s.loaded[label] = tokenizer
        s.import_round += 1  # a new, empty uploader: the next load does not carry these files along
        if on_loaded is not None:
            on_loaded(label)
        s.notice(
            "success",
            t(
                "Loaded {label}: {n:,} tokens. It is now selectable on Encode and Compare.",
                label=plain(label),
                n=len(tokenizer.vocab),
            ),
        )

    uploads = st.file_uploader(
        t(
            "Tokenizer file(s): bpe-playground.json, tokenizer.json (Hugging Face), *.tiktoken, vocab.json + "
            "merges.txt together, or the GPT-2 zip"
        ),
        accept_multiple_files=True,
        key=files_key,
    )
    st.button(t("Load tokenizer"), key=f"{key}_load", disabled=not uploads, on_click=load)
