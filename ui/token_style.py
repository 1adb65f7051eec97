"""How tokens look: the colours of alternating tokens (on screen and in talk mode, on a projector) and the fonts
and CSS of the one token renderer (``ui.token_html``), shared by every page, the player and its offline file."""

from __future__ import annotations

# Background colours for alternating tokens: light, distinct from their neighbours, and dark
# text (#111) on each keeps a contrast ratio above 12:1 -- readable on a washed-out projector.
PALETTE = ("#ffd8a8", "#b2f2bb", "#a5d8ff", "#eebefa", "#ffec99")

# Talk mode (ui/talk/stage.py): tints of the Okabe-Ito colours, which stay apart for the common
# colour-blindnesses; each token is also framed in near-black with a gap, so on a washed-out
# projector neighbours never rely on hue alone (dark text keeps a contrast ratio above 10:1).
TALK_PALETTE = ("#f7c873", "#9fd4f5", "#86d8bf", "#f3ec8a", "#e6acd0")


def talk_token_css(scope: str) -> str:
    """Talk mode's token colours and frames, for tokens inside ``scope`` (a CSS selector)."""
    # A token the neighbouring view lacks (Compare, step 8): its outline stands off the black frame, thicker, in
    # Okabe-Ito's vermilion (a 2 px dark pink beside the frame was hard to tell from it on a projector).
    diff = f"{scope} .tokens .tok.diff{{outline:3px solid #d55e00!important;outline-offset:2px!important}}"
    return (
        f"{scope} .tokens .tok{{border:2px solid #1a1a1a!important;margin:0 .18em .18em 0!important}}"
        + "".join(f"{scope} .tokens .c{i}{{background:{c}!important}}" for i, c in enumerate(TALK_PALETTE))
        + diff
    )


SANS_FONTS = (
    'system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,'
    '"PingFang SC","Microsoft YaHei","Noto Sans CJK SC","Apple Color Emoji","Segoe UI Emoji",'
    '"Noto Color Emoji",sans-serif'
)
MONO_FONTS = (
    'ui-monospace,"SFMono-Regular",Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",'
    '"Noto Sans Mono CJK SC","PingFang SC","Microsoft YaHei","Apple Color Emoji","Segoe UI Emoji",'
    '"Noto Color Emoji",monospace'
)

# Tokens are isolated (unicode-bidi: isolate), so right-to-left text inside one token never
# reorders its neighbours; a token wider than the window is clipped with an ellipsis.
TOKEN_CSS = (
    f".tokens{{font-family:{MONO_FONTS};font-size:1.3rem;"
    "line-height:2.3rem;overflow-wrap:anywhere;white-space:normal;color:#111;direction:ltr}"
    ".tokens .tok{display:inline-block;white-space:pre;line-height:1.7rem;padding:1px 2px;margin:0 2px 2px 0;"
    "border-radius:4px;border:1px solid rgba(0,0,0,.18);unicode-bidi:isolate;max-width:min(100%,24em);"
    "overflow:hidden;text-overflow:ellipsis;vertical-align:bottom;color:#111}"
    + "".join(f".tokens .c{i}{{background:{c}}}" for i, c in enumerate(PALETTE))
    # A token with text after its last newline (``↵···``) breaks inside: drawn inline, its box in two parts, so the
    # next line's indentation starts the next line.
    + ".tokens .tok.broken{display:inline;-webkit-box-decoration-break:clone;box-decoration-break:clone}"
    ".tokens .tok.just{outline:3px solid #d6336c;outline-offset:1px;font-weight:700}"
    ".tokens .tok.new{outline:2px dotted #0b7285;outline-offset:1px}"  # a continued tokenizer's new tokens
    ".tokens .tokbytes{font-size:.8em;color:#7a1f00;font-weight:600}"
    ".tokens .ctl{font-size:.72em;color:#5f3dc4;font-weight:700;border:1px solid #5f3dc4;border-radius:3px;"
    "padding:0 1px;margin:0 1px;unicode-bidi:isolate}"
    ".tokens .tok.unk{border:2px dashed #7a1f00;font-style:italic;color:#7a1f00}"
    # (the page's own font, upright: a monospace italic line of Chinese drew each character apart, slanted)
    ".tokens .more{color:#555;font-family:'Source Sans',sans-serif;font-size:1rem;margin-left:.5rem}"
    ".tokens.ids .tok{font-size:1.05rem}"
)
