"""A SentencePiece BPE model at every size: the pieces of the k best scores, ids unchanged; and the merges a
Hugging Face converter derives from the scores.

SentencePiece merges the pair whose piece scores highest (:mod:`.merging`), so ranking the pieces of two or more
characters by score (equal scores one rank, :func:`~.segmenting.score_ranks`) makes "the first k merges" the
pieces of the k best ranks. The base is in the vocabulary at every size: the single characters, the byte pieces
of byte fallback; control pieces, ``<unk>`` and user-defined symbols are one token at every size (left out of
:func:`first_k`, as a byte-level tokenizer's special tokens). Cutting a model to k drops the other pieces: the
model ``sentencepiece`` loads when they are deleted from the ``.model`` file, ids aside (here they stay as they
were; ``tests/test_studied_sizes.py`` writes that file).

>>> from .model import Piece, PieceType, SentencePieceModel, TrainerSpec
>>> pieces = (Piece("<unk>", 0, PieceType.UNKNOWN), Piece("a"), Piece("b"), Piece("ab", -1), Piece("abb", -2))
>>> first_k(SentencePieceModel(pieces, TrainerSpec(model_type=2)), {"ab": 0, "abb": 1})
{1: 0, 2: 0, 3: 1, 4: 2}
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .model import MERGEABLE_TYPES, PieceType, SentencePieceModel


def first_k(model: SentencePieceModel, ranks: Mapping[str, int], dropped: Collection[int] = ()) -> dict[int, int]:
    """Each regular piece's first size in merges: 0 for the base (single characters, byte pieces), else one more
    than its score rank in ``ranks``; control pieces, ``<unk>``, user-defined symbols and the ids in ``dropped``
    (cut off) are left out."""
    found: dict[int, int] = {}
    for identifier, entry in enumerate(model.pieces):
        if identifier in dropped:
            continue
        if entry.type == PieceType.BYTE or (entry.type in MERGEABLE_TYPES and entry.type != PieceType.USER_DEFINED):
            rank = ranks.get(entry.piece)
            found[identifier] = 0 if rank is None else rank + 1
    return found


def merges_from_scores(model: SentencePieceModel, dropped: Collection[str] = ()) -> list[tuple[str, str]]:
    """Pairs of pieces whose concatenation is a piece, as Hugging Face's converter derives them: every split of
    every piece into two pieces, by the piece's score (highest first), then the longer left part, then the longer
    right part, ties kept in id order. Pieces in ``dropped`` (cut off) are neither parts nor results."""
    # Keyed by piece like the converter's dicts: a name given twice keeps its first place and last id/score.
    vocab = {entry.piece: i for i, entry in enumerate(model.pieces) if entry.piece not in dropped}
    scores = {entry.piece: entry.score for entry in model.pieces if entry.piece not in dropped}
    found: list[tuple[str, str, float]] = []
    for piece, score in scores.items():
        local = [(piece[:cut], piece[cut:]) for cut in range(1, len(piece))]
        local = sorted(
            (pair for pair in local if pair[0] in vocab and pair[1] in vocab),
            key=lambda pair: (vocab[pair[0]], vocab[pair[1]]),
        )
        found.extend((left, right, score) for left, right in local)
    found.sort(key=lambda merge: (merge[2], len(merge[0]), len(merge[1])), reverse=True)
    return [(left, right) for left, right, _ in found]
