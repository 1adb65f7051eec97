"""Render tokens as escaped HTML: alternating colours, visible whitespace, bytes for partial characters.

Every piece of user or token text goes through ``html.escape`` here; nothing else in the app
builds HTML from text. Each token span carries ``class="tok"`` and ``data-token-id``.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

# Shown instead of invisible characters.
WHITESPACE_MARKS = {" ": "·", "\n": "↵", "\t": "→", "\r": "␍"}
_TRANSLATE = str.maketrans(WHITESPACE_MARKS)

# Background colours for alternating tokens: light, distinct from their neighbours, and dark
# text (#111) on each keeps a contrast ratio above 12:1 -- readable on a washed-out projector.
PALETTE = ("#ffd8a8", "#b2f2bb", "#a5d8ff", "#eebefa", "#ffec99")


def show_whitespace(text: str) -> str:
    """``"a b\\n"`` -> ``"a·b↵"``."""
    return text.translate(_TRANSLATE)


def byte_pieces(data: bytes) -> list[tuple[bool, str]]:
    """Split bytes into ``(is_text, piece)``: runs of whole UTF-8 characters, and runs of
    bytes that are not whole characters, rendered as ``⟨E4 BD⟩``."""
    out: list[tuple[bool, str]] = []
    i = 0
    while i < len(data):
        try:
            out.append((True, data[i:].decode("utf-8")))
            break
        except UnicodeDecodeError as error:
            if error.start:
                out.append((True, data[i : i + error.start].decode("utf-8")))
            bad = data[i + error.start : i + error.end]
            hexed = " ".join(f"{b:02X}" for b in bad)
            if out and not out[-1][0]:
                out[-1] = (False, out[-1][1][:-1] + " " + hexed + "⟩")
            else:
                out.append((False, "⟨" + hexed + "⟩"))
            i += error.end
    return out


def display_bytes(data: bytes) -> str:
    """Plain-text label of a token: whitespace marked, partial characters as ``⟨hex⟩``.

    >>> display_bytes(b"hi there\\n")
    'hi·there↵'
    >>> display_bytes("你".encode()[:2])
    '⟨E4 BD⟩'
    """
    if not data:
        return "∅"
    return "".join(show_whitespace(p) if is_text else p for is_text, p in byte_pieces(data))


def display_str(text: str) -> str:
    return show_whitespace(text) if text else "∅"


def _token_inner_html(data: bytes) -> str:
    parts = []
    for is_text, piece in byte_pieces(data):
        if is_text:
            parts.append(html.escape(show_whitespace(piece)))
        else:
            parts.append(f'<span class="tokbytes">{html.escape(piece)}</span>')
    return "".join(parts)


def token_span(
    data: bytes,
    token_id: int | None,
    index: int,
    *,
    show_ids: bool = False,
    extra_class: str = "",
    title: str | None = None,
) -> str:
    """One token as an escaped ``<span class="tok" data-token-id=...>``."""
    label = display_bytes(data)
    if title is None:
        title = f"id {token_id} · {label} · {len(data)} byte{'s' if len(data) != 1 else ''}"
    inner = html.escape(str(token_id)) if (show_ids and token_id is not None) else _token_inner_html(data)
    cls = f"tok c{index % len(PALETTE)}" + (f" {extra_class}" if extra_class else "")
    tid = "" if token_id is None else str(int(token_id))
    span = (
        f'<span class="{cls}" data-token-id="{html.escape(tid, quote=True)}" '
        f'title="{html.escape(title, quote=True)}">{inner}</span>'
    )
    if data.endswith(b"\n") and not show_ids:
        span += "<br>"
    return span


def tokens_html(
    tokens: Sequence[bytes],
    ids: Sequence[int | None] | None = None,
    *,
    show_ids: bool = False,
    emphasize: Sequence[bool] | None = None,
    max_tokens: int | None = None,
) -> str:
    """A block of tokens as escaped HTML (``<div class="tokens">...``)."""
    shown = len(tokens) if max_tokens is None else min(len(tokens), max_tokens)
    spans = []
    for i in range(shown):
        tid = ids[i] if ids is not None else None
        extra = "just" if emphasize is not None and emphasize[i] else ""
        spans.append(token_span(tokens[i], tid, i, show_ids=show_ids, extra_class=extra))
    more = ""
    if shown < len(tokens):
        more = f'<span class="more">… {len(tokens) - shown:,} more tokens not shown</span>'
    cls = "tokens ids" if show_ids else "tokens"
    return f'<div class="{cls}">{"".join(spans)}{more}</div>'


def words_html(words: Sequence[Sequence[str]]) -> str:
    """Classic (Sennrich) segmentation: a list of words, each a list of symbols (``</w>`` kept)."""
    spans = []
    i = 0
    for word in words:
        for symbol in word:
            label = symbol if symbol else "∅"
            spans.append(
                f'<span class="tok c{i % len(PALETTE)}" data-token-id="" '
                f'title="{html.escape(label, quote=True)}">{html.escape(label)}</span>'
            )
            i += 1
        spans.append(" ")
    return f'<div class="tokens">{"".join(spans)}</div>'


def text_block_html(text: str) -> str:
    """Any plain text, escaped, whitespace preserved."""
    return f'<div class="plain">{html.escape(text)}</div>'


TOKEN_CSS = (
    ".tokens{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:1.3rem;"
    "line-height:2.3rem;overflow-wrap:anywhere;white-space:normal;color:#111}"
    ".tokens .tok{display:inline-block;white-space:pre;line-height:1.7rem;padding:1px 2px;margin:0 2px 2px 0;"
    "border-radius:4px;border:1px solid rgba(0,0,0,.18)}"
    + "".join(f".tokens .c{i}{{background:{c}}}" for i, c in enumerate(PALETTE))
    + ".tokens .tok.just{outline:3px solid #d6336c;outline-offset:1px;font-weight:700}"
    ".tokens .tokbytes{font-size:.8em;color:#7a1f00;font-weight:600}"
    ".tokens .more{color:#555;font-style:italic;margin-left:.5rem}"
    ".tokens.ids .tok{font-size:1.05rem}"
    ".plain{white-space:pre-wrap;font-family:ui-monospace,monospace}"
)


def css_block() -> str:
    return f"<style>{TOKEN_CSS}</style>"
