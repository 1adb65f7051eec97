"""Pre-tokenizers as Hugging Face ``tokenizers`` runs them: each splits every piece further
(``Sequence`` chains them) and may rewrite it (``ByteLevel`` maps bytes to its alphabet,
``Metaspace`` spaces to ``▁``).

>>> Sequence([Digits(True), ByteLevel(add_prefix_space=False, use_regex=True)]).split("ab 12")
['ab', 'Ġ', '1', '2']
"""

from __future__ import annotations

from typing import Protocol

import regex

from ..pretokenize import pretokenize
from ..pretokenize.patterns import shown_pattern
from .hf_unicode import NUMERIC, PUNCTUATION
from .splitting import RUST_SPACE, RUST_WORD, Piece, budget_for, regex_spans, split_each, split_spans, timed_out


class PreTokenizer(Protocol):
    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        """Split (and maybe rewrite) every piece."""
        ...

    def describe(self) -> str:
        """One line saying what it does."""
        ...


class _Base:
    def split(self: PreTokenizer, text: str) -> list[str]:
        """The pieces of a text that starts at offset 0 (what ``pre_tokenize_str`` shows)."""
        return [piece for piece, _ in self.pre_tokenize([(text, 1 if text else 0)])]

    def __repr__(self) -> str:
        return f"<{self.describe()}>"  # type: ignore[attr-defined]


class Split(_Base):
    """Split on a regex (a ``String`` pattern is escaped into one), keeping matches as ``behavior`` says."""

    def __init__(self, compiled: regex.Pattern, behavior: str, invert: bool = False, shown: str | None = None):
        self.compiled, self.behavior, self.invert = compiled, behavior, invert
        self.shown = shown if shown is not None else compiled.pattern

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        compiled, behavior, invert = self.compiled, self.behavior, self.invert
        if behavior == "Isolated" and not invert and not compiled.groups:
            return self._isolated(pieces)
        return split_each(pieces, lambda piece: split_spans(piece, regex_spans(compiled, piece[0], invert), behavior))

    def _isolated(self, pieces: list[Piece]) -> list[Piece]:
        """The common case, faster: when the matches cover a piece, they are its pieces (an empty
        match makes no piece either way); otherwise the gaps count too, as in the general case."""
        out: list[Piece] = []
        findall = self.compiled.findall
        for piece in pieces:
            text, at_start = piece
            budget = budget_for(text)
            try:
                parts = findall(text, timeout=budget)
            except TimeoutError:
                raise timed_out(self.compiled, budget, text) from None
            if sum(map(len, parts)) != len(text):
                out.extend(split_spans(piece, regex_spans(self.compiled, text), "Isolated"))
            elif at_start:
                offset = 0
                for part in parts:
                    if part:
                        out.append((part, max(0, at_start - offset)))
                        offset += len(part)
            else:
                out.extend((part, 0) for part in parts if part)
        return out

    def describe(self) -> str:
        # As written in the file (one backslash is one), characters that do not print escaped (DeepSeek's U+3040).
        return f"Split({shown_pattern(self.shown, limit=1_000)}, {self.behavior}{', inverted' if self.invert else ''})"


class CharSplit(_Base):
    """Split where single characters of a class are (Digits, Punctuation, WhitespaceSplit, Whitespace)."""

    def __init__(self, name: str, char_class: str, behavior: str, invert: bool = False):
        self.name, self.behavior, self.invert = name, behavior, invert
        self.compiled = regex.compile(char_class)

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        compiled, behavior, invert = self.compiled, self.behavior, self.invert
        return split_each(pieces, lambda piece: split_spans(piece, _spans(compiled, piece[0], invert), behavior))

    def describe(self) -> str:
        return self.name


def _spans(compiled: regex.Pattern, text: str, invert: bool) -> list[tuple[int, int, bool]]:
    # Built-in classes are linear-time: no budget needed.
    spans, previous = [], 0
    for match in compiled.finditer(text):
        start, end = match.span()
        if start != previous:
            spans.append((previous, start, invert))
        spans.append((start, end, not invert))
        previous = end
    if previous != len(text):
        spans.append((previous, len(text), invert))
    return spans or [(0, 0, invert)]


def Digits(individual_digits: bool) -> CharSplit:  # noqa: N802 (named as in tokenizer.json)
    """Numbers (Rust's ``char::is_numeric``: Nd, Nl, No) apart from the rest, each digit alone if asked."""
    if individual_digits:
        return CharSplit("Digits(individual)", NUMERIC, "Isolated")
    return CharSplit("Digits", NUMERIC, "Contiguous")


def Punctuation(behavior: str = "Isolated") -> CharSplit:  # noqa: N802
    # ASCII punctuation (symbols like $ + < = > ^ ` | ~ included) or a P* character of Unicode 8.0, one at a time.
    return CharSplit(f"Punctuation({behavior})", PUNCTUATION, behavior)


