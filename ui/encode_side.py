"""Encode's comparison and its way back: the same text with every chosen tokenizer side by side, each with its count
and its ids to copy (as tiktokenizer shows them), and a box that turns typed ids back into text.

Tokens are drawn by the one renderer (``ui.token_html`` through ``ui.tokenizer_output.encoded_html``). A link carries
the built-in choices and the one just trained (``Session.also``); a loaded file never travels in links.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import streamlit as st

from playground.i18n import t
from playground.session import Session
from playground.text import plain
from playground.trained import Trained
from ui import tokenizer_output

MAX_IDS_TEXT = 20_000
"""Characters of typed ids read (a pasted list of ~3,000 ids)."""
SIDE_TOKENS = 800
"""Tokens drawn per tokenizer side by side (each is counted whole)."""
PER_ROW = 3
_ID_LIST = re.compile(r"[\s,;\[\]()]+")


def choose(s: Session, choices: dict[str, str]) -> None:
    """The box choosing the tokenizers shown beside the page's own (``s.also``): any the page offers."""
    options = [choice for choice in choices if choice != s.tokenizer]
    if any(choice not in options for choice in s.also):
        s.also = [choice for choice in s.also if choice in options]  # a file gone after a reload, or the page's own
    st.multiselect(
        t("Compare with (side by side)"),
        options,
        format_func=lambda choice: short_label(choice, choices),
        key=Session.also.key,
        persist_state="session",  # kept while another page shows (it is in the page's link)
        help="\n".join(f"- {choices[choice]}" for choice in options),
        placeholder=t("Choose tokenizers"),  # (Streamlit's own placeholder is English in every language)
        select_all=False,  # every model at once: seconds of loading, from one click of an untranslated option
    )


def short_label(choice: str, choices: dict[str, str]) -> str:
    """A chip's text: a reference's short name, else the choice's label cut short (its whole label is in the help)."""
    if choice in tokenizer_output.REFERENCE_LABELS:
        return tokenizer_output.REFERENCE_LABELS[choice]
    label = choices.get(choice, choice)
    return label if len(label) <= 48 else label[:47] + "…"


def ids_text(ids: list[int | None]) -> str:
    """Ids as a list to copy (``[1, 2, 3]``: Python and JSON read it back, and so does the decode box)."""
    return "[" + ", ".join(str(i) for i in ids if i is not None) + "]"


def render(s: Session, choices: dict[str, str], text: str, show_ids: bool) -> None:
    """Each tokenizer in ``s.also`` on ``text``: its name, count, bytes per token, tokens and ids to copy."""
    chosen = [choice for choice in s.also if choice in choices and choice != s.tokenizer]
    if not chosen:
        return
    st.subheader(t("Side by side"))
    for start in range(0, len(chosen), PER_ROW):
        for column, choice in zip(st.columns(PER_ROW, gap="medium"), chosen[start : start + PER_ROW]):
            with column:
                one(s, choice, choices[choice], text, show_ids)


def one(s: Session, choice: str, label: str, text: str, show_ids: bool) -> None:
    st.markdown(f"**{plain(short_label(choice, {choice: label}))}**", help=plain(label))
    try:
        tokenizer = tokenizer_output.tokenizer_for(s, choice)
        if tokenizer is None:
            raise ValueError(t("it is not in this tab's work (a file loaded in another tab or browser)"))
        result = tokenizer_output.encode(tokenizer, text)
    except Exception as error:  # noqa: BLE001 -- one tokenizer's failure must not hide the others
        st.warning(
            t("Could not encode the text: {kind}: {error}", kind=plain(type(error).__name__), error=plain(error))
        )
        return
    bpt = f"{result.n_bytes / result.n_tokens:.2f}" if result.n_tokens else "–"
    st.caption(t("{n:,} tokens · {bpt} bytes per token", n=result.n_tokens, bpt=bpt))
    st.html(tokenizer_output.encoded_html(result, show_ids, max_tokens=SIDE_TOKENS))
    st.code(ids_text(result.ids), language=None, wrap_lines=True)


