"""The one token renderer (ui/token_html.py): escaping, visible whitespace and invisible characters.

Properties over any text or bytes: the HTML parses back to exactly the label, every text node is
free of bidi controls, zero-width and other control or format characters, and nothing in it is
markup. Whitespace marks and the control-character table are checked against unicodedata.
"""

from __future__ import annotations

import unicodedata
from html.parser import HTMLParser

import regex
from hypothesis import example, given
from hypothesis import strategies as st

from ui import invisible_marks, token_html, token_style

INVISIBLE_CATEGORIES = {"Cc", "Cf", "Zs", "Zl", "Zp", "Cs"}  # Zs: but U+0020, which is drawn as ·
NASTY = (
    "\u202e\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u200b\u200c\u200d\u2060"
    "\ufeff\u00ad\x00\x1b\x7f\x85\u2028\u2029\u00a0\u3000\u202f\u2009<>&\"' \n\t\ra你🙂"
)


class _Nodes(HTMLParser):
    """Text nodes, tags and attributes of an HTML fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)

    def handle_data(self, data):
        self.texts.append(data)


def _parse(fragment: str) -> _Nodes:
    nodes = _Nodes()
    nodes.feed(fragment)
    nodes.close()
    return nodes


def _invisible(text: str) -> list[str]:
    return [ch for ch in text if unicodedata.category(ch) in INVISIBLE_CATEGORIES and ch != " "]


tokens_st = st.one_of(
    st.binary(max_size=40), st.text(alphabet=st.sampled_from(NASTY), max_size=30), st.text(max_size=30)
)


@given(tokens_st)
def test_any_token_renders_as_escaped_visible_text(token):
    span = token_html.token_span(token, 5, 3)
    nodes = _parse(span)
    assert set(nodes.tags) <= {"span", "br"}
    assert {name for name, _ in nodes.attrs} <= {"class", "data-token-id", "title"}
    shown = "".join(nodes.texts)
    label = token_html.display_bytes(token) if isinstance(token, bytes) else token_html.display_str(token)
    assert shown == label
    assert not _invisible(shown), [hex(ord(ch)) for ch in _invisible(shown)]
    for name, value in nodes.attrs:
        assert not _invisible(value), (name, value)


@given(st.text(max_size=60))
@example("a\u200b\U00013439 b")  # a format character of Unicode 15, newer than this Python's unicodedata
def test_marks_replace_exactly_the_invisible_characters(text):
    """Each piece is text without invisible characters, or one mark standing for one character."""
    pieces = token_html.text_pieces(text)
    rebuilt = []
    for piece in pieces:
        if piece[0] == "text":
            assert not _invisible(piece[1])
            rebuilt.append(piece[1])
        else:
            kind, shown, title = piece
            cp = int(title.split()[0][2:], 16)
            category = unicodedata.category(chr(cp))
            # `regex` knows a newer Unicode than Python 3.11's unicodedata (14.0): a format character added since
            # (U+13439, an Egyptian hieroglyph control of Unicode 15) is unassigned here, and a mark there.
            assert category in INVISIBLE_CATEGORIES or (category == "Cn" and regex.match(r"\p{Cf}", chr(cp))), hex(cp)
            assert (shown, title) == invisible_marks.mark(chr(cp))
            rebuilt.append(chr(cp))
    assert "".join(rebuilt) == token_html.show_whitespace(text)


def test_bidi_and_zero_width_marks_name_their_code_point():
    for cp in [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C, 0x200B, 0x200C,
               0x200D, 0x2060, 0xFEFF, 0x00AD, 0x00A0, 0x3000, 0x202F]:  # fmt: skip
        shown, title = invisible_marks.mark(chr(cp))
        assert shown.startswith("⟨") and shown.endswith("⟩") and shown.strip("⟨⟩").isupper()
        assert title == f"U+{cp:04X} {unicodedata.name(chr(cp))}"
    assert invisible_marks.mark("\x1b") == ("␛", "U+001B")
    assert token_html.display_str(" \n\t\r") == "·↵→␍"  # whitespace keeps its own marks


def test_partial_characters_and_marks_in_one_byte_token():
    token = "a\u202e".encode() + "你".encode()[:2]
    assert token_html.token_pieces(token) == [
        ("text", "a"),
        ("mark", "⟨RLO⟩", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("bytes", "⟨E4 BD⟩"),
    ]
    span = token_html.token_span(token, None, 0)
    assert '<span class="ctl" title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨RLO⟩</span>' in span
    assert '<span class="tokbytes">⟨E4 BD⟩</span>' in span


def test_classic_symbols_and_labels_use_the_same_span():
    html_words = token_html.words_html([["lo", "w</w>"], ["\u202e</w>"]])
    nodes = _parse(html_words)
    assert "".join(nodes.texts).split() == ["low</w>", "⟨RLO⟩</w>"]
    assert html_words.count('class="tok c') == 3
    step = token_html.token_span("ab", None, 1, extra_class="just")
    assert step.startswith('<span class="tok c1 just" data-token-id="" title="ab · 2 chars">')


def test_long_tokens_are_clipped_by_css_with_the_full_text_in_the_title():
    token = b"x" * 1024
    span = token_html.token_span(token, 9, 0)
    assert f'title="id 9 · {"x" * 1024} · 1024 bytes"' in span
    assert "max-width" in token_style.TOKEN_CSS and "text-overflow:ellipsis" in token_style.TOKEN_CSS
    assert "unicode-bidi:isolate" in token_style.TOKEN_CSS


def test_tokens_html_shows_at_most_max_tokens():
    block = token_html.tokens_html([b"a", b"<b>", b"c"], [1, 2, 3], max_tokens=2)
    nodes = _parse(block)
    assert nodes.texts[:2] == ["a", "<b>"] and "1 more tokens not shown" in nodes.texts[-1]
    assert [value for name, value in nodes.attrs if name == "data-token-id"] == ["1", "2"]
