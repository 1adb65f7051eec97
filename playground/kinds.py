"""What each kind of tokenizer means, written once: the table pages, views, links and the training form ask.

A kind is what the Train page's "Algorithm" picks (byte-level, classic, parity-aware, superword) or where a
tokenizer came from (files, the references). For each the table says what it trains on (a text, or a parallel
corpus's languages), its pre-tokenization pattern and special tokens (none, the user's, or fixed), whether its
tokens are bytes, which Compare views, export formats and link fields apply, its label and what its settings
mean, the vocab sizes a corpus allows it (:class:`Limits`), how much longer than plain BPE it trains, the trainer
options it takes (minimum pair count, longest token, classic BPE's alphabet) and whether it can continue a byte-level
tokenizer instead of starting from bytes (``playground.bases``).

>>> kind_of("byte").uses("base"), kind_of("classic").uses("alphabet"), kind_of("superword").uses("min_freq")
(True, True, False)

Pages and views never compare kind names: they ask ``kind_of(name)`` (held by tests/test_architecture.py).

>>> kind_of("classic").pattern, kind_of("superword").pattern, kind_of("byte").pattern
('none', 'fixed', 'user')
>>> [name for name in KINDS if kind_of(name).trains_on == LANGUAGES]
['parity']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bpe_core import Tokenizer, TokenizerShape
from bpe_core.pretokenize import count_pretokens
from bpe_core.pretokenize.superword import SUPERWORD_PATTERN
from playground.i18n import N_, t

MAX_VOCAB = 200_000
"""The largest vocab size anyone may ask for (a link included)."""
EXACT_LIMIT_CHARS = 2_000_000
"""Up to this size the number of possible merges is counted exactly before training."""
VIEWS = ("curve", "side", "vocab", "algos", "choose", "languages", "health", "overlap")
"""Compare's views (``ui.compare``), in the page's order."""
FORMATS = ("gpt2", "tiktoken", "hf", "bpe-playground")
"""The formats the Export page writes (``bpe_core.save``)."""

TEXT, LANGUAGES = "text", "languages"
"""What a kind trains on: a text, or a parallel corpus's languages (each trained fairly)."""
NONE, USER, FIXED = "none", "user", "fixed"
"""A kind's pattern and special tokens: none, the user's (the Train page's settings), or fixed by the kind."""


@dataclass(frozen=True)
class Limits:
    """The vocab sizes a corpus allows with some settings."""

    minimum: int
    maximum: int
    exact: bool  # maximum counted from the corpus (else only bounded by its size)
    fewest: int = 0  # training can run out of pairs no sooner than after this many merges (0: not counted)


def pretoken_limits(text: str, pattern: str | None, specials: tuple[str, ...]) -> Limits:
    """Byte-level BPE: each merge removes at least one symbol from some distinct word (pre-token), so
    sum(len - 1) over the distinct words bounds the number of merges. Training stops when no pair is left,
    that is when every distinct word is one token, so no sooner than after as many merges as there are
    distinct words of two symbols or more (``fewest``); where between the two it stops only training tells.

    >>> pretoken_limits("aaabdaaabac", "gpt2", ())
    Limits(minimum=256, maximum=266, exact=True, fewest=1)
    """
    minimum = 256 + len(specials)
    if len(text) > EXACT_LIMIT_CHARS:
        return Limits(minimum, MAX_VOCAB, False)
    lengths = [len(word.encode("utf-8", errors="surrogatepass")) for word in count_pretokens(text, pattern, specials)]
    bound = sum(length - 1 for length in lengths)
    return Limits(minimum, min(MAX_VOCAB, minimum + bound), True, sum(length > 1 for length in lengths))


def word_limits(text: str, pattern: str | None, specials: tuple[str, ...]) -> Limits:
    """Classic BPE: the characters seen and ``</w>`` to start, at most a merge per character of each distinct
    word, and no sooner done than every distinct word is one symbol (``pattern`` and ``specials``: none).

    >>> word_limits("low low lower", None, ())
    Limits(minimum=6, maximum=14, exact=True, fewest=2)
    """
    words = set(text.split())
    base = len({character for word in words for character in word}) + 1
    return Limits(base, min(MAX_VOCAB, base + sum(len(word) for word in words)), True, len(words))


def two_stage_limits(text: str, pattern: str | None, specials: tuple[str, ...]) -> Limits:
    """Superword tokens: stage 1 merges within GPT-2 pre-tokens (bounded as plain BPE), and each merge of
    stage 2 removes a symbol from some distinct chunk (``pattern``: :data:`SUPERWORD_PATTERN`), so the two
    bounds add up; every distinct chunk ends as one token.

    >>> two_stage_limits("by the way by the way", SUPERWORD_PATTERN, ())
    Limits(minimum=256, maximum=285, exact=True, fewest=4)
    """
    within = pretoken_limits(text, "gpt2", specials)
    across = pretoken_limits(text, pattern, specials)
    maximum = min(MAX_VOCAB, within.maximum + across.maximum - across.minimum)
    return Limits(within.minimum, maximum, within.exact and across.exact, max(within.fewest, across.fewest))


