"""Premiums: what the same content costs in tokens in each language, measured for a tokenizer on a parallel text
(``bpe_core.analysis.languages.language_costs``, once per tokenizer and text) and drawn as a chart and tables.
The languages view and its standard vs parity-aware pair (``ui.compare.parity``) both draw with these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from bpe_core.analysis.languages import LanguageCosts, language_costs
from playground.i18n import N_, t
from playground.session import ParallelTexts
from playground.text import plain
from ui import chart_style, stage
from ui.compare import texts
from ui.compare.common import attempt, remembered
from ui.compare.texts import Text

PALETTE = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9", "#f0e442"]
"""Okabe-Ito: apart for the common colour-blindnesses."""


@dataclass(frozen=True)
class Parallel:
    """A parallel text as measured: its sentences by language, a digest, and what it is called."""

    texts: ParallelTexts
    digest: str
    label: str

    def as_text(self) -> Text:  # (not texts.Text: in this class, texts is the field)
        """All its sentences as one text (to check it against a training text)."""
        return texts.make_text(self.label, "".join("\n".join(lines) + "\n" for lines in self.texts.values()))


LANGUAGE_NAMES = {
    "en": N_("English"),
    "zh": N_("Chinese (Simplified)"),
    "ja": N_("Japanese"),
    "ko": N_("Korean"),
    "ar": N_("Arabic"),
    "hi": N_("Hindi"),
    "ru": N_("Russian"),
    "es": N_("Spanish"),
    "de": N_("German"),
    "th": N_("Thai"),
    "sw": N_("Swahili"),
    "vi": N_("Vietnamese"),
    "fr": N_("French"),
    "pt": N_("Portuguese (Brazil)"),
    "tr": N_("Turkish"),
    "id": N_("Indonesian"),
    "el": N_("Greek"),
    "uk": N_("Ukrainian"),
    "pl": N_("Polish"),
    "he": N_("Hebrew"),
    "bn": N_("Bengali"),
}
"""The parallel sample's languages by their English names (``bpe_core.analysis.parallel.LANGUAGES``; a test holds
them equal), marked for the catalog: a chart's labels are in the reader's language and its fonts."""


def language_name(code: str) -> str:
    """A language by its name in the session's language; a code the sample does not have, as given."""
    return t(LANGUAGE_NAMES[code]) if code in LANGUAGE_NAMES else code


@dataclass(frozen=True)
class Measured:
    """One tokenizer the view measures (``vocab_size``: cut to that size)."""

    label: str  # short: column and legend
    tokenizer: Any
    key: str
    vocab_size: int | None = None


def costs(item: Measured, parallel: Parallel, baseline: str) -> LanguageCosts | None:
    key = ("languages", item.key, item.vocab_size, parallel.digest, baseline)

    def compute() -> LanguageCosts:
        return language_costs(item.tokenizer, parallel.texts, baseline=baseline, vocab_size=item.vocab_size)

    return attempt(t("count the tokens of {name}", name=plain(item.label)), lambda: remembered(key, compute))


Found = Sequence[tuple[Measured, LanguageCosts]]
"""Tokenizers and what they cost, in the order drawn."""


def premium_chart(found: Found, height_per_bar: int = 8, legend: str = "top") -> dict:
    """Bars: each language's premium for each tokenizer, grouped by language, a rule at 1 (the baseline)."""
    values = [
        {
            "language": language_name(row.code),
            "tokenizer": item.label,
            "premium": round(row.premium, 3),
            "tokens per sentence": round(row.tokens_per_sentence, 2),
            "tokens": row.tokens,
        }
        for item, result in found
        for row in result.rows
    ]
    order = list(dict.fromkeys(value["language"] for value in values))
    labels = [item.label for item, _ in found]
    y = {"field": "language", "type": "nominal", "sort": order, "title": None}
    bars = {
        "mark": {"type": "bar"},
        "encoding": {
            "y": y,
            "yOffset": {"field": "tokenizer", "sort": labels},
            "x": {
                "field": "premium",
                "type": "quantitative",
                "title": t("premium against {baseline}", baseline=language_name(found[0][1].baseline)),
                # Bars side by side (yOffset), never stacked; the domain given, not measured: Streamlit draws the
                # chart once before its data arrive, and an extent measured then is infinite (a console warning).
                "stack": None,
                "scale": {
                    "domain": [0, max([1.0, *(row.premium for _, result in found for row in result.rows)])],
                    "nice": True,
                },
            },
            "color": {
                "field": "tokenizer",
                "type": "nominal",
                "title": t("tokenizer"),
                "sort": labels,
                "scale": {"domain": labels, "range": PALETTE[: len(labels)]},
                "legend": {
                    "orient": legend,
                    "direction": "horizontal" if legend == "top" else "vertical",
                    "columns": 2 if legend == "top" else 1,
                    "labelLimit": 600,
                },
            },
            "tooltip": [
                {"field": "tokenizer"},
                {"field": "language"},
                {"field": "premium"},
                {"field": "tokens per sentence"},
                {"field": "tokens"},
            ],
        },
    }
    rule = {
        "mark": {"type": "rule", "color": "#111", "strokeDash": [4, 3]},
        "data": {"values": [{"premium": 1}]},
        "encoding": {"x": {"field": "premium", "type": "quantitative"}},
    }
    height = len(order) * max(len(labels) * height_per_bar, 28) + 80  # a band holds its label; legend and axis
    return chart_style.style_spec({"data": {"values": values}, "layer": [bars, rule], "height": height})


def spread_table(found: Found) -> None:
    import pandas as pd  # after the chart: pandas costs a fresh server ~1 s to import

    def extreme(result: LanguageCosts, pick: Any) -> str:
        row = pick(result.rows, key=lambda row: row.premium)
        return f"{language_name(row.code)} ({row.premium:.2f})"

    st.table(
        pd.DataFrame(
            {
                t("tokenizer"): [plain(item.label) for item, _ in found],
                t("cheapest"): [extreme(result, min) for _, result in found],
                t("dearest"): [extreme(result, max) for _, result in found],
                t("max/min"): [f"{result.max_min_ratio:.2f}" for _, result in found],
                t("Gini"): [f"{result.gini:.3f}" for _, result in found],
            }
        ),
        hide_index=True,
    )


def costs_table(found: Found) -> None:
    import pandas as pd

    rows = [(row, item) for item, result in found for row in result.rows]
    frame = pd.DataFrame(
        {
            t("language"): [language_name(row.code) for row, _ in rows],
            t("code"): [row.code for row, _ in rows],
            t("tokenizer"): [item.label for _, item in rows],
            t("tokens"): [row.tokens for row, _ in rows],
            t("tokens per sentence"): [round(row.tokens_per_sentence, 2) for row, _ in rows],
            t("premium"): [round(row.premium, 3) for row, _ in rows],
        }
    )
    st.dataframe(frame, hide_index=True, width="stretch", height=320, column_config=stage.number_columns(frame))
    st.caption(
        t(
            "Max/min: the dearest language's premium ÷ the cheapest's. Gini: 0 when every language costs the "
            "same, towards 1 when one language takes all the cost."
        )
    )
