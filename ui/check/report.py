"""The check's answer: where the learner's merges part from bpe_core's, why (in the session's language), both
lists up to there and the pairs that led at that round. The learner's tokens are shown through
``playground.text.plain`` or as dataframe cells, never as Markdown."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bpe_core.analysis.check.explain import shown_pair
from playground import check as model
from playground.i18n import t
from playground.text import plain
from ui import stage


def report(checked: model.Checked, talk: bool = False) -> None:
    """The answer: where the merges part, why (in the session's language), both lists, the candidates there."""
    check = checked.check
    st.subheader(t("Result"), anchor="check-result")
    st.caption(
        t(
            "{n:,} merges ({merges}) checked against bpe_core's training on {text}.",
            n=checked.given,
            merges=plain(checked.merges_label),
            text=plain(checked.text_label),
        )
    )
    k = check.first_difference
    c1, c2, c3 = st.columns(3)
    c1.metric(t("First difference"), t("none") if k is None else t("merge {n:,}", n=k + 1))
    c2.metric(t("Cause"), model.cause_name(check))
    after = max(0, checked.given - k - 1) if k is not None else 0
    c3.metric(t("Later merges that agree"), f"{check.later_agreeing:,} / {after:,}" if k is not None else "—")
    sentence = plain(model.explanation(check), limit=2_000)
    if k is None:
        st.success(sentence, icon=":material/check_circle:")
        return
    st.warning(sentence, icon=":material/difference:")
    if check.finding == "counts-first" or check.learner_count == 0:  # the learner's most likely slip: another text
        st.info(
            t(
                "Was your trainer trained on this text? Its merge {number:,} is not what this text's counts give: "
                "choose the text it was trained on under “Training text” (a trainer's first merge is its text's most "
                "frequent pair).",
                number=k + 1,
            ),
            icon=":material/help:",
        )
    if len(check.tie_set) > 1:  # one pair at the top is no tie
        pairs = ", ".join(shown_pair(c.left, c.right) for c in check.tie_set)
        count, n = check.tie_set[0].count, len(check.tie_set)
        st.markdown(
            t(
                "**Tied at merge {number:,}:** {n:,} pairs occur {count:,} times each: {pairs}",
                number=k + 1,
                n=n,
                count=count,
                pairs=plain(pairs, 600),
            )
        )
    if check.picking_rules:
        st.markdown(t("**Tie rules that pick yours:** {rules}", rules=plain(model.rule_names(check.picking_rules))))
    elif check.cause == "tie-break":
        st.markdown(t("**Tie rules that pick yours:** none of the known ones."))
    st.caption(
        t(
            "Your merges after merge {number:,}: the same as bpe_core's at the same rank, {same:,}; learned by "
            "bpe_core at some rank, {shared:,}.",  # (no verb to agree with a count: "1 are learned")
            number=k + 1,
            same=check.later_agreeing,
            shared=check.later_shared,
        )
    )
    # On a projector one column under the other, each a static table the stage's type sizes reach (stage.table).
    left, right = (st.container(), st.container()) if talk else st.columns(2)  # (3:2 cut "Merged by")
    with left:
        st.markdown(t("**Both lists up to the difference**"))
        rows = model.side_by_side(check)
        stage.table(pd.DataFrame(rows[-8:] if talk else rows), talk, rows=8)  # a slide: the rows up to the difference
        if k + 1 > model.SHOWN_ROWS:
            st.caption(t("The last {n:,} merges up to the difference.", n=model.SHOWN_ROWS))
    candidates = model.candidate_rows(check)
    if candidates:  # none when the text has no pair left at that round
        with right:
            st.markdown(t("**The leading pairs at merge {number:,}** (counted as bpe_core counts)", number=k + 1))
            stage.table(pd.DataFrame(candidates), talk, rows=8)
