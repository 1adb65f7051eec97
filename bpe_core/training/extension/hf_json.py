"""A ``tokenizer.json``'s content with an extension appended: the new tokens to ``model.vocab``, the new
merges to ``model.merges`` (in the file's own spelling: ``"a b"`` strings or ``["a", "b"]`` pairs), the new
special tokens to ``added_tokens`` (``special: true``) and to ``model.vocab``; all else kept as it was.

Why the added tokens go into ``model.vocab`` too: ``tokenizers`` gives an added token that the model's
vocabulary lacks the next id after that vocabulary's size, not the id its entry says. DeepSeek V4's 1,280
added tokens, for one, follow its 128,000 model tokens; append a token to the model and every one of them
would move up by one. Held in ``model.vocab`` with the id the base gives it, each keeps that id.

>>> model = {"vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]}
>>> spec = {"added_tokens": [{"id": 3, "content": "<s>"}], "model": model}
>>> spec = appended_hf(spec, {4: b"aab"}, [(b"a", b"ab")], {"</s>": 5}, {"<s>": 3}, "tokenizer.json")
>>> spec["model"]["vocab"], spec["model"]["merges"], [entry["content"] for entry in spec["added_tokens"]]
({'a': 0, 'b': 1, 'ab': 2, '<s>': 3, '</s>': 5, 'aab': 4}, ['a b', 'a ab'], ['<s>', '</s>'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...formats import FormatError
from ...formats._common import PathLike
from ...formats.gpt2 import to_gpt2_text


def appended_hf(
    spec: Any,
    new_tokens: Mapping[int, bytes],
    merges: list[tuple[bytes, bytes]],
    new_specials: Mapping[str, int],
    held: Mapping[str, int],
    source: PathLike,
) -> dict[str, Any]:
    """``spec`` (changed in place, and returned) with the extension appended; ``held``: the base's added
    tokens by text with the ids the base gives them (those not yet in ``model.vocab`` are put there)."""
    model = spec.get("model") if isinstance(spec, dict) else None
    if not isinstance(model, dict) or model.get("type", "BPE") != "BPE":
        raise FormatError(source, "is not a BPE tokenizer.json", field="model")
    vocab, listed = model.get("vocab"), model.get("merges")
    if not isinstance(vocab, dict) or not isinstance(listed, list):
        raise FormatError(source, "has no vocab object and merges list", field="model")
    added = spec.setdefault("added_tokens", [])
    if not isinstance(added, list):
        raise FormatError(source, "must be a list", field="added_tokens")
    if new_tokens or new_specials:
        used = set(vocab.values())
        for content, identifier in held.items():
            if content and content not in vocab and identifier not in used:
                vocab[content] = identifier
    for content, identifier in new_specials.items():
        if content in vocab:
            raise FormatError(source, f"already has {content!r}, new special token {identifier}", field="model")
        vocab[content] = identifier
        added.append(
            {
                "id": identifier,
                "content": content,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
        )
    as_pairs = bool(listed) and isinstance(listed[0], list)
    for identifier, token in new_tokens.items():
        spelling = to_gpt2_text(token)
        if spelling in vocab:
            raise FormatError(
                source, f"already has {spelling!r}, the spelling of new token {identifier}", field="model"
            )
        vocab[spelling] = identifier
    for left, right in merges:
        spelled = [to_gpt2_text(left), to_gpt2_text(right)]
        listed.append(spelled if as_pairs else " ".join(spelled))
    return spec