@dataclass(frozen=True)
class Kind:
    """One kind of tokenizer (see the module's docstring)."""

    name: str
    label: str  # the Train page's name for it (shown with playground.i18n.t)
    tag: str  # what a tokenizer's label says of its settings: {name} is the pattern choice, {n} the transition
    limits: Callable[[str, str | None, tuple[str, ...]], Limits]  # (text, pattern, specials) -> Limits
    trains_on: str | None = TEXT  # TEXT, LANGUAGES, or None: loaded, never trained here
    pattern: str = USER  # NONE (classic splits on whitespace), USER, or FIXED (fixed_pattern)
    fixed_pattern: str | None = None
    specials: str = USER  # NONE or USER
    byte_level: bool = True  # its tokens are bytes of the text (else symbols of characters and </w>)
    keeps_whitespace: bool = True  # whitespace is trained on (classic BPE splits words on it and drops it)
    views: tuple[str, ...] = VIEWS
    views_note: str = ""  # why Compare's other views do not apply, and which do (when ``views`` is not all)
    formats: tuple[str, ...] = FORMATS  # export formats that can hold its tokenizers
    link_fields: tuple[str, ...] = ()  # session fields it uses (its links carry) besides every tokenizer's
    base_note: str = N_("256 byte tokens + special tokens")  # why the vocab starts where it does
    settings_note: str | None = None  # what its settings mean, under the Train page's settings
    time_factor: float = 1.0  # training time against plain byte-level BPE with a pattern
    unsplit_time_factor: float | None = None  # ... with no pre-tokenization (None: time_factor)
    within: str | None = None  # a tag around the pattern's (parity: "parity-aware · {pattern}")
    plain_twin: bool = False  # Compare's curve draws plain BPE of the same size beside it (superword tokens)
    replayable: bool = False  # one rule over one text: any round's every pair can be rebuilt (round_pairs)
    # The trainer options its training takes (session fields: min_freq, max_len, alphabet, keep_chars), and whether
    # it can start from a byte-level tokenizer instead of bytes (the session's `base`: bpe_core.extend).
    options: tuple[str, ...] = ()
    extends: bool = False

    @property
    def user_pattern(self) -> bool:
        """Whether the Train page's pattern settings apply (else the kind's own, or none)."""
        return self.pattern == USER

    @property
    def user_specials(self) -> bool:
        """Whether the Train page's special tokens apply (else none)."""
        return self.specials == USER

    def pattern_for(self, chosen: str | None) -> str | None:
        """What training gets for the pattern the settings chose (``chosen``, already checked)."""
        return chosen if self.pattern == USER else self.fixed_pattern

    def pattern_choice(self, chosen: str) -> str:
        """The pattern choice a request records (a fixed or absent pattern is recorded by the kind's name)."""
        return chosen if self.pattern == USER else self.name

    def specials_for(self, chosen: tuple[str, ...]) -> tuple[str, ...]:
        return chosen if self.specials == USER else ()

    def uses(self, field: str) -> bool:
        """Whether its tokenizers depend on the session field ``field``, so a request records it and a link
        carries it (of the fields that depend on the kind: the pattern, the regex, the superword settings)."""
        return (
            field in self.link_fields
            or field in self.options
            or (field == "base" and self.extends)
            or (field in ("pattern", "regex") and self.user_pattern)
        )

    def time_factor_for(self, pattern: str | None) -> float:
        """How many times plain BPE's time it trains in, with ``pattern``."""
        if pattern is None and self.unsplit_time_factor is not None:
            return self.unsplit_time_factor
        return self.time_factor

    def describe(self, pattern_choice: str, transition: int | None) -> str:
        """Its settings as a tokenizer's label says them, in the session's language.

        >>> kind_of("parity").describe("gpt2", None), kind_of("superword").describe("superword", 6000)
        ('parity-aware · pattern gpt2', 'superword from merge 6,000')
        """
        tag = t(self.tag, name=pattern_choice, n=transition or 0)
        return t(self.within, pattern=tag) if self.within else tag


