"""A ``tokenizer.json``'s BPE model and added tokens, read as Hugging Face ``tokenizers`` reads them.

Added tokens get the ids ``tokenizers`` gives them: a token already in the model's vocabulary keeps
that id, any other the next free id after the vocabulary (in a well-formed file, its ``id``).
"""

from __future__ import annotations

from typing import Any

from ..pipeline import BPE, AddedToken
from ..pipeline.models import MergeError
from ._common import is_id, typed_field
from .hf_stages import Reader

_FLAGS = ("special", "single_word", "lstrip", "rstrip", "normalized")


def read_model(spec: Any, read: Reader) -> BPE:
    """The BPE model; another model type, dropout or a malformed vocab / merge is a FormatError."""
    model = typed_field(spec, "model", dict, read.source)
    if model.get("type", "BPE") != "BPE":
        raise read.fail("model.type", f"only BPE models can be loaded, not {model.get('type')!r}")
    dropout = model.get("dropout")
    if dropout not in (None, 0, 0.0):
        raise read.fail("model.dropout", f"must be null: BPE-dropout is random, so no ids could match ({dropout!r})")
    vocab = typed_field(model, "vocab", dict, read.source, "model.vocab")
    identifiers = list(vocab.values())
    if not all(type(identifier) is int and identifier >= 0 for identifier in identifiers) or len(
        set(identifiers)
    ) != len(identifiers):
        _name_bad_id(vocab, read)
    merges: list[tuple[str, str]] = []
    for index, merge in enumerate(typed_field(model, "merges", list, read.source, "model.merges")):
        parts = merge.split(" ") if type(merge) is str else merge
        if type(parts) is not list or len(parts) != 2 or not all(isinstance(part, str) for part in parts):
            where = f"model.merges[{index}]"
            if not isinstance(parts, list) or not all(isinstance(part, str) for part in parts):
                raise read.fail(where, f"must be 'left right' or [left, right], not {merge!r}")
            raise read.fail(where, f"must have two tokens, not {len(parts)}")
        merges.append((parts[0], parts[1]))
    options = {}
    for key in ("unk_token", "continuing_subword_prefix", "end_of_word_suffix"):
        options[key] = read.value(model, key, "model", str, None)
    for key in ("fuse_unk", "byte_fallback", "ignore_merges"):
        options[key] = read.value(model, key, "model", bool, False)
    try:
        return BPE(vocab, merges, **options)
    except MergeError as error:
        raise read.fail(f"model.merges[{error.index}]", str(error)) from None
    except ValueError as error:
        raise read.fail("model", str(error)) from None


def _name_bad_id(vocab: dict, read: Reader) -> None:
    seen: dict[int, str] = {}
    for text, identifier in vocab.items():
        if not is_id(identifier):
            raise read.fail(f"model.vocab[{text!r}]", f"id must be a non-negative integer, not {identifier!r}")
        if identifier in seen:
            raise read.fail(f"model.vocab[{text!r}]", f"id {identifier} is used twice (also by {seen[identifier]!r})")
        seen[identifier] = text


def read_added_tokens(spec: Any, read: Reader, model: BPE) -> tuple[list[AddedToken], set[int], set[str]]:
    """The added tokens with the ids tokenizers gives them (see the module docstring); and, for a
    text listed twice, what tokenizers keeps of the earlier entries: the ids ever marked
    ``normalized`` and the texts ever marked ``special``."""
    entries = typed_field(spec, "added_tokens", list, read.source, default=[])
    by_content: dict[str, AddedToken] = {}
    once_normalized: set[int] = set()
    special_texts: set[str] = set()
    next_id = len(model.vocab)
    for index, entry in enumerate(entries):
        where = f"added_tokens[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("content"), str) or not is_id(entry.get("id")):
            raise read.fail(where, "must be an object with a string 'content' and an integer 'id'")
        flags = {key: read.value(entry, key, where, bool, False) for key in _FLAGS}
        content = entry["content"]
        if not content:
            continue  # tokenizers ignores an empty added token
        known = by_content.get(content)
        if known is not None:
            identifier = known.id
        elif content in model.vocab:
            identifier = model.vocab[content]
        else:
            identifier, next_id = next_id, next_id + 1
        by_content[content] = AddedToken(content, identifier, **flags)
        if flags["normalized"]:
            once_normalized.add(identifier)
        if flags["special"]:
            special_texts.add(content)
    return list(by_content.values()), once_normalized, special_texts
