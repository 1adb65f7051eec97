"""Formats out: the files the Export page offers (the import box, on Export and Encode, is ``ui.import_box``).

Everything bpe_core writes loads back in the import box, the GPT-2 zip included.
"""

from __future__ import annotations

import io
import re
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from bpe_core import PATTERNS, ExtendResult, Tokenizer, TokenizerShape, formats, save_extension
from bpe_core.formats.detection import FormatName
from playground.i18n import N_, t
from playground.kinds import kind_of, loaded_kind
from playground.session import TRAINED, Session
from playground.text import plain
from playground.trained import Request, Trained
from ui.tokenizer_output import tokenizer_for

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


def size_caption(tokenizer: TokenizerShape) -> str:
    """Its tokens and merges. A SentencePiece model's merges are score ranks (pieces of one score come in one step):
    the pairs derived from them (every split of every piece) outnumbered its tokens, "32,768 tokens (58,980
    merges)"; its merge steps are what the views cut it by."""
    # The merge steps, as the views cut a tokenizer (SentencePiece: score ranks; a pipeline: its merge ranks), byte-
    # or character-level alike: the character-level one said 1,186 merges where its views count 1,013 steps.
    return t("{n:,} tokens ({merges:,} merges).", n=len(tokenizer.vocab), merges=tokenizer.merge_steps)


def keep_a_format_that_holds(s: Session) -> None:
    """When the exported tokenizer changes: a format its kind can be written in (a file of another family: only a
    ``tokenizer.json``), so the page does not open on a refusal; a format chosen that fits stays."""
    tokenizer = tokenizer_for(s, s.exported)
    if tokenizer is None:
        return
    trained = s.trained.request.kind if s.exported == TRAINED and s.trained is not None else None
    kind = loaded_kind(tokenizer, trained)
    if kind.formats and s.format not in kind.formats:
        s.format = kind.formats[0]


def export_files(tokenizer: Any, fmt: str, training: dict | None = None) -> dict[str, bytes]:
    """The download for one format: ``{file name: bytes}``; GPT-2's two files come as one zip."""
    return _written(
        lambda tmp: formats.save(
            tokenizer, tmp, cast(FormatName, fmt), training=training if fmt == "bpe-playground" else None
        ),
        fmt,
    )


def extension_files(trained: Trained, fmt: str) -> dict[str, bytes]:
    """:func:`export_files` of a tokenizer that continues a base, written by ``bpe_core.save_extension``: every id
    of the base kept, the new tokens after its highest id, the new merges ranked after its own."""
    tokenizer = trained.result.tokenizer
    if not isinstance(tokenizer, Tokenizer):
        raise TypeError("only a byte-level tokenizer continues a base")
    result = ExtendResult(
        tokenizer=tokenizer,
        base=trained.base or tokenizer,  # (save_extension writes the tokenizer; the base is not read)
        trace=list(trained.trace),
        first_new_id=trained.trace.base,
        stop_reason=trained.result.stop_reason,
        seconds=trained.result.seconds,
    )
    return _written(lambda tmp: save_extension(result, tmp, cast(FormatName, fmt)), fmt)


def _written(save: Callable[[str], list[Path]], fmt: str) -> dict[str, bytes]:
    if fmt not in formats.FORMATS:
        raise ValueError(f"{fmt!r} is not an export format: the formats are {', '.join(formats.FORMATS)}")
    with tempfile.TemporaryDirectory(prefix="bpe-export-") as tmp:
        paths = save(tmp)
        if fmt == "gpt2":
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
                for path in paths:
                    zipped.write(path, Path(path).name)
            return {"tokenizer-gpt2.zip": buffer.getvalue()}
        return {Path(path).name: Path(path).read_bytes() for path in paths}


SUPERWORD_REFUSAL = N_(
    "a superword tokenizer cannot be saved in {fmt} format: {fmt} files do not store the "
    "pre-tokenization pattern, and its tokens span words only with its own pattern; save it as "
    "bpe-playground or hf"
)
"""``bpe_core``'s refusal (``refuse_superword``), word for word: shown in the session's language (tests hold the
English to the library's)."""


NOT_BYTE_LEVEL = {  # bpe_core.formats.not_byte_level_bpe's refusals, by what they begin with (tests hold them)
    "a SentencePiece model": N_(
        "a SentencePiece model merges characters by piece score, spells a space as ▁ and falls back to bytes; {fmt} "
        "files hold only byte-level BPE (byte tokens, tiktoken's merge rule, one regex), so it cannot be saved in "
        "that format: save it as {hf}"
    ),
    "a Hugging Face pipeline": N_(
        "a Hugging Face pipeline runs stages a plain byte-level BPE has no place for ({stages}); {fmt} files hold "
        "only byte-level BPE (byte tokens, tiktoken's merge rule, one regex), so it cannot be saved in that format: "
        "save it as {hf}"
    ),
}
_STAGES = re.compile(r"has no place for \((.*)\); ")


def export_error(error: Exception, fmt: str) -> str:
    """Why ``fmt`` cannot hold the tokenizer, as text (not yet escaped): the library's message, in the session's
    language when it is one the page knows (a superword tokenizer's, a file of another family's); the stages a
    pipeline runs stay as the file names them."""
    message = str(error)
    if message == SUPERWORD_REFUSAL.format(fmt=fmt):
        return t(SUPERWORD_REFUSAL, fmt=fmt)
    stages = _STAGES.search(message)
    for start, template in NOT_BYTE_LEVEL.items():
        if message.startswith(start) and message.endswith("save it as hf"):
            return t(template, fmt=fmt, hf=t(LABELS["hf"]), stages=stages.group(1) if stages else "")
    return message


def round_trip_note(tokenizer: Any, fmt: str) -> str:
    """What loading the file back gives (Markdown-safe): the same ids, or what the format does not keep and how to
    load it back the same (GPT-2 files and tiktoken ranks store no pattern; tiktoken ranks no special tokens)."""
    if fmt not in ("gpt2", "tiktoken"):
        return t("Loaded back in the import box below, the file gives the same token ids.")
    pattern = tokenizer.pre_tokenization.pattern
    shown = t("none") if pattern is None else pattern if pattern in PATTERNS else t("the regex {regex}", regex=pattern)
    specials = bool(tokenizer.special_tokens)
    if fmt == "gpt2":
        if pattern == "gpt2":
            return t(
                "Loaded back in the import box below, the file gives the same token ids (with GPT-2's pattern, which "
                "these files assume)."
            )
        how = t("vocab.json + merges.txt store no pattern and are read with GPT-2's")
    else:
        how = t("tiktoken ranks store no pattern")
    note = t(
        "{how}: to get the same token ids back, choose this tokenizer's pattern ({pattern}) under Pattern when you "
        "load the file.",
        how=how,
        pattern=plain(shown, limit=300),
    )
    if fmt == "tiktoken" and specials:
        note += " " + t("Its special tokens are not part of the format and are not loaded back.")
    return note


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
