"""What a tokenizer loaded from files is called: its files' names and what it is, in the person's language.

A loaded tokenizer is kept under its label (``Session.loaded``'s keys, which the reload store and the page's choices
keep), worded in the language it was loaded in; :func:`shown_label` words it in the page's language wherever it is
shown (loaded in English, then 中文: "文件：tokenizer.json · Hugging Face …" had stayed English).

>>> import bpe_core
>>> tokenizer = bpe_core.train("low lower lowest", 260).tokenizer
>>> description(tokenizer, "gpt2", lang="en")
'GPT-2 vocab.json + merges.txt: 260 tokens, pattern gpt2'
>>> shown_label("merges.txt · GPT-2 vocab.json + merges.txt: 260 tokens, pattern gpt2", tokenizer, lang="zh")
'merges.txt · GPT-2 vocab.json + merges.txt：260 个词元，模式 gpt2'
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bpe_core import PATTERNS
from playground import caches, i18n, references
from playground.i18n import LANGUAGES, N_, t
from playground.tokenizer_files import loaded_from

FORMAT_NAMES = {
    "hf": N_("tokenizer.json (Hugging Face): BPE, {n:,} tokens"),
    "tiktoken": N_("tiktoken ranks: {n:,} tokens, pattern {pattern}"),
    "gpt2": N_("GPT-2 vocab.json + merges.txt: {n:,} tokens, pattern {pattern}"),
    "tekken": N_("Mistral Tekken file: {n:,} tokens"),
    "sentencepiece": N_("SentencePiece BPE model: {n:,} tokens"),
    "bpe-playground": N_("bpe-playground file: {n:,} tokens, pattern {pattern}"),
}
"""What a loaded file is, by its format (``bpe_core.formats.detect_format``); a recognised model's file says its
model instead (:func:`description`)."""


def description(tokenizer: Any, fmt: str = "", lang: str | None = None) -> str:
    """What a loaded tokenizer is: a recognised model's tiktoken file by its model (``Llama 3 (tiktoken ranks,
    128,256 tokens)``), else its format, size and pattern. The size counts every token, special ones too, as the
    views and the built-in models' labels do (it left them out, and "599 tokens" stood above "600 tokens")."""
    n = _size(tokenizer)
    source = tokenizer.pre_tokenization.source or ""
    if source.startswith("recognised"):
        named = references.short_name(tokenizer.name or "")
        return t("{model} (tiktoken ranks, {n:,} tokens)", lang=lang, model=named, n=n)
    pattern = pattern_shown(tokenizer, lang)
    if fmt in FORMAT_NAMES:
        what = t(FORMAT_NAMES[fmt], lang=lang, n=n, pattern=pattern)
        files = loaded_from(tokenizer)
        model = references.model_of_files(files.digests) if files is not None else None
        if model is None:
            return what
        return t("{model}'s own file: {what}", lang=lang, model=references.short_name(model), what=what)
    kind = t("byte-level BPE", lang=lang) if tokenizer.byte_level else t("classic BPE", lang=lang)
    return t("{kind}: {n:,} tokens, pattern {pattern}", lang=lang, kind=kind, n=n, pattern=pattern)


def pattern_shown(tokenizer: Any, lang: str | None = None) -> str:
    """The pattern a tokenizer runs with: its name, or its regex cut short; "none" when it has none."""
    pattern = tokenizer.pre_tokenization.pattern
    if pattern is None:
        return t("none", lang=lang)
    return pattern if pattern in PATTERNS else pattern[:60] + ("…" if len(pattern) > 60 else "")


def loaded_label(loaded: dict[str, Any], names: str, tokenizer: Any, fmt: str = "") -> str:
    """A new entry's label: the files' names, then what the tokenizer is (:func:`description`), or the description
    alone when it holds the names; never one already holding another tokenizer (two files of the same kind get
    ``(2)``, ``(3)``…). The same tokenizer loaded again keeps its label. Names first: a chooser cuts long labels at
    its width, and "File: Mistral Tekken file: 131,072 tokens · tek…" hid which file it was."""
    described = description(tokenizer, fmt)
    base = described if names in described else f"{names} · {described}"
    label, n = base, 1
    while label in loaded and not same_tokenizer(loaded[label], tokenizer):
        n += 1
        label = f"{base} ({n})"
    return label


def same_tokenizer(one: Any, other: Any) -> bool:
    """The same vocabulary, special tokens, pattern and merges (what encoding depends on); the same files loaded the
    same way are that without comparing (a ranks file's merges are derived to compare: seconds for Llama 3)."""
    mine, theirs = loaded_from(one), loaded_from(other)
    if mine is not None and theirs is not None and (mine.digests, mine.pattern) == (theirs.digests, theirs.pattern):
        return True
    same_pattern = replace(one.pre_tokenization, source=None) == replace(other.pre_tokenization, source=None)
    if not (same_pattern and one.special_tokens == other.special_tokens and one.vocab == other.vocab):
        return False
    try:
        return bool(one.merges == other.merges)
    except ValueError:  # ranks whose merges cannot all be derived (Llama 3's): the same ranks, by id, are the same
        return True


def shown_label(label: str, tokenizer: Any, lang: str | None = None) -> str:
    """``label`` (a key of ``Session.loaded``) in the page's language (or ``lang``): the description it was made with,
    in whichever language that was, worded again; a label it cannot read (a name typed by hand) as it is. Remembered
    per tokenizer (``caches.FILE_LABELS``): the pages ask on every run."""
    lang = lang or i18n.language()
    shown: dict[tuple[str, str], str] = caches.FILE_LABELS.setdefault(tokenizer, {})
    if (label, lang) not in shown:
        shown[(label, lang)] = _worded_in(label, tokenizer, lang)
    return shown[(label, lang)]


def _worded_in(label: str, tokenizer: Any, lang: str) -> str:
    for other in LANGUAGES:
        for fmt in (*FORMAT_NAMES, ""):
            made = description(tokenizer, fmt, lang=other)
            if made in label:
                return label.replace(made, description(tokenizer, fmt, lang=lang))
    return label


def _size(tokenizer: Any) -> int:
    """Every token, special ones too (a tokenizer's ``vocab`` is built afresh on each call: counted once)."""
    if tokenizer not in caches.FILE_SIZES:
        caches.FILE_SIZES[tokenizer] = len(tokenizer.vocab)
    size: int = caches.FILE_SIZES[tokenizer]
    return size
