r"""Possessive quantifiers where they change nothing but the work: the ASCII twins of the open models' patterns.

tiktoken's own patterns mark their repeats possessive (``\p{L}++``); Llama 3's, o200k's, Qwen's and the others
do not, so ``re`` keeps a way back into each repeat it may never take (measured on 3 MB of English: o200k's
twin 14.7 MB/s, possessive 16.4; Llama 3's 17.8 and 19.2). A repeat of one character class ``X`` followed in its
alternative by repeats of classes is given back to only if what follows could then start with a character of
``X``. So when ``X`` shares no character with any class that can come first after it (up to the first that
must match at least once), or nothing follows it in its top-level alternative, giving back never helps, and
``X?+``, ``X*+``, ``X++`` find the same matches. Anything else after it (a group, a lookahead, ``$``) leaves it
as it is, and so does every repeat inside a group.

>>> print(possessive(r"[!-/]?[A-Z]*[a-z]+|[ ]+(?![a-z])"))
[!-/]?+[A-Z]*+[a-z]++|[ ]+(?![a-z])
"""

from __future__ import annotations

import re

# At the top level of a twin: a class or one literal character with its quantifier (and a second + or ? if
# it is possessive or lazy already), or a group, or an alternation bar, or anything else (an anchor).
_ITEM = re.compile(
    r"(?P<atom>\[(?:\\.|[^\]\\])*\]|\\x[0-9a-f]{2}|\\.|[^\\\[\]()|?*+{}.^$])(?P<quantifier>[?*+]|\{\d*,?\d*\})?"
    r"(?P<mode>[+?])?|(?P<group>\()|(?P<bar>\|)|(?P<other>.)",
    re.DOTALL,
)
_ASCII = [chr(code) for code in range(128)]


def possessive(twin: str) -> str:
    """The twin with each top-level greedy repeat of one class made possessive where that is provably
    the same (see the module docstring)."""
    items: list[tuple[str, ...]] = []  # (kind, text, atom, quantifier, mode)
    position = 0
    while position < len(twin):
        if twin[position] == "(":
            end = _group_end(twin, position)
            items.append(("other", twin[position:end], "", "", ""))
            position = end
            continue
        match = _ITEM.match(twin, position)
        assert match is not None  # every character is at least "other"
        kind = "atom" if match["atom"] else "bar" if match["bar"] else "other"
        items.append((kind, match.group(), match["atom"] or "", match["quantifier"] or "", match["mode"] or ""))
        position = match.end()
    out = []
    for index, (kind, text, atom, quantifier, mode) in enumerate(items):
        if (
            kind == "atom"
            and quantifier in ("?", "*", "+")
            and not mode
            and _never_given_back(atom, items[index + 1 :])
        ):
            text += "+"
        out.append(text)
    return "".join(out)


def _never_given_back(atom: str, following: list[tuple[str, ...]]) -> bool:
    members = _members(atom)
    for kind, _, next_atom, quantifier, _mode in following:
        if kind == "bar":
            return True  # the alternative ends here: a match, never a way back
        if kind != "atom" or members & _members(next_atom):
            return False
        if quantifier not in ("?", "*") and not quantifier.startswith(("{0", "{,")):
            return True  # it must match a character, and none of X's
    return True  # the end of the pattern


def _members(atom: str) -> frozenset[str]:
    pattern = re.compile(atom)
    return frozenset(character for character in _ASCII if pattern.fullmatch(character))


def _group_end(twin: str, start: int) -> int:
    """Where the group opened at ``start`` closes (classes and escapes inside it skipped)."""
    depth, position = 0, start
    while position < len(twin):
        character = twin[position]
        if character == "\\":
            position += 2
            continue
        if character == "[":
            position = re.compile(r"\[(?:\\.|[^\]\\])*\]").match(twin, position).end()  # type: ignore[union-attr]
            continue
        depth += {"(": 1, ")": -1}.get(character, 0)
        position += 1
        if depth == 0:
            return position
    raise ValueError(f"unbalanced group in {twin!r}")
