"""Training: from text (or files, or pre-token counts) to merges, every trainer in one shape.

- :mod:`.shape`: what every trainer shares (settings checks, the merge rounds and their record,
  progress); new trainers are variants of it;
- :mod:`.byte_level`: byte-level BPE (GPT-2's): ``train``, ``train_counts``;
- :mod:`.classic`: classic BPE with an end-of-word mark (Sennrich et al.): ``train_classic``;
- :mod:`.merge_engine`, :mod:`.word_engine`: the merge loop, pair counts kept up to date;
- :mod:`.counting`: a big text's pre-tokens counted on every core;
- :mod:`.corpus`: corpora in files, streamed: ``train_files``;
- :mod:`.extension`: an existing tokenizer grown on a corpus, every id kept: ``extend``, ``extend_files``;
- variants of the shape: :mod:`.parity` (parity-aware BPE over languages: ``train_parity``) and
  :mod:`.superword` (SuperBPE's tokens across words: ``train_superword``).

>>> from bpe_core.training import train
>>> train("aaabdaaabac", 259).merges
[(b'a', b'a'), (b'aa', b'a'), (b'aaa', b'b')]
"""

from .byte_level import TrainResult, train, train_counts
from .classic import ClassicResult, train_classic
from .corpus import train_files
from .extension import ExtendResult, extend, extend_files, save_extension
from .merge_engine import Candidate
from .parity import ParityResult, train_parity
from .shape import MergeRecord, ProgressCallback, TrainingCancelled
from .superword import train_superword

__all__ = [
    "Candidate",
    "ClassicResult",
    "ExtendResult",
    "MergeRecord",
    "ParityResult",
    "ProgressCallback",
    "TrainResult",
    "TrainingCancelled",
    "extend",
    "extend_files",
    "save_extension",
    "train",
    "train_classic",
    "train_counts",
    "train_files",
    "train_parity",
    "train_superword",
]
