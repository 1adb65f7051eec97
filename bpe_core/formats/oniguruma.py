"""Regex dialects: Python's ``regex`` (our patterns) <-> Oniguruma (Hugging Face ``tokenizers``' Split).

Hugging Face runs Oniguruma, so a pattern goes into a ``tokenizer.json`` through :func:`to_oniguruma`
and comes back out through :func:`from_oniguruma`. The one change the named patterns need is for
``\\p{N}{1,3}+``, which Oniguruma would read as "one or more runs of 1-3 digits", not as a
possessive ``{1,3}``.
"""

from __future__ import annotations

from ..pretokenize import PATTERNS


def to_oniguruma(python_regex: str) -> str:
    """Translate a Python ``regex`` pattern into an Oniguruma one that splits text the same way.

    Hugging Face ``tokenizers`` compiles ``Split`` patterns with Oniguruma (Ruby syntax), which
    differs from Python's ``regex`` in a few places this rewrites:

    * ``X{n,m}+`` is possessive in Python but means ``(X{n,m})+`` in Oniguruma -> ``(?>X{n,m})``;
    * ``$`` is end-of-text (or before a final newline) in Python but end-of-line in Oniguruma
      -> ``(?=\\n?\\z)``; ``^`` likewise -> ``\\A``; ``\\Z`` (end of text) -> ``\\z``;
    * the inline flag ``s`` (dot matches newline) is Oniguruma's ``m``; Python's ``m`` is
      Oniguruma's default;
    * ``(?P<name>`` -> ``(?<name>``.

    Constructs with no equivalent (``\\N{...}``, ``(?P=name)``, flags ``a``/``L``/``u``) raise ValueError.

    >>> to_oniguruma(r"\\p{N}{1,3}+|\\s+$")
    '(?>\\\\p{N}{1,3})|\\\\s+(?=\\\\n?\\\\z)'
    """
    out: list[str] = []  # one entry per atom or operator, so a quantifier can wrap the last atom
    i, n = 0, len(python_regex)
    multiline = "m" in _global_flags(python_regex)
    while i < n:
        char = python_regex[i]
        if char == "\\":
            escape = _escape_at(python_regex, i)
            i += len(escape)
            if escape.startswith("\\N{"):
                raise ValueError(
                    f"{escape} (a named character) has no Oniguruma equivalent; write the character itself"
                )
            if escape == "\\Z":
                escape = "\\z"
            elif escape.startswith("\\U") and len(escape) == 10:
                escape = "\\x{" + escape[2:] + "}"
            out.append(escape)
        elif char == "[":
            end = _class_end(python_regex, i, nested=False)
            out.append(_translate_class(python_regex[i:end]))
            i = end
        elif char == "(":
            head = python_regex[i : i + 4]
            if head.startswith("(?P="):
                raise ValueError("back-references (?P=name) have no place in a pre-tokenization pattern")
            if head.startswith("(?P<"):
                out.append("(?<")
                i += 4
                continue
            flags = _inline_flags_at(python_regex, i)
            if flags is not None:
                text, length = flags
                out.append(text)
                i += length
                continue
            out.append("(")
            i += 1
        elif char == "{" and out:
            quantifier = _counted_quantifier_at(python_regex, i)
            if quantifier is None:
                out.append("\\{")
                i += 1
                continue
            i += len(quantifier)
            if i < n and python_regex[i] == "+":
                # Possessive counted repeat: Oniguruma has the atomic group, not the syntax.
                atom_start = _last_atom_start(out)
                atom = "".join(out[atom_start:])
                del out[atom_start:]
                out.append(f"(?>{atom}{quantifier})")
                i += 1
            else:
                out.append(quantifier)
        elif char == "$" and not multiline:
            out.append("(?=\\n?\\z)")
            i += 1
        elif char == "^" and not multiline:
            out.append("\\A")
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


def from_oniguruma(oniguruma_regex: str) -> str:
    """The pattern to use in Python for a Split regex read from a ``tokenizer.json``.

    A translation of one of our named patterns gives back its name; otherwise the few Oniguruma
    spellings :func:`to_oniguruma` introduces that Python reads differently are turned back
    (atomic groups need nothing: they mean the same in both).

    >>> from_oniguruma(to_oniguruma(PATTERNS["cl100k"]))
    'cl100k'
    """
    for pattern_name, regex_source in PATTERNS.items():
        if to_oniguruma(regex_source) == oniguruma_regex:
            return pattern_name
    return _python_from_oniguruma(oniguruma_regex)


