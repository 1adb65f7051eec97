"""Tokenizer health: the tokens a model would learn badly or never (``bpe_core.analysis.health.health_report``):
how many of each class at every vocab size, a browsable list with the plain explanation of each class, and the
tokens encoding can never give on their own (GPT-2's are real examples of why "glitch tokens" exist).

Works for any byte-level tokenizer: trained, loaded or a reference. The usage classes (never emitted,
intermediate) are measured on the held-out text, computed once per tokenizer and text.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import streamlit as st

from bpe_core.analysis import health as token_health
from bpe_core.analysis import reachability as reach
from bpe_core.analysis.curves import sample_curve
from playground.i18n import N_, language, listed, t
from playground.session import HEALTH_FILTERS, Session
from playground.text import plain
from ui import chart_style, token_html
from ui.compare import texts
from ui.compare.common import MAX_SEARCH, Subject, attempt, remembered
from ui.compare.curve import POINTS, held_out_inputs
from ui.compare.health_reasons import reason_text, unreachable_said

CLASS_OF = {
    "partial": reach.PARTIAL_CHARACTER,
    "invalid": reach.INVALID_UTF8,
    "split": reach.PATTERN_SPLIT,
    "unbuilt": reach.NEVER_BUILT,
    "whole": reach.MERGE_ORDER,
    "never": token_health.NEVER_EMITTED,
    "intermediate": token_health.INTERMEDIATE,
}
"""The list's filters (``Session.health_class``, ``class`` in links) and the classes they show."""
assert tuple(CLASS_OF) == HEALTH_FILTERS[1:]
NAMES = {
    reach.PARTIAL_CHARACTER: N_("partial character"),
    reach.INVALID_UTF8: N_("not valid UTF-8 alone"),
    reach.PATTERN_SPLIT: N_("split by the pattern"),
    reach.NEVER_BUILT: N_("never built by the merges"),
    reach.MERGE_ORDER: N_("only as a whole pre-token"),
    token_health.NEVER_EMITTED: N_("never emitted"),
    token_health.INTERMEDIATE: N_("intermediate"),
}
EXPLANATIONS = {
    reach.PARTIAL_CHARACTER: N_(
        "Its bytes are only pieces of characters, so no text typed on its own gives it: it "
        "appears only inside a longer text, where a character is split across tokens."
    ),
    reach.INVALID_UTF8: N_(
        "It holds a whole character and a piece of another, so it is not valid text on its own: "
        "encoding can only produce it inside a longer text."
    ),
    reach.PATTERN_SPLIT: N_(
        "The pre-tokenization pattern cuts its own text into several pre-tokens, and BPE never "
        "merges across them, so encoding its text gives other tokens."
    ),
    reach.NEVER_BUILT: N_(
        "Merging its own characters or bytes by the tokenizer's rule ends in other tokens, and this tokenizer has "
        "no rule that emits a whole pre-token as one token: no text gives it."
    ),
    reach.MERGE_ORDER: N_(
        "Merging its bytes in rank order ends in other tokens: it is emitted only where a pre-token "
        "is exactly its text (the rule for whole tokens), never inside a longer pre-token."
    ),
    token_health.NEVER_EMITTED: N_(
        "Encoding the text never emits it, so a model trained on such text would never see it as "
        "input and could not learn it (an under-trained token)."
    ),
    token_health.INTERMEDIATE: N_(
        "It is mostly a step on the way to bigger tokens: the text has it inside them far more often "
        "than on its own, so a model sees it rarely."
    ),
}
"""The library's sentences (``bpe_core.analysis.health.EXPLANATIONS``; a test holds them equal), marked here for
the catalog."""
UNREACHABLE = (reach.PARTIAL_CHARACTER, reach.INVALID_UTF8, reach.PATTERN_SPLIT, reach.NEVER_BUILT)
"""Classes of tokens that no text gives on its own."""
PAGE_ROWS = 50
EXAMPLES = 40
GLITCH = b" SolidGoldMagikarp"
PALETTE = ["#c2255c", "#e8590c", "#ae3ec9", "#1c7ed6", "#495057", "#2f9e44"]
CSS = (
    "<style>.health td,.health th{padding:.15rem .5rem;text-align:left;vertical-align:top;border-bottom:1px solid "
    "#dee2e6}.health th{white-space:nowrap;word-break:keep-all}"
    ".health td.n{text-align:right;font-variant-numeric:tabular-nums}.health .tokens{font-size:1.05rem;"
    "line-height:1.6rem}.health .why{color:#495057;font-size:.85rem}</style>"
)


