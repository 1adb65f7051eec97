"""The one token renderer: escaped HTML spans, visible whitespace and invisible characters, bytes.

Every token any view draws goes through ``token_span`` here (byte tokens, classic symbols,
step-by-step labels); nothing else in the app builds token HTML. Each span carries
``class="tok"`` and ``data-token-id``. The merge player (player.js) draws the same marks from
``invisible_marks.mark_table()``, so a token looks the same in the player and in every other view.

Text people cannot see is drawn as a visible mark, never as itself:

* whitespace: ``·`` space, ``↵`` newline, ``→`` tab, ``␍`` carriage return;
* C0 controls and DEL as control pictures (``␀`` … ``␟``, ``␡``);
* bidi overrides and isolates, zero-width characters, spaces other than U+0020 (``⟨NBSP⟩``,
  ``⟨IDSP⟩``) and every other control or format character as a boxed abbreviation (``⟨RLO⟩``,
  ``⟨ZWSP⟩``, else ``⟨U+0085⟩``), the code point on hover. A raw U+202E could otherwise reverse the
  tokens drawn after it.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence
from itertools import accumulate

import regex

from playground.i18n import N_, t
from ui import token_style
from ui.invisible_marks import INVISIBLE_CLASS, mark

WHITESPACE_MARKS = {" ": "·", "\n": "↵", "\t": "→", "\r": "␍"}
_TRANSLATE = str.maketrans(WHITESPACE_MARKS)
_INVISIBLE = regex.compile(INVISIBLE_CLASS)

# A piece of a token's label: ("text", shown), ("bytes", "⟨E4 BD⟩") or ("mark", shown, title).
Piece = tuple[str, ...]


def show_whitespace(text: str) -> str:
    """``"a b\\n"`` -> ``"a·b↵"``."""
    return text.translate(_TRANSLATE)


def text_pieces(text: str) -> list[Piece]:
    """Whitespace marked, invisible characters split out as marks.

    >>> text_pieces("a b\\u200b")
    [('text', 'a·b'), ('mark', '⟨ZWSP⟩', 'U+200B ZERO WIDTH SPACE')]
    """
    shown = show_whitespace(text)
    if not _INVISIBLE.search(shown):
        return [("text", shown)] if shown else []
    out: list[Piece] = []
    last = 0
    for found in _INVISIBLE.finditer(shown):
        if found.start() > last:
            out.append(("text", shown[last : found.start()]))
        out.append(("mark", *mark(found.group())))
        last = found.end()
    if last < len(shown):
        out.append(("text", shown[last:]))
    return out


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


def token_pieces(token: bytes | str) -> list[Piece]:
    """A token (bytes, or a classic symbol / label as str) as pieces to draw; ``∅`` when empty."""
    if not token:
        return [("text", "∅")]
    if isinstance(token, str):
        return text_pieces(token)
    out: list[Piece] = []
    for is_text, piece in byte_pieces(token):
        out.extend(text_pieces(piece) if is_text else [("bytes", piece)])
    return out


def display_bytes(data: bytes) -> str:
    """Plain-text label of a token: whitespace and invisible characters marked, partial
    characters as ``⟨hex⟩``.

    >>> display_bytes(b"hi there\\n")
    'hi·there↵'
    >>> display_bytes("你".encode()[:2])
    '⟨E4 BD⟩'
    >>> display_bytes("a\\u202eb".encode())
    'a⟨RLO⟩b'
    """
    return "".join(piece[1] for piece in token_pieces(data))


def display_str(text: str) -> str:
    """Plain-text label of a classic symbol or any text (see ``display_bytes``)."""
    return "".join(piece[1] for piece in token_pieces(text))


def _inner_html(pieces: list[Piece]) -> str:
    parts = []
    for piece in pieces:
        if piece[0] == "text":
            parts.append(html.escape(piece[1]))
        elif piece[0] == "bytes":
            parts.append(f'<span class="tokbytes">{html.escape(piece[1])}</span>')
        else:
            title = html.escape(piece[2], quote=True)
            parts.append(f'<span class="ctl" title="{title}">{html.escape(piece[1])}</span>')
    return "".join(parts)


def token_span(
    token: bytes | str,
    token_id: int | None,
    index: int,
    *,
    show_ids: bool = False,
    extra_class: str = "",
    title: str | None = None,
    note: str = "",
) -> str:
    """One token as an escaped ``<span class="tok" data-token-id=...>``.

    ``token`` is a byte token, or a str (a classic symbol or a step label); ``index`` picks the
    alternating colour. Long tokens are clipped by CSS; the title holds the full label (and ``note`` after it).

    >>> token_span("a<\\u202e", 7, 0)
    '<span class="tok c0" data-token-id="7" title="id 7 · a&lt;⟨RLO⟩ · 3 chars">a&lt;<span class="ctl" \
title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨RLO⟩</span></span>'
    """
    pieces = token_pieces(token)
    if title is None:
        label = "".join(piece[1] for piece in pieces)
        plural = len(token) != 1
        if isinstance(token, bytes):
            size = t(N_("{n} bytes") if plural else N_("{n} byte"), n=len(token))
        else:
            size = t(N_("{n} chars") if plural else N_("{n} char"), n=len(token))
        title = " · ".join(([] if token_id is None else [f"id {token_id}"]) + [label, size] + ([note] if note else []))
    newlines = token.count(b"\n") if isinstance(token, bytes) else token.count("\n")
    after = _after_last_newline(token) if newlines and not show_ids else None
    if show_ids and token_id is not None:
        inner = html.escape(str(token_id))
    elif after:  # ``↵···``: the next line's indentation starts the next line, inside the token (as the player draws it)
        head = token[: len(token) - len(after)]
        inner = _inner_html(token_pieces(head)) + "<br>" * newlines + _inner_html(token_pieces(after))
    else:
        inner = _inner_html(pieces)
    cls = (
        f"tok c{index % len(token_style.PALETTE)}"
        + (" broken" if after else "")
        + (f" {extra_class}" if extra_class else "")
    )
    tid = "" if token_id is None else str(int(token_id))
    span = f'<span class="{cls}" data-token-id="{tid}" title="{html.escape(title, quote=True)}">{inner}</span>'
    if not show_ids and not after:  # a token ending in newlines ends its line, once per newline: a blank line stays
        span += "<br>" * newlines
    return span


def _after_last_newline(token: bytes | str) -> bytes | str:
    """What a token holds after its last newline (a newline byte is never part of another character)."""
    if isinstance(token, bytes):
        return token[token.rindex(b"\n") + 1 :]
    return token[token.rindex("\n") + 1 :]


def tokens_html(
    tokens: Sequence[bytes | str],
    ids: Sequence[int | None] | None = None,
    *,
    show_ids: bool = False,
    max_tokens: int | None = None,
    new_from: int | None = None,
    more: str | None = None,
) -> str:
    """A block of tokens as escaped HTML (``<div class="tokens">...``). With ``new_from`` (a continued tokenizer's
    first new id), a token of that id or above is marked new (``class="tok … new"``: a dotted outline), and its
    hover says which round of the continuation made it (new id ``new_from + r`` is made in round ``r + 1``).
    Tokens past ``max_tokens`` are counted in a line after them, or said by ``more`` where ``tokens`` are
    themselves an excerpt (a count would read as the whole text's).

    >>> tokens_html([b"a", b"ab"], [97, 300], new_from=300).count('c1 new"')
    1
    """
    shown = len(tokens) if max_tokens is None else min(len(tokens), max_tokens)
    across = characters_across(tokens[:shown])
    spans = []
    for i in range(shown):
        token_id = ids[i] if ids is not None else None
        part = across.get(i, "")
        if new_from is not None and token_id is not None and token_id >= new_from:
            new = t("new: made by round {k:,} of the continuation", k=token_id - new_from + 1)
            note = f"{part} · {new}" if part else new
            spans.append(token_span(tokens[i], token_id, i, show_ids=show_ids, extra_class="new", note=note))
        else:
            spans.append(token_span(tokens[i], token_id, i, show_ids=show_ids, note=part))
    after = ""
    if shown < len(tokens):
        rest = more if more is not None else t("… {n:,} more tokens not shown", n=len(tokens) - shown)
        after = f'<span class="more">{html.escape(rest)}</span>'
    cls = "tokens ids" if show_ids else "tokens"
    return f'<div class="{cls}">{"".join(spans)}{after}</div>'


def characters_across(tokens: Sequence[bytes | str]) -> dict[int, str]:
    """For each byte token holding part of a character that a neighbour holds the rest of: that character, named
    (its bytes alone are drawn as hex: a direction override cut in two is named on hover, not hidden).

    Every token holding such a part fails to decode alone, so only runs of those are read, each name made once.

    >>> characters_across([b"a\\xe2\\x80", b"\\xae", b"b"])
    {0: 'part of U+202E RIGHT-TO-LEFT OVERRIDE', 1: 'part of U+202E RIGHT-TO-LEFT OVERRIDE'}
    """
    broken = [isinstance(token, bytes) and not _decodes(token) for token in tokens]
    notes: dict[int, list[str]] = {}
    names: dict[str, str] = {}  # each character's note, made once (a Chinese text repeats its characters)
    run_start = None
    for index, is_broken in enumerate([*broken, False]):
        if is_broken and run_start is None:
            run_start = index
        elif not is_broken and run_start is not None:
            _name_across(tokens[run_start:index], run_start, notes, names)  # type: ignore[arg-type]  # bytes: broken
            run_start = None
    return {index: ", ".join(parts) for index, parts in notes.items()}


def _decodes(token: bytes) -> bool:
    try:
        token.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _name_across(run: Sequence[bytes], offset: int, notes: dict[int, list[str]], names: dict[str, str]) -> None:
    """Note each character of ``run`` (consecutive tokens, the first at ``offset``) that lies across two of them."""
    ends = list(accumulate(map(len, run)))
    start, first = 0, 0  # the character's first byte, and the token holding it
    for char in b"".join(run).decode("utf-8", errors="surrogateescape"):
        end = start + (1 if "\udc80" <= char <= "\udcff" else len(char.encode("utf-8")))
        while ends[first] <= start:
            first += 1
        if ends[first] < end:  # it continues into the next token(s)
            name = names.get(char)
            if name is None:
                said = f"U+{ord(char):04X} {unicodedata.name(char, '')}".rstrip()
                name = names[char] = t("part of {char}", char=said)
            last = first
            while ends[last] < end:
                last += 1
            for index in range(first, last + 1):
                notes.setdefault(offset + index, []).append(name)
        start = end


def words_html(
    words: Sequence[Sequence[str]], ids: Sequence[int | None] | None = None, unknown_id: int | None = None
) -> str:
    """Classic (Sennrich) segmentation: a list of words, each a list of symbols (``</w>`` kept).

    With ``ids`` (one per symbol, in order), a symbol encoded as ``unknown_id`` is drawn as a
    dashed ``<unk>``: the character was never seen in training, so it is not a token of this vocab.
    """
    spans = []
    i = 0
    for word in words:
        for symbol in word:
            if ids is not None and unknown_id is not None and ids[i] == unknown_id:
                spans.append(unknown_span(symbol, unknown_id, i))
            else:
                spans.append(token_span(symbol, None, i, title=display_str(symbol)))
            i += 1
        spans.append(" ")
    return f'<div class="tokens">{"".join(spans)}</div>'


def unknown_span(symbol: str, unknown_id: int, index: int, extra_class: str = "") -> str:
    """A character classic BPE never saw in training: a dashed ``<unk>``, the character on hover."""
    title = t("{symbol}: never seen in training, encoded as <unk> (id {id})", symbol=display_str(symbol), id=unknown_id)
    return token_span("<unk>", None, index, extra_class=f"unk {extra_class}".strip(), title=title)
