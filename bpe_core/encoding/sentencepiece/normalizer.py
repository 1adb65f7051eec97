"""SentencePiece's normalizer: what the text becomes before any piece is looked for.

In order, as ``normalizer.cc`` does it:

1. the text is cut into chunks: a user-defined symbol (longest first) is a chunk and is never
   changed; else the longest rule of the ``precompiled_charsmap`` (if any) gives the chunk's
   replacement; else one character is a chunk of its own;
2. with ``remove_extra_whitespaces``, leading spaces are dropped, a chunk's leading spaces are
   dropped after a chunk that ended in a space, and trailing spaces are dropped at the end;
3. with ``escape_whitespaces`` every space becomes ▁ (U+2581);
4. with ``add_dummy_prefix`` one ▁ is put before the text (after it, when the model treats
   whitespace as a suffix), unless nothing is left.

Only U+0020 counts as a space here: a tab or a newline stays what it is unless the charsmap says
otherwise (``nmt_nfkc`` maps some of them to a space).

>>> from .model import NormalizerSpec
>>> Normalizer(NormalizerSpec()).normalize("  Hello   world ")
'▁Hello▁world'
>>> Normalizer(NormalizerSpec(remove_extra_whitespaces=False)).normalize(" a  b")
'▁▁a▁▁b'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import regex

from .charsmap import Charsmap
from .model import SPACE_SYMBOL, NormalizerSpec


def symbol_matcher(symbols: Iterable[str]) -> regex.Pattern[str] | None:
    """A regex finding the given symbols, the longest first where several start at one place; None for none."""
    ordered = sorted(set(symbols), key=lambda symbol: (-len(symbol), symbol))
    if not ordered:
        return None
    return regex.compile("|".join(regex.escape(symbol) for symbol in ordered))


class Normalizer:
    """Normalizes text as SentencePiece does for one model (see the module's docstring)."""

    def __init__(
        self, spec: NormalizerSpec, *, whitespace_as_suffix: bool = False, user_defined_symbols: Iterable[str] = ()
    ):
        self.spec = spec
        self._charsmap = Charsmap(spec.precompiled_charsmap) if spec.precompiled_charsmap else None
        self._user_symbols = symbol_matcher(symbols for symbols in user_defined_symbols if symbols)
        self._suffix = whitespace_as_suffix
        self._space = SPACE_SYMBOL if spec.escape_whitespaces else " "
        # Characters that start no charsmap rule are kept as they are without walking the trie again.
        self._plain: set[str] = set()

    def normalize(self, text: str) -> str:
        """The normalized text (empty when nothing but removable spaces is given)."""
        if not text:
            return ""
        spec = self.spec
        if self._charsmap is None and not self._symbols_hold_spaces():
            body = self._fast_body(text)  # chunks are characters and space-free symbols: runs of spaces suffice
        else:
            body = self._chunked_body(self._chunks(text))
        if body is None:
            return ""
        if spec.add_dummy_prefix and not self._suffix:
            body = self._space + body
        if spec.remove_extra_whitespaces:
            # Trailing space symbols go after escaping and the dummy prefix: a literal ▁ at the end too.
            body = body.rstrip(self._space)
        if spec.add_dummy_prefix and self._suffix:
            body += self._space
        return body

    def _symbols_hold_spaces(self) -> bool:
        return self._user_symbols is not None and " " in self._user_symbols.pattern

    def _fast_body(self, text: str) -> str | None:
        if self.spec.remove_extra_whitespaces:
            text = regex.sub(" {2,}", " ", text).lstrip(" ")
            if not text:
                return None
        if self.spec.escape_whitespaces:
            text = text.replace(" ", SPACE_SYMBOL)
        return text

    def _chunked_body(self, chunks: Iterator[str]) -> str | None:
        remove_extra = self.spec.remove_extra_whitespaces
        if remove_extra:
            # Leading chunks that are exactly one space are skipped (a chunk like "  " is not).
            for chunk in chunks:
                if chunk != " ":
                    chunks = _prepend(chunk, chunks)
                    break
            else:
                return None
        out: list[str] = []
        previous_space = remove_extra
        for chunk in chunks:
            if previous_space:
                chunk = chunk.lstrip(" ")
            if chunk:
                out.append(chunk)
                previous_space = chunk.endswith(" ")
            if not remove_extra:
                previous_space = False
        body = "".join(out)
        if self.spec.escape_whitespaces:
            body = body.replace(" ", SPACE_SYMBOL)
        return body

    def _chunks(self, text: str) -> Iterator[str]:
        """The text cut as SentencePiece's ``NormalizePrefix`` cuts it, each chunk already replaced."""
        symbols = self._user_symbols
        charsmap = self._charsmap
        plain = self._plain
        data = text.encode("utf-8") if charsmap is not None else b""
        position = offset = 0  # in characters, and in bytes of ``data``
        length = len(text)
        while position < length:
            if symbols is not None:
                found = symbols.match(text, position)
                if found is not None:
                    yield found.group()
                    offset += len(found.group().encode("utf-8")) if charsmap is not None else 0
                    position = found.end()
                    continue
            character = text[position]
            if charsmap is None or character in plain:
                yield character
            else:
                match = charsmap.longest_match(data, offset)
                if match is None:
                    if len(plain) < 1 << 16 and not charsmap.can_start(character.encode("utf-8")):
                        plain.add(character)
                    yield character
                else:
                    size, replacement = match
                    consumed = len(data[offset : offset + size].decode("utf-8"))
                    yield replacement
                    offset += size
                    position += consumed
                    continue
            offset += len(character.encode("utf-8")) if charsmap is not None else 0
            position += 1


def _prepend(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest
