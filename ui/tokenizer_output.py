"""A tokenizer's output for the pages: any tokenizer goes in as its shape (``bpe_core.TokenizerShape``: byte-level
and classic alike), one form comes out. Pages call :func:`encode`, :func:`encoded_html`, :func:`pretokens` and
:func:`word_steps`; what differs between families is read from the shape as data (``byte_level``,
``unknown_id``), never from its type.
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise

import streamlit as st

from bpe_core import Tokenizer, TokenizerShape
from bpe_core.encoding.lifetimes import PERMANENT
from bpe_core.encoding.sentencepiece.model import SPACE_SYMBOL
from playground import caches, references
from playground.bases import base_offset
from playground.file_labels import shown_label
from playground.i18n import N_, t
from playground.session import TRAINED, Session
from playground.trained import Trained
from ui import token_html

REFERENCE_LABELS = references.SHORT_NAMES
"""Code names, the same in every language (a choice says more: :func:`reference_label`)."""
MAX_RENDERED_TOKENS = 4000


_references = caches.REFERENCES
"""A reference tokenizer unused for a while is dropped (80 MB for OpenAI's three, up to 53 MB an open model): a
room's memory goes back after it leaves, and building one again takes 0.1-3 s."""


def reference_label(name: str) -> str:
    """A reference as a choice names it: short name · family · vocab size · licence."""
    return references.label(name)


def reference_options(chosen: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The references a choice offers: those whose package is installed, and whatever is already ``chosen``
    (a link may name one that is not: choosing it says why it cannot load)."""
    return [name for name in references.REFERENCES if name in chosen or references.installed(name)]


def choose_references(s: Session, label: str) -> None:
    """The box choosing a view's references (``s.refs``): every installed built-in model. A chosen one is a chip
    with its short name (the whole label, with family, vocab size and licence, would run past a narrow box or a
    talk-mode slide); the box's help lists what each is."""
    options = reference_options(s.refs)
    described = "\n".join(f"- {reference_label(name)}" for name in options)
    st.multiselect(
        label,
        options,
        format_func=references.short_name,
        key=Session.refs.key,
        persist_state="session",
        help=described,
        placeholder=t("Choose tokenizers"),  # (Streamlit's own placeholder is English in every language)
        select_all=False,  # every model at once: seconds of loading, from one click of an untranslated option
    )


def licence_notes(names: list[str] | tuple[str, ...]) -> None:
    """Under a model's output: whose vocabulary files it is, under which licence (one caption for all)."""
    note = references.licence_note(names)
    if note:
        st.caption(note)


def reference_tokenizer(name: str) -> Tokenizer:
    """A built-in tokenizer, built offline from packaged files (shared by all sessions, read-only); loaded only
    when asked for, kept in the registered cache ``encoding.references``."""
    from bpe_core.reference import build_reference  # not reference(): it would keep them for good

    found = _references.get(name)
    if found is None:
        with st.spinner(t("Loading the {name} vocabulary…", name=REFERENCE_LABELS.get(name, name))):
            found = _references.get_or_compute(name, lambda: build_reference(name))
    return found


@dataclass
class Encoded:
    tokens: list[bytes]
    ids: list[int | None]
    n_chars: int
    n_bytes: int
    words: list[list[str]] | None = None  # a tokenizer that drops whitespace (classic): each word's symbols
    unknown_id: int | None = None  # the id of what training never saw (classic: <unk>), if the tokenizer has one

    @property
    def n_tokens(self) -> int:
        return len(self.tokens)


def encode(tokenizer: TokenizerShape, text: str) -> Encoded:
    """Tokens (bytes; classic: its symbols' text as UTF-8, a character never seen in training as what it
    encodes to, ``<unk>``), ids and sizes of ``text``."""
    n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    ids = tokenizer.encode(text)
    tokens = [tokenizer.token_bytes(i) for i in ids]
    if tokenizer.byte_level:
        return Encoded(tokens, list(ids), len(text), n_bytes)
    # Symbols of characters: whitespace is not in the tokens, so words are drawn apart, each as its symbols
    # (a character never seen in training as itself, marked unknown: words_html).
    return Encoded(tokens, list(ids), len(text), n_bytes, words(tokenizer, text), tokenizer.unknown_id)


def words(tokenizer: TokenizerShape, text: str) -> list[list[str]]:
    """The symbols of each piece of ``text`` (classic: each word), as the tokenizer's own segmentation of that
    piece cuts it with all its merges."""
    pieces = tokenizer.pretokenize(text)
    cut: dict[str, list[str]] = {}
    for piece in pieces:
        if piece not in cut:
            cut[piece] = [str(token) for token in tokenizer.segment(piece).tokens_at(tokenizer.num_merges)]
    return [cut[piece] for piece in pieces]


def encoded_html(
    result: Encoded,
    show_ids: bool = False,
    max_tokens: int = MAX_RENDERED_TOKENS,
    new_from: int | None = None,
    more: str | None = None,
) -> str:
    """The encoded text drawn (``new_from``: a continued tokenizer's first new id, its new tokens marked; ``more``:
    what the line after the last token drawn says, see ``token_html.tokens_html``)."""
    if result.words is not None and not show_ids:
        return token_html.words_html(result.words, result.ids, result.unknown_id)
    return token_html.tokens_html(
        result.tokens, result.ids, show_ids=show_ids, max_tokens=max_tokens, new_from=new_from, more=more
    )


def first_new_id(trained: Trained | None) -> int | None:
    """A continued tokenizer's first new id (None for any other: nothing is marked new)."""
    if trained is None or not trained.request.base or not trained.num_merges:
        return None
    return int(trained.trace.base)


def training_window_html(trained: Trained, max_tokens: int = 1200) -> str:
    """The start of the training text with the trained tokenizer (the Train page's sample). Its tokens are the
    start's, so where they are cut the line says the text goes on, not how many of the start's tokens are left
    (39 "more tokens not shown" read as the rest of a 220 KB corpus)."""
    more = t("… the training text goes on")
    return encoded_html(encode(trained.tokenizer, trained.window_text), max_tokens=max_tokens, more=more)


LOADED = "file:"
"""Choice ids of tokenizers loaded from files start with this (never in links)."""
NOT_IN_THIS_TAB = N_(
    "That tokenizer is not in this tab's work (a file loaded in another tab or browser): load it again."
)
"""Said where a choice names a loaded file this tab does not have (a tab's loaded files come back after a reload)."""


def file_title(label: str, tokenizer: TokenizerShape) -> str:
    """A loaded file as the choices and tables name it ("File: …"), in the page's language."""
    return t("File: {label}", label=shown_label(label, tokenizer))


def tokenizer_choices(s: Session) -> dict[str, str]:
    """Every tokenizer a page can show: ``{choice id: label}`` (the trained one, references, loaded files)."""
    choices = {TRAINED: t("Just trained: {label}", label=s.trained.label)} if s.trained is not None else {}
    choices.update({name: reference_label(name) for name in reference_options((s.tokenizer, s.compared))})
    choices.update({LOADED + label: file_title(label, tokenizer) for label, tokenizer in s.loaded.items()})
    return choices


def tokenizer_for(s: Session, choice: str) -> TokenizerShape | None:
    """The tokenizer behind a choice id (None when it is gone, e.g. a file from before a reload)."""
    if choice == TRAINED:
        return s.trained.tokenizer if s.trained is not None else None
    if choice.startswith(LOADED):
        return s.loaded.get(choice.removeprefix(LOADED))
    return reference_tokenizer(choice)


def loaded_choice(label: str) -> str:
    return LOADED + label


def pretokens(tokenizer: TokenizerShape, text: str, limit: int = 300) -> list[str]:
    """Distinct words / pre-tokens of text as the tokenizer splits it, in order of appearance (for the
    step-by-step view; a pattern that cannot split this text is a ValueError saying why)."""
    seen: dict[str, None] = {}
    for piece in tokenizer.pretokenize(text):
        if piece and piece not in seen:
            seen[piece] = None
            if len(seen) >= limit:
                break
    return list(seen)


def piece_label(tokenizer: TokenizerShape, piece: str) -> str:
    """A pre-token as its tokens draw it: SentencePiece's pieces hold ▁ for a space, which its tokens show as ·
    (the word box said ``▁Hello`` above steps that start ``· H e l l o``)."""
    return token_html.display_str(piece.replace(SPACE_SYMBOL, " ") if tokenizer.pre_tokenization.whole_text else piece)


@dataclass(frozen=True)
class UnknownSymbol:
    """A character classic BPE never saw in training: it stays alone and is encoded as ``<unk>``."""

    symbol: str
    unknown_id: int


Label = bytes | str | UnknownSymbol
"""A token as a step shows it: bytes (byte-level), a symbol (classic), or a character classic BPE never saw."""


def word_steps(
    tokenizer: TokenizerShape, word: str, offset: int = 0, start: str = ""
) -> list[tuple[str, list[Label], list[bool]]]:
    """[(caption, tokens, which tokens were just made)] from bytes (classic: characters and </w>) to the
    final tokens, read from the tokenizer's own boundary lifetimes (``segment``): the merges are the
    encoder's, never redone here, so a literal ``</w>`` in classic text stays text.

    Tokens are bytes (classic: symbols) so that the one token renderer draws them: a label made
    here first would have its own spaces (``⟨E2 80⟩``) shown as word spaces (``⟨E2·80⟩``).

    A tokenizer that continues a base starts from the base's tokens: ``offset`` (its merges before the new ones,
    ``playground.bases.base_offset``) and ``start``, the first step's caption; its rounds are its new merges.
    """
    # A pre-token is the tokenizer's own piece, normalized already (segment would normalize it again: a second ▁).
    segmentation = tokenizer.segment_piece(word)
    lifetimes = segmentation.lifetimes
    if tokenizer.end_of_word:
        first = t("start: one symbol per character, then {mark}", mark=tokenizer.end_of_word)
    elif tokenizer.byte_level and not tokenizer.pre_tokenization.whole_text:  # SentencePiece starts from characters
        first = t("start: one token per byte")  # (with byte fallback, bytes only where no piece holds a character)
    else:
        first = t("start: one token per character")
    tokens = segmentation.tokens_at(offset)
    steps = [(start or first, _labels(tokenizer, tokens), [False] * len(tokens))]
    for life in sorted({life for life in lifetimes if offset <= life < PERMANENT}):
        cuts = segmentation.boundaries_at(life + 1)
        pieces = segmentation.tokens_at(life + 1)
        just = [any(lifetimes[j] == life for j in range(start, stop - 1)) for start, stop in pairwise(cuts)]
        made: Counter[bytes | str] = Counter(pieces[i] for i, new in enumerate(just) if new)  # may make one twice
        made_text = ", ".join(_made(tokenizer, piece) + (f" ×{n}" if n > 1 else "") for piece, n in made.items())
        # Numbered as the Merges page numbers them: the merge of rank r is made in round r + 1.
        caption = t("round {k:,}: {made}", k=life + 1 - offset, made=made_text)
        steps.append((caption, _labels(tokenizer, pieces), just))
    return steps


def steps_of(
    tokenizer: TokenizerShape, word: str, trained: Trained | None
) -> list[tuple[str, list[Label], list[bool]]]:
    """:func:`word_steps`; when ``tokenizer`` is ``trained``'s and that continues a base, from the base's tokens
    through the new merges only (each step's round is a new merge's)."""
    if trained is None or tokenizer is not trained.tokenizer or not trained.request.base:
        return word_steps(tokenizer, word)
    start = t("start: {base}'s tokens (every round below is a new merge)", base=trained.request.base_label)
    return word_steps(tokenizer, word, base_offset(tokenizer, trained.num_merges), start)


def _made(tokenizer: TokenizerShape, token: bytes | str) -> str:
    """A token a merge made, as a step's caption names it (a byte token with its id)."""
    if isinstance(token, str):
        return token_html.display_str(token)
    return f"{token_html.display_bytes(token)} (id {tokenizer.token_id(token)})"


def _labels(tokenizer: TokenizerShape, tokens: list[bytes] | list[str]) -> list[Label]:
    """Tokens as steps draw them: a single character classic BPE never saw becomes an :class:`UnknownSymbol`
    (merged symbols are always known: only a lone character can be unknown, and it never merges)."""
    unknown = tokenizer.unknown_id
    if unknown is None:
        return list(tokens)
    labels: list[Label] = []
    for token in tokens:
        if isinstance(token, str) and tokenizer.token_id(token) is None:
            labels.append(UnknownSymbol(token, unknown))
        else:
            labels.append(token)
    return labels


def steps_html(steps: list[tuple[str, list[Label], list[bool]]]) -> str:
    rows = []
    for caption, labels, just in steps:
        spans = "".join(
            token_html.unknown_span(label.symbol, label.unknown_id, i, extra_class="just" if j else "")
            if isinstance(label, UnknownSymbol)
            else token_html.token_span(label, None, i, extra_class="just" if j else "")
            for i, (label, j) in enumerate(zip(labels, just))
        )
        rows.append(
            f'<div class="bpe-step"><div class="bpe-step-cap">{html.escape(caption)}</div>'
            f'<div class="tokens">{spans}</div></div>'
        )
    return '<div class="bpe-steps">' + "".join(rows) + "</div>"
