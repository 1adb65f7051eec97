"""What each invisible character is drawn as (``⟨RLO⟩``, ``␀``, ``⟨U+0085⟩``): the marks of the one token renderer
(:mod:`ui.token_html`), which the merge player draws alike from :func:`mark_table`."""

from __future__ import annotations

INVISIBLE_CLASS = r"[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Cs}]"
"""Characters drawn as marks (after whitespace): controls, format characters (bidi, zero-width,
soft hyphen), spaces other than U+0020 (no-break, ideographic: a blank box, told apart from a
space by nothing), line/paragraph separators, lone surrogates. The same class is a JavaScript regex."""

ABBREVIATIONS = {
    0x0085: ("NEL", "NEXT LINE"),
    0x00A0: ("NBSP", "NO-BREAK SPACE"),
    0x00AD: ("SHY", "SOFT HYPHEN"),
    0x061C: ("ALM", "ARABIC LETTER MARK"),
    0x180E: ("MVS", "MONGOLIAN VOWEL SEPARATOR"),
    0x2002: ("ENSP", "EN SPACE"),
    0x2003: ("EMSP", "EM SPACE"),
    0x2009: ("THSP", "THIN SPACE"),
    0x200A: ("HSP", "HAIR SPACE"),
    0x200B: ("ZWSP", "ZERO WIDTH SPACE"),
    0x200C: ("ZWNJ", "ZERO WIDTH NON-JOINER"),
    0x200D: ("ZWJ", "ZERO WIDTH JOINER"),
    0x200E: ("LRM", "LEFT-TO-RIGHT MARK"),
    0x200F: ("RLM", "RIGHT-TO-LEFT MARK"),
    0x2028: ("LSEP", "LINE SEPARATOR"),
    0x2029: ("PSEP", "PARAGRAPH SEPARATOR"),
    0x202A: ("LRE", "LEFT-TO-RIGHT EMBEDDING"),
    0x202B: ("RLE", "RIGHT-TO-LEFT EMBEDDING"),
    0x202C: ("PDF", "POP DIRECTIONAL FORMATTING"),
    0x202D: ("LRO", "LEFT-TO-RIGHT OVERRIDE"),
    0x202E: ("RLO", "RIGHT-TO-LEFT OVERRIDE"),
    0x202F: ("NNBSP", "NARROW NO-BREAK SPACE"),
    0x205F: ("MMSP", "MEDIUM MATHEMATICAL SPACE"),
    0x2060: ("WJ", "WORD JOINER"),
    0x2066: ("LRI", "LEFT-TO-RIGHT ISOLATE"),
    0x2067: ("RLI", "RIGHT-TO-LEFT ISOLATE"),
    0x2068: ("FSI", "FIRST STRONG ISOLATE"),
    0x2069: ("PDI", "POP DIRECTIONAL ISOLATE"),
    0x3000: ("IDSP", "IDEOGRAPHIC SPACE"),
    0xFEFF: ("BOM", "ZERO WIDTH NO-BREAK SPACE"),
}
"""Abbreviation and name of the invisible characters people meet most; others show as U+XXXX."""


def mark_table() -> dict[str, list[str]]:
    """Abbreviation and name of each named invisible character, keyed by code point (for the JS).

    >>> mark_table()["8238"]
    ['RLO', 'RIGHT-TO-LEFT OVERRIDE']
    """
    return {str(cp): list(names) for cp, names in ABBREVIATIONS.items()}


def mark(ch: str) -> tuple[str, str]:
    """(shown, hover title) of one invisible character.

    >>> mark("\\u202e"), mark("\\x00"), mark("\\x85")
    (('⟨RLO⟩', 'U+202E RIGHT-TO-LEFT OVERRIDE'), ('␀', 'U+0000'), ('⟨NEL⟩', 'U+0085 NEXT LINE'))
    """
    cp = ord(ch)
    title = f"U+{cp:04X}"
    if cp < 0x20:
        return chr(0x2400 + cp), title
    if cp == 0x7F:
        return "␡", title
    names = ABBREVIATIONS.get(cp)
    if names is None:
        return f"⟨{title}⟩", title
    return f"⟨{names[0]}⟩", f"{title} {names[1]}"
