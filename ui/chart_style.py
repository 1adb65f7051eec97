"""Chart text sizes from one place: every chart the app draws passes through :func:`style` (Altair)
or takes :func:`config` (a Vega-Lite dict), so talk mode makes axes, labels, titles and legends as
large as the rest of the stage (``ui.stage.text_px``).
"""

from __future__ import annotations

from typing import Any

from streamlit.runtime.scriptrunner import get_script_run_ctx

from ui import stage, state
from ui.stage import keys

NORMAL_PX = (12, 13)
"""Label and title sizes outside talk mode (Vega's defaults are 10 and 11)."""
TALK_HEIGHT_IN_LINES = 14
"""A talk-mode chart is at least this many text lines tall."""


def font_px(talk: bool, width: int | None) -> tuple[int, int]:
    """(label, title) sizes in pixels.

    >>> font_px(False, 1920), font_px(True, 1280), font_px(True, 1920)
    ((12, 13), (29, 29), (44, 44))
    """
    if not talk:
        return NORMAL_PX
    size = stage.text_px(width)
    return size, size


def config(talk: bool | None = None) -> dict[str, Any]:
    """A Vega-Lite ``config`` with this run's text sizes (talk mode: the session's)."""
    running = get_script_run_ctx(suppress_warning=True) is not None
    if talk is None:
        talk = running and bool(state.current().talk)
    label, title = font_px(talk, keys.viewport_width() if running else None)
    limit = 0 if talk else 600  # 0: no limit (long legend labels wrap instead of being cut)
    ink = {"labelColor": "#111", "titleColor": "#111"} if talk else {}  # Streamlit's grey fades on a projector
    return {
        "axis": {"labelFontSize": label, "titleFontSize": title, "labelLimit": 400, **ink},
        "legend": {
            "labelFontSize": label,
            "titleFontSize": title,
            "labelLimit": limit,
            "titleLimit": limit,
            "symbolSize": label * 10,
            # Legends at the bottom stack one under another: side by side, big type drew them past the window.
            "layout": {"bottom": {"direction": "vertical", "anchor": "start"}},
            **ink,
        },
        "header": {"labelFontSize": label, "titleFontSize": title},
        "title": {"fontSize": title},
        "text": {"fontSize": label},
        # Room for big axis titles; on the right for a legend label or a right-hand axis title Vega measured before
        # the page's font had loaded (measured with the fallback, drawn wider: "仅在 B 中" and Choose's 再合并 were cut
        # by the chart's edge). Vega's own padding is 5 on each side.
        "padding": {"left": 16, "top": 14, "right": 24, "bottom": 8}
        if talk
        else {"left": 5, "top": 5, "right": 16, "bottom": 5},
    }


def style(chart: Any, talk: bool | None = None, lines: int = TALK_HEIGHT_IN_LINES) -> Any:
    """An Altair chart with :func:`config` applied (top level: works for layered charts too); in talk
    mode also at least ``lines`` lines of text tall, so big axis and legend text leave the plot its room."""
    settings = config(talk)
    # Altair's schema has no legend layout (Vega-Lite passes it on to Vega): its charts keep Vega's.
    settings["legend"] = {key: value for key, value in settings["legend"].items() if key != "layout"}
    height = chart.height if isinstance(chart.height, int) else 0
    if _taller(height, settings, lines) != height:
        chart = chart.properties(height=_taller(height, settings, lines))
    return chart.configure(**settings)


def style_spec(spec: dict[str, Any], talk: bool | None = None, lines: int = TALK_HEIGHT_IN_LINES) -> dict[str, Any]:
    """The same for a Vega-Lite dict (charts drawn without altair, to spare a fresh server its import)."""
    settings = config(talk)
    return {**spec, "height": _taller(spec.get("height", 0), settings, lines), "config": settings}


def _taller(height: int, settings: dict[str, Any], lines: int) -> int:
    size = settings["axis"]["labelFontSize"]
    return max(height, lines * size) if size > NORMAL_PX[0] else height
