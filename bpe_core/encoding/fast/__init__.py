"""The encoder's fast paths: pre-tokens -> ids, exactly the ids of the readable rule in
:mod:`bpe_core.encoding.educational`, at about tiktoken's speed (README, "Benchmarks").

:class:`PieceEncoder` (``piece_encoder.py``) keeps a cache of the pre-tokens seen and sends the
others down the paths that one rule picks, :func:`.routes.route` (``routes.py``):

- ``one_piece.py``: LOOP, tiktoken's loop for a few short pieces, and HEAP, boundary lifetimes for long ones;
- ``byte_batch.py``: BYTES, many pieces at once with numpy, for any byte-level vocabulary;
- ``digit_runs.py``: DIGITS and TABLE, many number pieces at once on small integers;
- ``batch_steps.py``: the numpy steps both batches share;
- ``cuts.py``: CUTS, non-ASCII pieces (long CJK runs) cut where no token can lie across, each part encoded once.
  ``by_parts.py`` puts the parts' ids back together, one-character parts grouped by code point.

Many texts: ``batch.py``, ``encode_batch`` in threads or processes (:class:`BatchEncoding`, mixed into the tokenizer).
"""

from .batch import BatchEncoding
from .piece_encoder import PieceEncoder

__all__ = ["BatchEncoding", "PieceEncoder"]
