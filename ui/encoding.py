"""A tokenizer's output for the pages: byte-level and classic tokenizers both go in, one shape comes out.

Every ``isinstance(..., ClassicTokenizer)`` of the app is in this module, so pages never branch on
the kind of tokenizer: they call :func:`encode`, :func:`encoded_html`, :func:`pretokens` and
:func:`word_steps`.
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass

import streamlit as st

from bpe_core import ClassicTokenizer
from ui import tokens as tok_ui
from ui.i18n import t
from ui.session import TRAINED, Session
from ui.trained import Trained

REFERENCE_LABELS = {"gpt2": "GPT-2 (r50k)", "cl100k_base": "cl100k_base (GPT-4)", "o200k_base": "o200k_base (GPT-4o)"}
"""Code names, the same in every language."""
MAX_RENDERED_TOKENS = 4000


# A decorator's text is fixed at import, before any session has a language: it says it in both.
@st.cache_resource(show_spinner="Loading the reference vocabulary… · 正在加载参考词表…")
def reference_tokenizer(name: str):
    """OpenAI's tokenizers, built offline from packaged files (shared by all sessions, read-only)."""
    from bpe_core.reference import reference

    return reference(name)


@dataclass
class Encoded:
    tokens: list[bytes]
    ids: list[int | None]
    n_chars: int
    n_bytes: int
    words: list[list[str]] | None = None  # classic only
    unknown_id: int | None = None  # classic only: the id of <unk>

    @property
    def n_tokens(self) -> int:
        return len(self.tokens)


def is_classic(tokenizer: object) -> bool:
    return isinstance(tokenizer, ClassicTokenizer)


def encode(tokenizer, text: str) -> Encoded:
    """Tokens (bytes for byte-level, symbols for classic), ids and sizes of ``text``."""
    n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    if is_classic(tokenizer):
        words = tokenizer.encode_words(text)
        ids = tokenizer.encode(text)
        # A character never seen in training is not a token of this vocab: it is shown as what it encodes to.
        unknown = tokenizer.unknown_id
        symbols = (symbol for word in words for symbol in word)
        tokens = [b"<unk>" if i == unknown else symbol.encode("utf-8") for symbol, i in zip(symbols, ids)]
        return Encoded(tokens, list(ids), len(text), n_bytes, words, unknown)
    ids = tokenizer.encode(text)
    return Encoded(tokenizer.decode_tokens_bytes(ids), list(ids), len(text), n_bytes)


def encoded_html(result: Encoded, show_ids: bool = False, max_tokens: int = MAX_RENDERED_TOKENS) -> str:
    if result.words is not None and not show_ids:
        return tok_ui.words_html(result.words, result.ids, result.unknown_id)
    return tok_ui.tokens_html(result.tokens, result.ids, show_ids=show_ids, max_tokens=max_tokens)


def training_window_html(trained: Trained, max_tokens: int = 1200) -> str:
    """The start of the training text with the trained tokenizer (the Train page's sample)."""
    return encoded_html(encode(trained.tokenizer, trained.window_text), max_tokens=max_tokens)


LOADED = "file:"
"""Choice ids of tokenizers loaded from files start with this (never in links)."""


def tokenizer_choices(s: Session) -> dict[str, str]:
    """Every tokenizer a page can show: ``{choice id: label}`` (the trained one, references, loaded files)."""
    choices = {TRAINED: t("Just trained: {label}", label=s.trained.label)} if s.trained is not None else {}
    choices.update(REFERENCE_LABELS)
    choices.update({LOADED + label: t("File: {label}", label=label) for label in s.loaded})
    return choices


def tokenizer_for(s: Session, choice: str):
    """The tokenizer behind a choice id (None when it is gone, e.g. a file from before a reload)."""
    if choice == TRAINED:
        return s.trained.tokenizer if s.trained is not None else None
    if choice.startswith(LOADED):
        return s.loaded.get(choice.removeprefix(LOADED))
    return reference_tokenizer(choice)


def loaded_choice(label: str) -> str:
    return LOADED + label


