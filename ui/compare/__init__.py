"""The Compare page's views, one module each: ``curve`` (bytes per token at every vocab size),
``side`` (one text at a few sizes and with the reference tokenizers), ``vocabulary`` (the token
table, merge trees, lengths, tokens never emitted), ``algorithms`` (three ways to train on the
same corpus), ``choose`` (a vocab size to pick), ``languages`` (what each language pays), ``health``
(tokens never reached) and ``overlap`` (two vocabularies compared by bytes). ``texts`` holds the measured texts
and reference counts, ``common`` what every view shares (the tokenizer compared, result caches, token views).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playground.session import Session
    from ui.compare.common import Subject

Render = Callable[["Session", "Subject"], None]


def renderer(view: str) -> Render:
    """``view``'s ``render``, its module imported when first shown: some need altair and pandas (~1.4 s on a fresh
    server), which a page that shows another view never pays for."""
    if view == "curve":
        from ui.compare import curve

        return curve.render
    if view == "side":
        from ui.compare import side

        return side.render
    if view == "vocab":
        from ui.compare import vocabulary

        return vocabulary.render
    if view == "algos":
        from ui.compare import algorithms

        return algorithms.render
    if view == "choose":
        from ui.compare import choose

        return choose.render
    if view == "languages":
        from ui.compare import languages

        return languages.render
    if view == "health":
        from ui.compare import health

        return health.render
    if view == "overlap":
        from ui.compare import overlap

        return overlap.render
    raise ValueError(f"no Compare view named {view!r}")
