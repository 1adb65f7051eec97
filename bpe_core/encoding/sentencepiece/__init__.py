"""SentencePiece BPE: the ``tokenizer.model`` of Llama 2 and Mistral, encoded exactly as ``sentencepiece`` does.

- :mod:`.model`: the model as plain data (pieces, trainer and normalizer specs) and what is refused;
- :mod:`.normalizer` (with :mod:`.charsmap` for ``precompiled_charsmap`` rules): text before encoding;
- :mod:`.merging`: characters merged by piece score, cut into parts no piece crosses and remembered;
- :mod:`.decoding`: ids back to text; :mod:`.tokenizer`: :class:`SentencePieceTokenizer`.

Files are read by :mod:`bpe_core.formats.sentencepiece`.
"""

from .model import NormalizerSpec, Piece, PieceType, SentencePieceModel, TrainerSpec
from .tokenizer import SentencePieceTokenizer

__all__ = ["NormalizerSpec", "Piece", "PieceType", "SentencePieceModel", "SentencePieceTokenizer", "TrainerSpec"]
