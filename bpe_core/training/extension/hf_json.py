"""A ``tokenizer.json`` with an extension appended: the new tokens to ``model.vocab``, the new merges to
``model.merges`` (in the file's own spelling: ``"a b"`` strings or ``["a", "b"]`` pairs), the new special tokens
to ``added_tokens`` (``special: true``) and to ``model.vocab``; written into the base's text in place
(:mod:`.json_splice`), so every other byte of the file is kept.

Why the added tokens go into ``model.vocab`` too: ``tokenizers`` gives an added token that the model's
vocabulary lacks the next id after that vocabulary's size, not the id its entry says. DeepSeek V4's 1,280
added tokens, for one, follow its 128,000 model tokens; append a token to the model and every one of them
would move up by one. Held in ``model.vocab`` with the id the base gives it, each keeps that id.

>>> model = '"model": {"vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]}'
>>> text = '{"added_tokens": [{"id": 3, "content": "<s>"}], ' + model + '}'
>>> print(appended_hf_text(text, {4: b"aab"}, [(b"a", b"ab")], {"</s>": 5}, {"<s>": 3}, "tokenizer.json"))
... # doctest: +NORMALIZE_WHITESPACE
{"added_tokens": [{"id": 3, "content": "<s>"}, {"id": 5, "content": "</s>", "single_word": false, "lstrip": false,
"rstrip": false, "normalized": false, "special": true}], "model": {"vocab": {"a": 0, "b": 1, "ab": 2, "<s>": 3,
"</s>": 5, "aab": 4}, "merges": ["a b", "a ab"]}}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...formats import FormatError, parse_json
from ...formats._common import PathLike
from ...formats.gpt2 import to_gpt2_text
from .json_splice import spliced


def appended_hf_text(
    text: str,
    new_tokens: Mapping[int, bytes],
    merges: list[tuple[bytes, bytes]],
    new_specials: Mapping[str, int],
    held: Mapping[str, int],
    source: PathLike,
) -> str:
    """The ``tokenizer.json`` ``text`` with the extension written in; ``held``: the base's added tokens by text
    with the ids the base gives it (those not yet in ``model.vocab`` are put there)."""
    additions = hf_additions(parse_json(text, source), new_tokens, merges, new_specials, held, source)
    return spliced(text, additions)


def hf_additions(
    spec: Any,
    new_tokens: Mapping[int, bytes],
    merges: list[tuple[bytes, bytes]],
    new_specials: Mapping[str, int],
    held: Mapping[str, int],
    source: PathLike,
) -> dict[tuple[str, ...], list[Any]]:
    """What goes at the end of ``model.vocab`` (pairs), ``model.merges`` and ``added_tokens``."""
    model = spec.get("model") if isinstance(spec, dict) else None
    if not isinstance(model, dict) or model.get("type", "BPE") != "BPE":
        raise FormatError(source, "is not a BPE tokenizer.json", field="model")
    vocab, listed = model.get("vocab"), model.get("merges")
    if not isinstance(vocab, dict) or not isinstance(listed, list):
        raise FormatError(source, "has no vocab object and merges list", field="model")
    if new_specials and not isinstance(spec.get("added_tokens"), list):
        raise FormatError(source, "has no added_tokens list to hold the new special tokens", field="added_tokens")
    vocab = dict(vocab)  # grown here to check the spellings, the file's own left as it is
    entries: list[tuple[str, int]] = []
    if new_tokens or new_specials:
        used = set(vocab.values())
        entries += [(text, i) for text, i in held.items() if text and text not in vocab and i not in used]
        vocab.update(entries)
    added = []
    for content, identifier in new_specials.items():
        if content in vocab:
            raise FormatError(source, f"already has {content!r}, new special token {identifier}", field="model")
        vocab[content] = identifier
        entries.append((content, identifier))
        flags = dict.fromkeys(("single_word", "lstrip", "rstrip", "normalized"), False)
        added.append({"id": identifier, "content": content, **flags, "special": True})
    for identifier, token in new_tokens.items():
        spelling = to_gpt2_text(token)
        if spelling in vocab:
            raise FormatError(
                source, f"already has {spelling!r}, the spelling of new token {identifier}", field="model"
            )
        vocab[spelling] = identifier
        entries.append((spelling, identifier))
    as_pairs = bool(listed) and isinstance(listed[0], list)
    spelled = [[to_gpt2_text(left), to_gpt2_text(right)] for left, right in merges]
    new_merges = spelled if as_pairs else [" ".join(pair) for pair in spelled]
    return {("model", "vocab"): entries, ("model", "merges"): new_merges, ("added_tokens",): added}
