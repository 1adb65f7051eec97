"""What every Compare view shares: the tokenizer compared, a result cache keyed on digests, and the
token views (a text's tokens with the boundaries that differ from a neighbour's outlined).
"""

from __future__ import annotations

import hashlib
import html
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import streamlit as st

from bpe_core import TokenizerShape, analysis
from playground import caches
from playground.i18n import N_, t
from playground.kinds import Kind, loaded_kind
from playground.references import STUDIED_REFERENCES
from playground.session import REFERENCES, TRAINED, Session
from playground.tokenizer_files import loaded_from
from playground.trained import Trained
from ui import token_html, tokenizer_output

MAX_SEARCH = 200
"""Characters a view's search may have (no token is longer than a few hundred bytes; each row is matched)."""

T = TypeVar("T")

VIEW_LABELS = {
    "curve": N_("Curve"),
    "side": N_("Side by side"),
    "vocab": N_("Vocabulary"),
    "algos": N_("Algorithms"),
    "choose": N_("Choose a size"),
    "languages": N_("Languages"),
    "health": N_("Health"),
    "overlap": N_("Overlap"),
}
MAX_VIEW_TOKENS = 600
"""Tokens drawn per view; the rest are counted."""

CSS = (  # the token spans' own styles come with the frame
    "<style>"
    ".tokens .tok.diff{outline:2px solid #d55e00;outline-offset:0;text-decoration:underline 2px #d55e00;"
    "text-underline-offset:3px}"
    ".cmp-view-head{font-weight:600;margin:.2rem 0 .1rem 0}"
    ".cmp-view-sub{color:#495057;font-size:.9rem;margin-bottom:.2rem}"
    ".cmp-view .tokens{font-size:1.05rem;line-height:1.9rem}"
    ".mtree{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.95rem;color:#111;overflow-x:auto;"
    "padding-bottom:4px}"
    ".mtree .node{display:inline-flex;flex-direction:column;align-items:center;border:1px solid #adb5bd;"
    "border-radius:6px;padding:2px 2px;margin:1px;background:#f8f9fa;vertical-align:top}"
    ".mtree .node.leaf{background:#e7f5ff;border-color:#74c0fc}"
    ".mtree .lbl{white-space:pre;font-weight:600;padding:0 3px}"
    ".mtree .meta{font-size:.68rem;color:#495057;white-space:nowrap}"
    ".mtree .kids{display:flex;flex-direction:row;align-items:flex-start}"
    "</style>"
)


# -- the tokenizer compared -------------------------------------------------------------------------


@dataclass(frozen=True)
class Subject:
    """The tokenizer a Compare view works on."""

    choice: str  # ui.tokenizer_output choice id: TRAINED or a loaded file
    tokenizer: Any  # a bpe_core.TokenizerShape (the views also read a byte-level one's own methods)
    label: str
    key: str  # identifies the tokenizer's content in caches
    trained: Trained | None  # None for a tokenizer loaded from files

    @property
    def kind(self) -> Kind:
        """What kind of tokenizer it is (``playground.kinds``): its request's, or loaded from files."""
        return loaded_kind(self.tokenizer, self.trained.request.kind if self.trained is not None else None)


def choices(s: Session, *, references: bool = False) -> dict[str, str]:
    """The tokenizers Compare can study: the trained one and files loaded this session, and the built-in models
    when ``references`` (the views of ``playground.session.ANY_TOKENIZER_VIEWS``, which take any of them)."""
    return {
        choice: label
        for choice, label in tokenizer_output.tokenizer_choices(s).items()
        if (references and choice in STUDIED_REFERENCES) or choice not in REFERENCES
    }


def subject(s: Session) -> Subject | None:
    """The tokenizer ``s.compared`` names (None when it is gone)."""
    tokenizer = tokenizer_output.tokenizer_for(s, s.compared)
    if tokenizer is None:
        return None
    if s.compared == TRAINED and (trained := s.trained) is not None:
        return Subject(TRAINED, tokenizer, trained.label, trained.request.key, trained)
    if s.compared in REFERENCES:
        return Subject(
            s.compared, tokenizer, tokenizer_output.REFERENCE_LABELS[s.compared], f"reference-{s.compared}", None
        )
    return Subject(s.compared, tokenizer, choices(s).get(s.compared, s.compared), content_key(tokenizer), None)


_content_keys = caches.CONTENT_KEYS


