"""The Train page's trainer options ("Advanced": minimum pair count, longest token, classic's alphabet) checked
where they are typed and again by the Train button: a value out of range is named by its box, in the page's
language, and never trained with (the boxes have no widget bounds, as a bounded box keeps its last good value
without a word while it shows the one typed).

>>> from playground.session import Session
>>> s = Session({})
>>> s.min_freq = -3
>>> problem(s) is not None, problem(Session({})) is None
(True, True)
"""

from __future__ import annotations

from playground.form_errors import SettingsError
from playground.i18n import N_, Later, later, t
from playground.kinds import kind_of
from playground.session import MAX_ALPHABET, MAX_MIN_FREQ, MAX_TOKEN_LENGTH, Session

BOXES: dict[str, tuple[str, int]] = {
    "min_freq": (N_("Minimum pair count"), MAX_MIN_FREQ),
    "max_len": (N_("Longest token"), MAX_TOKEN_LENGTH),
    "alphabet": (N_("Limit the alphabet"), MAX_ALPHABET),
}
"""Each numeric option's box, by the name the page gives it (a catalog key), and its largest value."""


def problem(s: Session) -> Later | None:
    """What is wrong with the first out-of-range option the session's kind takes (None when all are fine)."""
    kind = kind_of(s.kind)
    for name, (box, high) in BOXES.items():
        value = getattr(s, name)
        if kind.uses(name) and not (isinstance(value, int) and 0 <= value <= high):
            return later(
                "{box} = {value} is not possible: it must be a whole number from 0 (off) to {high:,}.",
                box=later(box),
                value=value,
                high=high,
            )
    return None


def check(s: Session) -> None:
    """SettingsError (saying which box and what it allows) for an out-of-range option."""
    found = problem(s)
    if found is not None:
        raise SettingsError(found)


def nothing_merges(s: Session) -> str | None:
    """A warning, before training, for a longest token of 1 byte: a token of one byte is a byte, so no pair can
    merge (classic BPE still merges a character with its end-of-word mark, so it is not warned)."""
    kind = kind_of(s.kind)
    if not kind.uses("max_len") or s.max_len != 1 or not kind.byte_level:
        return None
    return t("Longest token = 1 byte: a token of 1 byte is a byte, so nothing can merge. Use 2 or more (0: no limit).")
