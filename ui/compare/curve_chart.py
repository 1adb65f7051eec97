"""The curve's chart: bytes per token of a tokenizer at every vocab size (a line per measured text), the reference
tokenizers as points, as one Vega-Lite spec written by hand (see :func:`chart`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from playground.i18n import N_, t
from ui import chart_style
from ui.compare.texts import Text

LINE = N_("this tokenizer (every size)")  # shown with playground.i18n.t
PALETTE = ["#1c7ed6", "#e8590c", "#2f9e44", "#ae3ec9"]
LEGEND_LINE_PX = 20
"""A legend line's pixels (a 12 px label, its symbol and row padding)."""
COMPACT_HEIGHT = 420
"""A compact chart's height in pixels (a talk's slide: title, a line of text and the chart fit 720 pixels)."""


@dataclass(frozen=True)
class Line:
    """One text's curve, sampled for the chart, with its exact end point."""

    text: Text
    points: list[tuple[int, float]]
    tokens: int  # with the full vocabulary
    seconds: float
    tokenizer: str = ""  # its legend label, translated (empty: this tokenizer, LINE)


def row(tokenizer: str, text: Text, size: int, tokens: int) -> dict:
    return {
        "tokenizer": tokenizer,
        "text": text.label,
        "vocab size": size,
        "bytes per token": round(text.n_bytes / tokens, 4),
        "tokens": tokens,
    }


def chart(lines: Sequence[Line], points: Sequence[dict], marks: Sequence[int] = (), compact: bool = False) -> dict:
    """A Vega-Lite spec: lines for the tokenizer at every size, points for the reference tokenizers, dashed
    rules at ``marks``; ``compact`` (a talk's slide): lower, its legends on the right. Written as a dict with each
    layer's rows inline: altair and pandas would cost a fresh server ~1.4 s of imports before its first curve, and
    the rows need no Arrow on either side."""
    line = t(LINE)
    curve = [
        row(item.tokenizer or line, item.text, size, round(item.text.n_bytes / bpt))
        for item in lines
        for size, bpt in item.points
    ]
    values = [item["bytes per token"] for item in (*curve, *points)]
    top, low = max(values, default=2.0), max(0.0, min(values, default=1.0) - 0.2)
    # Room past the largest size: a point at the domain's end was drawn half outside the plot (Qwen 3.6's 248,077).
    right = max(250_000, 1.2 * max((item["vocab size"] for item in (*curve, *points)), default=0))
    x = {
        "field": "vocab size",
        "type": "quantitative",
        "title": t("vocab size (log scale)"),
        "scale": {"type": "log", "domain": [200, right], "nice": False},
        "axis": {"values": [256, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000], "format": "~s"},
    }
    y = {
        "field": "bytes per token",
        "type": "quantitative",
        "title": t("bytes per token"),
        "scale": {"domain": [low, top * 1.1 + 0.2], "nice": False},
    }
    labels = list(dict.fromkeys(item.text.label for item in lines))
    legend = "right" if compact else "bottom"
    color = {
        "field": "text",
        "type": "nominal",
        "title": t("text"),
        "scale": {"domain": labels, "range": PALETTE[: len(labels)] or PALETTE},
        "legend": {"orient": legend, "direction": "vertical"},
    }
    tooltip = [
        {"field": "tokenizer", "type": "nominal", "title": t("tokenizer")},
        {"field": "text", "type": "nominal", "title": t("text")},
        {"field": "vocab size", "type": "quantitative", "format": ",", "title": t("vocab size")},
        {"field": "bytes per token", "type": "quantitative", "title": t("bytes per token")},
        {"field": "tokens", "type": "quantitative", "format": ",", "title": t("tokens")},
    ]
    encoding = {"x": x, "y": y, "color": color, "tooltip": tooltip}
    layers = []
    if marks:
        layers.append(
            {
                "name": "marks",
                "data": {"values": [{"vocab size": size} for size in marks]},
                "mark": {"type": "rule", "color": "#868e96", "strokeDash": [4, 3]},
                "encoding": {"x": {"field": "vocab size", "type": "quantitative"}},
            }
        )
    tokenizers = list(dict.fromkeys(item.tokenizer or line for item in lines))
    dashes = (
        {
            "strokeDash": {
                "field": "tokenizer",
                "type": "nominal",
                "title": t("tokenizer"),
                "scale": {"domain": tokenizers, "range": [[1, 0], [7, 4]]},
                "legend": {"orient": legend, "direction": "vertical"},
            }
        }
        if len(tokenizers) > 1
        else {}
    )
    layers.append(
        {
            "name": "lines",
            "data": {"values": curve},
            "mark": {"type": "line", "strokeWidth": 2.5},
            "encoding": {**encoding, **dashes},
        }
    )
    if points:
        # The markers take their text's colour: with one text the shape legend draws them in it (it drew them black
        # beside blue markers on the talk's slide); with several, in none of them.
        single = {"symbolFillColor": PALETTE[0], "symbolStrokeColor": "#212529"} if len(labels) == 1 else {}
        shape = {
            "field": "tokenizer",
            "type": "nominal",
            "title": t("reference tokenizer"),
            "legend": {"orient": legend, "direction": "vertical", **single},
        }
        layers.append(
            {
                "name": "points",
                "data": {"values": list(points)},
                "mark": {
                    "type": "point",
                    "size": 180,
                    "filled": True,
                    "opacity": 0.85,
                    "stroke": "#212529",
                    "strokeWidth": 1,
                },
                "encoding": {**encoding, "shape": shape},
            }
        )
    zoom = {
        "name": "zoom",
        "select": {"type": "interval", "encodings": ["x"]},
        "bind": "scales",
        "views": [layers[0]["name"]],
    }
    spec = {"layer": layers, "height": COMPACT_HEIGHT if compact else 420, "params": [zoom]}
    if compact:
        return chart_style.style_spec(spec, lines=COMPACT_HEIGHT // 30)
    # The chart's height holds its legends: below the plot, a line for each title and entry (and one between).
    legends = [
        labels,
        *([tokenizers] if len(tokenizers) > 1 else []),
        *([{p["tokenizer"] for p in points}] if points else []),
    ]
    legend_lines = sum(len(entries) + 2 for entries in legends)
    # Autosize "fit" counts the legends in the height: added to it, the plot keeps its 420 px however many entries
    # (a continued tokenizer's view, with its base among the references, left it ~50 px).
    spec["height"] = 420 + legend_lines * LEGEND_LINE_PX
    return chart_style.style_spec(spec, lines=chart_style.TALK_HEIGHT_IN_LINES + legend_lines)
