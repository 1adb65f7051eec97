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
        user_defined_symbols = list(user_defined_symbols)
        self._charsmap = Charsmap(spec.precompiled_charsmap) if spec.precompiled_charsmap else None
        self._user_symbols = symbol_matcher(symbols for symbols in user_defined_symbols if symbols)
        self._suffix = whitespace_as_suffix
        self._space = SPACE_SYMBOL if spec.escape_whitespaces else " "
        # Characters that may start a rule or a symbol (or are spaces), and every character looked at so far.
        self._symbol_starts = {symbol[0] for symbol in user_defined_symbols if symbol}
        self._starters: set[str] = set()
        self._prefixes: set[str] = set()  # starters that are no rule by themselves
        self._continuations: set[str] = set()  # what may follow a prefix inside a rule
        self._alone: dict[str, str] = {}  # characters that are a whole rule and start no longer one
        self._classified: set[str] = set()
        self._plain = regex.compile(".+", regex.DOTALL)

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
        """The text cut as SentencePiece's ``NormalizePrefix`` cuts it, each chunk already replaced.

        A run of characters that start no rule and no symbol is given as one chunk, its runs of spaces
        collapsed when extra whitespace is removed: the whitespace rules then treat it exactly as they
        treat its characters one by one.
        """
        symbols = self._user_symbols
        charsmap = self._charsmap
        plain_run = self._plain_run(text)
        collapse = self.spec.remove_extra_whitespaces
        data = text.encode("utf-8") if charsmap is not None else b""
        position = offset = 0  # in characters, and in bytes of ``data``
        length = len(text)
        while position < length:
            run = plain_run.match(text, position)
            if run is not None:
                chunk = run.group()
                position = run.end()
                offset += len(chunk.encode("utf-8")) if charsmap is not None else 0
                yield regex.sub(" {2,}", " ", chunk) if collapse and "  " in chunk else chunk
                continue
            if symbols is not None:
                found = symbols.match(text, position)
                if found is not None:
                    yield found.group()
                    offset += len(found.group().encode("utf-8")) if charsmap is not None else 0
                    position = found.end()
                    continue
            character = text[position]
            replacement = self._alone.get(character)
            if replacement is not None:
                yield replacement
                offset += len(character.encode("utf-8"))
                position += 1
                continue
            match = charsmap.longest_match(data, offset) if charsmap is not None else None
            if match is None:
                yield character
                offset += len(character.encode("utf-8")) if charsmap is not None else 0
                position += 1
            else:
                size, replacement = match
                yield replacement
                position += len(data[offset : offset + size].decode("utf-8"))
                offset += size

    def _plain_run(self, text: str) -> regex.Pattern[str]:
        """A regex for a run of characters where no rule or symbol starts.

        A character some rule starts with still counts when it is not a rule by itself and the next
        character cannot continue any rule (``A`` before anything but a combining mark, for NFKC).
        What each character may start is learnt from the trie the first time it is seen.
        """
        new = set(text) - self._classified
        if new:
            if len(self._classified) > 1 << 16:  # a stranger's texts must not grow these without bound
                self._classified, self._starters, self._prefixes, self._continuations = set(), set(), set(), set()
                self._alone = {}
            charsmap = self._charsmap
            for character in new:
                if character in self._symbol_starts:
                    self._starters.add(character)
                elif charsmap is not None and charsmap.can_start(encoded := character.encode("utf-8")):
                    self._starters.add(character)
                    alone = charsmap.longest_match(encoded + b"\xff", 0)
                    following = charsmap.next_characters(encoded)
                    if alone is None:  # not a rule by itself: a prefix of some
                        self._prefixes.add(character)
                        self._continuations |= following
                    elif not following:  # a rule by itself that nothing extends: no walk needed
                        self._alone[character] = alone[1]
            self._classified |= new
            self._plain = regex.compile(_run_pattern(self._starters, self._prefixes, self._continuations), regex.DOTALL)
        return self._plain


def _run_pattern(starters: set[str], prefixes: set[str], continuations: set[str]) -> str:
    def one_of(characters: set[str]) -> str:
        return "[" + "".join(regex.escape(character) for character in sorted(characters)) + "]"

    other = f"[^{one_of(starters)[1:-1]}]" if starters else "."
    if not prefixes:
        return f"{other}+"
    prefix = one_of(prefixes) + (f"(?!{one_of(continuations)})" if continuations else "")
    return f"(?:{other}|{prefix})+"


def _prepend(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest
