"""Talk mode, on every page: the stage (here: the app's chrome hidden, every text at least :data:`MIN_PX`
and growing with the screen, tokens in a colour-blind-safe palette framed in dark) and its keys
(:mod:`ui.stage.keys`). The frame and the charts use it; the Talk page's guided steps are ``ui.talk``.

Sizes are one CSS length, ``max(28px, 2.25vw)`` (28.8 px at 1280 wide, 43.2 px at 1920), so the page
needs no rerun to follow the window; charts are drawn by Vega with pixel sizes, so they get the same
length computed from the width the browser reported (:func:`text_px`, used by ``ui.chart_style``).
"""

from __future__ import annotations

import math
from typing import Any

import streamlit as st

from playground.text import plain
from ui import token_style

MIN_PX = 28
VW = 2.25
"""Text size in talk mode: ``max(MIN_PX px, VW vw)``."""
TALK_TABLE_ROWS = 20
"""Rows a table shows in talk mode (a page of the app's own paging where it has one)."""
DEFAULT_WIDTH = 1280
"""The width assumed until the browser has reported its own (a projector's usual)."""

_TEXT = "[data-testid='stMain']"
_SIDE = "[data-testid='stSidebar']"
ROW = "[class*='st-key-bpe-row']"
"""Containers keyed ``bpe-row…`` keep their columns side by side in talk mode."""
STAGE_CSS = (
    f":root{{--talk-text:max({MIN_PX}px,{VW}vw)}}"
    # The chrome: Streamlit's header, toolbar and the coloured line above them; the page's paddings.
    "[data-testid='stHeader'],[data-testid='stToolbar'],[data-testid='stDecoration']{display:none!important}"
    "[data-testid='stMainBlockContainer']{padding:1.2vh 2.5vw!important;max-width:none!important}"
    # Every text of the main column: one size (headings above it), whatever Streamlit gave it; captions
    # dark (grey fades on a projector).
    f"{_TEXT} :is(p,li,span,label,div,code,pre,button,input,textarea,select,td,th,a,summary,small,h4,h5,h6)"
    "{font-size:var(--talk-text)!important;line-height:1.3!important}"
    "[data-testid='stSkipToContent']{font-size:var(--talk-text)!important}"
    f"{_TEXT} h1{{font-size:calc(var(--talk-text)*1.45)!important;padding:.2em 0!important}}"
    f"{_TEXT} h2{{font-size:calc(var(--talk-text)*1.25)!important}}"
    f"{_TEXT} h3{{font-size:calc(var(--talk-text)*1.1)!important}}"
    f"{_TEXT} :is([data-testid='stCaptionContainer'],[data-testid='stCaptionContainer'] *){{color:#333!important}}"
    # The sidebar, when shown (s), as big as the rest (its link box is a component: ui/frame.py sizes it).
    f"{_SIDE} :is(p,li,span,label,div,code,pre,button,input,a,small,summary)"
    "{font-size:var(--talk-text)!important;line-height:1.3!important}"
    # The language choice: Streamlit's 36 px buttons held 37 px of text, and its two joined buttons, wrapped onto two
    # rows at this size, touched and lost the border they share: each gets its own.
    f"{_SIDE} [data-testid='stButtonGroup'] button{{height:auto!important;min-height:0!important;"
    "border:1px solid rgba(49,51,63,.3)!important;border-radius:.4em!important}"
    f"{_SIDE} [data-testid='stButtonGroup'] div:has(>button){{row-gap:.3em!important}}"
    # Columns narrower than 18 em go under each other (a label or a value in big type would be cut), except in a
    # container keyed bpe-row (the talk's Previous / Next, views meant side by side).
    f"{_TEXT} [data-testid='stHorizontalBlock']:not(:is({ROW} *)){{flex-wrap:wrap!important;row-gap:.6rem}}"
    f"{_TEXT} [data-testid='stHorizontalBlock']:not(:is({ROW} *))>[data-testid='stColumn']"
    "{min-width:min(100%,18em)!important}"
    # Chips of a multiselect grow with their text (a fixed height cut the line's bottom).
    f"{_TEXT} [data-testid='stMultiSelectTagsContainer'] span{{height:auto!important;line-height:1.1!important}}"
    # The (?) beside a label: Streamlit draws it 16 px whatever the text's size.
    ":is([data-testid='stTooltipIcon'],[data-testid='stTooltipHoverTarget']) svg"
    "{width:calc(var(--talk-text)*.8)!important;height:calc(var(--talk-text)*.8)!important}"
    # Code (a pattern) wraps instead of running past the window.
    f"{_TEXT} :is(pre,code){{white-space:pre-wrap!important;overflow-wrap:anywhere!important}}"
    f"{_TEXT} .tokens{{line-height:1.9!important}}"
    f"{_TEXT} .tokens .tok{{line-height:1.35!important;max-width:min(100%,16em)}}" + token_style.talk_token_css(_TEXT)
)


