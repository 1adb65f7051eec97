"""Added tokens, found in the text before anything else, as Hugging Face ``tokenizers`` finds them.

Tokens with ``normalized: false`` are looked for in the raw text; the text between them is
normalized, and tokens with ``normalized: true`` (in their normalized spelling) are looked for in
that. At each place the longest token wins (leftmost-longest). ``single_word`` drops a match
that touches a word character on either side; ``lstrip`` / ``rstrip`` make the token swallow the
whitespace before / after it. ``special`` only matters when decoding skips special tokens.

>>> tokens = AddedTokens([AddedToken("<s>", 5, rstrip=True)])
>>> tokens.split_raw("a<s>  b")
[('a', None, 0), ('<s>  ', 5, 1), ('b', None, 6)]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import regex

from .splitting import RUST_SPACE, RUST_WORD

_ENDS_WITH_WORD = regex.compile(rf"{RUST_WORD}\Z")
_STARTS_WITH_WORD = regex.compile(RUST_WORD)  # used with .match(text, pos)
_TRAILING_SPACE = regex.compile(rf"{RUST_SPACE}*\Z")
_LEADING_SPACE = regex.compile(rf"{RUST_SPACE}*")  # used with .match(text, pos)


@dataclass(frozen=True)
class AddedToken:
    content: str
    id: int
    special: bool = False
    single_word: bool = False
    lstrip: bool = False
    rstrip: bool = False
    normalized: bool = False


# (text, the added token's id or None, where the text starts in the string searched)
Part = tuple[str, "int | None", int]


class AddedTokens:
    """The added tokens of a tokenizer; ``normalize`` gives a normalized token's spelling."""

    def __init__(
        self,
        tokens: list[AddedToken],
        normalize: Callable[[str], str] | None = None,
        *,
        once_normalized: set[int] | None = None,
        special_texts: set[str] | None = None,
    ):
        """``once_normalized`` (ids) and ``special_texts`` carry what tokenizers remembers of earlier
        entries for the same text in a file that lists it twice; by default, these tokens' own flags."""
        self.tokens = tokens
        self.by_id = {token.id: token for token in tokens}
        if once_normalized is None:
            once_normalized = {token.id for token in tokens if token.normalized}
        self.special_texts = special_texts if special_texts is not None else {t.content for t in tokens if t.special}
        # What id_to_token gives (and decoding reads): a normalized token's normalized spelling.
        self.spelling = {
            token.id: normalize(token.content) if normalize and token.id in once_normalized else token.content
            for token in tokens
        }
        # tokenizers skips a token when decoding if its spelling is a special text.
        self.special_ids = {token.id for token in tokens if self.spelling[token.id] in self.special_texts}
        # A token spelled "" (its content, or its normalized spelling: a normalizer may remove it all) matches
        # nowhere, as in tokenizers; in an alternation it would match the empty string everywhere.
        raw = {token.content: token for token in tokens if not token.normalized and token.content}
        spelled: dict[str, AddedToken] = {}
        for token in tokens:
            if token.normalized and not self.spelling[token.id] and (token.lstrip or token.rstrip):
                # tokenizers then cuts the whitespace next to it out of the text and encodes it raw (a space as
                # " ", not as its pre-tokenizer makes it): not reproduced, so refused.
                raise ValueError(
                    f"the added token {token.content!r} is normalized to nothing and strips the whitespace beside it "
                    "(lstrip/rstrip): tokenizers then encodes that whitespace raw, which this library does not do"
                )
            if token.normalized and not self.spelling[token.id] and not token.single_word:
                # tokenizers then finds it between every two characters and cuts the text into single characters
                # (a differential fuzz found it): not reproduced, so refused.
                raise ValueError(
                    f"the added token {token.content!r} is normalized to nothing: tokenizers then cuts the text "
                    "between every two characters, which this library does not do"
                )
            if token.normalized and self.spelling[token.id]:
                other = spelled.setdefault(self.spelling[token.id], token)
                if other is not token:
                    raise ValueError(
                        f"the added tokens {other.content!r} and {token.content!r} both read "
                        f"{self.spelling[token.id]!r} once normalized: tokenizers would pick either, at random"
                    )
        self._raw, self._raw_regex = raw, _alternation(raw)
        self._normalized, self._normalized_regex = spelled, _alternation(spelled)

    def split_raw(self, text: str, skip_special: bool = False) -> list[Part]:
        """The raw text cut around the tokens matched unnormalized (``skip_special``: special ones read as text)."""
        return _split(text, self._raw_regex, self._raw, self.special_texts if skip_special else set())

    def split_normalized(self, text: str, skip_special: bool = False) -> list[Part]:
        """Normalized text cut around the tokens matched in their normalized spelling."""
        return _split(text, self._normalized_regex, self._normalized, self.special_texts if skip_special else set())

    @property
    def has_normalized(self) -> bool:
        return self._normalized_regex is not None

    def describe(self) -> str:
        special = len(self.special_ids)
        return f"{len(self.tokens)} added tokens ({special} special, {len(self._normalized)} matched after normalizing)"


def _alternation(tokens: dict[str, AddedToken]) -> re.Pattern | None:
    if not tokens:
        return None
    # Longest first: at a given place the longest token wins, as in an Aho-Corasick leftmost-longest search.
    # Literals only, so the standard library's re will do: it compiles thousands of them 4x faster.
    ordered = sorted(tokens, key=lambda content: (-len(content), content))
    return re.compile("|".join(re.escape(content) for content in ordered))


def _split(text: str, compiled: re.Pattern | None, tokens: dict[str, AddedToken], skipped: set[str]) -> list[Part]:
    if compiled is None or not text:
        return [(text, None, 0)] if text else []
    parts: list[Part] = []
    offset = 0
    for match in compiled.finditer(text):
        start, stop = match.span()
        token = tokens[match.group()]
        if token.content in skipped:
            continue  # a special token read as text
        if token.single_word and (
            (start > 0 and _ENDS_WITH_WORD.search(text, 0, start))
            or (stop < len(text) and _STARTS_WITH_WORD.match(text, stop))
        ):
            continue
        if token.lstrip:
            found = _TRAILING_SPACE.search(text, 0, start)
            start = max(found.start() if found else start, offset)
        if token.rstrip:
            found = _LEADING_SPACE.match(text, stop)
            stop = found.end() if found else stop
        if start >= stop:
            continue  # all of it was whitespace the token before took (its rstrip): tokenizers drops the empty cut
        if offset < start:
            parts.append((text[offset:start], None, offset))
        parts.append((text[start:stop], token.id, start))
        offset = stop
    if offset != len(text):
        parts.append((text[offset:], None, offset))
    return parts