def Whitespace() -> CharSplit:  # noqa: N802
    """Runs of word characters, runs of other non-space characters; whitespace is dropped."""
    return CharSplit("Whitespace", rf"{RUST_WORD}+|[^{RUST_WORD[1:-1]}{RUST_SPACE}]+", "Removed", invert=True)


def WhitespaceSplit() -> CharSplit:  # noqa: N802
    return CharSplit("WhitespaceSplit", RUST_SPACE, "Removed")


def CharDelimiterSplit(delimiter: str) -> CharSplit:  # noqa: N802
    """Split on one character, which is dropped."""
    return CharSplit(f"CharDelimiterSplit({delimiter!r})", regex.escape(delimiter), "Removed")


def BertPreTokenizer() -> Sequence:  # noqa: N802
    """BERT's (and GPT-1's): whitespace dropped, each punctuation character a piece of its own.

    >>> BertPreTokenizer().split("Hi, you  there!!")
    ['Hi', ',', 'you', 'there', '!', '!']
    """
    return Sequence([WhitespaceSplit(), Punctuation("Isolated")], name="BertPreTokenizer")


def _byte_level_table() -> dict[int, str]:
    """GPT-2's byte -> printable character map (what ``bytes_char`` builds in tokenizers)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    extra = [byte for byte in range(256) if byte not in printable]
    mapping = {byte: chr(byte) for byte in printable}
    mapping.update({byte: chr(256 + n) for n, byte in enumerate(extra)})
    return mapping


BYTE_TO_CHAR = _byte_level_table()
CHAR_TO_BYTE = {char: byte for byte, char in BYTE_TO_CHAR.items()}
_LATIN1_TO_ALPHABET = {byte: char for byte, char in BYTE_TO_CHAR.items()}


def to_byte_level(text: str) -> str:
    """Text's UTF-8 bytes, each as its GPT-2 alphabet character.

    >>> to_byte_level(" é")
    'ĠÃ©'
    """
    return text.encode("utf-8").decode("latin-1").translate(_LATIN1_TO_ALPHABET)


def from_byte_level(piece: str) -> str:
    """A piece in GPT-2's byte alphabet as the text it spells; a piece that is not (an added token's) unchanged.

    >>> from_byte_level("ĠÃ©"), from_byte_level("<｜end｜>")
    (' é', '<｜end｜>')
    """
    if not all(char in CHAR_TO_BYTE for char in piece):
        return piece
    return bytes(CHAR_TO_BYTE[char] for char in piece).decode("utf-8", errors="replace")


class ByteLevel(_Base):
    """Optionally a space before each piece and GPT-2's regex split, then bytes as GPT-2's alphabet."""

    def __init__(self, add_prefix_space: bool, use_regex: bool):
        self.add_prefix_space, self.use_regex = add_prefix_space, use_regex

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        for text, at_start in pieces:
            if not text:
                continue
            if self.add_prefix_space and not text.startswith(" "):
                text, at_start = " " + text, at_start + 1 if at_start else 0
            parts = pretokenize(text, "gpt2") if self.use_regex else [text]
            offset = 0
            for part in parts:
                lead = max(0, at_start - offset)
                out.append((to_byte_level(part), len(part[:lead].encode("utf-8"))))
                offset += len(part)
        return out

    def describe(self) -> str:
        options = [name for name in ("add_prefix_space", "use_regex") if getattr(self, name)]
        return f"ByteLevel({', '.join(options)})"


class Metaspace(_Base):
    """Spaces become ``replacement``, which is prepended (always, to the text's first piece, or never)
    and then, with ``split``, starts each new piece."""

    def __init__(self, replacement: str, prepend_scheme: str, split: bool):
        self.replacement, self.prepend_scheme, self.split_pieces = replacement, prepend_scheme, split
        self.compiled = regex.compile(regex.escape(replacement))

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        mark = self.replacement
        for text, at_start in pieces:
            if not text:
                continue
            text = text.replace(" ", mark)
            if not text.startswith(mark) and (
                self.prepend_scheme == "always" or (self.prepend_scheme == "first" and at_start > 0)
            ):
                text, at_start = mark + text, at_start + 1 if at_start else 0
            if self.split_pieces:
                out.extend(split_spans((text, at_start), _spans(self.compiled, text, False), "MergedWithNext"))
            elif text:
                out.append((text, at_start))
        return out

    def describe(self) -> str:
        return f"Metaspace({self.replacement!r}, prepend {self.prepend_scheme}{', split' if self.split_pieces else ''})"


class Sequence(_Base):
    def __init__(self, steps: list[PreTokenizer], name: str | None = None):
        self.steps, self.name = steps, name

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        for step in self.steps:
            pieces = step.pre_tokenize(pieces)
        return pieces

    def describe(self) -> str:
        return self.name or " → ".join(step.describe() for step in self.steps) or "nothing"
