r"""Rewrites of the ASCII twins that change nothing but the work: possessive repeats, and no dead alternatives.

A twin runs on ASCII text only, so an alternative that must match a class with no ASCII member (DeepSeek's CJK
and non-ASCII gap alternatives become ``[^\x00-\x7f]``) can never match there; ``re`` would still try it at
every position (measured: DeepSeek's twin 13.7 MB/s, without them 18.7). :func:`without_dead_alternatives`
drops them.

tiktoken's own patterns mark their repeats possessive (``\p{L}++``); Llama 3's, o200k's, Qwen's and the others
do not, so ``re`` keeps a way back into each repeat it may never take (measured on 3 MB of English: o200k's
twin 14.7 MB/s, possessive 16.4; Llama 3's 17.8 and 19.2). A repeat of one character class ``X`` followed in its
alternative by repeats of classes is given back to only if what follows could then start with a character of
``X``. So when ``X`` shares no character with any class that can come first after it (up to the first that
must match at least once), or nothing follows it in its top-level alternative, giving back never helps, and
``X?+``, ``X*+``, ``X++`` find the same matches. A group whose alternatives each start with a class (o200k's
``(?i:'s|'t|...)?``) is read for those first characters; anything else after it (other groups, a lookahead, ``$``)
leaves it as it is, and so does every repeat inside a group.

>>> print(possessive(r"[!-/]?[A-Z]*[a-z]+|[ ]+(?![a-z])|[a-z]+(?i:'s|'t)?"))
[!-/]?+[A-Z]*+[a-z]++|[ ]+(?![a-z])|[a-z]++(?i:'s|'t)?
>>> print(without_dead_alternatives(r"[0-9]+|[^\x00-\x7f]?[^\x00-\x7f]+|(?:[^\x00-\x7f](?![a-z]))+|[a-z]+"))
[0-9]+|[a-z]+
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
    items = _items(twin)
    out = []
    for index, (kind, text, atom, quantifier, mode) in enumerate(items):
        if (
            kind == "atom"
            and (quantifier in ("?", "*", "+") or quantifier.startswith("{"))
            and not mode
            and _never_given_back(atom, items[index + 1 :])
        ):
            text += "+"
        out.append(text)
    return "".join(out)


def without_dead_alternatives(twin: str) -> str:
    """The twin without its top-level alternatives that can never match ASCII text (see the module docstring)."""
    kept = ["".join(item[1] for item in items) for items in _split_alternatives(twin) if not _dead(items)]
    return "|".join(kept) if kept else twin


def _dead(items: list[tuple[str, ...]]) -> bool:
    """Whether an alternative must, before anything else can match, match a class with no ASCII member: in
    front of it only classes that may match nothing, and it itself repeated at least once (or a group that
    must match once and whose every alternative is dead)."""
    for index, (kind, text, atom, quantifier, _mode) in enumerate(items):
        if kind == "atom":
            if _members(atom):
                return False
            if _nullable(quantifier):
                continue
            return True
        following = items[index + 1][1] if index + 1 < len(items) else ""
        if following.startswith("{"):
            return False  # a counted repeat of a group: not worth reading
        if text.startswith("(?:") and text.endswith(")") and following not in ("?", "*"):
            inner = text[3:-1]
            return all(_dead(alternative) for alternative in _split_alternatives(inner))
        return False
    return False


def _split_alternatives(pattern: str) -> list[list[tuple[str, ...]]]:
    alternatives: list[list[tuple[str, ...]]] = [[]]
    for item in _items(pattern):
        if item[0] == "bar":
            alternatives.append([])
        else:
            alternatives[-1].append(item)
    return alternatives


def _nullable(quantifier: str) -> bool:
    return quantifier in ("?", "*") or quantifier.startswith(("{0", "{,"))


def _items(twin: str) -> list[tuple[str, ...]]:
    """The top level of a pattern: (kind, text, atom, quantifier, mode) for each atom, group, bar or other."""
    items: list[tuple[str, ...]] = []
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
    return items


def _never_given_back(atom: str, following: list[tuple[str, ...]]) -> bool:
    members = _members(atom)
    index = 0
    while index < len(following):
        kind, text, next_atom, quantifier, _mode = following[index]
        if kind == "bar":
            return True  # the alternative ends here: a match, never a way back
        first: frozenset[str] | None
        if kind == "atom":
            first = _members(next_atom)
        else:  # a group of alternatives that each start with a character class: o200k's (?i:'s|'t|...)?
            first = _group_first(text)
            quantifier = following[index + 1][1] if index + 1 < len(following) else ""
            index += quantifier in ("?", "*")
        if first is None or members & first:
            return False
        if not _nullable(quantifier):
            return True  # it must match a character, and none of X's
        index += 1
    return True  # the end of the pattern


def _group_first(group: str) -> frozenset[str] | None:
    """The characters a group ``(?:..)`` or ``(?i:..)`` can start with, when each of its alternatives starts with
    a class or a character that must match (else None: not read)."""
    head = next((prefix for prefix in ("(?:", "(?i:") if group.startswith(prefix)), None)
    if head is None:
        return None
    first: set[str] = set()
    for alternative in _split_alternatives(group[len(head) : -1]):
        if not alternative or alternative[0][0] != "atom" or _nullable(alternative[0][3]):
            return None
        members = _members(alternative[0][2])
        first |= members | {character.swapcase() for character in members} if head == "(?i:" else members
    return frozenset(first)


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