def content_key(tokenizer: TokenizerShape) -> str:
    """The key of a loaded tokenizer's results: the files it was loaded from (their SHA-256) and how, so sessions that
    load the same files share results; one per tokenizer object where no files are known.

    It was a digest of the vocabulary, specials and pattern: a tokenizer of another family has no pattern (every view
    failed on a SentencePiece or pipeline file), and encodes by what its vocabulary does not hold (a SentencePiece
    model's scores, a pipeline's stages), so such a digest could hand one file's results to another.
    """
    key = _content_keys.get(tokenizer)
    if key is None:
        source = loaded_from(tokenizer)
        if source is None:
            key = f"object-{next(_content_numbers)}"
        else:
            how = (source.digests, source.pattern, type(tokenizer).__name__, tokenizer.pre_tokenization)
            key = "file-" + hashlib.sha256(repr(how).encode()).hexdigest()[:24]
        _content_keys[tokenizer] = key
    return key


_content_numbers = itertools.count()


def view_applies(subject: Subject, view: str) -> bool:
    """True when ``view`` applies to the subject's kind; else say why and which views it has, and return False."""
    kind = subject.kind
    if view in kind.views:
        return True
    st.info(t(kind.views_note))
    return False


# -- results, computed once ---------------------------------------------------------------------------

_results = caches.COMPARE_RESULTS
"""Results shared by all sessions (keyed by content digests, so no session sees another's text); none is kept
unused for long (``playground.caches``), so a room's memory goes back after it leaves."""


def remembered(key: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """``compute()`` once per key (tokenizer key + text digest + ...); the least recently used dropped."""
    return _results.get_or_compute(key, compute)


def known(key: tuple[Any, ...]) -> Any:
    """What :func:`remembered` holds for ``key``, or None (nothing is computed)."""
    return _results.get(key)


def remember(key: tuple[Any, ...], value: Any) -> None:
    """Keep ``value`` for ``key``, as if :func:`remembered` had computed it (what was there is replaced)."""
    _results.put(key, value)


def attempt(what: str, compute: Callable[[], T]) -> T | None:
    """``compute()``, or None after a plain warning when the tokenizer cannot handle the text
    (e.g. a loaded tokenizer whose pattern does not cover it). ``what`` is already translated."""
    from playground.text import plain

    try:
        return compute()
    except ValueError as error:
        st.warning(t("Could not {what}: {error}", what=what, error=plain(error, limit=500)))
        return None


# -- token views ---------------------------------------------------------------------------------


@dataclass
class View:
    """One text as one tokenizer cuts it."""

    title: str
    subtitle: str
    tokens: list[bytes]
    ids: list[int | None]


def summary(n_tokens: int, n_bytes: int) -> str:
    return t("{n:,} tokens · {bpt:.2f} bytes/token", n=n_tokens, bpt=n_bytes / n_tokens) if n_tokens else t("no tokens")


def neighbour_diffs(views: Sequence[View], text: str) -> list[list[bool]]:
    """For each view of ``text``, which tokens have an edge its neighbour lacks (the view before it; the first
    view is compared with the second), edges placed in the text (a SentencePiece view's tokens add a ▁ in front)."""
    if len(views) < 2:
        return [[False] * len(view.tokens) for view in views]
    data = text.encode("utf-8", errors="surrogatepass")
    return [
        analysis.changed_tokens(view.tokens, views[index - 1 if index else 1].tokens, data)
        for index, view in enumerate(views)
    ]


def view_html(view: View, diff: Sequence[bool] | None = None) -> str:
    """A view as escaped HTML: title, counts, tokens (changed ones outlined when ``diff`` is given)."""
    shown = min(len(view.tokens), MAX_VIEW_TOKENS)
    spans = [
        token_html.token_span(view.tokens[i], view.ids[i], i, extra_class="diff" if diff and diff[i] else "")
        for i in range(shown)
    ]
    rest = t("… {n:,} more tokens", n=len(view.tokens) - shown)
    more = f'<span class="more">{html.escape(rest)}</span>' if shown < len(view.tokens) else ""
    outlined = t(" · {n:,} outlined", n=sum(diff)) if diff is not None else ""
    return (
        '<div class="cmp-view">'
        f'<div class="cmp-view-head">{html.escape(view.title)}</div>'
        f'<div class="cmp-view-sub">{html.escape(view.subtitle + outlined)}</div>'
        f'<div class="tokens">{"".join(spans)}{more}</div></div>'
    )


def draw_views(views: Sequence[View], diffs: Sequence[Sequence[bool] | None], per_row: int = 3) -> None:
    for start in range(0, len(views), per_row):
        columns = st.columns(per_row, gap="medium")
        for column, view, diff in zip(columns, views[start : start + per_row], diffs[start : start + per_row]):
            column.html(view_html(view, diff))