BYTE = Kind(
    "byte",
    N_("Byte-level (GPT-2 style)"),
    N_("pattern {name}"),
    pretoken_limits,
    unsplit_time_factor=4,
    link_fields=("ties",),  # the tie rule (bpe_core.train's tie_break)
    replayable=True,
    options=("min_freq", "max_len"),  # bpe_core.train's min_frequency, max_token_length (bytes)
    extends=True,
)
TABLE: dict[str, Kind] = {
    "byte": BYTE,
    "classic": Kind(
        "classic",
        N_("Classic (Sennrich: characters + </w>)"),
        N_("classic </w>"),
        word_limits,
        pattern=NONE,
        specials=NONE,
        byte_level=False,
        keeps_whitespace=False,
        views=("algos", "languages"),
        views_note=N_(
            "This tokenizer is classic (character-level) BPE: the curve, side-by-side, vocabulary, size and health "
            "views need a byte-level tokenizer. Train one on the Train page, or open the Algorithms or Languages "
            "view."
        ),
        formats=(),
        base_note=N_("the characters of the corpus + </w>"),
        settings_note=N_("Classic BPE splits on whitespace and marks word ends with </w>."),
        link_fields=("ties",),
        replayable=True,
        # train_classic's min_frequency, max_token_length (characters), limit_alphabet and initial_alphabet
        options=("min_freq", "max_len", "alphabet", "keep_chars"),
    ),
    # one engine a language, each merged every round: ~5x on the parallel sample
    "parity": Kind(
        "parity",
        N_("Parity-aware byte-level (fair across languages; parallel corpus)"),
        N_("pattern {name}"),
        pretoken_limits,
        trains_on=LANGUAGES,
        time_factor=5,
        within=N_("parity-aware · {pattern}"),
    ),
    # two stages; the chunks encoded once more before stage 2 (docs10m, 5 MB: ~3x plain BPE)
    "superword": Kind(
        "superword",
        N_("Superword tokens (SuperBPE: merges across words)"),
        N_("superword from merge {n:,}"),
        two_stage_limits,
        pattern=FIXED,
        fixed_pattern=SUPERWORD_PATTERN,
        formats=("hf", "bpe-playground"),
        link_fields=("transition", "maxwords"),
        plain_twin=True,
        time_factor=3,
    ),
    # Loaded from files (GPT-2, tiktoken, HF, the project's JSON), and the references: never trained here.
    "file": Kind("file", N_("Loaded from files"), N_("pattern {name}"), pretoken_limits, trains_on=None),
    # Files of the other families (SentencePiece, a Hugging Face pipeline of its own): exact, cut to any size by their
    # own rule (bpe_core.analysis.ladder); the curve, side-by-side and vocabulary views read byte-level ranks.
    "family-file": Kind(
        "family-file",
        N_("Loaded from files of other families"),
        N_("pattern {name}"),
        pretoken_limits,
        trains_on=None,
        views=("algos", "choose", "languages", "health", "overlap"),
        formats=("hf",),  # a tokenizer.json of its pipeline (a SentencePiece model's converted)
        views_note=N_(
            "This tokenizer is a SentencePiece model or a Hugging Face pipeline: the curve, side-by-side and "
            "vocabulary views read a byte-level tokenizer's merge ranks. Open the Choose a size, Languages, Health "
            "or Overlap view, where it is measured as its own library encodes."
        ),
    ),
    # Their character-level cousins: measured as classic BPE is, but not Sennrich's (no </w>, whitespace kept).
    "char-family-file": Kind(
        "char-family-file",
        N_("Loaded from files of other families, character-level"),
        N_("pattern {name}"),
        pretoken_limits,
        trains_on=None,
        byte_level=False,
        views=("algos", "languages"),
        formats=("hf",),
        views_note=N_(
            "This tokenizer is character-level BPE from a file of another family (a SentencePiece model without "
            "byte fallback, or a Hugging Face pipeline of characters): the curve, side-by-side, vocabulary, size and "
            "health views need a byte-level tokenizer. Open the Algorithms or Languages view."
        ),
    ),
}
KINDS = tuple(name for name, kind in TABLE.items() if kind.trains_on is not None)
"""The kinds the Train page trains (and a link's ``kind`` may name)."""
LOADED = TABLE["file"]
FAMILY_FILE = TABLE["family-file"]
CHAR_FAMILY_FILE = TABLE["char-family-file"]
CLASSIC = TABLE["classic"]


def loaded_kind(tokenizer: TokenizerShape, trained: str | None = None) -> Kind:
    """A tokenizer's kind: ``trained``'s (its request's kind) for one trained here; loaded from files, byte-level BPE by
    merge ranks (GPT-2, tiktoken, most HF files, the project's JSON), or a file of another family (SentencePiece, a
    Hugging Face pipeline), byte- or character-level (no format holds classic BPE). The views ask the kind."""
    if trained is not None:
        return kind_of(trained)
    return LOADED if isinstance(tokenizer, Tokenizer) else FAMILY_FILE if tokenizer.byte_level else CHAR_FAMILY_FILE


def kind_of(name: str) -> Kind:
    """The kind named ``name``; a KeyError naming the kinds there are.

    >>> kind_of("bytes")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "no tokenizer kind 'bytes': the kinds are byte, classic, parity, superword, file, family-file, ..."
    """
    found = TABLE.get(name)
    if found is None:
        raise KeyError(f"no tokenizer kind {name!r}: the kinds are {', '.join(TABLE)}")
    return found
