"""Tokenization as Hugging Face ``tokenizers`` does it, stage by stage, for the ``tokenizer.json``
files a plain :class:`~bpe_core.Tokenizer` cannot reproduce (normalizers, Metaspace, several
Splits, pair-listed merges, byte fallback...):

added tokens matched first (:mod:`.added_tokens`) → normalize (:mod:`.normalizers`) → pre-tokenize
(:mod:`.pre_tokenizers`, with :mod:`.splitting`'s behaviours) → BPE on each piece (:mod:`.models`)
→ ids; and back with a decoder (:mod:`.decoders`). :class:`PipelineTokenizer` holds the stages;
:func:`bpe_core.formats.load_hf` builds one from a file.

The post-processor (BOS/EOS templates) is not run: ``encode`` gives the ids of
``tokenizers.Tokenizer.encode(text, add_special_tokens=False)``.
"""

from .added_tokens import AddedToken, AddedTokens
from .models import BPE
from .tokenizer import PipelineTokenizer

__all__ = ["BPE", "AddedToken", "AddedTokens", "PipelineTokenizer"]
