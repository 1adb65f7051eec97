"""Choose a vocab size's chart: bytes per token and the gain of more merges at every size, the rule's threshold,
the suggested size and the typed sizes, as one Vega-Lite spec written by hand (no altair)."""

from __future__ import annotations

from collections.abc import Sequence

from bpe_core import analysis
from bpe_core.analysis.choose import SizeCurve, SizeRow, Suggestion
from playground.i18n import t
from ui import chart_style
from ui.compare.curve import POINTS

STEPS = (1000, 500, 200, 100, 50, 20, 10)


def gain_step(num_merges: int) -> int:
    """How many more merges "the gain" is measured over: 1,000 for a tokenizer of 10,000 merges or more, else the
    largest step at most a tenth of its merges (10 at least), so that the gain of a small tokenizer is a slope of
    its own curve, not a jump past its end.

    >>> gain_step(31_743), gain_step(343), gain_step(40)
    (1000, 20, 10)
    """
    return next((step for step in STEPS if step * 10 <= num_merges), STEPS[-1])


BLUE, ORANGE, GREY = "#1c7ed6", "#e8590c", "#495057"


def chart(found: SizeCurve, measured: Sequence[SizeRow], suggestion: Suggestion, step: int) -> dict:
    """Bytes per token (left axis) and the gain of ``step`` more merges (right axis) at every size, the rule's
    threshold dashed, the suggested size as a rule and the typed sizes as points. A Vega-Lite dict (no altair)."""
    sizes = found.vocab_sizes.tolist()
    keep = [index for _, index in analysis.sample_curve(list(zip(sizes, range(len(sizes)))), POINTS)]
    keep = sorted({*keep, *(row.merges for row in measured)})
    bpt, gains = found.bytes_per_token, found.gains(step)
    values = [
        {
            "vocab size": sizes[k],
            "bytes per token": round(float(bpt[k]), 4),
            "gain (%)": round(float(gains[k]) * 100, 4),
        }
        for k in keep
    ]
    x = {
        "field": "vocab size",
        "type": "quantitative",
        "title": t("vocab size (log scale)"),
        "axis": {"format": "~s"},
        "scale": {"type": "log", "domain": [sizes[0], sizes[-1]], "nice": False},
    }
    title_bpt, title_gain = t("bytes per token (held-out)"), t("gain of {step:,} more merges (%)", step=step)
    tooltip = [
        {"field": "vocab size", "format": ",", "title": t("vocab size")},
        {"field": "bytes per token", "title": t("bytes per token")},
        {"field": "gain (%)", "title": title_gain},
    ]
    layers = [
        {
            "mark": {"type": "line", "strokeWidth": 2.5, "color": BLUE},
            "data": {"values": values},
            "encoding": {
                "x": x,
                "y": {
                    "field": "bytes per token",
                    "type": "quantitative",
                    "title": title_bpt,
                    "scale": {"zero": False},
                    "axis": {"titleColor": BLUE},
                },
                "tooltip": tooltip,
            },
        },
        {
            "mark": {"type": "line", "strokeWidth": 1.5, "color": ORANGE, "opacity": 0.8},
            "data": {"values": values},
            "encoding": {
                "x": x,
                "y": {"field": "gain (%)", "type": "quantitative", "title": title_gain, "axis": {"titleColor": ORANGE}},
                "tooltip": tooltip,
            },
        },
        {
            "mark": {"type": "rule", "color": ORANGE, "strokeDash": [6, 4]},
            "data": {"values": [{"gain (%)": suggestion.min_gain * 100}]},
            "encoding": {"y": {"field": "gain (%)", "type": "quantitative"}},
        },
        {
            "mark": {"type": "rule", "color": GREY, "strokeWidth": 2},
            "data": {"values": [{"vocab size": suggestion.vocab_size}]},
            "encoding": {"x": x},
        },
        {
            "mark": {"type": "point", "filled": True, "size": 140, "color": BLUE, "stroke": "#111"},
            "data": {
                "values": [
                    {"vocab size": row.vocab_size, "bytes per token": round(row.bytes_per_token, 4)} for row in measured
                ]
            },
            "encoding": {
                "x": x,
                "y": {"field": "bytes per token", "type": "quantitative"},
                "tooltip": [{"field": "vocab size", "format": ","}, {"field": "bytes per token"}],
            },
        },
    ]
    spec = {
        "layer": [{"layer": [layers[0], layers[4]]}, {"layer": layers[1:3]}, layers[3]],
        "resolve": {"scale": {"y": "independent"}},
        "height": 360,
    }
    return chart_style.style_spec(spec)
