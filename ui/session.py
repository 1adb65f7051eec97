"""Every value a session keeps, declared once: name, type, default, URL form and validation.

Pages read and write the session only through :class:`Session` (``s = session.current()``,
``s.vocab``); a widget binds to a field by its key (``key=Session.vocab.key``). A field's URL form
(its parameter name, parser and dump) is declared here; :mod:`ui.links` reads and writes links.

>>> Session({}).vocab, Session.vocab.url
(600, 'vocab')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

from bpe_core.reference import reference_names
from ui.corpora import CORPUS_CHOICES, DEFAULT_SLUG, ENCODE_SAMPLE, HELDOUT_REST, PASTE, SLUGS, UPLOAD
from ui.i18n import LANGUAGES
from ui.link_values import (
    comma_joined,
    name_list,
    number_list,
    one_of,
    short_text,
    whole_number,
)

T = TypeVar("T")

PATTERN_CHOICES = ("gpt2", "cl100k", "o200k", "whitespace", "none", "custom")
KINDS = ("byte", "classic")
REFERENCES = reference_names()
VIEWS = ("curve", "side", "vocab", "algos")
FORMATS = ("gpt2", "tiktoken", "hf", "bpe-playground")
SPEEDS = (1, 2, 4, 8, 15, 30, 60, 120, 240)
TRAINED = "trained"
"""The Encode page's tokenizer choice for the one trained in this session."""
MAX_VOCAB = 200_000
MAX_SIZES = 4
MAX_LINK_TEXT = 1_000
"""Longer Encode text is not put in links (the page says so)."""
TALK_STEPS = 10
"""Steps of the guided talk (ui/talk/steps.py has one renderer each)."""


# -- the fields --------------------------------------------------------------------------------------


class Field(Generic[T]):
    """One value a session keeps. On :class:`Session` it is a typed attribute; ``Session.x.key`` is the
    ``st.session_state`` key (and the key of the widget that edits it)."""

    def __init__(
        self,
        default: T | Callable[[], T],
        *,
        url: str | None = None,
        parse: Callable[[str], T] | None = None,
        dump: Callable[[T], str] = str,
        uploader: bool = False,
    ):
        self.default, self.url, self.parse, self.dump = default, url, parse, dump
        # A file uploader's value: Streamlit alone may set it, so it gets no default and is never saved.
        self.uploader = uploader
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @property
    def key(self) -> str:
        return f"bpe.{self.name}"

    def initial(self) -> T:
        return self.default() if callable(self.default) else self.default  # type: ignore[return-value]

    @overload
    def __get__(self, obj: None, owner: type) -> Field[T]: ...
    @overload
    def __get__(self, obj: Session, owner: type) -> T: ...
    def __get__(self, obj, owner):
        if obj is None:
            return self
        if self.uploader:
            return obj.state.get(self.key)
        if self.key not in obj.state:
            obj.state[self.key] = self.initial()
        return obj.state[self.key]

    def __set__(self, obj: Session, value: T) -> None:
        obj.state[self.key] = value


