"""A pipeline's BPE model at every size: the first k merges and the tokens they make, ids unchanged.

The tokens no merge makes (a byte-level file's 256 byte symbols, and any other base symbol) are in the
vocabulary at every size; a token some merge makes joins it with the first merge (by rank) that makes it.
Cutting a pipeline to k merges keeps the base, the tokens of the merges ranked below k and those merges (a merge
whose parts are not kept can never apply, so it goes too); the normalizer, pre-tokenizer, decoder and added
tokens stay as they are. This is what ``tokenizers`` does with the same ``tokenizer.json`` whose ``merges`` are
cut to k and whose ``vocab`` keeps those tokens (``tests/test_studied_sizes.py`` builds that file).

>>> model = BPE({"a": 0, "b": 1, "ab": 2, "abb": 3}, [("a", "b"), ("ab", "b")])
>>> first_k(model, set())
{0: 0, 1: 0, 2: 1, 3: 2}
>>> truncated_model(model, 1).encode("abb")
[2, 1]
"""

from __future__ import annotations

from collections.abc import Collection

from ..encoding.lifetimes import PERMANENT, merge_lifetimes
from .models import BPE


def first_k(model: BPE, added_ids: Collection[int]) -> dict[int, int]:
    """Each model token's first size: 0 for a token no merge makes, else one more than the rank of the first merge
    that makes it. Added tokens (``added_ids``) are left out: they are one token at every size."""
    made: dict[int, int] = {}
    for rank, new_id in model.merges.values():
        if rank < made.get(new_id, PERMANENT):
            made[new_id] = rank
    return {
        identifier: made[identifier] + 1 if identifier in made else 0
        for identifier in model.vocab_r
        if identifier not in added_ids
    }


def truncated_model(model: BPE, k: int) -> BPE:
    """``model`` with only the merges ranked below ``k`` and the tokens it can still make (ids unchanged).

    ``k`` runs from 0 to ``model.num_ranks``; anything else is a ValueError."""
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= model.num_ranks:
        raise ValueError(f"k must be a whole number of merges from 0 to {model.num_ranks:,}, not {k!r}")
    sizes = first_k(model, ())
    vocab_r = model.vocab_r
    vocab = {vocab_r[identifier]: identifier for identifier, first in sizes.items() if first <= k}
    kept = set(vocab.values())
    ranked = sorted((rank, pair) for pair, (rank, _) in model.merges.items() if rank < k and kept.issuperset(pair))
    merges = [(vocab_r[left], vocab_r[right]) for _, (left, right) in ranked]
    return BPE(
        vocab,
        merges,
        unk_token=vocab_r[model.unk_id] if model.unk_id is not None else None,
        fuse_unk=model.fuse_unk,
        byte_fallback=model.byte_fallback,
        continuing_subword_prefix=model.prefix or None,
        end_of_word_suffix=model.suffix or None,
        ignore_merges=model.ignore_merges,
    )


def own_lifetimes(model: BPE, token: str, pairs: dict[tuple[str, str], int]) -> list[int]:
    """The lifetimes of the boundaries between a model token's own starting symbols, merged by the model's rule
    as if the token were a pre-token of its own, without ``ignore_merges``' whole-token shortcut (``PERMANENT``:
    the merges never join there, so they never build the token from its symbols). ``pairs``: :func:`pair_ranks`.

    >>> model = BPE({"a": 0, "b": 1, "ab": 2, "ba": 3}, [("a", "b")])
    >>> own_lifetimes(model, "ba", pair_ranks(model)), own_lifetimes(model, "ab", pair_ranks(model))
    ([2147483647], [0])
    """
    atoms = [model.vocab_r[symbol] for symbol in model._symbols(token)]
    if "".join(atoms) == token and len(atoms) == len(token):  # one character a symbol: slices of the token
        return merge_lifetimes(len(token), lambda a, b, c: pairs.get((token[a:b], token[b:c])))
    return merge_lifetimes(len(atoms), lambda a, b, c: pairs.get(("".join(atoms[a:b]), "".join(atoms[b:c]))))


def pair_ranks(model: BPE) -> dict[tuple[str, str], int]:
    """Each listed merge as its pair of token strings -> its rank."""
    spelled = model.vocab_r
    return {(spelled[left], spelled[right]): rank for (left, right), (rank, _) in model.merges.items()}
