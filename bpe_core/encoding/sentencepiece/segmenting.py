"""Boundary lifetimes for SentencePiece BPE: a text's pieces with only the first k merges, for every k.

SentencePiece merges the adjacent pair whose piece has the highest score, the leftmost of equal ones
(:mod:`.merging`). Ranking pieces by score (highest first, equal scores one rank) makes that the loop
:func:`~bpe_core.encoding.lifetimes.merge_lifetimes` runs: "the first k merges" are the pieces of the k best
scores. The text is the normalized text; user-defined symbols are one token at every size, and nothing merges
across the parts :meth:`.merging.MergeEncoder.split` cuts (no piece crosses them).

With byte fallback the segmentation is of bytes (▁ read as a space, as ``token_bytes`` gives it): a character
no piece covers is its bytes while it stands alone, so the boundaries inside it live as long as both of its
own. Without, it is of characters. (A final UNUSED piece, split back by SentencePiece, is not followed.)
"""

from __future__ import annotations

from ..lifetimes import INSIDE_SPECIAL, PERMANENT, Segmentation, merge_lifetimes
from .merging import MergeEncoder
from .model import MERGEABLE_TYPES, SPACE_SYMBOL, PieceType, SentencePieceModel


def score_ranks(model: SentencePieceModel) -> dict[str, int]:
    """Each mergeable piece of two or more characters and its rank: how many higher scores there are.

    >>> from .model import Piece, TrainerSpec
    >>> pieces = (Piece("<unk>", 0, PieceType.UNKNOWN), Piece("a"), Piece("ab", -1), Piece("ba", -1), Piece("abc", -3))
    >>> score_ranks(SentencePieceModel(pieces, TrainerSpec(model_type=2)))
    {'ab': 0, 'ba': 0, 'abc': 1}
    """
    # as the encoder's table (a name given twice keeps its last score), less the user-defined symbols: those are
    # cut out of the text whole before merging, so no merge ever makes one (they are one token at every size)
    built = MERGEABLE_TYPES - {PieceType.USER_DEFINED}
    scores = {entry.piece: entry.score for entry in model.pieces if entry.type in built}
    multi = {piece: score for piece, score in scores.items() if len(piece) > 1}
    levels = {score: rank for rank, score in enumerate(sorted(set(multi.values()), reverse=True))}
    return {piece: levels[score] for piece, score in multi.items()}


def part_lifetimes(part: str, ranks: dict[str, int]) -> list[int]:
    """Lifetimes of the boundaries between one part's characters."""
    return merge_lifetimes(len(part), lambda start, _middle, stop: ranks.get(part[start:stop]))


def segmentation(
    normalized: str, encoder: MergeEncoder, ranks: dict[str, int], num_merges: int, by_bytes: bool
) -> Segmentation:
    """The segmentation of a normalized text (see the module's docstring)."""
    data_bytes = bytearray()
    data_chars: list[str] = []
    lifetimes: list[int] = []
    unk = encoder.unk_id
    remembered: dict[str, list[int]] = {}
    for part, frozen in encoder.split(normalized):
        if data_bytes or data_chars:
            lifetimes.append(PERMANENT)
        atoms = [part] if frozen else list(part)
        between: list[int] = []
        if not frozen:
            if part not in remembered:
                remembered[part] = part_lifetimes(part, ranks)
            between = remembered[part]
        if not by_bytes:
            data_chars.extend(atoms)
            lifetimes.extend(between)
            continue
        for index, atom in enumerate(atoms):
            raw = atom.replace(SPACE_SYMBOL, " ").encode("utf-8")
            if index:
                lifetimes.append(between[index - 1])
            if len(raw) > 1:
                if frozen or encoder.id_of(atom) != unk:
                    inner = INSIDE_SPECIAL
                else:  # its bytes while it stands alone
                    before = between[index - 1] if index else PERMANENT
                    after = between[index] if index < len(between) else PERMANENT
                    inner = min(before, after)
                lifetimes.extend([inner] * (len(raw) - 1))
            data_bytes += raw
    data: bytes | list[str] = bytes(data_bytes) if by_bytes else data_chars
    return Segmentation(data, lifetimes, num_merges)
