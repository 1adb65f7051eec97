"""bpe_core: byte-pair encoding, exact and fast, in pure Python.

>>> import bpe_core
>>> result = bpe_core.train("low low lower newest newest widest widest widest", 260)
>>> tokenizer = result.tokenizer
>>> tokenizer.decode(tokenizer.encode("lowest"))
'lowest'
"""

from .classic import ClassicResult, ClassicTokenizer, train_classic
from .corpus import train_files
from .formats import FormatError, load, save
from .lifetimes import PERMANENT, Segmentation
from .merge_engine import Candidate
from .pretokenize import PATTERNS, PatternTimeout, pretokenize
from .reference import reference
from .tokenizer import Tokenizer
from .training import MergeRecord, TrainingCancelled, TrainResult, train

__all__ = [
    "PATTERNS",
    "PERMANENT",
    "PatternTimeout",
    "Candidate",
    "FormatError",
    "ClassicResult",
    "ClassicTokenizer",
    "MergeRecord",
    "Segmentation",
    "Tokenizer",
    "TrainResult",
    "TrainingCancelled",
    "load",
    "pretokenize",
    "reference",
    "save",
    "train",
    "train_classic",
    "train_files",
]
