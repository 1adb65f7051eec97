"""Extending a tokenizer: new merges learned on a corpus, appended to a loaded byte-level tokenizer,
every existing id, merge and special token kept (how Chinese-LLaMA and domain adaptations grow a
Llama- or Qwen-style vocabulary).

- :mod:`.core`: ``extend`` and ``extend_files``: the base's own pre-tokenization and merges first,
  then the project's rule (most frequent pair, ties to the lexicographically greatest);
- :mod:`.tokenizer_base` and :mod:`.pipeline_base`: the extended tokenizer, a :class:`~bpe_core.Tokenizer`
  or a byte-level Hugging Face pipeline (DeepSeek V4's), each through its own stages;
- :mod:`.specials`: new special tokens (ids after the highest in use, before the new merges);
- :mod:`.export` and :mod:`.hf_json`: the result written in the base's own format (a ``tokenizer.json``
  with its vocabulary, merges and added tokens appended and all else kept, tiktoken ranks, GPT-2 files).
"""

from .core import ExtendResult, extend, extend_files
from .export import save_extension

__all__ = ["ExtendResult", "extend", "extend_files", "save_extension"]
