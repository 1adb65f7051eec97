"""Regex dialects: Python's ``regex`` (our patterns) <-> Oniguruma (Hugging Face ``tokenizers``' Split).

Hugging Face runs Oniguruma, so a pattern goes into a ``tokenizer.json`` through :func:`to_oniguruma`
and comes back out through ``from_oniguruma`` (:mod:`bpe_core.formats.oniguruma_to_python`).
Translated exactly (each checked against Oniguruma on every code point or on texts with ZWNJ, ZWJ,
², ½, Arabic, Devanagari, emoji and CRLF, in ``tests/test_oniguruma.py``):

=====================  ====================================================================
Python ``regex``       Oniguruma
=====================  ====================================================================
``X{n,m}+``            ``(?>X{n,m})`` (Oniguruma reads ``{n,m}+`` as ``(X{n,m})+``)
``X{n}?``              ``X{n}`` (lazy or not, the same; Oniguruma reads ``X{n}?`` as ``(X{n})?``)
``\\w`` / ``\\W``        ``[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]`` / its negation
                       (Oniguruma's ``\\w`` leaves out ZWNJ and ZWJ and takes in ², ½ ...)
``\\b`` / ``\\B``        lookarounds on that ``\\w`` class
``\\h`` / ``\\H``        the 18 horizontal spaces / their negation (``\\h`` is a hex digit there)
``$`` ``^`` ``\\Z``      ``(?=\\n?\\z)`` ``\\A`` ``\\z`` outside multiline scopes (Oniguruma's are
                       per line); kept as they are inside ``(?m)`` or ``(?m:...)``
``(?s)`` ``(?m)``      ``(?m)`` and nothing (the flags' letters are swapped)
``(?P<name>``          ``(?<name>``
``[`` ``&&`` in a set   ``\\[`` ``\\&\\&`` (literals in Python, nesting/intersection there)
``-`` next to ``\\w``    ``\\-`` (a literal in Python; an error or a range there)
``\\v`` ``\\a``           ``\\x0B`` ``\\x07``
=====================  ====================================================================

Refused with a ValueError naming the construct, because no exact translation is known or the
meaning differs: ``\\N{...}``, back-references, ``\\X \\R \\G \\K \\m \\M`` and other escapes,
set operations (``--`` ``||`` ``~~``) in a class, ``\\p \\w`` and classes other than plain
ASCII members under the ``i`` flag (case-insensitive sets differ; ``i`` itself gains U+0130),
comments, conditionals and branch resets,
the flags ``x a L u f b e p r w V0 V1``, and flags set in the middle of a pattern.
"""

from __future__ import annotations

from .regex_syntax import class_end, counted_quantifier_at, escape_at, inline_flags_at, last_atom_start

_WORD = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}"  # Python regex's \w, exactly
_HORIZONTAL_SPACE = r"\t\x20\x{A0}\x{1680}\x{2000}-\x{200A}\x{202F}\x{205F}\x{3000}"  # Python regex's \h
# Escapes both dialects read alike (letters; any escaped non-letter is a literal in both).
_SAME_ESCAPES = set("dDsStnrfAp") | {"P"}
_OUTSIDE_CLASS = {
    "w": f"[{_WORD}]",
    "W": f"[^{_WORD}]",
    "h": f"[{_HORIZONTAL_SPACE}]",
    "H": f"[^{_HORIZONTAL_SPACE}]",
    "b": f"(?:(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}]))",
    "B": f"(?:(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}]))",
    "Z": r"\z",
    "v": r"\x0B",
    "a": r"\x07",
}
_INSIDE_CLASS = {**_OUTSIDE_CLASS, "w": _WORD, "h": _HORIZONTAL_SPACE, "b": r"\x08"}
_CASELESS_CLASS = (
    "{} under the i flag is not translated (case-insensitive sets differ between the engines outside plain "
    "ASCII members); list the cases instead"
)
# Under the i flag Python also matches U+0130 for i and U+0131 for I, Oniguruma does not; every
# other ASCII character matches the same set in both (checked on every cased code point).
_CASELESS_EXTRA = {"i": r"\x{130}", "I": r"\x{131}"}
_FLAGS_TO_ONIGURUMA = {"i": "i", "s": "m", "m": ""}  # Python's m only changes ^ and $, handled apart


