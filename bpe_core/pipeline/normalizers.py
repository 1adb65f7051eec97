"""Normalizers as Hugging Face ``tokenizers`` runs them, on the text between added tokens.

Each maps ``(text, at_start)`` to the same (see :mod:`.splitting` for ``at_start``, the count of
leading characters that stand at offset 0 of the original text).

>>> Sequence([NFKC(), Lowercase(), Prepend("▁"), Replace(regex.compile(" "), "▁")]).normalize("Ａb c", 1)
('▁ab▁c', 2)
"""

from __future__ import annotations

import unicodedata
from typing import Literal, Protocol

import regex

from .hf_unicode import LOWERCASE_EXTRA, NORMALIZATION_UNKNOWN
from .hf_unicode_bert import BERT_ACCENTS, BERT_CHINESE, BERT_CLEANED, BERT_SPACES, COMBINING_MARKS
from .splitting import RUST_SPACE, regex_spans


class Normalizer(Protocol):
    def normalize(self, text: str, at_start: int) -> tuple[str, int]:
        """The normalized text and how many of its first characters stand at the original offset 0."""
        ...

    def describe(self) -> str: ...


# Characters tokenizers has no normalization data for (newer than its tables): kept as they are, each a starter that
# nothing reorders or composes across, so the text between them normalizes on its own.
_UNKNOWN = regex.compile(NORMALIZATION_UNKNOWN)


class Unicode:
    """NFC, NFD, NFKC or NFKD, with the Unicode tables of ``tokenizers`` (see :mod:`.hf_unicode`).

    >>> Unicode("NFKC").normalize("ﬁ\u32ff", 0)  # ﬁ decomposes; ㋿ (Unicode 12.1) is newer than its tables
    ('fi㋿', 0)
    """

    def __init__(self, form: Literal["NFC", "NFD", "NFKC", "NFKD"]):
        self.form: Literal["NFC", "NFD", "NFKC", "NFKD"] = form

    def normalize(self, text: str, at_start: int) -> tuple[str, int]:
        return self._normalized(text), len(self._normalized(text[:at_start]))

    def _normalized(self, text: str) -> str:
        form = self.form
        if text.isascii() or not _UNKNOWN.search(text):
            return unicodedata.normalize(form, text)
        parts = [(text[start:end], unknown) for start, end, unknown in regex_spans(_UNKNOWN, text)]
        return "".join(part if unknown else unicodedata.normalize(form, part) for part, unknown in parts)

    def describe(self) -> str:
        return self.form


def NFC() -> Unicode:  # noqa: N802 (named as in tokenizer.json)
    return Unicode("NFC")


def NFKC() -> Unicode:  # noqa: N802
    return Unicode("NFKC")


# Rust's lowercase mappings that Python's (older) tables lack.
_LOWER_EXTRA = str.maketrans(LOWERCASE_EXTRA)


class Lowercase:
    """Each character's full lowercase mapping on its own (Rust's ``char::to_lowercase``: no final-sigma rule)."""

    def normalize(self, text: str, at_start: int) -> tuple[str, int]:
        return _lowered(text), len(_lowered(text[:at_start]))

    def describe(self) -> str:
        return "Lowercase"


def _lowered(text: str) -> str:
    if text.isascii():
        return text.lower()
    return "".join(char.lower() for char in text.translate(_LOWER_EXTRA))


class Replace:
    """Every match of a regex (a ``String`` pattern escaped into one) replaced by ``content``."""

    def __init__(self, compiled: regex.Pattern, content: str, shown: str | None = None):
        self.compiled, self.content = compiled, content
        self.shown = shown if shown is not None else compiled.pattern

    def normalize(self, text: str, at_start: int) -> tuple[str, int]:
        out: list[str] = []
        lead, counting = 0, at_start > 0
        for start, end, is_match in regex_spans(self.compiled, text):
            part = self.content if is_match else text[start:end]
            out.append(part)
            if not counting or not part:
                continue
            if is_match:
                # tokenizers aligns the new characters with the match's last character (an empty
                # match: the character before it, or the very start).
                source = end - 1 if end > start else start - 1
                counting = source < at_start
                lead += len(part) if counting else 0
            else:
                lead += max(0, min(end, at_start) - start)
                counting = end <= at_start
        return "".join(out), lead

    def describe(self) -> str:
        return f"Replace({self.shown!r} → {self.content!r})"


