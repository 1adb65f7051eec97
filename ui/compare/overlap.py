"""Vocabulary overlap: the page's tokenizer (A) against another (B: the trained one, a built-in model or a loaded
file), compared by bytes (``bpe_core.analysis.overlap``): sizes, shared tokens and Jaccard, a table by script, a
chart by length, and a searchable list of the tokens only in A, only in B or shared, drawn by the one token
renderer. A link carries B when it is the trained tokenizer or a built-in one, with the list and its script.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import streamlit as st

from bpe_core.analysis.overlap import LENGTH_BINS, LISTS, Overlap, vocabulary_overlap
from playground.file_labels import shown_label
from playground.i18n import N_, t
from playground.session import OVERLAP_SCRIPTS, REFERENCES, TRAINED, Session
from playground.text import plain
from ui import chart_style, stage, token_html, tokenizer_output
from ui.compare.common import MAX_SEARCH, Subject, attempt, content_key, remembered

SCRIPT_NAMES = {
    "latin": N_("Latin"),
    "cyrillic": N_("Cyrillic"),
    "greek": N_("Greek"),
    "arabic": N_("Arabic"),
    "hebrew": N_("Hebrew"),
    "devanagari": N_("Devanagari"),
    "thai": N_("Thai"),
    "hangul": N_("Hangul (Korean)"),
    "kana": N_("Kana (Japanese)"),
    "han": N_("Han (Chinese characters)"),
    "other": N_("other letters"),
    "mixed": N_("letters of several scripts"),
    "digits": N_("digits"),
    "punctuation": N_("punctuation, symbols, space"),
    "bytes": N_("not valid UTF-8 alone"),
}
assert tuple(SCRIPT_NAMES) == OVERLAP_SCRIPTS[1:]
LIST_NAMES = {"only_a": N_("only in A"), "only_b": N_("only in B"), "shared": N_("shared")}
assert set(LIST_NAMES) == set(LISTS)
COLOURS = {"shared": "#2f9e44", "only_a": "#1c7ed6", "only_b": "#e8590c"}
PAGE_ROWS = 50
CSS = (
    "<style>.overlap td,.overlap th{padding:.15rem .5rem;text-align:left;vertical-align:top;border-bottom:1px solid "
    "#dee2e6}.overlap td.n{text-align:right;font-variant-numeric:tabular-nums}.overlap .tokens{font-size:1.05rem;"
    "line-height:1.6rem}</style>"
)
WHITESPACE_MARKS = {"·": " ", "↵": "\n", "→": "\t"}
"""The marks the token renderer shows for whitespace: a search may type them."""


def render(s: Session, subject: Subject) -> None:
    choices = other_choices(s)
    if s.overlap_with not in choices:  # not chosen yet (a fresh page compared GPT-2 with itself), or gone
        s.overlap_with = next((name for name in choices if name != subject.choice), next(iter(choices)))
    st.selectbox(
        t("Compare with (B)"),
        list(choices),
        format_func=choices.__getitem__,
        key=Session.overlap_with.key,
        persist_state="session",
    )
    other = other_tokenizer(s)
    if other is None:
        return
    tokenizer, key, label_b = other
    found = attempt(
        t("compare the vocabularies"),
        lambda: remembered(("overlap", subject.key, key), lambda: vocabulary_overlap(subject.tokenizer, tokenizer)),
    )
    if found is None:
        return
    if key == subject.key:
        st.info(t("A and B are the same tokenizer: every token is shared. Choose another B."))
    summary(found, short_label(subject), label_b)
    left, right = st.columns([3, 2], gap="medium")  # (in halves the table's last column was cut)
    with left:
        st.subheader(t("By script"))
        script_table(s, found)
    with right:
        st.subheader(t("By length in bytes"))
        st.vega_lite_chart(length_chart(found), width="stretch")
    browse(s, found)
    if s.overlap_with != subject.choice:  # the page notes A's licence itself
        tokenizer_output.licence_notes([s.overlap_with])


def other_choices(s: Session) -> dict[str, str]:
    """B's choices: the trained tokenizer, every built-in one (B's own too, from a link) and the loaded files. A
    classic tokenizer is left out: its symbols (``low</w>``) are not bytes of the text, so none would match."""
    choices = tokenizer_output.tokenizer_choices(s)
    if s.trained is not None and not s.trained.tokenizer.byte_level:
        choices.pop(TRAINED, None)
    if s.overlap_with in REFERENCES and s.overlap_with not in choices:
        choices[s.overlap_with] = tokenizer_output.reference_label(s.overlap_with)
    return choices


def other_tokenizer(s: Session) -> tuple[Any, str, str] | None:
    """B, its cache key and its short name; None after saying why it is not here."""
    choice = s.overlap_with
    try:
        tokenizer = tokenizer_output.tokenizer_for(s, choice)
    except Exception as error:  # noqa: BLE001 -- reference data missing: say so, keep the page
        name = plain(tokenizer_output.REFERENCE_LABELS.get(choice, choice))
        st.error(t("The {name} vocabulary is not available: {error}", name=name, error=plain(error)))
        return None
    if tokenizer is None:
        st.warning(t(tokenizer_output.NOT_IN_THIS_TAB))
        return None
    if choice == TRAINED and s.trained is not None:
        return tokenizer, s.trained.request.key, t("the trained tokenizer")
    if choice in REFERENCES:
        return tokenizer, f"reference-{choice}", tokenizer_output.REFERENCE_LABELS.get(choice, choice)
    return tokenizer, content_key(tokenizer), shown_label(choice.removeprefix(tokenizer_output.LOADED), tokenizer)


def short_label(subject: Subject) -> str:
    if subject.choice == TRAINED:
        return t("the trained tokenizer")
    return tokenizer_output.REFERENCE_LABELS.get(subject.choice, subject.label)


def summary(found: Overlap, label_a: str, label_b: str) -> None:
    st.markdown(
        t(
            "**A** = {a} ({size_a:,} tokens), **B** = {b} ({size_b:,} tokens): **{shared:,}** shared, "
            "Jaccard **{jaccard:.3f}** (shared / in either).",
            a=plain(label_a),
            b=plain(label_b),
            size_a=found.size_a,
            size_b=found.size_b,
            shared=len(found.shared),
            jaccard=found.jaccard,
        )
    )
    none = t("none")
    st.caption(
        t(
            "Tokens are compared by their bytes: GPT-2's byte alphabet (Ġ for a space) and SentencePiece's ▁ are "
            "undone, so “ the” of GPT-2 and of cl100k_base is one token. Special tokens stand for no text and are "
            "listed apart. A: {a}. B: {b}. In both: {both}.",
            a=plain(", ".join(found.specials_a[:6]) + (" …" if len(found.specials_a) > 6 else "") or none),
            b=plain(", ".join(found.specials_b[:6]) + (" …" if len(found.specials_b) > 6 else "") or none),
            both=f"{len(found.shared_specials):,}",
        )
    )


def script_table(s: Session, found: Overlap) -> None:
    import pandas as pd  # after the overlap: pandas costs a fresh server ~1 s to import

    rows = found.by_script
    frame = pd.DataFrame(
        {
            t("script"): [t(SCRIPT_NAMES[row.name]) for row in rows],
            t(LIST_NAMES["shared"]): [row.shared for row in rows],
            t(LIST_NAMES["only_a"]): [row.only_a for row in rows],
            t(LIST_NAMES["only_b"]): [row.only_b for row in rows],
        }
    )
    stage.table(frame, bool(s.talk))


def length_chart(found: Overlap) -> dict:
    order = [t(LIST_NAMES[name]) for name in LISTS]
    values = [
        {"length": row.name, "set": t(LIST_NAMES[name]), "tokens": getattr(row, name), "order": index}
        for row in found.by_length
        for index, name in enumerate(LISTS)
    ]
    # The stack's top, given: Streamlit draws once before the data arrive, and a measured extent is then infinite.
    top = max([1, *(sum(getattr(row, name) for name in LISTS) for row in found.by_length)])
    return chart_style.style_spec(
        {
            "data": {"values": values},
            "mark": {"type": "bar"},
            "encoding": {
                "x": {
                    "field": "length",
                    "type": "ordinal",
                    "title": t("length in bytes"),
                    "sort": [label for _, _, label in LENGTH_BINS],
                    "axis": {"labelAngle": 0},
                },
                "y": {
                    "field": "tokens",
                    "type": "quantitative",
                    "title": t("tokens"),
                    "stack": "zero",
                    "scale": {"domain": [0, top], "nice": True},
                },
                "color": {
                    "field": "set",
                    "type": "nominal",
                    "title": None,
                    "sort": order,
                    "scale": {"domain": order, "range": [COLOURS[name] for name in LISTS]},
                    "legend": {"orient": "bottom", "columns": 2},  # in one row the last was cut in a column
                },
                "order": {"field": "order"},
                "tooltip": [{"field": "length"}, {"field": "set"}, {"field": "tokens", "format": ","}],
            },
            "height": 300,
        }
    )


def browse(s: Session, found: Overlap) -> None:
    """The tokens of one set, of one script, searched, a page at a time (in id order: earliest merges first)."""
    st.subheader(t("Tokens"))
    sizes = {"shared": len(found.shared), "only_a": len(found.only_a), "only_b": len(found.only_b)}
    st.radio(
        t("List"),
        list(LIST_NAMES),
        format_func=lambda name: t("{set} ({n:,})", set=t(LIST_NAMES[name]), n=sizes[name]),
        key=Session.overlap_list.key,
        horizontal=True,
        persist_state="session",
    )
    left, middle, right = st.columns([2, 2, 1], vertical_alignment="bottom")
    left.selectbox(
        t("Script"),
        OVERLAP_SCRIPTS,
        format_func=lambda name: t("every script") if name == "all" else t(SCRIPT_NAMES[name]),
        key=Session.overlap_script.key,
        persist_state="session",
    )
    middle.text_input(
        t("Search (token text or id)"), key=Session.overlap_search.key, max_chars=MAX_SEARCH, persist_state="session"
    )
    query = (s.overlap_search or "").strip("\n")
    script = None if s.overlap_script == "all" else s.overlap_script
    rows = found.tokens(s.overlap_list, script, searched_bytes(query))
    if query.isascii() and query.isdigit():  # an id of A or B, as well as tokens holding those digits
        wanted = int(query)
        by_id = [token for token in found.tokens(s.overlap_list, script) if wanted in ids_of(found, token)]
        listed = set(by_id)
        rows = by_id + [token for token in rows if token not in listed]
    per_page = stage.TALK_TABLE_ROWS if s.talk else PAGE_ROWS
    pages = max(1, -(-len(rows) // per_page))
    s.overlap_page = min(max(s.overlap_page, 1), pages)
    right.number_input(t("Page (of {n:,})", n=pages), min_value=1, max_value=pages, key=Session.overlap_page.key)
    start = (s.overlap_page - 1) * per_page
    st.html(CSS + rows_html(found, rows[start : start + per_page], start))
    st.caption(t("{n:,} tokens listed.", n=len(rows)))


def searched_bytes(query: str) -> bytes:
    """What a search looks for inside tokens: its text as UTF-8, the renderer's whitespace marks read back."""
    for mark, char in WHITESPACE_MARKS.items():
        query = query.replace(mark, char)
    return query.encode("utf-8", errors="replace")


def ids_of(found: Overlap, token: bytes) -> tuple[int | None, int | None]:
    return found.ids_a.get(token), found.ids_b.get(token)


def rows_html(found: Overlap, tokens: Sequence[bytes], start: int) -> str:
    """The listed tokens as an escaped HTML table (tokens through the one token renderer)."""
    names = (N_("token"), N_("id in A"), N_("id in B"), N_("script"), N_("bytes"))
    head = "".join(f"<th>{html.escape(t(name))}</th>" for name in names)

    def number(value: int | None) -> str:
        return "–" if value is None else f"{value:,}"

    body = []
    for index, token in enumerate(tokens):
        id_a, id_b = ids_of(found, token)
        span = token_html.token_span(token, id_a if id_a is not None else id_b, start + index)
        body.append(
            f"<tr><td><div class='tokens'>{span}</div></td><td class='n'>{number(id_a)}</td>"
            f"<td class='n'>{number(id_b)}</td><td>{html.escape(t(SCRIPT_NAMES[found.scripts[token]]))}</td>"
            f"<td class='n'>{len(token)}</td></tr>"
        )
    return f"<table class='overlap'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