def to_oniguruma(python_regex: str) -> str:
    """Translate a Python ``regex`` pattern into an Oniguruma one that splits text the same way.

    See the module docstring for what is rewritten and what is refused (a ValueError).

    >>> to_oniguruma(r"\\p{N}{1,3}+|\\s+$")
    '(?>\\\\p{N}{1,3})|\\\\s+(?=\\\\n?\\\\z)'
    """
    out: list[str] = []  # one entry per atom or operator, so a quantifier can wrap the last atom
    i, n = 0, len(python_regex)
    multiline = ignorecase = False
    scopes: list[tuple[bool, bool]] = []  # the flags to restore at each open group's ")"
    while i < n:
        char = python_regex[i]
        if char == "\\":
            escape = escape_at(python_regex, i)
            if ignorecase and escape[1] in "pPwW":
                raise ValueError(_CASELESS_CLASS.format(escape))
            out.append(_translate_escape(escape, _OUTSIDE_CLASS))
            i += len(escape)
        elif char == "[":
            end = class_end(python_regex, i, nested=False)
            out.append(_caseless_class(python_regex[i:end]) if ignorecase else _translate_class(python_regex[i:end]))
            i = end
        elif char == "(":
            flags = inline_flags_at(python_regex, i)
            if flags is not None:
                on, off, kind, length = flags
                onig_on, onig_off = _onig_flags(on), _onig_flags(off)
                if kind == ")" and i > 0:
                    raise ValueError(
                        f"inline flags {python_regex[i : i + length]} in the middle of the pattern: put them at the "
                        "start or scope them as (?flags:...)"
                    )
                if kind == ":":
                    scopes.append((multiline, ignorecase))
                multiline = "m" in on or (multiline and "m" not in off)
                ignorecase = "i" in on or (ignorecase and "i" not in off)
                body = onig_on + ("-" + onig_off if onig_off else "")
                out.append(f"(?{body}{kind}" if body else ("(?:" if kind == ":" else ""))
                i += length
                continue
            opener = _group_opener(python_regex, i)
            scopes.append((multiline, ignorecase))
            out.append(opener.replace("(?P<", "(?<"))
            i += len(opener)
        elif char == ")":
            if scopes:
                multiline, ignorecase = scopes.pop()
            out.append(")")
            i += 1
        elif char == "{" and out:
            quantifier = counted_quantifier_at(python_regex, i)
            if quantifier is None:
                out.append("\\{")
                i += 1
                continue
            i += len(quantifier)
            if i < n and python_regex[i] == "+":
                # Possessive counted repeat: Oniguruma has the atomic group, not the syntax.
                atom_start = last_atom_start(out)
                atom = "".join(out[atom_start:])
                del out[atom_start:]
                out.append(f"(?>{atom}{quantifier})")
                i += 1
            else:
                # A lazy X{n} is X{n}; Oniguruma reads X{n}? as (X{n})?.
                out.append(quantifier.removesuffix("?") if "," not in quantifier else quantifier)
        elif char in "^$":
            out.append(char if multiline else {"^": "\\A", "$": "(?=\\n?\\z)"}[char])
            i += 1
        else:
            out.append(f"[{char}{_CASELESS_EXTRA[char]}]" if ignorecase and char in _CASELESS_EXTRA else char)
            i += 1
    return "".join(out)


def _caseless_class(text: str) -> str:
    """A class under the i flag: only plain ASCII members are translated (see _CASELESS_EXTRA)."""
    members = text[1:-1]
    if not members or not all(c.isascii() and (c.isalnum() or c in "_'") for c in members):
        raise ValueError(_CASELESS_CLASS.format(text))
    return "[" + members + "".join(_CASELESS_EXTRA.get(c, "") for c in members) + "]"


def _onig_flags(python_flags: str) -> str:
    for flag in python_flags:
        if flag not in _FLAGS_TO_ONIGURUMA:
            raise ValueError(f"inline flag {flag!r} has no exact Oniguruma equivalent; only i, s and m are translated")
    return "".join(_FLAGS_TO_ONIGURUMA[flag] for flag in python_flags)