def report(subject: Subject, heldout: texts.Text | None) -> token_health.HealthReport | None:
    key = ("health", subject.key, heldout.digest if heldout is not None else None)
    text = heldout.text if heldout is not None else None
    # Every token of a big vocabulary is examined (DeepSeek V4's 129,280: ~30 s the first time): the page says so,
    # with the time waited where Streamlit's own words for it ("(9.0 seconds)", English only) match the page's.
    with st.spinner(t("Examining every token of this tokenizer…"), show_time=language() == "en"):
        return attempt(
            t("examine this tokenizer"),
            lambda: remembered(key, lambda: token_health.health_report(subject.tokenizer, text)),
        )


def render(s: Session, subject: Subject) -> None:
    held_out_inputs(s, subject)
    heldout = texts.heldout(s, subject.trained)
    if heldout is None:
        st.info(texts.heldout_missing_message(s) + " " + t("Without it, only the classes of the vocabulary are shown."))
    else:
        texts.check_overlap(s, subject.trained, heldout)
    found = report(subject, heldout if heldout is not None and heldout.n_bytes else None)
    if found is None:
        return
    counts = found.counts()
    summary(found, counts)
    st.vega_lite_chart(chart(found), width="stretch")
    shown = texts.describe(heldout) if found.has_text and heldout is not None else None
    where = t("on {text}", text=shown) if shown is not None else t("(no text: vocabulary classes only)")
    st.caption(
        t(
            "Tokens of each class at every vocab size {where}. Intermediate: emitted on its own in less than "
            "{share:.0%} of the places the text has it (alone or inside bigger tokens). A token may be in "
            "several classes.",
            where=where,
            share=found.intermediate_threshold,
        )
    )
    unreachable = unreachable_tokens(found)
    if unreachable:
        glitch_examples(subject, found, unreachable)
    browse(s, found)


def unreachable_tokens(found: token_health.HealthReport) -> list[token_health.TokenHealth]:
    """The tokens no text gives on its own, those made by merges first (the bytes alone are the obvious ones)."""
    return sorted((row for row in found.rows if row.kind in UNREACHABLE), key=lambda row: row.merge_rank is None)


def summary(found: token_health.HealthReport, counts: dict[str, int]) -> None:
    import pandas as pd  # after the counts: pandas costs a fresh server ~1 s to import

    st.table(
        pd.DataFrame(
            {
                t("class"): [t(NAMES[name]) for name in counts],
                t("tokens"): [f"{count:,}" for count in counts.values()],
                t("what it means"): [t(EXPLANATIONS[name]) for name in counts],
            }
        ),
        hide_index=True,
    )


def chart(found: token_health.HealthReport) -> dict:
    sizes = found.vocab_sizes.tolist()
    keep = [index for _, index in sample_curve(list(zip(sizes, range(len(sizes)))), POINTS)]
    names = [t(NAMES[name]) for name in found.counts_by_size]
    values = [
        {"vocab size": sizes[k], "class": t(NAMES[name]), "tokens": int(counts[k])}
        for name, counts in found.counts_by_size.items()
        for k in keep
    ]
    return chart_style.style_spec(
        {
            "data": {"values": values},
            "mark": {"type": "line", "strokeWidth": 2.5, "interpolate": "step-after"},
            "encoding": {
                "x": {
                    "field": "vocab size",
                    "type": "quantitative",
                    "title": t("vocab size (log scale)"),
                    "scale": {"type": "log", "domain": [sizes[0], sizes[-1]], "nice": False},
                    "axis": {"format": "~s"},
                },
                "y": {
                    "field": "tokens",
                    "type": "quantitative",
                    "title": t("tokens (symmetric log scale)"),
                    # given, not measured: Streamlit draws the chart once before its data arrive (see premiums)
                    "scale": {"type": "symlog", "domain": [0, max([1, *(value["tokens"] for value in values)])]},
                    "axis": {
                        "values": [0, 1, 10, 100, 1_000, 10_000, 100_000],
                        "labelExpr": "format(datum.value, ',')",
                    },
                },
                "color": {
                    "field": "class",
                    "type": "nominal",
                    "title": t("class"),
                    "sort": names,
                    "scale": {"domain": names, "range": PALETTE[: len(names)]},
                    "legend": {"orient": "bottom", "columns": 3, "labelLimit": 400},  # in one row the last was cut
                },
                "tooltip": [
                    {"field": "class"},
                    {"field": "vocab size", "format": ","},
                    {"field": "tokens", "format": ","},
                ],
            },
            "height": 440,  # the whole figure: the plot keeps ~270 px under the two legend rows (its title fits)
        }
    )