def pretokens(tokenizer, text: str, limit: int = 300) -> list[str]:
    """Distinct words / pre-tokens of text, in order of appearance (for the step-by-step view)."""
    if is_classic(tokenizer):
        pieces = text.split()
    else:
        from bpe_core.pretokenize import pretokenize, split_on_special

        pieces = []
        specials = getattr(tokenizer, "special_tokens", {}) or {}
        try:
            for piece, is_special in split_on_special(text, specials):
                if not is_special:
                    pieces.extend(pretokenize(piece, tokenizer.pattern))
        except ValueError:
            pieces = text.split()
    seen: dict[str, None] = {}
    for piece in pieces:
        if piece and piece not in seen:
            seen[piece] = None
            if len(seen) >= limit:
                break
    return list(seen)


def word_steps(tokenizer, word: str) -> list[tuple[str, list[bytes | str | UnknownSymbol], list[bool]]]:
    """[(caption, tokens, which tokens were just made)] from bytes to the final tokens.

    Tokens are bytes (classic: symbols) so that the one token renderer draws them: a label made
    here first would have its own spaces (``⟨E2 80⟩``) shown as word spaces (``⟨E2·80⟩``).
    """
    if is_classic(tokenizer):
        return _classic_steps(tokenizer, word)
    from bpe_core.encoding.lifetimes import PERMANENT

    seg = tokenizer.segment(word)
    lifetimes = seg.lifetimes
    removed = sorted({life for life in lifetimes if 0 <= life < PERMANENT})
    tokens = seg.tokens_at(0)
    steps: list[tuple[str, list[bytes | str], list[bool]]] = [
        (t("start: one token per byte"), list(tokens), [False] * len(tokens))
    ]
    ranks = getattr(tokenizer, "mergeable_ranks", {})
    for life in removed:
        cuts = seg.boundaries_at(life + 1)
        pieces, just = [], []
        for start, stop in zip(cuts, cuts[1:]):
            pieces.append(seg.data[start:stop])
            just.append(any(lifetimes[j] == life for j in range(start, stop - 1)))
        made = Counter(p for p, j in zip(pieces, just) if j)  # one merge may make the same token several times
        made_text = ", ".join(f"{tok_ui.display_bytes(p)} (id {ranks.get(p)})" + (f" ×{n}" if n > 1 else "")
                              for p, n in made.items())  # fmt: skip
        steps.append((t("merge rank {rank:,}: {made}", rank=life, made=made_text), pieces, just))
    return steps


@dataclass(frozen=True)
class UnknownSymbol:
    """A character classic BPE never saw in training: it stays alone and is encoded as ``<unk>``."""

    symbol: str
    unknown_id: int


def _classic_steps(tokenizer, word: str):
    rank = {pair: r for r, pair in enumerate(tokenizer.merges)}
    parts = [*word, "</w>"]
    known = set(tokenizer.symbols)
    # Merged symbols are always known; only a single character can be unknown, and it never merges.
    unknown = {part: UnknownSymbol(part, tokenizer.unknown_id) for part in parts if part not in known}
    labels = [unknown.get(part, part) for part in parts]
    steps = [(t("start: one symbol per character, then </w>"), labels, [False] * len(parts))]
    while len(parts) > 1:
        best = None
        for i in range(len(parts) - 1):
            r = rank.get((parts[i], parts[i + 1]))
            if r is not None and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            break
        r, i = best
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
        just = [j == i for j in range(len(parts))]
        labels = [unknown.get(part, part) for part in parts]
        steps.append((t("merge rank {rank:,}: {made}", rank=r, made=parts[i]), labels, just))
    return steps


def steps_html(steps) -> str:
    rows = []
    for caption, labels, just in steps:
        spans = "".join(
            tok_ui.unknown_span(label.symbol, label.unknown_id, i, extra_class="just" if j else "")
            if isinstance(label, UnknownSymbol)
            else tok_ui.token_span(label, None, i, extra_class="just" if j else "")
            for i, (label, j) in enumerate(zip(labels, just))
        )
        rows.append(
            f'<div class="bpe-step"><div class="bpe-step-cap">{html.escape(caption)}</div>'
            f'<div class="tokens">{spans}</div></div>'
        )
    return '<div class="bpe-steps">' + "".join(rows) + "</div>"

