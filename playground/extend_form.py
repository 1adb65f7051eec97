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
    """What the Train page says of the sizes a continued training allows (None when it trains from bytes, or when
    the base is not here: the Train button says why)."""
    try:
        base = base_of(s)
    except SettingsError:
        return None
    if base is None:
        return None
    _, label, size = base
    return t(
        "Vocab size = {base}'s {size:,} tokens + the new merges ({merges:,} now): from {low:,} to {high:,}. Every "
        "token of the base keeps its id; the new ones follow its highest id.",
        base=label,
        size=size,
        merges=s.vocab - size,
        low=size + 1,
        high=size + MAX_NEW_MERGES,
    )
