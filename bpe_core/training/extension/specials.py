"""New special tokens added while extending: checked, and given their ids.

They take the ids right after the highest id in use, before the new merges' tokens, as ``train`` puts
its special tokens before its merges; so a special token's id does not depend on how many merges the
corpus gives. Each cuts the corpus (it is never merged), and each must be new: not one of the base's
special or added tokens, nor the text of one of its regular tokens.

>>> import bpe_core
>>> base = bpe_core.train("low lower", 260, special_tokens=["<s>"]).tokenizer
>>> new_specials(base, ["<pad>", "</s>"], 260)
{'<pad>': 260, '</s>': 261}
>>> new_specials(base, ["<s>"], 260)
Traceback (most recent call last):
...
ValueError: special token '<s>' is already the base's token 259 (special); pass only new ones
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...encoding.shape import TokenizerShape


def new_specials(base: TokenizerShape, special_tokens: Iterable[str], first_id: int) -> dict[str, int]:
    """Each new special token with its id, from ``first_id`` on in the order given; an error saying which is not
    allowed (not a string, empty, twice, or already known to ``base``)."""
    if isinstance(special_tokens, (str, bytes)):
        raise TypeError(f"special_tokens must be a list of strings, not one {type(special_tokens).__name__}")
    texts = list(special_tokens)
    if not texts:
        return {}
    known: Mapping[str, int] = base.special_tokens
    found: dict[str, int] = {}
    for text in texts:
        if not isinstance(text, str):
            raise TypeError(f"each special token must be a str, not {type(text).__name__} ({text!r})")
        if not text:
            raise ValueError("a special token cannot be the empty string")
        if text in found:
            raise ValueError(f"special token {text!r} is given twice")
        if text in known:
            raise ValueError(
                f"special token {text!r} is already the base's token {known[text]} (special); pass only new ones"
            )
        same = base.token_id(text.encode("utf-8"))
        if same is not None:
            raise ValueError(
                f"special token {text!r} is already the text of the base's token {same}; a special token needs a "
                "text no token has"
            )
        found[text] = first_id + len(found)
    return found
