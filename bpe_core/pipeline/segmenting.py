"""Boundary lifetimes for a Hugging Face BPE model: a text's tokens with the first k merges, for every k.

The model merges *listed pairs* (:mod:`.models`), lowest rank first, leftmost on a tie: exactly the loop
:func:`~bpe_core.encoding.lifetimes.merge_lifetimes` runs, asked for the rank of joining two parts. A part's
token is its text looked up in the vocabulary (a merge makes ``left + right``), so the rank of joining two
parts is the rank of their pair of ids, if listed. With ``ignore_merges`` a pre-token that is a token is kept
whole, from the first merge that makes that token.

Atoms are the model's starting symbols of each pre-token (one per character; a character's ``<0xXX>`` byte
tokens under byte fallback). For a byte-level model (GPT-2's alphabet) the segmentation is of the text's
bytes, each atom one byte; otherwise of the atoms' token strings, as the file spells them (``▁the``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from ..encoding.lifetimes import INSIDE_SPECIAL, PERMANENT, Segmentation, join_symbols, merge_lifetimes
from .models import BPE


def piece_lifetimes(model: BPE, atoms: list[str]) -> list[int]:
    """Lifetimes of the boundaries between one pre-token's atoms (token strings), as ``model`` merges them.

    >>> model = BPE({"a": 0, "b": 1, "ab": 2, "abb": 3}, [("a", "b"), ("ab", "b")])
    >>> piece_lifetimes(model, ["a", "b", "b", "a"])
    [0, 1, 2147483647]
    """
    vocab, merges, prefix = model.vocab, model.merges, model.prefix

    def rank_of(start: int, middle: int, stop: int) -> int | None:
        left, right = (
            vocab.get(join_symbols(atoms[start:middle], prefix)),
            vocab.get(join_symbols(atoms[middle:stop], prefix)),
        )
        if left is None or right is None:
            return None
        found = merges.get((left, right))
        return found[0] if found is not None else None

    lifetimes = merge_lifetimes(len(atoms), rank_of)
    if model.ignore_merges and len(atoms) > 1:
        whole = vocab.get(join_symbols(atoms, prefix))
        if whole is not None:
            # from the first merge that makes it; a token no listed merge makes is emitted whole at every size
            first = model.first_rank(whole)
            cap = INSIDE_SPECIAL if first is None else first
            lifetimes = [min(lifetime, cap) for lifetime in lifetimes]
    return lifetimes


def segmentation(
    model: BPE,
    pieces: Iterable[str | int],
    atom_bytes: Callable[[int], bytes] | None,
    added_text: Mapping[int, str],
) -> Segmentation:
    """The segmentation of a text given as its pieces: pre-tokens (str) and added tokens (their ids).

    ``atom_bytes`` gives a starting symbol's bytes for a byte-level model (None: atoms are token strings).
    Pre-tokens and added tokens are never merged across (``PERMANENT``); an added token is one token at every
    size, as is a symbol of several bytes (``INSIDE_SPECIAL`` inside them).
    """
    by_bytes = atom_bytes is not None
    data_bytes = bytearray()
    data_atoms: list[str] = []
    lifetimes: list[int] = []
    remembered: dict[str, tuple[list[str], list[int]]] = {}
    for piece in pieces:
        if isinstance(piece, int):
            atom_texts, between = [added_text[piece]], list[int]()
            parts = [added_text[piece].encode("utf-8")]
        else:
            found = remembered.get(piece)
            if found is None:
                texts = [model.vocab_r[atom] for atom in model._symbols(piece)]
                found = remembered[piece] = (texts, piece_lifetimes(model, texts))
            atom_texts, between = found
            parts = [atom_bytes(model.vocab[text]) for text in atom_texts] if atom_bytes is not None else []
        if not atom_texts:
            continue
        if data_bytes or data_atoms:
            lifetimes.append(PERMANENT)
        if not by_bytes:
            data_atoms.extend(atom_texts)
            lifetimes.extend(between)
            continue
        for index, part in enumerate(parts):
            if index:
                lifetimes.append(between[index - 1])
            lifetimes.extend([INSIDE_SPECIAL] * (len(part) - 1))
            data_bytes += part
    data: bytes | list[str] = bytes(data_bytes) if by_bytes else data_atoms
    return Segmentation(data, lifetimes, model.num_ranks, model.prefix if not by_bytes else "")
