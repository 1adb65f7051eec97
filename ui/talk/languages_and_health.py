"""The guided talk's steps 11 and 12, drawn by the Compare views' own parts: how languages pay differently (the
premium chart of the three reference tokenizers on a few languages of the parallel sample) and the tokens that
are never reached (GPT-2's tokens that encoding never gives on their own). Short, for one 1280×720 screen.
"""

from __future__ import annotations

import streamlit as st

from bpe_core.analysis.parallel import parallel_sample
from playground.i18n import t
from playground.references import DEFAULT_REFERENCES
from ui import token_html, tokenizer_output
from ui.compare import health, premiums
from ui.compare.common import Subject

TALK_LANGUAGES = ("en", "es", "zh", "hi", "th")
"""English, a language close to it, and three scripts far from it."""
EXAMPLE_TOKENS = 18


def languages_pay_differently() -> None:
    sample = parallel_sample()
    texts = {code: sample[code] for code in TALK_LANGUAGES}
    parallel = premiums.Parallel(texts, "talk-" + "-".join(TALK_LANGUAGES), "talk")
    found = []
    for name in DEFAULT_REFERENCES:  # OpenAI's three: old to new, quick to load
        item = premiums.Measured(
            tokenizer_output.REFERENCE_LABELS[name], tokenizer_output.reference_tokenizer(name), f"reference-{name}"
        )
        if (costs := premiums.costs(item, parallel, "en")) is not None:
            found.append((item, costs))
    st.markdown(t("The same {n} sentences in five languages: tokens ÷ English tokens.", n=len(sample["en"])))
    # A legend on the right leaves the height to the bars: each language's band holds its 28 px label.
    st.vega_lite_chart(premiums.premium_chart(found, height_per_bar=18, legend="right"), width="stretch")


def tokens_never_reached() -> None:
    gpt2 = tokenizer_output.reference_tokenizer("gpt2")
    found = health.report(
        Subject("gpt2", gpt2, tokenizer_output.REFERENCE_LABELS["gpt2"], "reference-gpt2", None), None
    )
    if found is None:
        return
    unreachable = health.unreachable_tokens(found)
    st.markdown(
        t(
            "GPT-2 has {n:,} tokens that no text gives on its own: pieces of characters. A model hardly ever "
            "sees them, so it never learns them.",
            n=len(unreachable),
        )
    )
    st.html(
        token_html.tokens_html(
            [row.token for row in unreachable[:EXAMPLE_TOKENS]], [row.id for row in unreachable[:EXAMPLE_TOKENS]]
        )
    )
