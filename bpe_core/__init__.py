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

The analyses behind the Compare page (choosing a vocab size, languages, tokenizer health) load
on first use, with numpy: ``bpe_core.size_table``, ``bpe_core.health_report`` and the rest below.
"""

from .classic import ClassicResult, ClassicTokenizer, train_classic
from .corpus import train_files
from .formats import FormatError, load, save
from .lifetimes import Segmentation
from .merge_engine import Candidate
from .pretokenize import PATTERNS, PatternTimeout, pretokenize
from .reference import reference
from .tokenizer import Tokenizer
from .training import MergeRecord, TrainingCancelled, TrainResult, train
from .vocabulary import bytes_per_token_curve, merges_for_vocab_size, token_counts_by_size, vocab_size_of

# name -> module, imported on first use (PEP 562): importing bpe_core stays light, without numpy.
_LAZY = {
    "size_curve": "choose",
    "size_table": "choose",
    "suggest_size": "choose",
    "language_costs": "languages",
    "parallel_sample": "languages",
    "premiums_by_size": "languages",
    "read_parallel": "languages",
    "health_report": "health",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'bpe_core' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "PATTERNS",
    "Candidate",
    "ClassicResult",
    "ClassicTokenizer",
    "FormatError",
    "MergeRecord",
    "PatternTimeout",
    "Segmentation",
    "Tokenizer",
    "TrainResult",
    "TrainingCancelled",
    "bytes_per_token_curve",
    "health_report",
    "language_costs",
    "load",
    "merges_for_vocab_size",
    "parallel_sample",
    "premiums_by_size",
    "pretokenize",
    "read_parallel",
    "reference",
    "save",
    "size_curve",
    "size_table",
    "suggest_size",
    "token_counts_by_size",
    "train",
    "train_classic",
    "train_files",
    "vocab_size_of",
]