class Prepend:
    def __init__(self, prefix: str):
        self.prefix = prefix

    def normalize(self, text: str, at_start: int) -> tuple[str, int]:
        if not text:
            return text, at_start
        return self.prefix + text, at_start + len(self.prefix) if at_start else 0

    def describe(self) -> str:
        return f"Prepend({self.prefix!r})"


_LEADING_SPACE = regex.compile(rf"^{RUST_SPACE}+")
_TRAILING_SPACE = regex.compile(rf"{RUST_SPACE}+$")


class Strip:
    """Whitespace (Rust's ``char::is_whitespace``) off the left and/or right end."""

    def __init__(self, left: bool, right: bool):
        self.left, self.right = left, right

    def normalize(self, text: str, at_start: int) -> tuple[str, int]:
        if self.right:
            text = _TRAILING_SPACE.sub("", text)
        if self.left:
            stripped = _LEADING_SPACE.sub("", text)
            at_start = max(0, at_start - (len(text) - len(stripped)))
            text = stripped
        return text, min(at_start, len(text))

    def describe(self) -> str:
        sides = [side for side, on in (("left", self.left), ("right", self.right)) if on]
        return f"Strip({'+'.join(sides)})"


class _Characters:
    """Each character on its own: deleted (``removed``), made a space (``spaces``) or put between two spaces
    (``spaced``); the characters standing at the original offset 0 are what the first ones became."""

    def __init__(self, name: str, removed: str | None = None, spaces: str | None = None, spaced: str | None = None):
        self.name = name
        self._removed = regex.compile(removed) if removed else None
        self._spaces = regex.compile(spaces) if spaces else None
        self._spaced = regex.compile(spaced) if spaced else None

    def normalize(self, text: str, at_start: int) -> tuple[str, int]:
        return self._changed(text), len(self._changed(text[:at_start]))

    def _changed(self, text: str) -> str:
        if self._removed is not None:
            text = self._removed.sub("", text)
        if self._spaces is not None:
            text = self._spaces.sub(" ", text)
        if self._spaced is not None:
            text = self._spaced.sub(r" \g<0> ", text)
        return text

    def describe(self) -> str:
        return self.name


def StripAccents() -> _Characters:  # noqa: N802 (named as in tokenizer.json)
    """Combining marks deleted (on their own: no NFD first, as tokenizers runs it).

    >>> StripAccents().normalize("e\u0301te\u0301", 2)
    ('ete', 1)
    """
    return _Characters("StripAccents", removed=COMBINING_MARKS)


def Bert(clean_text: bool, handle_chinese_chars: bool, strip_accents: bool, lowercase: bool) -> Sequence:  # noqa: N802
    """BertNormalizer: controls deleted and whitespace made spaces (``clean_text``), spaces around each CJK
    ideograph, accents stripped after NFD, lowercase; in that order, each when asked.

    >>> Bert(True, True, True, True).normalize("Héllo\\t中\\x00!", 1)[0]
    'hello  中 !'
    """
    steps: list[Normalizer] = []
    if clean_text:
        steps.append(_Characters("clean text", removed=BERT_CLEANED, spaces=BERT_SPACES))
    if handle_chinese_chars:
        steps.append(_Characters("spaces around CJK", spaced=BERT_CHINESE))
    if strip_accents:
        steps += [Unicode("NFD"), _Characters("strip accents", removed=BERT_ACCENTS)]
    if lowercase:
        steps.append(Lowercase())
    options = ", ".join(step.describe() for step in steps if step.describe() != "NFD")
    return Sequence(steps, name=f"BertNormalizer({options})")


class Sequence:
    def __init__(self, steps: list[Normalizer], name: str | None = None):
        self.name = name
        self.steps = steps

    def normalize(self, text: str, at_start: int) -> tuple[str, int]:
        for step in self.steps:
            text, at_start = step.normalize(text, at_start)
        return text, at_start

    def describe(self) -> str:
        return self.name or " → ".join(step.describe() for step in self.steps) or "nothing"