def _python_from_oniguruma(source: str) -> str:
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        char = source[i]
        if char == "\\":
            escape = _escape_at(source, i)
            i += len(escape)
            if escape == "\\z":
                escape = "\\Z"
            out.append(escape)
        elif char == "[":
            end = _class_end(source, i, nested=True)
            out.append(source[i:end])
            i = end
        elif char == "(" and source.startswith("(?<", i) and not source.startswith(("(?<=", "(?<!"), i):
            out.append("(?P<")
            i += 3
        elif char == "(":
            flags = _inline_flags_at(source, i, reverse=True)
            if flags is not None:
                out.append(flags[0])
                i += flags[1]
            else:
                out.append("(")
                i += 1
        elif char in "^$":
            # Oniguruma anchors are always per line: Python's multiline mode.
            out.append("(?m:^)" if char == "^" else "(?m:$)")
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _escape_at(source: str, i: int) -> str:
    """The whole escape sequence starting at the backslash at ``i``."""
    if i + 1 >= len(source):
        raise ValueError("the pattern ends with a lone backslash")
    letter = source[i + 1]
    if letter in "pPNx" and source.startswith("{", i + 2):
        end = source.find("}", i + 2)
        if end < 0:
            raise ValueError(f"unterminated \\{letter}{{...}} in the pattern")
        return source[i : end + 1]
    if letter == "x":
        return source[i : i + 4]
    if letter == "u":
        return source[i : i + 6]
    if letter == "U":
        return source[i : i + 10]
    return source[i : i + 2]


def _class_end(source: str, start: int, *, nested: bool) -> int:
    """Index just past the character class opening at ``start``.

    Oniguruma nests classes (``[a[bc]]``); Python's ``regex`` (version 0) reads an inner ``[`` as
    a literal, except in a POSIX class such as ``[:alpha:]``, which both understand.
    """
    i = start + 1
    if i < len(source) and source[i] == "^":
        i += 1
    if i < len(source) and source[i] == "]":  # a leading ] is a literal
        i += 1
    depth = 1
    while i < len(source):
        char = source[i]
        if char == "\\":
            i += len(_escape_at(source, i))
            continue
        if char == "[" and source.startswith("[:", i):
            close = source.find(":]", i + 2)
            if close > 0:
                i = close + 2
                continue
        if char == "[" and nested:
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unterminated character class in the pattern")


def _translate_class(text: str) -> str:
    """A Python character class, spelled so that Oniguruma reads the same set."""
    out = [text[0]]
    i = 1
    while i < len(text):
        if text[i] == "\\":
            escape = _escape_at(text, i)
            out.append(escape)
            i += len(escape)
        elif text.startswith("[:", i) and text.find(":]", i + 2) > 0:
            close = text.find(":]", i + 2) + 2
            out.append(text[i:close])
            i = close
        elif text[i] == "[":
            out.append("\\[")  # a literal in Python, a nested class in Oniguruma
            i += 1
        elif text.startswith("&&", i):
            out.append("&\\&")  # a literal in Python, intersection in Oniguruma
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _counted_quantifier_at(source: str, i: int) -> str | None:
    end = source.find("}", i)
    if end < 0:
        return None
    body = source[i + 1 : end]
    low, comma, high = body.partition(",")
    if not low.isdigit() or (high and not high.isdigit()) or (not comma and high):
        return None
    quantifier = source[i : end + 1]
    if end + 1 < len(source) and source[end + 1] == "?":
        quantifier += "?"
    return quantifier


def _last_atom_start(out: list[str]) -> int:
    """Index in ``out`` where the last atom begins (a group spans from its "(" to its ")")."""
    index = len(out) - 1
    if out[index] != ")":
        return index
    depth = 0
    while index >= 0:
        item = out[index]
        if item == ")":
            depth += 1
        elif item.startswith("(") and not item.startswith("(?>") or item == "(?<":
            depth -= 1
            if depth == 0:
                return index
        index -= 1
    raise ValueError("unbalanced parentheses in the pattern")


_PYTHON_FLAGS_TO_ONIGURUMA = {"i": "i", "x": "x", "s": "m", "m": ""}
_ONIGURUMA_FLAGS_TO_PYTHON = {"i": "i", "x": "x", "m": "s"}


def _inline_flags_at(source: str, i: int, *, reverse: bool = False) -> tuple[str, int] | None:
    """Translate an inline flag group ``(?flags)`` / ``(?flags:`` / ``(?on-off:`` at ``i``."""
    if not source.startswith("(?", i):
        return None
    j = i + 2
    while j < len(source) and (source[j].isalpha() or source[j] == "-"):
        j += 1
    if j == i + 2 or j >= len(source) or source[j] not in ":)":
        return None
    table = _ONIGURUMA_FLAGS_TO_PYTHON if reverse else _PYTHON_FLAGS_TO_ONIGURUMA
    translated = []
    for flag in source[i + 2 : j]:
        if flag == "-":
            translated.append("-")
        elif flag in table:
            translated.append(table[flag])
        else:
            raise ValueError(f"inline flag {flag!r} has no equivalent in the other regex dialect")
    flags = "".join(translated).rstrip("-")
    if not flags.replace("-", ""):
        # Only flags that need no translation: a plain group or nothing at all.
        return ("(?:" if source[j] == ":" else "", j - i + 1)
    return (f"(?{flags}{source[j]}", j - i + 1)


def _global_flags(source: str) -> str:
    """The letters of a leading ``(?flags)`` group, which applies to the whole pattern."""
    if source.startswith("(?"):
        end = source.find(")")
        body = source[2:end] if end > 0 else ""
        if body.isalpha():
            return body
    return ""
