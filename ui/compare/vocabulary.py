"""The vocabulary explorer: every token in a searchable, sortable table, the merge tree of one token,
the token lengths, and the tokens learned but never emitted on the corpus.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Sequence

import altair as alt
import pandas as pd
import streamlit as st

from bpe_core import Tokenizer, analysis
from bpe_core.analysis import merge_tree
from playground.i18n import N_, t
from playground.session import Session
from playground.text import plain
from ui import chart_style, stage, token_html
from ui.compare import texts
from ui.compare.common import MAX_SEARCH, Subject, attempt, remembered

SORTS = (N_("merge round"), N_("id"), N_("length"), N_("used in corpus"), N_("count when merged"), N_("token"))
"""Columns to sort by (English in the session, shown with playground.i18n.t)."""
NEVER_SHOWN = 400
_ID = re.compile(r"[0-9]{1,9}", re.ASCII)  # "²" and "٣" are digits to str.isdigit, not ids


def vocabulary_frame(rows: Sequence[analysis.TokenInfo]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": [row.id for row in rows],
            "token": [token_html.display_bytes(row.token) for row in rows],
            N_("bytes"): [row.token.hex(" ") for row in rows],
            "length": [row.length for row in rows],
            # Rounds count from 1, as on the Merges page (round k = after the k-th merge); ranks from 0.
            "merge round": pd.array(
                [None if row.merge_rank is None else row.merge_rank + 1 for row in rows], dtype="Int64"
            ),
            "count when merged": pd.array([row.count_when_merged for row in rows], dtype="Int64"),
            "used in corpus": [row.used for row in rows],
            N_("special"): [row.special for row in rows],
        }
    )


def filter_frame(frame: pd.DataFrame, query: str) -> pd.DataFrame:
    """Rows whose token text (· for space, ↵ for newline) or hex bytes contain the query, or whose id it is.

    >>> frame = vocabulary_frame([analysis.TokenInfo(7, b"a b", 3, 1, 2, 0)])
    >>> len(filter_frame(frame, "a b")), len(filter_frame(frame, "61")), len(filter_frame(frame, "²"))
    (1, 1, 0)
    """
    if not query:
        return frame
    mask = frame["token"].str.contains(token_html.show_whitespace(query), regex=False)
    mask |= frame["bytes"].str.contains(query.lower(), regex=False)
    if _ID.fullmatch(query.strip()):
        mask |= frame["id"] == int(query.strip())
    return frame[mask]


def length_chart(histogram: dict[int, int]) -> alt.Chart:
    frame = pd.DataFrame({"length (bytes)": list(histogram), "tokens": list(histogram.values())})
    return chart_style.style(
        alt.Chart(frame)
        .mark_bar(color="#1c7ed6")
        .encode(
            x=alt.X("length (bytes):O", title=t("token length in bytes")),
            y=alt.Y("tokens:Q", title=t("learned tokens")),
            tooltip=[
                alt.Tooltip("length (bytes):O", title=t("length (bytes)")),
                alt.Tooltip("tokens:Q", title=t("tokens")),
            ],
        )
        .properties(height=260)
    )


def tree_html(tree: merge_tree.MergeTree, max_depth: int = 12) -> str:
    """A merge tree as nested boxes: each token above its two parts (escaped text)."""

    def node(t: merge_tree.MergeTree, depth: int) -> str:
        meta = f"#{t.id}" + (f" r{t.merge_rank + 1}" if t.merge_rank is not None else "")
        kids = ""
        if not t.is_leaf and t.left is not None and t.right is not None:
            inner = (
                '<span class="meta">…</span>'
                if depth >= max_depth
                else node(t.left, depth + 1) + node(t.right, depth + 1)
            )
            kids = f'<div class="kids">{inner}</div>'
        return (
            f'<div class="{"node leaf" if t.is_leaf else "node"}" data-token-id="{int(t.id)}">'
            f'<span class="lbl">{html.escape(token_html.display_bytes(t.token))}</span>'
            f'<span class="meta">{html.escape(meta)}</span>{kids}</div>'
        )

    return f'<div class="mtree">{node(tree, 0)}</div>'


# -- the view ------------------------------------------------------------------------------------------


def render(s: Session, subject: Subject) -> None:
    tokenizer = subject.tokenizer
    corpus = texts.training_text(s, subject.trained) if subject.trained is not None else None
    usage: Counter[int] = Counter()
    if corpus is None:
        st.info(
            t(
                "The training text is not at hand (a tokenizer loaded from files, or the corpus changed since "
                "training): token use on the corpus is not counted."
            )
        )
    else:
        counted = attempt(
            t("count token use"),
            lambda: remembered(
                ("usage", subject.key, corpus.digest), lambda: analysis.token_usage(tokenizer, corpus.text)
            ),
        )
        usage = counted if counted is not None else usage
    counts = subject.trained.trace.counts if subject.trained is not None else None  # no records made
    frame = remembered(
        ("vocab-frame", subject.key, corpus.digest if corpus else ""),
        lambda: vocabulary_frame(analysis.vocabulary_rows(tokenizer, usage, counts=counts)),
    )
    token_table(s, frame, corpus)
    tree_section(s, subject, frame)
    lengths, never = st.columns([2, 3], gap="large")
    with lengths:
        st.subheader(t("Token lengths"))
        histogram = dict(sorted(analysis.length_histogram(tokenizer).items()))
        if histogram:
            st.altair_chart(length_chart(histogram), width="stretch")
        else:
            st.caption(t("No learned tokens."))
    with never:
        st.subheader(t("Learned but never emitted"))
        if corpus is None:
            st.caption(t("Needs the training text."))
        else:
            never_section(tokenizer, analysis.never_emitted(tokenizer, corpus.text, usage))


def token_table(s: Session, frame: pd.DataFrame, corpus: texts.Text | None) -> None:
    st.subheader(t("All tokens"))
    if corpus is not None:
        st.caption(
            t(
                "“{column}”: how often encoding {text} emits the token. Whitespace shows as · ↵ →; ⟨E4 BD⟩ are "
                "bytes of a partial character.",
                column=t("used in corpus"),
                text=texts.describe(corpus),
            )
        )
    # Columns with nothing to say are left out: a tokenizer loaded from files has no training text here (use) and no
    # training trace (counts); shown, they read None and 0 on every row, and 0 said "never used".
    absent = {"used in corpus"} if corpus is None else set()
    if frame["count when merged"].isna().all():
        absent.add("count when merged")
    sorts = [key for key in SORTS if key not in absent]
    if s.vocab_sort not in sorts:
        s.vocab_sort = "merge round"
    search, sort, descending = st.columns([3, 2, 2], vertical_alignment="bottom")
    search.text_input(
        t("Search (token text, hex bytes or id)"),
        key=Session.vocab_search.key,
        max_chars=MAX_SEARCH,
        persist_state="session",
    )
    sort.selectbox(t("Sort by"), sorts, format_func=t, key=Session.vocab_sort.key, persist_state="session")
    descending.toggle(t("Descending"), key=Session.vocab_descending.key, persist_state="session")
    shown = filter_frame(frame.drop(columns=sorted(absent)), s.vocab_search or "")
    shown = shown.sort_values(s.vocab_sort, ascending=not s.vocab_descending, kind="stable", na_position="last")
    st.caption(t("{shown:,} of {n:,} tokens", shown=len(shown), n=len(frame)))
    stage.table(shown.rename(columns=lambda column: t(column)), bool(s.talk), height=320)
    if s.talk and len(shown) > stage.TALK_TABLE_ROWS:
        st.caption(t("Talk mode shows the first {n} rows: search or sort to bring others up.", n=stage.TALK_TABLE_ROWS))


def tree_section(s: Session, subject: Subject, frame: pd.DataFrame) -> None:
    st.subheader(t("Merge tree of one token"))
    learned = frame[frame["merge round"].notna()]
    if learned.empty:
        st.caption(t("This tokenizer has no merges."))
        return
    ids = set(frame["id"])
    if s.token is not None and s.token not in ids:
        st.warning(
            t(
                "Token id {token:,} is not in this tokenizer (its ids run from 0 to {most:,}): showing another "
                "token instead.",
                token=s.token,
                most=max(ids),
            )
        )
        s.token = None
    if s.token is None:
        used = learned[learned["used in corpus"] > 0]
        pool = used if not used.empty else learned
        # The longest word first (letters, after a leading space): the longest token of all is often a run of spaces
        # (Qwen 3.6's: 128 of them, a page-wide tree of "·").
        words = pool[pool["token"].str.lstrip("·▁").str.isalpha()]
        pool = words if not words.empty else pool
        s.token = int(pool.sort_values(["length", "id"], ascending=[False, True])["id"].iloc[0])
    st.number_input(
        t("Token id"),
        min_value=0,
        max_value=max(ids),
        step=1,
        key=Session.token.key,
        persist_state="session",
        help=t("Pick an id from the table above."),
    )
    token = s.token
    if token is None or token not in ids:  # an id between others (a file's ids may have gaps)
        st.warning(t("This tokenizer has no token with id {token:,}.", token=s.token))
        return
    tree = attempt(t("build the merge tree"), lambda: merge_tree.merge_tree(subject.tokenizer, token))
    if tree is None:
        return
    if tree.is_leaf or tree.merge_rank is None:  # (a merged token always has its round)
        st.caption(t("A single byte or a special token: nothing was merged to make it."))
    else:
        st.caption(
            t(
                "{label} — made in round {round:,} from its two parts; {depth} merge levels down to {n} bytes. "
                "(#id, r = merge round)",
                label=plain(token_html.display_bytes(tree.token)),
                round=tree.merge_rank + 1,
                depth=tree.depth(),
                n=len(tree.leaves()),
            )
        )
    st.html(tree_html(tree))


def never_section(tokenizer: Tokenizer, never: list[int]) -> None:
    st.caption(
        t(
            "{n:,} of {merges:,} learned tokens never appear when encoding the corpus: longer tokens made from "
            "them replaced them everywhere.",
            n=len(never),
            merges=tokenizer.num_merges,
        )
    )
    shown = never[:NEVER_SHOWN]
    st.html(token_html.tokens_html([tokenizer.token_bytes(i) for i in shown], shown))
    if len(never) > NEVER_SHOWN:
        st.caption(t("First {n} shown, in merge order.", n=NEVER_SHOWN))
