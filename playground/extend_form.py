"""The Train form's checks for a training that continues a tokenizer (``playground.bases``): the base is here, and
the vocab size is the base's size plus new merges. ``playground.train_form`` asks these before any work.

>>> check_vocab(50_300, "GPT-2 (r50k)", 50_257)
>>> check_vocab(50_000, "GPT-2 (r50k)", 50_257)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
playground.form_errors.SettingsError: Vocab size 50,000 is not possible here: ...
"""

from __future__ import annotations

from bpe_core.pretokenize import PATTERNS
from playground.bases import BYTES, MAX_NEW_MERGES, BaseMissing, base_tokenizer, request_base
from playground.form_errors import SettingsError
from playground.i18n import later, t
from playground.kinds import kind_of
from playground.patterns import PATTERN_LABELS
from playground.session import Session

BaseInfo = tuple[str, str, int]
"""What a request keeps of a base: its id, its label, its size (``playground.bases.request_base``)."""


def base_of(s: Session) -> BaseInfo | None:
    """The base the session's settings continue (None: training from bytes, or a kind that cannot continue one);
    SettingsError when it is not here."""
    if s.base == BYTES or not kind_of(s.kind).uses("base"):
        return None
    try:
        return request_base(s.base, s.loaded)
    except BaseMissing as missing:
        raise SettingsError(missing.message) from None


def base_pattern_choice(s: Session) -> str:
    """What a continued tokenizer's label says of its pattern: the base's, by name when it has one."""
    pattern = base_tokenizer(s.base, s.loaded).pattern
    return pattern if pattern in PATTERNS else t("the base's own")


def base_settings(s: Session) -> tuple[str, str, str] | None:
    """What the Train page's greyed boxes show while a base is continued: the base's label, its pre-tokenization (by
    its name in the page's language) and its special tokens (the first few, and how many); None when the base is not
    here (the Train button says why)."""
    base = _base_here(s)
    if base is None:
        return None
    tokenizer = base_tokenizer(s.base, s.loaded)
    pattern = tokenizer.pattern
    if pattern is None:
        shown = t(PATTERN_LABELS["none"])
    elif pattern in PATTERN_LABELS:
        shown = t(PATTERN_LABELS[pattern])
    else:
        shown = t("the base's own regex")
    names = sorted(tokenizer.special_tokens, key=tokenizer.special_tokens.__getitem__)
    specials = " ".join(names[:SHOWN_SPECIALS])
    if len(names) > SHOWN_SPECIALS:
        specials += " " + t("… ({n:,} special tokens in all)", n=len(names))
    return base[1], shown, specials or t("(none)")


SHOWN_SPECIALS = 4
"""The special tokens of a base the greyed box lists (Llama 3 has 256)."""


def check_vocab(vocab: int, label: str, size: int) -> None:
    """A continued tokenizer's vocab size is its base's size plus 1 to :data:`MAX_NEW_MERGES` new merges."""
    if not size < vocab <= size + MAX_NEW_MERGES:
        raise SettingsError(
            later(
                "Vocab size {vocab:,} is not possible here: {base} has {size:,} tokens, and the vocab size is its "
                "size plus the new merges. Choose a size {allowed}.",
                vocab=vocab,
                base=label,
                size=size,
                allowed=later("from {low:,} to {high:,}", low=size + 1, high=size + MAX_NEW_MERGES),
            )
        )


def vocab_range(s: Session) -> str | None:
    """What the Train page says of the sizes a continued training allows (None when it trains from bytes, when the
    base is not here: the Train button says why, or when the size is out of range: :func:`vocab_problem` says so)."""
    found = _base_here(s)
    if found is None or not found[2] < s.vocab <= found[2] + MAX_NEW_MERGES:
        return None
    _, label, size = found
    return t(
        "Vocab size = {base}'s {size:,} tokens + the new merges ({merges:,} now): from {low:,} to {high:,}. Every "
        "token of the base keeps its id; the new ones follow its highest id.",
        base=label,
        size=size,
        merges=s.vocab - size,
        low=size + 1,
        high=size + MAX_NEW_MERGES,
    )


def vocab_problem(s: Session) -> str | None:
    """What is wrong with the vocab size for a continued training, said as it is typed (None when nothing is, or
    when training starts from bytes): at or below the base's size, or above it plus :data:`MAX_NEW_MERGES`."""
    found = _base_here(s)
    if found is None:
        return None
    _, label, size = found
    if s.vocab <= size:
        return t(
            "Vocab size {vocab:,} is too small to continue {base}: at least {low:,}, as {base} has {size:,} tokens "
            "(the vocab size is its size plus the new merges).",
            vocab=s.vocab,
            base=label,
            low=size + 1,
            size=size,
        )
    if s.vocab > size + MAX_NEW_MERGES:
        return t(
            "Vocab size {vocab:,} is too big: at most {high:,}, {base}'s {size:,} tokens + {most:,} new merges (the "
            "most the app adds).",
            vocab=s.vocab,
            high=size + MAX_NEW_MERGES,
            base=label,
            size=size,
            most=MAX_NEW_MERGES,
        )
    return None


def _base_here(s: Session) -> BaseInfo | None:
    try:
        return base_of(s)
    except SettingsError:
        return None
