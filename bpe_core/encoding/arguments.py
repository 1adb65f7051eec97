"""Checking what callers pass to a tokenizer: texts, token bytes, ids, merges and special tokens.

Each check returns the value in its one accepted form, or raises a TypeError/ValueError that says
what was wrong and what is allowed.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping


def checked_text(text: object) -> str:
    """``text`` if it is a str, else a TypeError (``encode(b"...")`` is a common slip).

    >>> checked_text(b"abc")
    Traceback (most recent call last):
    ...
    TypeError: text must be str, not bytes
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    return text


def as_bytes(value: object, what: str) -> bytes:
    """``value`` as bytes, or a TypeError naming ``what``.

    >>> as_bytes(bytearray(b"ab"), "a token")
    b'ab'
    """
    # Not bytes(value): bytes(5) is five zero bytes, and bytes(2**70) runs out of memory.
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(f"{what} must be bytes, not {type(value).__name__}")
    return bytes(value)


MAX_ID = (1 << 32) - 1
"""The largest token id: tiktoken's ranks are 32-bit (it refuses a file with a larger one)."""


def as_id(value: object) -> int:
    """``value`` if it is a non-negative int (not a bool, not a float) of at most MAX_ID, else a ValueError.

    >>> as_id(7), as_id(1 << 40)
    Traceback (most recent call last):
    ...
    ValueError: token ids must be integers from 0 to 4,294,967,295, not 1099511627776
    """
    if type(value) is not int or not 0 <= value <= MAX_ID:
        raise ValueError(f"token ids must be integers from 0 to {MAX_ID:,}, not {value!r:.40}")
    return value


UNUSED_IDS_ALLOWED = 1 << 16
"""Ids may leave gaps (cl100k's special tokens do), up to this many more unused ids than used ones."""


def check_id_space(ids: Collection[int]) -> None:
    """A ValueError if ``ids`` leave more unused ids below their largest than they use, plus UNUSED_IDS_ALLOWED:
    every analysis keeps a table by id, so one id of 4,294,967,295 in a file of 300 tokens would cost 32 GB.

    >>> check_id_space([0, 1, 200_000])
    Traceback (most recent call last):
    ...
    ValueError: the ids run up to 200,000 for 3 tokens: at most 65,542 ids are allowed (twice the tokens, plus 65,536)
    """
    if ids:
        top, allowed = max(ids), 2 * len(ids) + UNUSED_IDS_ALLOWED
        if top >= allowed:
            raise ValueError(
                f"the ids run up to {top:,} for {len(ids):,} tokens: at most {allowed:,} ids are allowed (twice the "
                f"tokens, plus {UNUSED_IDS_ALLOWED:,})"
            )


def as_pair(merge: object) -> tuple[bytes, bytes]:
    """A merge as a (bytes, bytes) pair, or a TypeError."""
    if not isinstance(merge, (tuple, list)) or len(merge) != 2:
        raise TypeError(f"each merge must be a (bytes, bytes) pair, not {merge!r:.60}")
    return as_bytes(merge[0], "a merge's left part"), as_bytes(merge[1], "a merge's right part")


def resolve_special_ids(
    vocab: dict[int, bytes], special_tokens: Mapping[str, int] | Iterable[str] | None
) -> dict[str, int]:
    """Each special token's id: given in a mapping, or (for a list) the id of a regular token with
    the same multi-byte text, else the next free id.

    >>> resolve_special_ids({0: b"a", 1: b"<s>"}, ["<s>", "<e>"])
    {'<s>': 1, '<e>': 2}
    """
    if special_tokens is None:
        return {}
    if isinstance(special_tokens, str):
        raise TypeError("special_tokens must be a list of strings or a dict of string -> id, not one string")
    if isinstance(special_tokens, Mapping):
        special_ids = {_as_special(token): as_id(identifier) for token, identifier in special_tokens.items()}
    elif not isinstance(special_tokens, Iterable):
        expected = "a list of strings or a dict of string -> id"
        raise TypeError(f"special_tokens must be {expected}, not {special_tokens!r:.50}")
    else:
        by_bytes = {token: identifier for identifier, token in vocab.items()}
        special_ids, next_id = {}, max(vocab, default=-1) + 1
        for token in map(_as_special, special_tokens):
            identifier = by_bytes.get(token.encode("utf-8"))
            if identifier is None or len(token.encode("utf-8")) == 1:
                identifier, next_id = next_id, next_id + 1
            special_ids[token] = identifier
    for token in special_ids:
        if not token:
            raise ValueError("a special token cannot be empty")
    ids = list(special_ids.values())
    if len(set(ids)) != len(ids):
        raise ValueError("two special tokens share one id")
    return special_ids


def _as_special(token: object) -> str:
    if not isinstance(token, str):
        raise TypeError(f"special tokens must be strings, not {type(token).__name__} {token!r:.40}")
    return token