def _group_opener(source: str, i: int) -> str:
    """The opening of the (non-flag) group at ``i``: ``(``, ``(?:``, ``(?=``, ``(?P<name>``..."""
    for opener in ("(?:", "(?>", "(?=", "(?!", "(?<=", "(?<!"):
        if source.startswith(opener, i):
            return opener
    if source.startswith(("(?P<", "(?<"), i):
        end = source.find(">", i)
        if end > 0:
            return source[i : end + 1]
    if source.startswith("(?", i):
        raise ValueError(
            f"the group {source[i : i + 4]!r}... (a back-reference, comment, conditional, branch reset or "
            "recursion) has no exact Oniguruma translation"
        )
    return "("


def _translate_escape(escape: str, table: dict[str, str]) -> str:
    letter = escape[1]
    if letter in table:
        return table[letter]
    if letter == "U" and len(escape) == 10:
        return "\\x{" + escape[2:] + "}"
    if letter == "x" and len(escape) == 4 and escape[2:] >= "80":
        return "\\x{" + escape[2:] + "}"  # Oniguruma reads \xHH as a byte, not U+00HH
    if letter in _SAME_ESCAPES or letter in "xu" or not letter.isalnum():
        return escape
    if letter == "N":
        raise ValueError(f"{escape} (a named character) has no Oniguruma equivalent; write the character itself")
    raise ValueError(f"the escape {escape} has no exact Oniguruma translation (its meaning differs or is unknown)")


def _translate_class(text: str) -> str:
    """A Python character class, spelled so that Oniguruma reads the same set.

    ``\\W`` and ``\\H`` are negated sets with no property name, and a class nested in a class
    would not read back into Python, so a class holding them becomes an alternation.
    """
    for operator in ("--", "||", "~~"):
        if operator in text:
            raise ValueError(
                f"{operator!r} in the class {text} (a set operation in some regex versions, literals in others) "
                "is not translated; write the characters out"
            )
    negated = text.startswith("[^")
    i = 2 if negated else 1
    items: list[tuple[str, bool]] = []  # (Oniguruma text, is a single character)
    excluded: list[str] = []  # the sets of \W and \H in the class, as Oniguruma class bodies
    while i < len(text) - 1:
        if text[i] == "\\":
            escape = escape_at(text, i)
            i += len(escape)
            if escape in ("\\W", "\\H"):
                excluded.append(_INSIDE_CLASS[escape[1].lower()])
                continue
            single = escape[1] in "xuUtnrfvab" or not escape[1].isalnum()
            items.append((_translate_escape(escape, _INSIDE_CLASS), single))
        elif text.startswith("[:", i) and text.find(":]", i + 2) > 0:
            close = text.find(":]", i + 2) + 2
            items.append((text[i:close], False))
            i = close
        else:
            literal = {"[": "\\[", "&": "\\&", "]": "\\]"}.get(text[i], text[i])  # [ nests, && intersects there
            items.append((literal, True))
            i += 1
    body = []
    for index, (item, _single) in enumerate(items):
        if item == "-" and 0 < index < len(items) - 1:
            # A range only between two single characters; beside \w, \p{..}... Python reads a literal.
            is_range = items[index - 1][1] and items[index + 1][1] and (index < 2 or items[index - 2][0] != "-")
            body.append("-" if is_range else "\\-")
        else:
            body.append(item)
    kept = "".join(body)
    if not excluded:
        return f"[{'^' if negated else ''}{kept}]"
    if not negated:  # [X\W] is X or not-\w
        return "(?:" + "|".join(([f"[{kept}]"] if kept else []) + [f"[^{ex}]" for ex in excluded]) + ")"
    if len(excluded) > 1:
        raise ValueError(f"the class {text} (negating both \\W and \\H) is not translated; write it out")
    # [^X\W] is in \w and not in X
    return f"(?:(?![{kept}])[{excluded[0]}])" if kept else f"[{excluded[0]}]"