def text_px(width: int | None) -> int:
    """The talk-mode text size in pixels for a window ``width`` pixels wide (as the CSS computes it).

    >>> text_px(1280), text_px(1920), text_px(None)
    (29, 44, 29)
    """
    return max(MIN_PX, math.ceil((width or DEFAULT_WIDTH) * VW / 100))


def table(frame: Any, talk: bool, *, height: int | None = None, rows: int = TALK_TABLE_ROWS) -> None:
    """A table of data (a pandas DataFrame): Streamlit's interactive grid, or in talk mode a static table of its first
    ``rows`` rows, which the stage's type sizes reach (the grid draws its cells on a canvas at ~14 px whatever the
    page's CSS). A static table renders cell text as Markdown, so text cells are escaped (``playground.text.plain``)."""
    if not talk:
        config = number_columns(frame)
        st.dataframe(frame, hide_index=True, width="stretch", height=height or "auto", column_config=config)
        return
    shown = frame.head(rows).map(lambda value: plain(value) if isinstance(value, str) else value)
    st.table(shown, hide_index=True)


def number_columns(frame: Any) -> dict[str, Any]:
    """Column settings for a table's numbers: whole numbers with thousands separators (the grid wrote "46952" where
    the page's text says 46,952), and each column of decimals at one number of places, the most its values use, up
    to 4 (the grid wrote a premium of 1.0 as "1" above 0.951)."""
    from pandas.api.types import is_float_dtype, is_integer_dtype  # (pandas is loaded: ``frame`` is one of its frames)

    config = {}
    for name, dtype in frame.dtypes.items():
        if is_integer_dtype(dtype):
            config[str(name)] = st.column_config.NumberColumn(format="localized")
        elif is_float_dtype(dtype):
            places = decimal_places(frame[name].to_numpy())
            if places:
                config[str(name)] = st.column_config.NumberColumn(format=f"%.{places}f")
    return config


def decimal_places(values: Any, most: int = 4) -> int:
    """The decimal places a column of floats is written with: the fewest that write every finite value exactly (to
    1e-6), at most ``most``. In numpy, a pass per place: the vocabulary's table has a row per token (200,000).

    >>> [decimal_places(column) for column in ([0.951, 1.0], [1.0, float("nan")], [12.5], [1 / 3])]
    [3, 0, 1, 4]
    """
    import numpy as np  # (with pandas, which the tables come from)

    column = np.asarray(values, dtype=float)
    finite = column[np.isfinite(column)]
    for places in range(most):
        scaled = finite * 10**places
        if np.allclose(scaled, np.round(scaled), rtol=0, atol=1e-6):
            return places
    return most


def apply(on: bool) -> None:
    """Draw the stage's CSS when talk mode is on (call in the sidebar: a style element in the main
    column would leave a gap)."""
    if on:
        st.html(f"<style>{STAGE_CSS}</style>")
