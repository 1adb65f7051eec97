"""The Merges page's chart: the winning pair's count per round (log scale), the player's round marked."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from playground.i18n import t
from playground.trained import Trained
from ui import chart_style, merge_frames


def render(trained: Trained, k: int) -> None:
    """The chart of ``trained``'s winning counts, round ``k`` marked."""
    st.subheader(t("Winning pair's count per round"))
    # Vega-Lite as a dict: Altair's schema validation would cost more than the chart (~0.15 s). The domains are given:
    # Streamlit draws the chart once before its data arrive, and extents measured then are infinite (console warnings).
    points = pd.DataFrame(merge_frames.count_chart_points(trained))
    rounds = [1, max(1, len(trained.trace.counts))]
    counts = [1, max([1, *trained.trace.counts])]
    chart = chart_style.style_spec(
        {
            "height": 260,
            "layer": [
                {
                    "mark": {"type": "line", "interpolate": "step-after"},
                    "encoding": {
                        "x": {
                            "field": "round",
                            "type": "quantitative",
                            "title": t("round"),
                            "scale": {"domain": rounds},
                            "axis": {"format": "d", "tickMinStep": 1},
                        },  # rounds are whole (it wrote 1.2, 1.4)
                        "y": {
                            "field": "count",
                            "type": "quantitative",
                            "title": t("count (peak per stretch, log)"),
                            "scale": {"type": "log", "domain": counts},
                        },
                        "tooltip": [{"field": "round", "title": t("round")}, {"field": "count", "title": t("count")}],
                    },
                },
                {
                    "data": {"values": [{"round": max(k, 1)}]},
                    "mark": {"type": "rule", "color": "#d6336c", "strokeWidth": 2},
                    "encoding": {"x": {"field": "round", "type": "quantitative"}},
                },
            ],
        },
        lines=18,  # talk mode: the y title, at 28 px, is longer than a lower plot
    )
    st.vega_lite_chart(points, chart, width="stretch")
