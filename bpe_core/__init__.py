"""bpe_core: byte-pair encoding, exact and fast, in pure Python.

The face of the package: train (from a text, or streamed from files), encode and decode, see a
text at every vocab size at once, save and load every common format, and the reference
tokenizers (GPT-2, cl100k_base, o200k_base) offline. Modules not named here are internals.

The package by seam: :mod:`.pretokenize` (splitting text, for training and encoding),
:mod:`.training` (trainers in one shape), :mod:`.encoding` (the tokenizers, the rule and its fast
paths), :mod:`.formats` (files), :mod:`.analysis` (what the Compare views show), :mod:`.cli`,
:mod:`.reference` (the reference tokenizers) and :mod:`.distributed` (counting on Dask).

>>> import bpe_core
>>> result = bpe_core.train("low low lower newest newest widest widest widest", 260)
>>> tokenizer = result.tokenizer
>>> tokenizer.decode(tokenizer.encode("lowest"))
'lowest'
>>> [round(bpt, 2) for _, bpt in bpe_core.bytes_per_token_curve(tokenizer, "lowest newest")]  # vocab 256..260
[1.0, 1.18, 1.44, 1.44, 1.44]

The analyses behind the Compare page (choosing a vocab size, languages, tokenizer health) load
on first use, with numpy: ``bpe_core.size_table``, ``bpe_core.health_report`` and the rest below;
so does ``bpe_core.check_merges`` (where a learner's own trainer parts from this one, and why) and
``bpe_core.vocabulary_overlap`` (two vocabularies compared by bytes).
"""

from .analysis import bytes_per_token_curve, merges_for_vocab_size, token_counts_by_size, vocab_size_of
from .encoding import (
    ClassicTokenizer,
    PreTokenization,
    Segmentation,
    Tokenizer,
    TokenizerShape,
    dropout_samples,
    encode_with_dropout,
)
from .formats import FormatError, load, save
from .pipeline import PipelineTokenizer
from .pretokenize import PATTERNS, PatternTimeout, pretokenize
from .reference import reference, reference_names, reference_spec
from .training import (
    Candidate,
    ClassicResult,
    ExtendResult,
    MergeRecord,
    ParityResult,
    TrainingCancelled,
    TrainResult,
    extend,
    extend_files,
    save_extension,
    train,
    train_classic,
    train_files,
    train_parity,
    train_superword,
)

# name -> module, imported on first use (PEP 562): importing bpe_core stays light, without numpy.
_LAZY = {
    "size_curve": "choose",
    "size_table": "choose",
    "suggest_size": "choose",
    "language_costs": "languages",
    "parallel_sample": "parallel",
    "premiums_by_size": "languages",
    "read_parallel": "parallel",
    "health_report": "health",
    "hold_out": "heldout",
    "line_overlap": "heldout",
    "check_merges": "check",
    "MergeCheck": "check",
    "read_merges": "check",
    "vocabulary_overlap": "overlap",
    "Overlap": "overlap",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'bpe_core' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.analysis.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "PATTERNS",
    "Candidate",
    "ClassicResult",
    "ClassicTokenizer",
    "ExtendResult",
    "FormatError",
    "MergeCheck",
    "MergeRecord",
    "Overlap",
    "ParityResult",
    "PatternTimeout",
    "PipelineTokenizer",
    "PreTokenization",
    "Segmentation",
    "Tokenizer",
    "TokenizerShape",
    "TrainResult",
    "TrainingCancelled",
    "bytes_per_token_curve",
    "check_merges",
    "dropout_samples",
    "encode_with_dropout",
    "extend",
    "extend_files",
    "health_report",
    "hold_out",
    "language_costs",
    "line_overlap",
    "load",
    "merges_for_vocab_size",
    "parallel_sample",
    "premiums_by_size",
    "pretokenize",
    "read_merges",
    "read_parallel",
    "reference",
    "reference_names",
    "reference_spec",
    "save",
    "save_extension",
    "size_curve",
    "size_table",
    "suggest_size",
    "token_counts_by_size",
    "train",
    "train_classic",
    "train_files",
    "train_parity",
    "train_superword",
    "vocab_size_of",
    "vocabulary_overlap",
]
