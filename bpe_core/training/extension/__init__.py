"""Extending a tokenizer: new merges learned on a corpus, appended to a loaded byte-level tokenizer,
every existing id, merge and special token kept (how Chinese-LLaMA and domain adaptations grow a
Llama- or Qwen-style vocabulary).

- :mod:`.core`: ``extend`` and ``extend_files``: the base's own pre-tokenization and merges first,
  then the project's rule (most frequent pair, ties to the lexicographically greatest);
- :mod:`.export`: the result written in the base's own format (a ``tokenizer.json`` with its
  vocabulary and merges appended and all else kept, tiktoken ranks, GPT-2 files).
"""

from .core import ExtendResult, extend, extend_files
from .export import save_extension

__all__ = ["ExtendResult", "extend", "extend_files", "save_extension"]