def glitch_examples(
    subject: Subject, found: token_health.HealthReport, unreachable: Sequence[token_health.TokenHealth]
) -> None:
    """The tokens no text gives on their own, as the real examples of under-trained ("glitch") tokens."""
    by_class = {name: sum(row.kind == name for row in unreachable) for name in UNREACHABLE}
    parts = listed([t("{n:,} {name}", n=n, name=t(NAMES[name])) for name, n in by_class.items() if n])
    st.markdown(unreachable_said(plain(subject.label), parts, [row.token for row in unreachable]))
    shown = unreachable[:EXAMPLES]
    spans = "".join(token_html.token_span(row.token, row.id, i) for i, row in enumerate(shown))
    st.html(f'<div class="tokens">{spans}</div>')
    glitch = next(
        (row for row in found.rows if row.token == GLITCH and token_health.NEVER_EMITTED in row.classes), None
    )
    if glitch is not None:
        st.caption(
            t(
                "And {token} (id {id}), the best-known glitch token: encoding can give it, but this text never does.",
                token=plain(token_html.display_bytes(GLITCH)),
                id=glitch.id,
            )
        )


def browse(s: Session, found: token_health.HealthReport) -> None:
    """Every token with a class, filtered by class and searched, a page at a time, drawn by the token renderer."""
    left, middle, right = st.columns([2, 2, 1], vertical_alignment="bottom")
    left.selectbox(
        t("Show"),
        HEALTH_FILTERS,
        key=Session.health_class.key,
        persist_state="session",
        format_func=lambda f: t("every class") if f == "all" else t(NAMES[CLASS_OF[f]]),
    )
    middle.text_input(
        t("Search (token text or id)"), key=Session.health_search.key, max_chars=MAX_SEARCH, persist_state="session"
    )
    wanted = CLASS_OF.get(s.health_class)
    match = matcher((s.health_search or "").strip())
    rows = [row for row in found.rows if (wanted is None or wanted in row.classes) and match(row)]
    pages = max(1, -(-len(rows) // PAGE_ROWS))
    s.health_page = min(max(s.health_page, 1), pages)
    right.number_input(t("Page (of {n:,})", n=pages), min_value=1, max_value=pages, key=Session.health_page.key)
    if wanted is not None:
        st.caption(t(EXPLANATIONS[wanted]))
    start = (s.health_page - 1) * PAGE_ROWS
    st.html(CSS + rows_html(rows[start : start + PAGE_ROWS], start))
    st.caption(t("{n:,} tokens listed.", n=len(rows)))


def matcher(query: str) -> Callable[[token_health.TokenHealth], bool]:
    """Whether a row matches ``query`` (its id, its display, or its bytes as drawn), the query's marks made once:
    once a row, a pasted 10 KB query took 21 s over GPT-2's 50,257 rows."""
    if not query:
        return lambda row: True
    query_shown = token_html.show_whitespace(query)

    def match(row: token_health.TokenHealth) -> bool:
        return query == str(row.id) or query in row.display or query_shown in token_html.display_bytes(row.token)

    return match


def made_in_round(row: token_health.TokenHealth) -> int | None:
    """The round that made the token, as the Merges page numbers them (its merge rank + 1; None: a byte)."""
    return None if row.merge_rank is None else row.merge_rank + 1


def rows_html(rows: Sequence[token_health.TokenHealth], start: int) -> str:
    """The listed tokens as an escaped HTML table (tokens through the one token renderer)."""
    names = (
        N_("id"),
        N_("token"),
        N_("classes"),
        N_("made in round"),
        N_("emitted"),
        N_("inside bigger tokens"),
        N_("why"),
    )
    head = "".join(f"<th>{html.escape(t(name))}</th>" for name in names)

    def number(value: int | None) -> str:
        return "–" if value is None else f"{value:,}"

    body = "".join(
        f"<tr><td class='n'>{row.id}</td><td><div class='tokens'>{token_html.token_span(row.token, row.id, start + i)}"
        f"</div></td><td>{html.escape(listed([t(NAMES[name]) for name in row.classes]))}</td>"
        f"<td class='n'>{number(made_in_round(row))}</td><td class='n'>{number(row.emitted)}</td>"
        f"<td class='n'>{number(row.inside)}</td><td class='why'>{html.escape(reason_text(row.reason))}</td></tr>"
        for i, row in enumerate(rows)
    )
    return f"<table class='health'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
