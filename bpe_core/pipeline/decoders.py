"""Decoders as Hugging Face ``tokenizers`` runs them: token strings in, token strings out
(``decode_chain``), joined at the end.

>>> Sequence([Replace("▁", " "), ByteFallback(), Fuse(), Strip(" ", 1, 0)]).decode(["▁a", "<0x21>"])
'a!'
"""

from __future__ import annotations

import regex

from .pre_tokenizers import CHAR_TO_BYTE
from .splitting import regex_spans


class Decoder:
    """The base: ``decode`` joins what ``decode_chain`` gives."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        raise NotImplementedError

    def decode(self, tokens: list[str]) -> str:
        return "".join(self.decode_chain(tokens))

    def describe(self) -> str:
        return type(self).__name__


class ByteLevel(Decoder):
    """Each token's characters back to bytes (a token with a character outside the alphabet: its UTF-8)."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        data = bytearray()
        for token in tokens:
            try:
                data.extend(CHAR_TO_BYTE[char] for char in token)
            except KeyError:
                data.extend(token.encode("utf-8"))
        return [data.decode("utf-8", errors="replace")]


class Metaspace(Decoder):
    def __init__(self, replacement: str, prepend_scheme: str):
        self.replacement, self.prepend_scheme = replacement, prepend_scheme

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for index, token in enumerate(tokens):
            drop = index == 0 and self.prepend_scheme != "never"
            out.append(token.replace(self.replacement, "" if drop else " "))
        return out


class ByteFallback(Decoder):
    """Runs of ``<0xXX>`` tokens back to text (one U+FFFD per byte if the run is not UTF-8)."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out: list[str] = []
        pending = bytearray()

        def flush() -> None:
            if pending:
                try:
                    out.append(pending.decode("utf-8"))
                except UnicodeDecodeError:
                    out.extend("\ufffd" for _ in pending)
                pending.clear()

        for token in tokens:
            value = _byte_token(token)
            if value is None:
                flush()
                out.append(token)
            else:
                pending.append(value)
        flush()
        return out


def _byte_token(token: str) -> int | None:
    if len(token.encode("utf-8")) == 6 and token.startswith("<0x") and token.endswith(">"):
        digits = token[3:5]
        if all(char in "0123456789abcdefABCDEF" for char in digits):
            return int(digits, 16)
    return None


class Fuse(Decoder):
    def decode_chain(self, tokens: list[str]) -> list[str]:
        return ["".join(tokens)]


class Strip(Decoder):
    """Up to ``start`` leading and ``stop`` trailing ``content`` characters off each token."""

    def __init__(self, content: str, start: int, stop: int):
        self.content, self.start, self.stop = content, start, stop

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for token in tokens:
            begin = 0
            while begin < min(self.start, len(token)) and token[begin] == self.content:
                begin += 1
            end, cut = len(token), 0
            while cut < self.stop and end > begin and token[end - 1] == self.content:
                end -= 1
                cut += 1
            out.append(token[begin:end])
        return out

    def describe(self) -> str:
        return f"Strip({self.content!r}, {self.start}, {self.stop})"


class Replace(Decoder):
    def __init__(self, pattern: str | regex.Pattern, content: str):
        self.compiled = pattern if isinstance(pattern, regex.Pattern) else regex.compile(regex.escape(pattern))
        self.content = content

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for token in tokens:
            spans = regex_spans(self.compiled, token) if token else []
            out.append("".join(self.content if is_match else token[a:b] for a, b, is_match in spans))
        return out

    def describe(self) -> str:
        return f"Replace({self.compiled.pattern!r} → {self.content!r})"


class BPEDecoder(Decoder):
    """The end-of-word ``suffix`` becomes a space (nothing after the last token)."""

    def __init__(self, suffix: str):
        self.suffix = suffix

    def decode_chain(self, tokens: list[str]) -> list[str]:
        last = len(tokens) - 1
        return [token.replace(self.suffix, "" if i == last else " ") for i, token in enumerate(tokens)]


class Sequence(Decoder):
    def __init__(self, steps: list[Decoder]):
        self.steps = steps

    def decode_chain(self, tokens: list[str]) -> list[str]:
        for step in self.steps:
            tokens = step.decode_chain(tokens)
        return tokens

    def describe(self) -> str:
        return " → ".join(step.describe() for step in self.steps) or "nothing"


class Joined(Decoder):
    """No decoder: tokenizers joins the tokens with spaces."""

    def decode(self, tokens: list[str]) -> str:
        return " ".join(tokens)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return [" ".join(tokens)]