class Session:
    """The typed face of ``st.session_state`` (or of any mapping, in tests)."""

    # The tokenizer a page shows: every link carries these, so it can be retrained anywhere.
    corpus: Field[str] = Field(DEFAULT_SLUG, url="corpus", parse=one_of(CORPUS_CHOICES))
    kind: Field[str] = Field("byte", url="kind", parse=one_of(KINDS))
    vocab: Field[int] = Field(SLUGS[DEFAULT_SLUG].vocab_size, url="vocab", parse=whole_number(1, MAX_VOCAB))
    pattern: Field[str] = Field("gpt2", url="pattern", parse=one_of(PATTERN_CHOICES))
    regex: Field[str] = Field(r"\p{L}+|\p{N}+|\s+|[^\s\p{L}\p{N}]+", url="regex", parse=short_text(1_000))
    specials: Field[str] = Field("<|endoftext|>", url="specials", parse=short_text(500))
    # The interface language (ui.i18n reads it): a link's ``lang``, else the browser's, else English.
    lang: Field[str | None] = Field(None, url="lang", parse=one_of(tuple(LANGUAGES)))
    # Talk mode (ui/talk): every page's link carries it, so a slide can open a view on the projector.
    talk: Field[bool] = Field(False, url="talk", parse=lambda text: one_of(("0", "1"))(text) == "1",
                              dump=lambda on: "1" if on else "0")  # fmt: skip
    step: Field[int] = Field(1, url="step", parse=whole_number(1, TALK_STEPS))  # the guided talk's step
    # Merges
    round: Field[int | None] = Field(None, url="round", parse=whole_number(0, 1_000_000))
    speed: Field[int] = Field(4, url="speed", parse=lambda text: int(one_of([str(s) for s in SPEEDS])(text)))
    word: Field[str] = Field("", url="word", parse=short_text(200))
    merge_search: Field[str] = Field("")
    merge_table_page: Field[int] = Field(1)
    player_start: Field[Any] = Field(None)  # (tokenizer key, round, speed) the mounted player started from
    # Encode
    tokenizer: Field[str] = Field(TRAINED, url="tokenizer", parse=one_of((TRAINED, *REFERENCES)))
    text: Field[str] = Field(ENCODE_SAMPLE, url="text", parse=short_text(MAX_LINK_TEXT))
    show_ids: Field[bool] = Field(False)
    step_word: Field[str] = Field("")  # the word shown merge by merge
    # Compare
    view: Field[str] = Field("curve", url="view", parse=one_of(VIEWS))
    sizes: Field[list[int]] = Field(list, url="sizes", parse=number_list(1, MAX_VOCAB, MAX_SIZES), dump=comma_joined)
    refs: Field[list[str]] = Field(lambda: list(REFERENCES), url="refs", parse=name_list(REFERENCES), dump=comma_joined)
    heldout: Field[str] = Field(
        HELDOUT_REST, url="heldout", parse=one_of((HELDOUT_REST, *SLUGS, PASTE, UPLOAD))
    )
    token: Field[int | None] = Field(None, url="token", parse=whole_number(0, 10_000_000))
    compared: Field[str] = Field("")  # the Compare page's own tokenizer choice (TRAINED or a loaded file)
    sizes_text: Field[str] = Field("")  # the box that edits `sizes` (kept as typed until it parses)
    heldout_box: Field[str] = Field("")  # the held-out paste box (emptied once a big paste is stored)
    heldout_file: Field[Any] = Field(None, uploader=True)  # the held-out file uploader (Streamlit's UploadedFile)
    side_text: Field[str] = Field(
        "Tokenizers split text into tokens. The tokenizer learned merges from its training text.\n"
        "def tokenize(text): return [t for t in text.split()]\n"
        "字节对编码从字节开始，反复合并出现次数最多的相邻字节对。"
    )
    vocab_search: Field[str] = Field("")
    vocab_sort: Field[str] = Field("merge round")
    vocab_descending: Field[bool] = Field(False)
    algo_text: Field[str] = Field(
        "Byte-pair encoding merges frequent pairs.\n字节对编码从字节开始，反复合并出现次数最多的相邻字节对。\n"
        "一个汉字在 UTF-8 中占三个字节。"
    )
    # Export
    format: Field[str] = Field("gpt2", url="format", parse=one_of(FORMATS))
    exported: Field[str] = Field(TRAINED)  # which tokenizer the Export page downloads

    # Kept but never in a link: the user's own text and what was made from it.
    paste_box: Field[str] = Field("")  # the Train page's paste box (emptied once a big paste is stored)
    upload_box: Field[Any] = Field(None, uploader=True)  # the Train page's file uploader (Streamlit's UploadedFile)
    pasted_text: Field[str] = Field("")
    upload: Field[Any] = Field(None)  # ui.corpora.Upload of the last good upload
    upload_problem: Field[str] = Field("")  # why the file in the uploader was refused (shown until the next one)
    heldout_text: Field[Any] = Field(None)  # ui.corpora.Upload: pasted or uploaded held-out text
    heldout_problem: Field[str] = Field("")  # why the held-out file in the uploader was refused
    trained: Field[Any] = Field(None)  # ui.training.Trained
    loaded: Field[dict] = Field(dict)  # label -> tokenizer loaded from files
    import_round: Field[int] = Field(0)  # bumped after each load: it names a new, empty import uploader
    notices: Field[list] = Field(list)  # (level, Markdown-safe text) shown once by the frame
    running_job: Field[str] = Field("")  # the key of the job whose Cancel button is on screen
    link_signature: Field[str] = Field("")  # the query string this session last wrote or read
    link_request: Field[Any] = Field(None)  # ui.training.Request a just-opened link asks for
    workspace: Field[str] = Field("")  # this tab's id in the reload store (the ?ws= parameter)
    browser: Field[str] = Field("")  # this browser's id (a cookie), which owns its workspaces
    cache: Field[Any] = Field(None)  # ui.training's per-session results
    scroll_to: Field[str] = Field("")  # an element the browser should scroll to after this run
    page: Field[str] = Field("train")  # the page this run shows (its link is written after it ran)

    def __init__(self, state: Any):
        self.state = state

    def initialize(self) -> None:
        """Give every field its default (before any widget bound to one is drawn)."""
        for field in FIELDS.values():
            if field.key not in self.state and not field.uploader:
                self.state[field.key] = field.initial()

    def notice(self, level: str, markdown: str) -> None:
        """Queue a message for the frame to show once (``markdown`` must already be safe)."""
        self.notices.append((level, markdown))


FIELDS: dict[str, Field] = {name: value for name, value in vars(Session).items() if isinstance(value, Field)}
URL_FIELDS: dict[str, Field] = {field.url: field for field in FIELDS.values() if field.url}
TOKENIZER_FIELDS = ("corpus", "kind", "vocab", "pattern", "regex", "specials")
PAGE_FIELDS: dict[str, tuple[str, ...]] = {
    "train": (*TOKENIZER_FIELDS, "lang"),
    "merges": (*TOKENIZER_FIELDS, "round", "speed", "word", "lang"),
    "encode": (*TOKENIZER_FIELDS, "tokenizer", "text", "lang"),
    "compare": (*TOKENIZER_FIELDS, "view", "sizes", "refs", "heldout", "token", "lang"),
    "export": (*TOKENIZER_FIELDS, "format", "lang"),
    "talk": ("step", "lang"),
}
"""Which fields each page's link carries (``lang`` only when it is not English, the default), and
every page's: :data:`SHARED_FIELDS`."""
SHARED_FIELDS = ("talk",)


def current() -> Session:
    """This run's session (Streamlit's session state)."""
    import streamlit as st

    return Session(st.session_state)
