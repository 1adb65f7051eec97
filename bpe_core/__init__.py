"""bpe_core: byte-pair encoding, exact and fast, in pure Python.

The face of the package: train (from a text, or streamed from files), encode and decode, see a
text at every vocab size at once, save and load every common format, and the reference
tokenizers (GPT-2, cl100k_base, o200k_base) offline. Modules not named here are internals.

>>> import bpe_core
>>> result = bpe_core.train("low low lower newest newest widest widest widest", 260)
>>> tokenizer = result.tokenizer
>>> tokenizer.decode(tokenizer.encode("lowest"))
'lowest'
>>> [round(bpt, 2) for _, bpt in bpe_core.bytes_per_token_curve(tokenizer, "lowest newest")]  # vocab 256..260
[1.0, 1.18, 1.44, 1.44, 1.44]
"""

from .classic import ClassicResult, ClassicTokenizer, train_classic
from .corpus import train_files
from .dropout import dropout_samples, encode_with_dropout
from .formats import FormatError, load, save
from .lifetimes import Segmentation
from .merge_engine import Candidate
from .parity import ParityResult, train_parity
from .pretokenize import PATTERNS, PatternTimeout, pretokenize
from .reference import reference
from .superword import train_superword
from .tokenizer import Tokenizer
from .training import MergeRecord, TrainingCancelled, TrainResult, train
from .vocabulary import bytes_per_token_curve, merges_for_vocab_size, token_counts_by_size, vocab_size_of

__all__ = [
    "PATTERNS",
    "Candidate",
    "ClassicResult",
    "ClassicTokenizer",
    "FormatError",
    "MergeRecord",
    "ParityResult",
    "PatternTimeout",
    "Segmentation",
    "Tokenizer",
    "TrainResult",
    "TrainingCancelled",
    "bytes_per_token_curve",
    "dropout_samples",
    "encode_with_dropout",
    "load",
    "merges_for_vocab_size",
    "pretokenize",
    "reference",
    "save",
    "token_counts_by_size",
    "train",
    "train_classic",
    "train_files",
    "train_parity",
    "train_superword",
    "vocab_size_of",
]