# -- ids back into text --------------------------------------------------------------------------------


def parse_ids(typed: str) -> list[int]:
    """Ids typed as a list: whole numbers separated by commas, spaces or semicolons, brackets allowed (what the copy
    boxes hold). A ValueError names the first piece that is not an id.

    >>> parse_ids("[15496, 995]"), parse_ids("1 2,3;4")
    ([15496, 995], [1, 2, 3, 4])
    >>> parse_ids("12, x7")
    Traceback (most recent call last):
    ValueError: “x7” is not a token id: give whole numbers (0 or more) separated by commas or spaces.
    """
    if len(typed) > MAX_IDS_TEXT:
        raise ValueError(t("At most {n:,} characters of ids are read.", n=MAX_IDS_TEXT))
    ids = []
    for piece in _ID_LIST.split(typed.strip()):
        if not piece:
            continue
        if not piece.isascii() or not piece.isdigit():
            raise ValueError(
                t(
                    "“{piece}” is not a token id: give whole numbers (0 or more) separated by commas or spaces.",
                    piece=piece[:40],
                )
            )
        ids.append(int(piece))
    return ids


def check_ids(ids: list[int], vocab: Mapping[int, object]) -> None:
    """A ValueError naming the ids (the first few) that are not in ``vocab``, and the range its ids run in.

    >>> check_ids([1, 7, 2, 9], {0: b"a", 1: b"b", 2: b"c"})
    Traceback (most recent call last):
    ValueError: 7, 9 are not ids of this tokenizer: its ids run from 0 to 2.
    """
    bad = list(dict.fromkeys(i for i in ids if i not in vocab))
    if bad:
        shown = ", ".join(f"{i:,}" for i in bad[:5]) + ("…" if len(bad) > 5 else "")
        raise ValueError(
            t(
                "{ids} are not ids of this tokenizer: its ids run from {low:,} to {high:,}.",
                ids=shown,
                low=min(vocab),
                high=max(vocab),
            )
        )


def decode_box(s: Session, tokenizer: object) -> None:
    """Ids typed (or pasted from a copy box) back into the text they stand for, with its tokens drawn."""
    st.subheader(t("Ids back into text"))
    st.text_area(
        t("Token ids to decode with the tokenizer above"),
        key=Session.decode_ids.key,
        height=80,
        max_chars=MAX_IDS_TEXT,
        placeholder=t("For example [15496, 995]: paste a list from a copy box above."),
    )
    typed = s.decode_ids or ""
    if not typed.strip():
        return
    try:
        ids = parse_ids(typed)
        check_ids(ids, tokenizer.vocab)  # type: ignore[attr-defined]
        decoded = tokenizer.decode(ids)  # type: ignore[attr-defined]
        tokens = [tokenizer.token_bytes(i) for i in ids]  # type: ignore[attr-defined]
    except ValueError as error:
        st.error(t("These ids cannot be decoded: {error}", error=plain(error, limit=300)), icon=":material/error:")
        return
    st.caption(t("{n:,} ids → {chars:,} characters:", n=len(ids), chars=len(decoded)))
    st.code(decoded, language=None, wrap_lines=True)
    st.html(tokenizer_output.encoded_html(tokenizer_output.Encoded(tokens, list(ids), len(decoded), 0)))


def new_tokens_note(trained: Trained | None, ids: list[int | None]) -> str:
    """For a tokenizer that continues a base: how many of ``ids`` are its new tokens, and which ids those are
    ("" for any other tokenizer). Markdown-safe."""
    if trained is None or not trained.request.base or not trained.num_merges:
        return ""
    first = trained.trace.base
    new = [identifier for identifier in ids if identifier is not None and identifier >= first]
    return t(
        "{n:,} of these {total:,} tokens are new (made by the merges added to {base}: ids from {first:,}); the others "
        "are {base}'s own. The new ones have a dotted outline; hover one for the round of the continuation that made "
        "it.",
        n=len(new),
        total=len(ids),
        base=plain(trained.request.base_label),
        first=first,
    )
