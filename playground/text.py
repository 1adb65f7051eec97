"""Text is text: the one helper that puts user or file text inside Streamlit's Markdown.

Streamlit renders ``st.error``, ``st.caption``, ``st.info`` ... as Markdown, so a file name like
``![x](http://evil/)`` would become a remote image and ``[text](…)`` a link. :func:`plain`
backslash-escapes every ASCII punctuation character (CommonMark lets any of them be escaped),
which also disarms Streamlit's own ``:material/…:`` icons, ``:red[…]`` colours and ``$…$`` math,
and shows invisible and direction-changing characters as visible marks, so a quoted value never
reorders the sentence around it. Patterns are shown verbatim with ``st.code``, never through here.
"""

from __future__ import annotations

import re
import string

from playground.i18n import t

_PUNCTUATION = frozenset(string.punctuation)
_AUTOLINK = re.compile(r"(?i)(?:https?|ftp|mailto|xmpp)(?=:)|www(?=\.)|@")

# Characters that are invisible or change the direction of the text around them, shown as ⟨U+XXXX⟩.
_INVISIBLE = frozenset([*range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2070), 0x061C, 0xFEFF, 0x00AD])


def visible_char(character: str) -> str:
    """A character as it should be shown in prose: invisible and control characters as ``⟨U+XXXX⟩``.

    >>> visible_char("a"), visible_char("\\u202e"), visible_char("\\x00")
    ('a', '⟨U+202E⟩', '⟨U+0000⟩')
    """
    code = ord(character)
    if code in _INVISIBLE or (code < 0x20 and character not in "\n\t") or 0x7F <= code < 0xA0:
        return f"⟨U+{code:04X}⟩"
    return character


def plain(text: object, limit: int = 300) -> str:
    """``text`` made safe to embed in Markdown: shown exactly as written, nothing rendered.

    Long values are cut to ``limit`` characters (with …), newlines become spaces.

    >>> plain("![x](http://e.vil/) :red[hi] $x$")
    '\\\\!\\\\[x\\\\]\\\\(http\\u2060\\\\:\\\\/\\\\/e\\\\.vil\\\\/\\\\) \\\\:red\\\\[hi\\\\] \\\\$x\\\\$'
    >>> plain("a" * 10, limit=4)
    'aaaa…'
    """
    value = str(text)
    if len(value) > limit:
        value = value[:limit] + "…"
    shown = "".join(" " if character in "\r\n" else visible_char(character) for character in value)
    # GFM turns bare URLs and e-mail addresses into links after escapes are resolved; a word joiner
    # (invisible, no width) inside the scheme, "www." or after "@" keeps them text.
    shown = _AUTOLINK.sub(lambda match: match.group() + "\u2060", shown)
    return "".join("\\" + character if character in _PUNCTUATION else character for character in shown)


def code_span(text: object, limit: int = 300) -> str:
    """``text`` as a Markdown code span: shown exactly as written, and copied as written (:func:`plain` must put a
    word joiner after ``@`` and ``http`` to keep GFM from making a link, and a pattern copied from the page carried
    it); invisible characters as ``⟨U+XXXX⟩``, newlines as spaces, cut to ``limit`` characters (with …).

    >>> code_span("[!-/:-@]"), code_span("a`b"), code_span("`x` "), code_span("")
    ('`[!-/:-@]`', '``a`b``', '`` `x`  ``', '')
    """
    value = str(text)
    if len(value) > limit:
        value = value[:limit] + "…"
    shown = "".join(" " if character in "\r\n" else visible_char(character) for character in value)
    if not shown:
        return ""
    fence = "`" * (max(map(len, re.findall(r"`+", shown)), default=0) + 1)
    # CommonMark takes one space off each end of a span that starts and ends with one, and a span may not start or
    # end with its fence's character: a space on each side keeps the text as it is.
    padded = shown.startswith(("`", " ")) or shown.endswith(("`", " "))
    return f"{fence} {shown} {fence}" if padded else f"{fence}{shown}{fence}"


def human_bytes(n: int) -> str:
    """``1500`` -> ``'1.5 KB'``: decimal units (1 MB = 1,000,000 bytes), as Streamlit's file uploader counts them
    (except on Windows), so a file's size reads the same in the uploader and on the page; in the session's language.

    >>> human_bytes(512), human_bytes(1), human_bytes(3_000_000), human_bytes(5 << 20)
    ('512 bytes', '1 byte', '3.0 MB', '5.2 MB')
    """
    for unit, size in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return t("1 byte") if n == 1 else t("{n:,} bytes", n=n)
