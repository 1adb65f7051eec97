"""What a training is asked for (:class:`Request`): everything that decides a tokenizer, and how the pages name it.

No Streamlit here: a request travels to the worker process that trains it (``playground.trained``) and into the
store (``playground.workspace``, as its fields).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any, Final

from playground.bases import BYTES, FILE, is_file
from playground.corpora import UPLOAD, sample_name
from playground.i18n import N_, t
from playground.kinds import Kind, kind_of

TIE_TAGS: Final = {"first": N_("ties: first seen"), "hf": N_("ties: Hugging Face"), "smallest": N_("ties: smallest")}
"""What a tokenizer's label says of a tie rule other than the default (the greatest pair: said nothing)."""
OPTION_FIELDS: Final = ("min_freq", "max_len", "alphabet", "keep_chars")
"""The session fields of the trainer options, in the order of ``Request.option_values``."""


@dataclass(frozen=True)
class Request:
    """Everything that decides a tokenizer: equal requests give equal tokenizers."""

    corpus: str  # a sample's slug, "paste" or "upload"
    corpus_label: str
    text_digest: str
    kind: str  # a trained kind of playground.kinds: "byte", "classic", "parity" or "superword"
    vocab_size: int
    pattern_choice: str  # gpt2 | cl100k | o200k | whitespace | none | custom
    pattern: str | None  # what bpe_core.train gets: a name, the custom regex, or None
    special_tokens: tuple[str, ...]
    holdout: int = 0  # percent of the corpus's lines held out from training (playground.heldout_texts.split_corpus)
    languages: tuple[str, ...] = ()  # a parallel corpus's languages (kind "parity" trains them fairly)
    transition: int | None = None  # superword: merges made within pre-tokens before merging across them
    max_words: int | None = None  # superword: the most words a token may hold
    tie_break: str = "greatest"  # bpe_core.train's rule for pairs of equal count (byte and classic kinds)
    # Continued from a byte-level tokenizer (playground.bases): a built-in model's name, or "file:" + a loaded file's
    # content digest ("": trained from bytes); its label, and its size (every token: vocab_size - base_size merges).
    base: str = ""
    base_label: str = ""
    base_size: int = 0
    # The trainer options (playground.kinds.Kind.options; 0 and "" are off)
    min_frequency: int = 0
    max_token_length: int = 0  # bytes (classic: characters)
    limit_alphabet: int = 0  # classic: keep the most frequent characters
    initial_alphabet: str = ""  # classic: characters always kept

    @property
    def key(self) -> str:
        """A digest of the request (the corpus by its digest), for caches."""
        parts: list[Any] = [self.text_digest, self.kind, self.vocab_size, self.pattern, self.special_tokens]
        if self.holdout or self.languages:  # only then: the keys of earlier requests (saved work) stay as they were
            parts += [self.holdout, self.languages]
        if kind_of(self.kind).uses("transition"):  # superword tokens' stages
            parts += [self.transition, self.max_words]
        if self.tie_break != "greatest":  # only then: the default's key (saved work) stays as it was
            parts += ["ties", self.tie_break]
        if self.base:  # (only then, and only with options, as above)
            parts += ["base", self.base]
        if self.options():
            parts += ["options", *self.option_values()]
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:24]

    def settings(self) -> dict[str, Any]:
        """The session field values (``playground.session``) that describe this request, for its link: the
        pattern and regex only for a kind that takes the user's (classic BPE has none, superword its own).

        >>> Request("toy", "Toy", "d", "byte", 300, "custom", r"\\w+|\\W", ("<s>",)).settings()["regex"]
        '\\\\w+|\\\\W'
        """
        kind = kind_of(self.kind)
        user_pattern = kind.uses("pattern") and not self.base  # a continued tokenizer has its base's pattern...
        return {
            "corpus": self.corpus,
            "kind": self.kind,
            "vocab": self.vocab_size,
            "pattern": self.pattern_choice if user_pattern else None,
            "regex": self.pattern if user_pattern and self.pattern_choice == "custom" else None,
            "specials": None if self.base else " ".join(self.special_tokens),  # ... special tokens and tie rule
            "holdout": self.holdout,
            **({"ties": self.tie_break} if kind.uses("ties") and not self.base else {}),
            **({"transition": self.transition} if kind.uses("transition") else {}),
            **({"maxwords": self.max_words} if kind.uses("maxwords") else {}),
            **({"base": self.base_choice} if kind.uses("base") else {}),
            **{name: value for name, value in zip(OPTION_FIELDS, self.option_values()) if kind.uses(name)},
        }

    def option_values(self) -> tuple[int, int, int, str]:
        """The trainer options in the order of :data:`OPTION_FIELDS`."""
        return (self.min_frequency, self.max_token_length, self.limit_alphabet, self.initial_alphabet)

    def options(self) -> dict[str, int | str]:
        """The trainer options that are on, by session field name (empty for none: the key stays as it was)."""
        values: dict[str, int | str] = dict(zip(OPTION_FIELDS, self.option_values()))
        return {name: value for name, value in values.items() if value}

    @property
    def base_choice(self) -> str:
        """The session's ``base`` value for this request (a loaded file by its label)."""
        if not self.base:
            return BYTES
        return FILE + self.base_label if is_file(self.base) else self.base

    @property
    def new_merges(self) -> int:
        """How many merges were asked for beyond the base's (or beyond the bytes and special tokens)."""
        return self.vocab_size - (self.base_size or 256 + len(self.special_tokens))

    def as_kind(self, kind: Kind, pattern_choice: str = "none", pattern: str | None = None) -> Request:
        """The same corpus and vocab size trained as ``kind``, with the pattern given where that kind takes the
        user's (``playground.kinds``): what Compare trains beside a tokenizer.

        >>> superword = Request("toy", "Toy", "d", "superword", 300, "superword", "x", ("<s>",), transition=9)
        >>> classic = superword.as_kind(kind_of("classic"))
        >>> classic.kind, classic.pattern_choice, classic.pattern, classic.special_tokens, classic.transition
        ('classic', 'classic', None, (), None)
        """
        return replace(
            self,
            kind=kind.name,
            pattern_choice=kind.pattern_choice(pattern_choice),
            pattern=kind.pattern_for(pattern),
            special_tokens=kind.specials_for(self.special_tokens),
            transition=self.transition if kind.uses("transition") else None,
            max_words=self.max_words if kind.uses("maxwords") else None,
            tie_break=self.tie_break if kind.uses("ties") else "greatest",
            base="",  # variants and twins are trained from bytes, with the default options
            base_label="",
            base_size=0,
            min_frequency=0,
            max_token_length=0,
            limit_alphabet=0,
            initial_alphabet="",
        )

    @property
    def label(self) -> str:
        """What the pages call this tokenizer, in the session's language (a built-in corpus by its name)."""
        return self.label_for(self.vocab_size)

    def label_for(self, vocab_size: int) -> str:
        """:attr:`label` of a result with ``vocab_size`` tokens (fewer than asked when training stopped early); a
        continued tokenizer says its base and how many merges it added."""
        corpus = self.corpus_label if self.corpus == UPLOAD else sample_name(self.corpus)
        pattern = kind_of(self.kind).describe(self.pattern_choice, self.transition)
        if self.tie_break != "greatest":
            pattern = t("{pattern} · {ties}", pattern=pattern, ties=t(TIE_TAGS.get(self.tie_break, self.tie_break)))
        if self.options():
            pattern = t("{pattern} · {options}", pattern=pattern, options=options_tag(self))
        if self.holdout:
            pattern = t("{pattern} · {n}% held out", pattern=pattern, n=self.holdout)
        if self.base:
            return t(
                "{corpus} · {base} + {n:,} merges · vocab {vocab:,} · {pattern}",
                corpus=corpus,
                base=self.base_label,
                n=vocab_size - self.base_size,
                vocab=vocab_size,
                pattern=pattern,
            )
        if vocab_size != self.vocab_size:
            return t(
                "{corpus} · vocab {vocab:,} (of {asked:,} asked) · {pattern}",
                corpus=corpus,
                vocab=vocab_size,
                asked=self.vocab_size,
                pattern=pattern,
            )
        return t("{corpus} · vocab {vocab:,} · {pattern}", corpus=corpus, vocab=self.vocab_size, pattern=pattern)


def options_tag(request: Request) -> str:
    """What a label says of the trainer options that are on.

    >>> options_tag(Request("toy", "Toy", "d", "byte", 300, "gpt2", "gpt2", (), min_frequency=2, max_token_length=8))
    'min. count 2 · ≤ 8 bytes'
    """
    classic = not kind_of(request.kind).byte_level
    tags = []
    if request.min_frequency:
        tags.append(t("min. count {n:,}", n=request.min_frequency))
    if request.max_token_length:
        unit = t("≤ {n:,} characters") if classic else t("≤ {n:,} bytes")
        tags.append(t(unit, n=request.max_token_length))
    if request.limit_alphabet:
        tags.append(t("alphabet {n:,}", n=request.limit_alphabet))
    if request.initial_alphabet:
        tags.append(t("+ {n:,} kept characters", n=len(request.initial_alphabet)))
    return " · ".join(tags)
